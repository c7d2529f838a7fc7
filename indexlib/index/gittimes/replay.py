"""The replay: every wanted line of many files attributed by one walk of HEAD's first-parent log.

Owns: following each file back through history (`git diff -U0 HEAD` for the work tree, then
`git log -p -U0 -M` newest first): each commit's zero-context hunks attribute the lines they add and
map the others to the parent's line numbers, renames carry a file to its old name, and the walk
stops once every line is attributed or the deadline passes. Writes the result into the files'
plans. Does not own: blame and which files are replayed (`gittimes/__init__.py`), parsing
git's output (git.py).
"""

from __future__ import annotations

import os
import threading
import time
from array import array
from dataclasses import dataclass

from indexlib.index.gittimes.cache import Entry
from indexlib.index.gittimes.git import DIFF_ARGS, LOG_TIMEOUT_S, FilePatch, GitRepo, patches
from indexlib.index.gittimes.logwalk import LogStream
from indexlib.index.gittimes.plan import FilePlan, GitTimesStats

_UNSET = -(1 << 62)  # a line no commit has claimed yet


@dataclass(slots=True)
class _Track:
    """One wanted file followed back through history."""

    path: str  # the build's path (the key of `plans`)
    times: list[int]  # per work-tree line: committer time, or _UNSET
    origin: array[int]  # per line of the version at the walk's current commit: work-tree line, or -1
    left: int  # work-tree lines not attributed yet
    merged: bool = False  # a merge commit claimed some line (a statistic: the answer stands)
    broken: bool = False  # a hunk did not fit: the file changed under us, or a filter changed lines


def _apply_hunks(track: _Track, hunks: list[tuple[int, int, int]], when: int, is_merge: bool) -> None:
    """Attribute the lines a commit added (new side of each hunk) and map the rest to the parent.

    `hunks` are (old_count, new_start, new_count) of zero-context hunks, in order. With count 0 the
    start names the line *before* the change, as unified diff does.
    """
    origin = track.origin
    parent: array[int] = array("i")
    pos = 0
    for old_count, new_start, new_count in hunks:
        first = new_start - 1 if new_count else new_start  # 0-based index of the first line after/at
        if first < pos or first + new_count > len(origin):
            track.broken = True
            return
        parent.extend(origin[pos:first])
        times = track.times
        for i in range(first, first + new_count):
            line = origin[i]
            if line >= 0 and times[line] == _UNSET:
                times[line] = when
                track.left -= 1
                track.merged |= is_merge
        if old_count:
            parent.extend(array("i", [-1]) * old_count)
        pos = first + new_count
    parent.extend(origin[pos:])
    track.origin = parent


def _count_lines(data: bytes) -> int:
    return data.count(b"\n") + (1 if data and not data.endswith(b"\n") else 0)


def replay(
    repo: GitRepo,
    history: dict[bytes, str],
    modified: set[bytes],
    plans: dict[str, FilePlan],
    mtimes: dict[str, int],
    head_time: int,
    deadline: float,
    st: GitTimesStats,
    base: tuple[str, Entry] | None = None,
) -> None:
    """Attribute every line of the `history` files by one walk of HEAD's first-parent history.

    With `base` (a commit on that history and the cached line times of files there), the walk reads
    only the commits above it, takes what it has not attributed from the cache, and goes on below it
    only for the files the cache does not hold.
    """
    t = time.monotonic()
    tracks = _tracks(repo, history)
    # The work tree against HEAD first: lines it adds are uncommitted (file time).
    if modified:
        _map_work_tree(repo, history, modified, tracks, mtimes)

    active = {k: tr for k, tr in tracks.items() if tr.left > 0 and not tr.broken}
    oldest = head_time
    complete = not active
    below: tuple[str, ...] | None = None  # the whole history
    if base is not None and active and time.monotonic() < deadline:
        sha, entry = base
        st.cached_from = sha
        oldest, complete, whole = _walk_log(repo, active, oldest, complete, deadline, st, (f"^{sha}", "HEAD"))
        if whole:  # the tracks stand at the cached commit's lines
            st.cached_files = _take_cached(active, entry)
            complete = complete or not active
            below = (sha,)
        else:  # done early, or stopped short (deadline, git failed): the lines left keep upper bounds
            active = {}
    if active and time.monotonic() < deadline:
        oldest, complete, _whole = _walk_log(repo, active, oldest, complete, deadline, st, below)
    _settle(tracks, plans, oldest, st)
    st.replay_complete = complete
    st.replay_seconds = time.monotonic() - t


def _tracks(repo: GitRepo, history: dict[bytes, str]) -> dict[bytes, _Track]:
    """One track per readable file, every work-tree line unattributed and at its own line number."""
    tracks: dict[bytes, _Track] = {}
    for key, path in history.items():
        try:
            n = _count_lines((repo.root / path).read_bytes())
        except OSError:
            continue  # vanished or unreadable: its plan keeps the bounds
        tracks[key] = _Track(path=path, times=[_UNSET] * n, origin=array("i", range(n)), left=n)
    return tracks


