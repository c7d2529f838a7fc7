"""What each index of a workspace holds now, for `qry workspace list`: is it there, how old is its
root, is it behind its repository.

Owns: reading one member's current root (its manifest, and a stat of each file it lists, as a
search's open does: no engine, no Tantivy, no file read) and comparing the commit it was built from
with the repository's HEAD (`federate.git_head`: files, no git process). A member whose index is
missing, unreadable or refused by that check is described, never an error: the list is where a
user goes to find out which entry is broken.
"""

from __future__ import annotations

from pathlib import Path

import msgspec

from indexlib.errors import QryError
from indexlib.store.files import Problem
from indexlib.store.locate import INDEX_DIRNAME
from indexlib.workspace.config import Member
from indexlib.workspace.federate import git_head

__all__ = ["MemberCheck", "MemberState", "member_state", "source_folder", "verify_member"]


def source_folder(member: Member) -> Path:
    """The folder a member's index describes, as every reader of the index sees it (`Store.load`
    decides: the folder holding a repository's own `.qry`, even one copied or moved there), so a
    workspace's grep and build read the files its search does. A `.qry` whose root cannot be read
    is its folder's, so `qry index --workspace W --rebuild` can still rebuild it; another index
    that cannot be read is a QryError."""
    from indexlib.store.store import Store

    try:
        return Path(Store.open(member.index).load()[1].source_root)
    except QryError:
        if member.index.name != INDEX_DIRNAME:
            raise
        return member.index.parent


class MemberState(msgspec.Struct, kw_only=True):
    name: str
    index: str
    present: bool  # the index directory holds a HEAD
    root: str | None = None
    published_at: float | None = None  # unix seconds
    files: int = 0
    source_root: str | None = None  # the folder it describes (source_folder)
    folder_gone: bool = False  # that folder no longer exists: nothing to search or rebuild from
    indexed_commit: str | None = None
    stale: bool = False  # the repository's git HEAD moved since the root was published
    error: str | None = None  # why the root could not be read


def member_state(member: Member) -> MemberState:
    """What `qry workspace list` says of a member: its root's manifest, and the check a search's
    open makes before it uses the index (`check_openable`: every file the root lists is there with
    its recorded size), so a root every search refuses is BROKEN here too, not `ok`."""
    from indexlib.store.store import Store
    from indexlib.store.verify import check_openable

    state = MemberState(name=member.name, index=str(member.index), present=(member.index / "HEAD").is_file())
    if not state.present:
        return state
    try:
        store = Store.open(member.index)
        root_id, manifest = store.load()
    except QryError as exc:
        state.error = exc.message
        return state
    state.root, state.published_at, state.files = root_id, manifest.created_at, len(manifest.files)
    try:
        check_openable(store, root_id, manifest)  # what a search's open refuses (a stat per file)
    except QryError as exc:
        state.error = exc.message
    folder = Path(manifest.source_root)
    state.source_root, state.indexed_commit = str(folder), manifest.git_commit
    state.folder_gone = not folder.is_dir()
    if manifest.git_commit and not state.folder_gone:
        head = git_head(folder)
        state.stale = head is not None and head != manifest.git_commit
    return state


class MemberCheck(msgspec.Struct, kw_only=True):
    """`qry verify --workspace`: one index's problems, or why it could not be checked at all."""

    repo: str
    index: str
    ok: bool
    problems: list[Problem] = []
    error: str | None = None  # no index there, or unreadable: nothing could be checked


def verify_member(member: Member) -> MemberCheck:
    """Every file of the member's HEAD root and caches against its checksum; an index that cannot be
    opened is an `error`, never an exception, so the others are still checked."""
    from indexlib.status import verify_index

    out = MemberCheck(repo=member.name, index=str(member.index), ok=False)
    try:
        out.problems = verify_index(member.index)
    except QryError as exc:
        out.error = exc.message
        return out
    out.ok = not out.problems
    return out
