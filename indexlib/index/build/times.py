"""The stage between parsing and writing: node times from git, and the state of the source tree.

Owns: running the git-times pass beside the parse (in a forked worker) and applying it to the parse's
light nodes, reading the tree's git commit and branch, the settings a root records, and the one
decision that makes a build publish nothing: the tree, its skips and its settings are what the
previous root already says.
Does not own: how times are computed (`indexlib/index/gittimes/`).
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from indexlib.index.build.options import BuildOptions, BuildReport
from indexlib.index.build.parse import Spill
from indexlib.index.build.plan import Plan, Previous
from indexlib.index.discover import SourceFile
from indexlib.index.parsing import PARSER_VERSION
from indexlib.store.locate import default_index_dir
from indexlib.store.manifest import IN_ROOT_SETTING
from indexlib.workers import ForkPool, Pending, start_pool

if TYPE_CHECKING:
    from indexlib.index.gittimes.plan import FilePlan

__all__ = ["NodeTimes", "SourceState", "TimesJob", "node_times", "source_state"]

Plans = dict[str, "FilePlan"]
_JobArgs = tuple[Path, list[str], dict[str, int], bool, Path | None]  # root, paths, mtimes, use_git, cache

NodeTimes = dict[int, tuple[int | None, int | None]]  # node uid -> (created_at, changed_at)


@dataclass(slots=True)
class SourceState:
    """What the new root records about its source, and whether it would equal the previous root."""

    git_commit: str | None
    git_branch: str | None
    settings: dict[str, str]
    unchanged: bool  # nothing to write or publish: the previous root stands


class TimesJob:
    """The line times of the files to parse, computed beside the parse.

    Reading history needs the files, not their nodes, and is mostly git's own work (one `git log -p`
    walk): run in a forked worker it overlaps the parse instead of following it. Without git times,
    fork, or files to parse, `result()` computes in this process (file times cost nothing).
    """

    def __init__(self, root: Path, to_parse: Sequence[tuple[SourceFile, str]], opts: BuildOptions) -> None:
        from indexlib.index.gittimes.cache import times_cache_dir

        cache_dir = times_cache_dir() if opts.shared_cache else None
        self._args: _JobArgs = (
            root,
            [src.path for src, _d in to_parse],
            {s.path: s.mtime_ns for s, _d in to_parse},
            opts.git_times,
            cache_dir,
        )
        self._pool: ForkPool | None = None
        self._pending: Pending[tuple[Plans, str]] | None = None
        if opts.git_times and to_parse and hasattr(os, "fork") and _may_have_history(root):
            self._pool = start_pool(1)
            self._pending = self._pool.submit(_plan_job, self._args)

    def running(self) -> bool:
        """Whether the worker is still reading history (it keeps a core busy until it answers)."""
        return self._pending is not None and not self._pending.ready()

    def result(self) -> tuple[Plans, str]:
        try:
            return self._pending() if self._pending is not None else _plan_job(self._args)
        finally:
            self.close()

    def close(self) -> None:
        """Stop the worker (done, or the build failed or was interrupted first)."""
        if self._pool is not None:
            self._pool.terminate()
            self._pool, self._pending = None, None


def _may_have_history(root: Path) -> bool:
    """Whether `root` may lie in a git work tree (a `.git` here or above, or GIT_DIR set): outside
    one, history is not read and no worker is worth starting (file times are computed in place)."""
    if os.environ.get("GIT_DIR"):
        return True
    here = root.resolve()
    return any((p / ".git").exists() for p in (here, *here.parents))


def _plan_job(args: _JobArgs) -> tuple[Plans, str]:
    from indexlib.index import gittimes

    root, paths, mtimes, use_git, cache_dir = args
    return gittimes.plan_times(root, paths, mtimes, use_git=use_git, cache_dir=cache_dir)


def node_times(spill: Spill, job: TimesJob) -> tuple[NodeTimes, str]:
    """Times of every parsed node and where they came from ("git", "file times"...).

    The spill's light nodes are released here: they exist only for this pass.
    """
    from indexlib.index import gittimes

    light, spill.light = spill.light, []
    # plan_times finds the enclosing work tree itself (a subfolder of a repository gets git times too).
    plans, times_from = job.result()
    timed = gittimes.apply_times(light, plans)
    del light
    times: NodeTimes = {n.uid: (n.created_at, n.changed_at) for n in timed}
    return times, times_from


def _git(root: Path, *args: str) -> str | None:
    """A git answer about `root` (which may be a subfolder of a work tree), or None outside git."""
    try:
        out = subprocess.run(
            ["git", "-C", str(root), *args], capture_output=True, text=True, timeout=10, check=False
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.strip() or None if out.returncode == 0 else None


def _in_root(root: Path, opts: BuildOptions) -> bool:
    """Whether the build writes `root`'s own `.qry` (also as `--index-dir ROOT/.qry`): recorded so a
    reader knows the index follows `root` when it is moved or copied (`source_root_of`)."""
    own = default_index_dir(root)
    return opts.index_dir is None or opts.index_dir.resolve() == own.resolve()


def source_state(
    root: Path, opts: BuildOptions, prev: Previous, plan: Plan, times_from: str, report: BuildReport
) -> SourceState:
    """The git commit and branch, the settings to record, and whether anything changed at all."""
    git_commit = _git(root, "rev-parse", "HEAD")
    git_branch = _git(root, "rev-parse", "--abbrev-ref", "HEAD")
    report.git_commit = git_commit
    settings = {
        "redact": str(opts.redact).lower(),
        "root": str(root),
        "times": times_from,
        "embed": str(opts.embed),
        "parser": str(PARSER_VERSION),
        IN_ROOT_SETTING: str(_in_root(root, opts)).lower(),
    }
    manifest = prev.manifest
    if manifest is not None and not plan.to_parse and "times" in manifest.settings:
        settings["times"] = manifest.settings["times"]  # nothing re-annotated: the root's source stands
    if manifest is not None:
        parsed = {src.path for src, _ in plan.to_parse}
        report.touched = sum(
            1
            for path, rec in plan.files.items()
            if path not in parsed and manifest.files.get(path, rec) != rec
        )
    unchanged = (
        manifest is not None
        and not plan.to_parse
        and not plan.removed
        and manifest.git_commit == git_commit
        and manifest.skipped == plan.skipped.counts
        and manifest.skipped_files == plan.skipped.listed()
        and manifest.settings == settings
        and not report.repaired
        # A file whose content came back (`git checkout`, an editor's undo) has a new size or mtime:
        # the root records it, or status and search would call the file changed for ever.
        and plan.files == manifest.files
    )
    return SourceState(git_commit=git_commit, git_branch=git_branch, settings=settings, unchanged=unchanged)