def _map_work_tree(
    repo: GitRepo,
    history: dict[bytes, str],
    modified: set[bytes],
    tracks: dict[bytes, _Track],
    mtimes: dict[str, int],
) -> None:
    """Map the modified files' lines onto HEAD's version; the lines the work tree adds take its time.

    When the diff fails, the modified files are dropped from the replay (their plans keep the bounds).
    """
    args: list[str | bytes] = ["diff", *DIFF_ARGS, "--no-renames", "--no-relative", "HEAD", "--"]
    args += [os.fsencode(history[k]) for k in sorted(modified)] if len(modified) <= 256 else ["."]
    out = repo.run(*args)
    if out is None:
        for k in modified:
            tracks.pop(k, None)
    else:
        for _commit, files in patches(iter(out.split(b"\n")), header=False):
            for old, new, hunks in files:
                tr = tracks.get(new or b"")
                if tr is not None and old == new:
                    _apply_hunks(tr, hunks, mtimes[tr.path], False)


def _take_cached(active: dict[bytes, _Track], entry: Entry) -> int:
    """Give every line the walk left unattributed its time from the cached commit, where the cache
    holds the file (under the name it had there) with as many lines; return how many files it did."""
    taken = 0
    for key in list(active):
        tr = active[key]
        cached = entry.get(key)
        if cached is None or len(cached) != len(tr.origin):
            continue
        for i, line in enumerate(tr.origin):
            if line >= 0 and tr.times[line] == _UNSET:
                tr.times[line] = cached[i]
                tr.left -= 1
        taken += 1
        if tr.left <= 0:
            del active[key]
    return taken


def _walk_log(
    repo: GitRepo,
    active: dict[bytes, _Track],
    oldest: int,
    complete: bool,
    deadline: float,
    st: GitTimesStats,
    revs: tuple[str, ...] | None = None,
) -> tuple[int, bool, bool]:
    """Walk `git log -p` newest first until every active track is done, the log ends or the deadline.

    `revs` limits the walk (`^BASE HEAD`: the commits above BASE; `BASE`: BASE and below); by default
    it is HEAD's whole first-parent history. Returns (the oldest commit time read, whether every
    wanted line was attributed, whether the log was read to its end and git succeeded); `oldest` and
    `complete` are returned as given when git cannot be started.
    """
    log_args = ("log", "--first-parent", "--diff-merges=first-parent", "-M", "--root", *DIFF_ARGS)
    stream = LogStream(repo, (*log_args, "--format=%x01%H %ct %P"), revs=revs)
    if not stream.ok:
        return oldest, complete, False
    watchdog = threading.Timer(min(max(0.0, deadline - time.monotonic()), LOG_TIMEOUT_S), stream.kill)
    watchdog.start()
    read_to_end = False
    try:
        for (when, is_merge), files in patches(stream.lines(), header=True):
            st.replay_commits += 1
            oldest = min(oldest, when)
            _advance(active, files, when, is_merge)
            if not active:
                complete = True
                break
        else:
            read_to_end = True
    except (OSError, ValueError):
        complete = False
    finally:
        watchdog.cancel()
        succeeded = stream.close(read_to_end=read_to_end)
    if read_to_end:
        complete = succeeded and not active
    return oldest, complete, read_to_end and succeeded


def _advance(active: dict[bytes, _Track], files: list[FilePatch], when: int, is_merge: bool) -> None:
    """Apply one commit's patches to the active tracks, follow its renames, drop the tracks done."""
    renames: list[tuple[bytes, bytes]] = []
    for old, new, hunks in files:
        tr = active.get(new or b"")
        if tr is None:
            continue
        if hunks:
            _apply_hunks(tr, hunks, when, is_merge)
        if old is not None and old != new and new is not None:
            renames.append((new, old))
    moved = [(old, active.pop(new)) for new, old in renames if new in active]
    for old, tr in moved:
        if old in active:
            tr.broken = True  # two files claim one old name: let blame sort it out
        active[old] = tr
    for k in [k for k, tr in active.items() if tr.left <= 0 or tr.broken]:
        del active[k]


def _settle(tracks: dict[bytes, _Track], plans: dict[str, FilePlan], oldest: int, st: GitTimesStats) -> None:
    """Write each track's line times into its file's plan; a broken track leaves the plan to blame."""
    for tr in tracks.values():
        plan = plans[tr.path]
        if tr.broken:
            continue  # keeps blame=True and its bounds
        if tr.left > 0:
            # Not reached before the deadline: those lines are older than the oldest commit read.
            tr.times = [oldest if x == _UNSET else x for x in tr.times]
        plan.lines = tr.times
        plan.blame = tr.left > 0
        if tr.merged:
            st.merge_files += 1
