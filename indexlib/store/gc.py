"""Garbage collection: what the roots of HEAD's newest index runs do not use is removed.

Owns: `GcReport`, which roots are kept (HEAD's chain, counted in index runs: a root that only adds
vectors belongs to its parent's run), and the removal order that keeps every root on disk whole
(other roots first, then unused segments and attachments, then tmp/), each directory renamed into
tmp/ before it is deleted.

Also owns applying the bound on history a build keeps by itself (`trim`, keep.AUTO_KEEP_RUNS): without it every
full rewrite (a `--rebuild`, a compaction, a new parser version) left one more copy of the index on
disk until someone ran `qry gc` (sqlalchemy after six runs: 313 MiB for a 120 MiB index).

Does not own: the writer lock (lock.py) or reading roots (store.py).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

import msgspec

from indexlib.errors import QryError, index_writes
from indexlib.keep import AUTO_KEEP_RUNS, KEEP_RUNS
from indexlib.store.atomic import fsync_dir
from indexlib.store.files import tree_size
from indexlib.store.layout import delete, is_attachment, rmtree
from indexlib.store.lock import writer_lock
from indexlib.store.manifest import Manifest

if TYPE_CHECKING:
    from indexlib.store.store import Store


class GcReport(msgspec.Struct, kw_only=True):
    """What `gc` removed. Attachments are named `<segment id>/<dir>`."""

    kept_roots: list[str]
    removed_roots: list[str] = []
    removed_segments: list[str] = []
    removed_attachments: list[str] = []
    removed_tmp: list[str] = []
    bytes_freed: int = 0


def collect(store: Store, keep: int = KEEP_RUNS, *, wait: float = 0.0) -> GcReport:
    """`Store.gc`: under the writer lock, keep HEAD's chain of `keep` index runs and remove the rest.

    A removal the file system refuses (a folder of the index made read-only after the lock file
    was opened) stops gc with IndexNotWritable; what was removed before it was whole, and roots go
    before the segments they name, so the index stays readable.
    """
    with writer_lock(store.path, wait):
        report = GcReport(kept_roots=[])
        with index_writes(store.path):
            head = store.head()
            if head is not None:
                kept = _kept_chain(store, head, max(keep, 1))
                report.kept_roots = [rid for rid, _m in kept]
                _gc_roots(store, {rid for rid, _m in kept}, report)
                _gc_segments(store, [m for _rid, m in kept], report)
            _gc_tmp(store, report)
        return report


def trim(store: Store, keep: int = AUTO_KEEP_RUNS) -> GcReport | None:
    """`collect(store, keep)` once the index holds more than `2 x keep` roots (a run with vectors
    is two roots, so that many hold at least `keep` runs), else None, having only listed roots/. So
    a build leaves at most that many roots, whether they are HEAD's history or off it (from before a
    `--rebuild`, which starts a new chain, or an interrupted publish). Called by a build under its
    writer lock, after publishing."""
    if not store.roots_dir.is_dir():
        return None
    if sum(1 for p in store.roots_dir.iterdir() if p.name.endswith(".json")) <= 2 * keep:
        return None
    return collect(store, keep)


def _kept_chain(store: Store, head: str, runs: int) -> list[tuple[str, Manifest]]:
    """HEAD and its ancestors, newest first, up to the roots of `runs` index runs."""
    kept = [(head, store._load_exact(head))]  # a HEAD that cannot be read stops gc: raise
    counted = 1
    while True:
        child = kept[-1][1]
        parent = child.parent
        if parent is None or any(parent == rid for rid, _m in kept):
            break
        try:
            manifest = store._load_exact(parent)
        except QryError:
            break  # an unreadable ancestor ends the chain; it is removed with the unreferenced
        if not adds_only_vectors(child, manifest):
            if counted >= runs:
                break
            counted += 1
        kept.append((parent, manifest))
    return kept


def _gc_roots(store: Store, kept: set[str], report: GcReport) -> None:
    if not store.roots_dir.is_dir():
        return
    for path in sorted(store.roots_dir.iterdir()):
        rid = path.name[:-5] if path.name.endswith(".json") else ""
        if rid in kept:
            continue
        report.bytes_freed += _remove(store, path)
        report.removed_roots.append(rid or path.name)
    fsync_dir(store.roots_dir)


def _gc_segments(store: Store, kept: list[Manifest], report: GcReport) -> None:
    used: dict[str, set[str]] = {}
    for manifest in kept:
        for seg in manifest.segments:
            used.setdefault(seg.id, set()).update(e.name.split("/", 1)[0] for e in seg.files)
    if not store.segments_dir.is_dir():
        return
    for seg_dir in sorted(store.segments_dir.iterdir()):
        names = used.get(seg_dir.name)
        if names is None:
            report.bytes_freed += _remove(store, seg_dir)
            report.removed_segments.append(seg_dir.name)
            continue
        if seg_dir.is_symlink() or not seg_dir.is_dir():
            continue
        removed_here = False
        for child in sorted(seg_dir.iterdir()):
            if is_attachment(child.name) and child.name not in names:
                report.bytes_freed += _remove(store, child)
                report.removed_attachments.append(f"{seg_dir.name}/{child.name}")
                removed_here = True
        if removed_here:
            fsync_dir(seg_dir)
    fsync_dir(store.segments_dir)


def _gc_tmp(store: Store, report: GcReport) -> None:
    if not store.tmp_dir.is_dir():
        return
    for path in sorted(store.tmp_dir.iterdir()):
        size = tree_size(path)
        delete(path)
        report.bytes_freed += size
        report.removed_tmp.append(path.name)


def _remove(store: Store, path: Path) -> int:
    """Delete a file or tree, returning its size. A directory is first renamed into tmp/ so a
    crash mid-delete never leaves a half-deleted segment under segments/."""
    size = tree_size(path)
    if path.is_dir() and not path.is_symlink():
        store.tmp_dir.mkdir(mode=0o700, exist_ok=True)
        aside = store.tmp_dir / f".gc-{os.urandom(6).hex()}"
        os.rename(path, aside)
        rmtree(aside)
    else:
        path.unlink()
    return size


def adds_only_vectors(child: Manifest, parent: Manifest) -> bool:
    """True when `child` is `parent` with vectors attached: the second root of one index run."""
    return (
        child.model is not None
        and child.files == parent.files
        and child.tombstones == parent.tombstones
        and [s.id for s in child.segments] == [s.id for s in parent.segments]
    )
