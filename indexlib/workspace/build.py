"""`qry index --workspace W`: bring every index of a workspace up to date, one after another.

Owns: the loop over a workspace's members that the repo filters keep, each rebuilt incrementally
from the folder its index describes (members.source_folder: the folder holding a `.qry`, wherever it is now) into the
index it names, with the same build options, so a broken index can be rebuilt (`--rebuild`) too. One repository that cannot be built (its folder gone, its index unreadable
or locked by another `qry index`) is reported and the others are still built: a workspace is many
independent indexes, and one broken entry must not leave the rest stale. Builds run in turn, not at
once: each already spreads embedding over every core.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import msgspec

from indexlib.errors import QryError
from indexlib.index.build import BuildOptions, BuildReport, build_index
from indexlib.index.build.options import Progress
from indexlib.retrieval.query import check_repo_pattern
from indexlib.workspace import repofilter
from indexlib.workspace.config import Member
from indexlib.workspace.members import source_folder

__all__ = ["MemberBuild", "build_members"]


class MemberBuild(msgspec.Struct, kw_only=True):
    """How one repository's build went: its report, or why it was not built."""

    repo: str
    index_dir: str
    source_root: str | None = None
    report: BuildReport | None = None
    error: str | None = None


def build_members(
    workspace: str,
    members: Sequence[Member],
    opts: BuildOptions,
    *,
    repos: Sequence[str] = (),
    progress: Progress | None = None,
    on_done: Callable[[MemberBuild], None] | None = None,
) -> list[MemberBuild]:
    """Build each member `repos` (regular expressions, as `repo:`) keep, in workspace order;
    `progress` hears each build's stages, and `on_done` each build's end: a caller says what was
    built as it is, so a long run shows progress and a Ctrl-C leaves what was already said."""
    opts.check()
    kept = repofilter.select(workspace, members, [check_repo_pattern(r) for r in repos])
    out: list[MemberBuild] = []
    for m in kept:
        done = MemberBuild(repo=m.name, index_dir=str(m.index))
        out.append(done)
        try:
            root = source_folder(m)
            done.source_root = str(root)
            one = msgspec.structs.replace(opts, index_dir=m.index)
            done.report = build_index(root, one, progress=progress)
        except QryError as exc:
            done.error = f"{exc.message} ({exc.hint})" if exc.hint else exc.message
        if on_done is not None:
            on_done(done)
    return out
