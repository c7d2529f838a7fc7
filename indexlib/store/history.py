"""The publish history: every root on disk, as `qry roots` lists it.

Owns: `RootInfo` and the listing order (HEAD's parent chain newest first, then roots no parent link
reaches), with a root that cannot be read listed with its error instead of failing the listing.

Does not own: reading or writing a root (store.py) or removing old ones (gc.py).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import msgspec

from indexlib.errors import QryError

if TYPE_CHECKING:
    from indexlib.store.store import Store


class RootInfo(msgspec.Struct, frozen=True, kw_only=True):
    """One publish root as `qry` lists it. `nodes` counts live nodes (the files' node counts)."""

    id: str
    created_at: float
    git_commit: str | None
    segments: int
    nodes: int
    files: int
    is_head: bool
    parent: str | None = None
    on_chain: bool = True  # reachable from HEAD through parent links
    error: str = ""  # why the root could not be read (its counts are then 0)


def list_roots(store: Store) -> list[RootInfo]:
    """Every root: HEAD and its ancestors newest first, then roots no parent link reaches
    (interrupted publishes, roots past a corrupt one), newest first."""
    head = store._safe_head()
    chain: list[RootInfo] = []
    seen: set[str] = set()
    rid = head
    while rid is not None and rid not in seen:
        if rid != head and not (store.roots_dir / f"{rid}.json").exists():
            break  # gc removed the older history: the chain ends here, it is not a broken root
        seen.add(rid)
        info = _root_info(store, rid, is_head=rid == head, on_chain=True)
        chain.append(info)
        rid = info.parent
    others = [
        _root_info(store, r, is_head=False, on_chain=False)
        for r in store._root_ids_on_disk()
        if r not in seen
    ]
    others.sort(key=lambda info: (-info.created_at, info.id))
    return chain + others


def _root_info(store: Store, rid: str, *, is_head: bool, on_chain: bool) -> RootInfo:
    try:
        m = store._load_exact(rid)
    except QryError as exc:
        return RootInfo(
            id=rid, created_at=0.0, git_commit=None, segments=0, nodes=0, files=0,
            is_head=is_head, on_chain=on_chain, error=exc.message,
        )  # fmt: skip
    return RootInfo(
        id=rid,
        created_at=m.created_at,
        git_commit=m.git_commit,
        segments=len(m.segments),
        nodes=sum(rec.nodes for rec in m.files.values()),
        files=len(m.files),
        is_head=is_head,
        parent=m.parent,
        on_chain=on_chain,
    )
