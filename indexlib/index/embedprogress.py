"""How far the vector stage of a running build is: written by the build, read by status and search.

Owns: the progress file `<index>/cache/embedding.json` (which process embeds for which lexical root,
done/total, when it started) and the reading of it into an `EmbedProgress` with a rate and an ETA.
Does not own: the build itself (`indexlib/index/build.py`), or how status and search word it.

Why a file: the vectors of a build (and of `qry index --background`, whose worker is another
process) are computed after the lexical root is published, and a search or `qry status` in that time
must say vectors are coming, with how many are done, instead of "the index has no vectors". The file
is replaced atomically; a holder that died (its pid is gone) makes it stale, which readers say.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import msgspec

from indexlib.index.cachefiles import replace_file

__all__ = ["EmbedProgress", "clear_progress", "read_progress", "write_progress"]

_NAME = "embedding.json"


class EmbedProgress(msgspec.Struct, kw_only=True):
    """The vector stage of one build: `done` of `total` node texts have vectors (embedded or cached)."""

    pid: int
    root: str  # the lexical root the vectors are for
    done: int = 0
    total: int = 0
    started: float = 0.0
    updated: float = 0.0
    error: str = ""  # set when the stage failed (a background worker has no terminal to say it on)
    running: bool = True  # false when the pid is gone (a killed build) or `error` is set

    @property
    def eta_seconds(self) -> float | None:
        """Seconds left at the rate so far; None before the first batch."""
        elapsed = self.updated - self.started
        if self.done <= 0 or elapsed <= 0 or self.total <= self.done:
            return None if self.total > self.done else 0.0
        return (self.total - self.done) * elapsed / self.done

    def describe(self) -> str:
        """`vectors in progress: 812/2,105 (39%), about 14 s left` (or why they stopped)."""
        share = f"{self.done:,}/{self.total:,}" + (
            f" ({100 * self.done // self.total}%)" if self.total else ""
        )
        if self.error:
            return f"vectors stopped at {share}: {self.error} (run qry index to finish them)"
        if not self.running:
            return f"vectors stopped at {share}: the build that computed them ended (run qry index to finish them)"
        eta = self.eta_seconds
        left = "" if eta is None else f", about {eta:.0f} s left"
        return f"vectors in progress: {share}{left}"


def _path(cache_dir: Path) -> Path:
    return Path(cache_dir) / _NAME


def write_progress(cache_dir: Path, progress: EmbedProgress) -> None:
    """Replace the progress file atomically; a failure to write it never stops the build."""
    replace_file(_path(cache_dir), msgspec.json.encode(progress), make_dir=_make_dir)


def _make_dir(path: Path) -> None:
    path.mkdir(mode=0o700, parents=True, exist_ok=True)


def clear_progress(cache_dir: Path, pid: int | None = None) -> None:
    """Remove the progress file (only if `pid` wrote it, when given)."""
    path = _path(cache_dir)
    if pid is not None:
        current = read_progress(cache_dir)
        if current is not None and current.pid != pid:
            return
    try:
        path.unlink()
    except OSError:
        pass


def read_progress(cache_dir: Path) -> EmbedProgress | None:
    """The progress of the vector stage, or None when no build is computing vectors."""
    try:
        raw = _path(cache_dir).read_bytes()
        progress = msgspec.json.decode(raw, type=EmbedProgress)
    except (OSError, msgspec.DecodeError, msgspec.ValidationError):
        return None
    progress.running = not progress.error and _alive(progress.pid)
    if progress.running and not progress.updated:
        progress.updated = time.time()
    return progress


def _alive(pid: int) -> bool:
    """Whether process `pid` still runs. A zombie does not: a build killed with SIGKILL stays one until
    its parent reaps it, and in a container whose PID 1 reaps nothing (Docker without --init) that is
    for ever, while `os.kill(pid, 0)` still succeeds on it: status said "vectors in progress" after
    `timeout -s KILL` ended the build."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return not _zombie(pid)


def _zombie(pid: int) -> bool:
    """Whether `pid` has exited and waits to be reaped (Linux /proc; elsewhere never said)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_bytes()
    except OSError:
        return False
    # The state follows the command name, which is in parentheses and may itself hold ") ".
    state = stat[stat.rfind(b")") + 1 :].split()[:1]
    return state in ([b"Z"], [b"X"])
