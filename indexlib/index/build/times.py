"""The stage between parsing and writing: node times from git, and the state of the source tree.

Owns: running the git-times pass over the parse stage's light nodes, reading the tree's git commit and
branch, the settings a root records, and the one decision that makes a build publish nothing: the
tree, its skips and its settings are what the previous root already says.
Does not own: how times are computed (`indexlib/index/gittimes.py`).
"""

from __future__ import annotations

import subprocess
from dataclasses import dataclass
from pathlib import Path

from indexlib.index.build.options import BuildOptions, BuildReport
from indexlib.index.build.parse import Spill
from indexlib.index.build.plan import Plan, Previous

__all__ = ["NodeTimes", "SourceState", "node_times", "source_state"]

NodeTimes = dict[int, tuple[int | None, int | None]]  # node uid -> (created_at, changed_at)


@dataclass(slots=True)
class SourceState:
    """What the new root records about its source, and whether it would equal the previous root."""

    git_commit: str | None
    git_branch: str | None
    settings: dict[str, str]
    unchanged: bool  # nothing to write or publish: the previous root stands


def node_times(root: Path, spill: Spill, opts: BuildOptions) -> tuple[NodeTimes, str]:
    """Times of every parsed node and where they came from ("git", "file times"...).

    The spill's light nodes are released here: they exist only for this pass.
    """
    from indexlib.index import gittimes

    light, spill.light = spill.light, []
    # annotate finds the enclosing work tree itself (a subfolder of a repository gets git times too).
    timed, times_from = gittimes.annotate(
        root, light, {s_.path: s_.mtime_ns for s_, _d, _h in spill.meta}, use_git=opts.git_times
    )
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


def source_state(
    root: Path, opts: BuildOptions, prev: Previous, plan: Plan, times_from: str, report: BuildReport
) -> SourceState:
    """The git commit and branch, the settings to record, and whether anything changed at all."""
    git_commit = _git(root, "rev-parse", "HEAD")
    git_branch = _git(root, "rev-parse", "--abbrev-ref", "HEAD")
    report.git_commit = git_commit
    settings = {"redact": str(opts.redact).lower(), "root": str(root), "times": times_from}
    manifest = prev.manifest
    if manifest is not None and not plan.to_parse and "times" in manifest.settings:
        settings["times"] = manifest.settings["times"]  # nothing re-annotated: the root's source stands
    unchanged = (
        manifest is not None
        and not plan.to_parse
        and not plan.removed
        and manifest.git_commit == git_commit
        and manifest.skipped == plan.skipped
        and manifest.settings == settings
        and not report.repaired
    )
    return SourceState(git_commit=git_commit, git_branch=git_branch, settings=settings, unchanged=unchanged)
