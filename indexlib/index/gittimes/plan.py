"""What the strategies of `gittimes` share: each file's plan and the call's statistics.

Owns: `FilePlan` (per-line times when history gave them, else a flat pair, and whether blame is still
wanted) and `GitTimesStats` (what one `plan_times` call did). Does not own: any work (the strategies are `gittimes/__init__.py` and replay.py).
"""

from __future__ import annotations

from dataclasses import dataclass, field

SOURCE_GIT = "git"
SOURCE_FILES = "file times"


@dataclass(slots=True)
class GitTimesStats:
    """What one `plan_times` call did, for benchmarks and tests (the build does not need it)."""

    source: str = SOURCE_FILES
    strategy: str = ""  # "blame" (few files) or "replay"
    files: int = 0
    untracked: int = 0  # untracked or new since HEAD: file time
    modified: int = 0  # differs from HEAD: its uncommitted lines take the file time
    replay_commits: int = 0
    replay_complete: bool = False  # every wanted line was attributed
    replay_seconds: float = 0.0
    cached_from: str = ""  # the cached commit the replay stopped at (gittimes/cache.py), if any
    cached_files: int = 0  # files whose older lines came from that commit's cached times
    merge_files: int = 0  # files with lines that landed on the branch by a merge (no blame needed)
    blamed: int = 0
    blame_failed: int = 0
    fallback: int = 0  # files left with bounds, not exact times (budget spent, or git failed)
    blame_seconds: float = 0.0  # wall time of the blame phase
    blame_file_seconds: list[float] = field(default_factory=list)  # per blamed file, as measured
    total_seconds: float = 0.0
    error: str = ""  # an unexpected failure that made every file fall back to file times


@dataclass(slots=True)
class FilePlan:
    """How one file gets its times: per-line `lines` when known, else the flat (created, changed) pair."""

    created: int
    changed: int
    blame: bool = False  # blame it if budget remains
    lines: list[int] | None = None
    # Per line of `lines`, 1 where the file holds the line's text (spaces around it aside) on another
    # line too: `}`, `return nil`, a blank line, which a diff may match to any of their copies.
    repeated: bytes | None = None
