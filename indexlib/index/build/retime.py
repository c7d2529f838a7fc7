"""Files whose content the previous root already holds but whose history has moved since: parse again.

Owns: finding the reused files that commits since the previous root's commit touched, and moving them
from "reused" to "to parse". Why: node times are computed only for parsed files, and a file reused on
content alone keeps the times it got when it was parsed. Uncommitted work takes the file's
modification time (gittimes), so a file indexed while modified, added or renamed and committed
afterwards, unchanged, kept its file time for good: cobra's `args.go` renamed with `git mv`, indexed,
then committed, answered `MinimumNArgs --since '1 day ago'` with code last changed in 2017. A file
whose content is the same but which the commits from the previous root's commit to HEAD touched is
one whose line history changed (committed work, or changed and changed back), so it is timed again.
Cost: one `git diff --name-only` between two commits; nothing when HEAD has not moved, the build reads
no git times, or the previous root names no commit. Does not own: classifying by content (plan.py) or
computing times (gittimes).
"""

from __future__ import annotations

import os
from pathlib import Path

from indexlib.index.build.options import BuildOptions, BuildReport
from indexlib.index.build.plan import Plan, Previous
from indexlib.index.discover import SourceFile

__all__ = ["retime_committed"]


def retime_committed(
    root: Path, prev: Previous, plan: Plan, sources: list[SourceFile], opts: BuildOptions, report: BuildReport
) -> None:
    """Move the reused files of `plan` that commits since the previous root touched to its parse list
    (in path order, as classify leaves it); `report` counts them as changed, since they are re-parsed."""
    if not plan.files:
        return
    touched = _touched_since(root, prev, opts) & plan.files.keys()
    if not touched:
        return
    by_path = {src.path: src for src in sources}
    moved = [(by_path[p], plan.files.pop(p).hash) for p in sorted(touched) if p in by_path]
    plan.to_parse.extend(moved)
    plan.to_parse.sort(key=lambda item: item[0].path)
    report.changed += len(moved)
    report.unchanged -= len(moved)


def _touched_since(root: Path, prev: Previous, opts: BuildOptions) -> set[str]:
    """Paths under `root` (as the index stores them) that differ between the previous root's commit
    and HEAD; empty when that cannot be known (no git, no commit recorded, HEAD where it was)."""
    from indexlib.index.gittimes.git import GitRepo

    before = prev.manifest.git_commit if prev.manifest is not None else None
    if not opts.git_times or not before:
        return set()
    repo = GitRepo.open(root)
    if repo is None:
        return set()
    head = repo.run("rev-parse", "-q", "--verify", "HEAD^{commit}")
    if head is None or head.decode("ascii", "replace").strip() == before:
        return set()
    out = repo.run("diff", "--name-only", "-z", "--no-renames", "--no-relative", before, "HEAD", "--", ".")
    if out is None:
        return set()  # the old commit is gone (a gc'd rebase, a shallow fetch): keep what we have
    prefix = repo.prefix
    return {os.fsdecode(p[len(prefix) :]) for p in out.split(b"\0") if p and p.startswith(prefix)}
