"""Node times: when each node's lines were created and last changed.

Owns: turning repository history into `Node.created_at` / `Node.changed_at`, for the nodes of the files
a build re-parsed. Does not own: where the times are stored or filtered (lexical.py, streams.py), or
the decision to read git at all (the build passes `use_git`).

What a time means. A node's `created_at` is the earliest and its `changed_at` the latest **committer
time** among the lines of its range [start_line, end_line], as `git blame` attributes them. Committer
time, not author time, because `--as-of v1.2.0` and `--since HEAD~20` resolve a ref to its commit time
(`%ct`, timeparse.py): comparing commit times with commit times keeps "existed at that ref" honest for
rebased and cherry-picked work, whose author dates can be years older than the commit that landed it.
Lines not committed yet (modified, staged or untracked files) take the file's modification time. A
module-remainder node spans from its first to its last line, holes included, so its times are taken
over its lines minus those of the file's top-level definitions: editing a function does not make the
module's imports "changed".

Outside a git work tree, with `use_git=False`, when git is missing or broken, or before the first
commit, every node of a file takes the file's modification time and the source is "file times", so
`qry status` never pretends history it does not have. Nothing here raises: a failing git command makes
its files fall back, never the build.

How, and what it costs (numbers: docs/benchmarks.md, "git times"). `git blame` walks the history once
per file: ~5-25 ms a file in a young, packed repository, ~50-150 ms with a few thousand commits (up to
~1 s for a file with a thousand of them), so blaming every file of a mature repository takes minutes.
Two strategies:

- Few files (an incremental build, <= DIRECT_BLAME_MAX files): blame each, two at a time.
- Many files: one **replay** of HEAD's first-parent history, newest first, `git log -p -U0 -M`: every
  wanted line starts unattributed at HEAD's version (after mapping the work tree onto HEAD with
  `git diff -U0 HEAD`); each commit's zero-context hunks attribute the lines they add and map the others
  to the parent's line numbers; renames carry a file to its old name. This is blame's own algorithm
  (same diffs, same rename detection), done for all files in one walk that stops as soon as every line
  is attributed. On a linear history the answer is blame's exactly (checked line by line against blame
  in the tests, and on 21k nodes of a 3,000-commit history, where it took 5 s against 50 s of blames).
  A merge commit is diffed against its first parent, so lines that came from a side branch
  are attributed to the merge (when they landed on this branch), where blame names the side-branch
  commit: the files where that happened are then blamed for real, newest first, while budget remains.

The budget (`budget` seconds for the whole call) bounds both: the replay is killed at the deadline, and
so are blames still running. Lines the replay had not reached take the time of the oldest commit it
read (they last changed before it: an upper bound); files not blamed in time keep the replay's times
(merge times: upper bounds too), or in the direct strategy HEAD's commit time. Upper bounds keep a node
under --since (it may look newer than it is); under --until and --as-of it may be left out.

Known blind spots, accepted: files inside a submodule (not tracked by this repository: file times);
a shallow clone, where history stops at the boundary commit, which owns everything older (blame says
the same); content filters that change line structure between the work tree and git.

Paths are handled as bytes (git's C-quoting undone), so spaces, newlines and non-UTF-8 names survive;
no value read from a file or a user ever reaches git's argument list before `--`.
"""

from __future__ import annotations

import os
import re
import subprocess
import threading
import time
from array import array
from collections.abc import Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import msgspec

from indexlib.records import Node, NodeKind

SOURCE_GIT = "git"
SOURCE_FILES = "file times"

DEFAULT_BUDGET_S = 30.0  # whole-call cap on history reading; see docs/benchmarks.md
DEFAULT_WORKERS = 2  # the machines this runs on have two cores, shared with parsing and embedding
DIRECT_BLAME_MAX = 16  # up to this many files with history: blame each; more: one replay of the log
_CMD_TIMEOUT_S = 60.0  # bookkeeping commands (rev-parse, ls-files, diff)
_BLAME_TIMEOUT_S = 300.0  # one file's blame, whatever the budget
_LOG_TIMEOUT_S = 3600.0  # the replay, whatever the budget

_UNSET = -(1 << 62)  # a line no commit has claimed yet
_UNCOMMITTED = b"0" * 40
_UNCOMMITTED_256 = b"0" * 64
_BLAME_HEADER = re.compile(rb"^([0-9a-f]{40}|[0-9a-f]{64}) \d+ (\d+)(?: \d+)?$")
_COMMIT_HEADER = re.compile(rb"^\x01([0-9a-f]{40}|[0-9a-f]{64}) (-?\d+)((?: [0-9a-f]+)*)\s*$")
_HUNK = re.compile(rb"^@@ -\d+(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")

# Settings a user's git config could set that would change or break the output we parse, or make blame
# and the replay disagree (both must diff the same way).
_GIT_CONFIG = (
    "-c", "blame.ignoreRevsFile=",
    "-c", "blame.markIgnoredLines=false",
    "-c", "blame.markUnblamableLines=false",
    "-c", "log.showSignature=false",
    "-c", "core.quotePath=false",
    "-c", "diff.external=",
    "-c", "diff.algorithm=myers",
    "-c", "diff.indentHeuristic=true",
    "-c", "diff.noprefix=false",
    "-c", "diff.mnemonicPrefix=false",
    "-c", "diff.relative=false",
    "-c", "color.ui=false",
)  # fmt: skip
_DIFF_ARGS = (
    "-p", "-U0", "--inter-hunk-context=0", "--text", "--no-color", "--no-ext-diff", "--no-textconv",
    "--src-prefix=a/", "--dst-prefix=b/",
)  # fmt: skip


@dataclass(slots=True)
class GitTimesStats:
    """What one `annotate` call did, for benchmarks and tests (the build does not need it)."""

    source: str = SOURCE_FILES
    strategy: str = ""  # "blame" (few files) or "replay"
    files: int = 0
    untracked: int = 0  # untracked or new since HEAD: file time
    modified: int = 0  # differs from HEAD: its uncommitted lines take the file time
    replay_commits: int = 0
    replay_complete: bool = False  # every wanted line was attributed
    replay_seconds: float = 0.0
    merge_files: int = 0  # files with lines the replay attributed to a merge: blamed for the exact time
    blamed: int = 0
    blame_failed: int = 0
    fallback: int = 0  # files left with bounds, not exact times (budget spent, or git failed)
    blame_seconds: float = 0.0  # wall time of the blame phase
    blame_file_seconds: list[float] = field(default_factory=list)  # per blamed file, as measured
    total_seconds: float = 0.0
    error: str = ""  # an unexpected failure that made every file fall back to file times


@dataclass(slots=True)
class _Plan:
    """How one file gets its times: per-line `lines` when known, else the flat (created, changed) pair."""

    created: int
    changed: int
    blame: bool = False  # blame it if budget remains
    lines: list[int] | None = None


def annotate(
    root: Path,
    nodes: Sequence[Node],
    file_mtimes: dict[str, int],
    *,
    use_git: bool,
    budget: float = DEFAULT_BUDGET_S,
    workers: int = DEFAULT_WORKERS,
    direct_max: int = DIRECT_BLAME_MAX,
    stats: GitTimesStats | None = None,
) -> tuple[list[Node], str]:
    """Return `nodes` with `created_at` / `changed_at` set, and where the times came from.

    `nodes` are the nodes of the files the build re-parsed; `file_mtimes` maps their paths (relative
    to `root`) to st_mtime_ns. The source is "git" when history was read, else "file times". Never
    raises: on git trouble the affected files fall back to file times or bounds.

    >>> annotate(Path("/not/a/repo"), [], {}, use_git=True)
    ([], 'file times')
    """
    t0 = time.monotonic()
    st = stats if stats is not None else GitTimesStats()
    by_path: dict[str, list[Node]] = {}
    for n in nodes:
        by_path.setdefault(n.path, []).append(n)
    st.files = len(by_path)
    mtimes = {p: _mtime_s(root, p, file_mtimes) for p in by_path}
    plans: dict[str, _Plan] | None = None
    if use_git and by_path:
        repo = _Repo.open(root)
        if repo is not None:
            try:
                plans = _plan_from_git(repo, by_path, mtimes, budget, max(1, workers), direct_max, st, t0)
            except Exception as exc:  # times are secondary: a bug here must not fail a build
                st.error = f"{type(exc).__name__}: {exc}"
                plans = None
    if plans is None:
        plans = {p: _Plan(created=m, changed=m) for p, m in mtimes.items()}
        st.source = SOURCE_FILES
    else:
        st.source = SOURCE_GIT
    out: list[Node] = []
    for path, file_nodes in by_path.items():
        out.extend(_times_for_file(file_nodes, plans[path]))
    st.total_seconds = time.monotonic() - t0
    return out, st.source


def _mtime_s(root: Path, path: str, file_mtimes: dict[str, int]) -> int:
    ns = file_mtimes.get(path)
    if ns is None:
        try:
            ns = os.stat(root / path).st_mtime_ns
        except OSError:
            return int(time.time())
    return ns // 1_000_000_000


# --- git plumbing -------------------------------------------------------------------------------------


class _Repo:
    """A git work tree that `root` lies in, and how to run git there safely."""

    def __init__(self, root: Path, prefix: bytes, env: dict[str, str]) -> None:
        self.root = root
        self.prefix = prefix  # root relative to the top of the work tree, b"" or b"sub/dir/"
        self.env = env

    @classmethod
    def open(cls, root: Path) -> _Repo | None:
        env = dict(os.environ)
        env.update(
            GIT_OPTIONAL_LOCKS="0",  # never write the index: other git commands may run at the same time
            GIT_TERMINAL_PROMPT="0",
            GIT_LITERAL_PATHSPECS="1",
            GIT_PAGER="cat",
            LC_ALL="C",
        )
        for var in ("GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE"):
            env.pop(var, None)  # a caller's environment must not redirect us to another repository
        probe = cls(root, b"", env)
        top = probe.run("rev-parse", "--show-toplevel")
        if top is None or not top.strip():
            return None
        try:
            rel = os.path.relpath(os.path.realpath(root), os.path.realpath(os.fsdecode(top.rstrip(b"\n"))))
        except ValueError:
            return None
        if rel.startswith(".."):
            return None
        probe.prefix = b"" if rel == "." else os.fsencode(rel).replace(os.sep.encode(), b"/") + b"/"
        if probe.run("rev-parse", "-q", "--verify", "HEAD^{commit}") is None:
            return None  # no commit yet: nothing in history, every line is uncommitted
        return probe

    def argv(self, *args: str | bytes) -> list[str | bytes]:
        return ["git", "-C", str(self.root), *_GIT_CONFIG, *args]

    def run(self, *args: str | bytes, timeout: float = _CMD_TIMEOUT_S) -> bytes | None:
        """Run a git command; its stdout, or None on any failure (missing git, error, timeout)."""
        try:
            out = subprocess.run(
                self.argv(*args),
                capture_output=True,
                timeout=timeout,
                env=self.env,
                stdin=subprocess.DEVNULL,
                check=False,
            )
        except (OSError, subprocess.SubprocessError):
            return None
        return out.stdout if out.returncode == 0 else None

    def popen(self, *args: str | bytes) -> subprocess.Popen[bytes] | None:
        try:
            return subprocess.Popen(
                self.argv(*args),
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                stdin=subprocess.DEVNULL,
                env=self.env,
            )
        except OSError:
            return None


def _plan_from_git(
    repo: _Repo,
    by_path: dict[str, list[Node]],
    mtimes: dict[str, int],
    budget: float,
    workers: int,
    direct_max: int,
    st: GitTimesStats,
    t0: float,
) -> dict[str, _Plan] | None:
    """Decide per file: file time (untracked, new), blame (few files), or the replay (many)."""
    deadline = t0 + budget
    key_of = {p: repo.prefix + os.fsencode(p) for p in by_path}
    tracked_out = repo.run("ls-files", "-z", "--full-name", "--", ".")
    status_out = repo.run("diff", "--name-status", "-z", "--no-renames", "--no-relative", "HEAD", "--", ".")
    head_out = repo.run("show", "-s", "--format=%ct", "HEAD^{commit}", "--")
    if tracked_out is None or status_out is None or head_out is None:
        return None
    head_time = int(head_out.strip() or 0)
    tracked = set(tracked_out.split(b"\0"))
    changed_vs_head = _parse_name_status(status_out)

    plans: dict[str, _Plan] = {}
    history: dict[bytes, str] = {}  # top-relative path -> the build's path, for files with history
    for path, key in key_of.items():
        m = mtimes[path]
        status = changed_vs_head.get(key)
        if key not in tracked or status == b"A":
            plans[path] = _Plan(created=m, changed=m)  # every line uncommitted
            st.untracked += 1
            continue
        modified = status is not None
        st.modified += modified
        # Until history says better: HEAD's commit time bounds every committed line from above.
        plans[path] = _Plan(
            created=head_time, changed=max(head_time, m) if modified else head_time, blame=True
        )
        history[key] = path

    if len(history) <= direct_max:
        st.strategy = "blame"
    else:
        st.strategy = "replay"
        _replay(
            repo,
            history,
            {k for k in history if k in changed_vs_head},
            plans,
            mtimes,
            head_time,
            deadline,
            st,
        )
    _blame_all(repo, plans, mtimes, deadline, workers, st)
    st.fallback = sum(1 for p in history.values() if plans[p].blame)
    return plans


def _parse_name_status(out: bytes) -> dict[bytes, bytes]:
    """`git diff --name-status -z --no-renames` -> {path: status letter}."""
    toks = out.split(b"\0")
    res: dict[bytes, bytes] = {}
    for i in range(0, len(toks) - 1, 2):
        if toks[i]:
            res[toks[i + 1]] = toks[i][:1]
    return res


# --- the replay ---------------------------------------------------------------------------------------


@dataclass(slots=True)
class _Track:
    """One wanted file followed back through history."""

    path: str  # the build's path (the key of `plans`)
    times: list[int]  # per work-tree line: committer time, or _UNSET
    origin: array[int]  # per line of the version at the walk's current commit: work-tree line, or -1
    left: int  # work-tree lines not attributed yet
    merged: bool = False  # a merge commit claimed some line: blame would name a side-branch commit
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


def _replay(
    repo: _Repo,
    history: dict[bytes, str],
    modified: set[bytes],
    plans: dict[str, _Plan],
    mtimes: dict[str, int],
    head_time: int,
    deadline: float,
    st: GitTimesStats,
) -> None:
    """Attribute every line of the `history` files by one walk of HEAD's first-parent history."""
    t = time.monotonic()
    tracks: dict[bytes, _Track] = {}
    for key, path in history.items():
        try:
            n = _count_lines((repo.root / path).read_bytes())
        except OSError:
            continue  # vanished or unreadable: its plan keeps the bounds
        tracks[key] = _Track(path=path, times=[_UNSET] * n, origin=array("i", range(n)), left=n)

    # The work tree against HEAD first: lines it adds are uncommitted (file time).
    if modified:
        args: list[str | bytes] = ["diff", *_DIFF_ARGS, "--no-renames", "--no-relative", "HEAD", "--"]
        args += [os.fsencode(history[k]) for k in sorted(modified)] if len(modified) <= 256 else ["."]
        out = repo.run(*args)
        if out is None:
            for k in modified:
                tracks.pop(k, None)
        else:
            for _commit, files in _patches(iter(out.split(b"\n")), header=False):
                for old, new, hunks in files:
                    tr = tracks.get(new or b"")
                    if tr is not None and old == new:
                        _apply_hunks(tr, hunks, mtimes[tr.path], False)

    active = {k: tr for k, tr in tracks.items() if tr.left > 0 and not tr.broken}
    oldest = head_time
    complete = not active
    if active and time.monotonic() < deadline:
        proc = repo.popen(
            "log", "--first-parent", "--diff-merges=first-parent", "-M", "--root", *_DIFF_ARGS,
            "--format=%x01%H %ct %P", "HEAD", "--",
        )  # fmt: skip
        if proc is not None and proc.stdout is not None:
            watchdog = threading.Timer(min(max(0.0, deadline - time.monotonic()), _LOG_TIMEOUT_S), proc.kill)
            watchdog.start()
            try:
                for (when, is_merge), files in _patches(_lines(proc.stdout.fileno()), header=True):
                    st.replay_commits += 1
                    oldest = min(oldest, when)
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
                    if not active:
                        complete = True
                        break
                else:
                    complete = proc.wait() == 0 and not active
            except (OSError, ValueError):
                complete = False
            finally:
                watchdog.cancel()
                if proc.poll() is None:
                    proc.kill()
                proc.wait()
                proc.stdout.close()

    for tr in tracks.values():
        plan = plans[tr.path]
        if tr.broken:
            continue  # keeps blame=True and its bounds
        if tr.left > 0:
            # Not reached before the deadline: those lines are older than the oldest commit read.
            tr.times = [oldest if x == _UNSET else x for x in tr.times]
        plan.lines = tr.times
        plan.blame = tr.merged or tr.left > 0
        if tr.merged:
            st.merge_files += 1
    st.replay_complete = complete
    st.replay_seconds = time.monotonic() - t


def _lines(fd: int) -> Iterator[bytes]:
    """Lines of a pipe, without their newline, read in large chunks."""
    rest = b""
    while True:
        chunk = os.read(fd, 1 << 20)
        if not chunk:
            break
        parts = (rest + chunk).split(b"\n")
        rest = parts.pop()
        yield from parts
    if rest:
        yield rest


_FilePatch = tuple[bytes | None, bytes | None, list[tuple[int, int, int]]]  # old path, new path, hunks


def _patches(lines: Iterator[bytes], *, header: bool) -> Iterator[tuple[tuple[int, bool], list[_FilePatch]]]:
    """Group `git log -p -U0` (or `git diff`) output by commit: ((time, is_merge), [(old, new, hunks)]).

    Parsing is positional, so no file content is ever read as a header: a hunk header gives how many
    `-` and `+` lines follow, and those are skipped by count (`\\ No newline` markers aside). Paths come
    from `rename from/to` and `---`/`+++` lines (one path per line, C-quoted when git quotes them),
    never from the ambiguous `diff --git a/x b/y` line. `/dev/null` is None.
    """
    commit = (0, False)
    files: list[_FilePatch] = []
    old: bytes | None = None
    new: bytes | None = None
    hunks: list[tuple[int, int, int]] = []
    in_file = False
    skip = 0

    def flush() -> None:
        if in_file:
            files.append((old, new, hunks))

    for line in lines:
        if skip:
            if line[:1] != b"\\":
                skip -= 1
            continue
        if header and line[:1] == b"\x01":
            m = _COMMIT_HEADER.match(line)
            if m is not None:
                flush()
                if commit[0] or files:
                    yield commit, files
                commit = (int(m.group(2)), len(m.group(3).split()) > 1)
                files, in_file, old, new, hunks = [], False, None, None, []
                continue
        if line.startswith(b"diff --git "):
            flush()
            in_file, old, new, hunks = True, None, None, []
        elif not in_file:
            continue
        elif line.startswith(b"@@ "):
            h = _HUNK.match(line)
            if h is not None:
                old_count = int(h.group(1)) if h.group(1) is not None else 1
                new_count = int(h.group(3)) if h.group(3) is not None else 1
                hunks.append((old_count, int(h.group(2)), new_count))
                skip = old_count + new_count
        elif line.startswith(b"rename from "):
            old = _unquote(line[12:])
        elif line.startswith(b"rename to "):
            new = _unquote(line[10:])
        elif line.startswith(b"--- "):
            old = _diff_path(line[4:], b"a/")
        elif line.startswith(b"+++ "):
            new = _diff_path(line[4:], b"b/")
    flush()
    if commit[0] or files:
        yield commit, files


def _diff_path(raw: bytes, prefix: bytes) -> bytes | None:
    if raw.endswith(b"\t"):
        raw = raw[:-1]  # git ends a name holding a space with a TAB (a real TAB in a name is quoted)
    if raw == b"/dev/null":
        return None
    path = _unquote(raw)
    return path[len(prefix) :] if path.startswith(prefix) else path


_ESCAPES = {ord("a"): 7, ord("b"): 8, ord("t"): 9, ord("n"): 10, ord("v"): 11, ord("f"): 12, ord("r"): 13}


def _unquote(raw: bytes) -> bytes:
    """Undo git's C-style quoting of a path (`"a/new\\nline.py"`, octal `\\377` for raw bytes)."""
    if len(raw) < 2 or raw[:1] != b'"' or raw[-1:] != b'"':
        return raw
    body = raw[1:-1]
    out = bytearray()
    i = 0
    while i < len(body):
        c = body[i]
        if c == 0x5C and i + 1 < len(body):
            nxt = body[i + 1]
            octal = body[i + 1 : i + 4]
            if len(octal) == 3 and all(0x30 <= b <= 0x37 for b in octal):
                out.append(int(octal, 8) & 0xFF)
                i += 4
                continue
            out.append(_ESCAPES.get(nxt, nxt))
            i += 2
            continue
        out.append(c)
        i += 1
    return bytes(out)


# --- blame --------------------------------------------------------------------------------------------


def _blame_all(
    repo: _Repo,
    plans: dict[str, _Plan],
    mtimes: dict[str, int],
    deadline: float,
    workers: int,
    st: GitTimesStats,
) -> None:
    """Blame the files that still need it, newest first, `workers` at a time, until the deadline."""
    todo = sorted((p for p, plan in plans.items() if plan.blame), key=lambda p: (-plans[p].changed, p))
    if not todo:
        return
    t = time.monotonic()
    lock = threading.Lock()

    def one(path: str) -> None:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            return
        t1 = time.monotonic()
        try:
            lines = _blame(repo, path, mtimes[path], min(remaining, _BLAME_TIMEOUT_S))
        except (OSError, ValueError, subprocess.SubprocessError):
            lines = None
        with lock:
            if lines is None:
                st.blame_failed += 1
            else:
                st.blamed += 1
                st.blame_file_seconds.append(time.monotonic() - t1)
                plans[path].lines = lines
                plans[path].blame = False

    with ThreadPoolExecutor(max_workers=workers) as pool:
        list(pool.map(one, todo))
    st.blame_seconds = time.monotonic() - t


def _blame(repo: _Repo, path: str, mtime: int, timeout: float) -> list[int] | None:
    """Committer time per line of the work-tree file (uncommitted lines: `mtime`), or None.

    No revision is named, so git blames the file as it is on disk, the same bytes the nodes were cut
    from; `--` comes before the path (relative to the root, git's working directory here).
    """
    proc = repo.popen("blame", "--porcelain", "--", os.fsencode(path))
    if proc is None:
        return None
    try:
        out, _ = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        return None
    if proc.returncode != 0:
        return None
    return parse_blame_porcelain(out, mtime)


def parse_blame_porcelain(out: bytes, uncommitted_time: int) -> list[int]:
    """`git blame --porcelain` output -> committer time of each final line, in order.

    Each line group starts with `<sha> <orig> <final> [<count>]`; the first group of a commit is followed
    by its headers (`committer-time ...`); every source line follows, prefixed by a TAB, so file
    content can never be mistaken for a header.
    """
    times: dict[bytes, int] = {}
    by_line: dict[int, bytes] = {}
    sha = b""
    for line in out.split(b"\n"):
        if not line or line[:1] == b"\t":
            continue
        m = _BLAME_HEADER.match(line)
        if m is not None:
            sha = m.group(1)
            by_line[int(m.group(2))] = sha
        elif line.startswith(b"committer-time "):
            try:
                times[sha] = int(line[15:])
            except ValueError:
                pass
    result: list[int] = []
    for i in range(1, len(by_line) + 1):
        sha = by_line.get(i, _UNCOMMITTED)
        if sha in (_UNCOMMITTED, _UNCOMMITTED_256):
            result.append(uncommitted_time)
        else:
            result.append(times.get(sha, uncommitted_time))
    return result


# --- per-node times -----------------------------------------------------------------------------------


def _times_for_file(nodes: list[Node], plan: _Plan) -> list[Node]:
    lines = plan.lines
    if lines is not None and nodes and max(n.end_line for n in nodes) > len(lines):
        lines = None  # blame describes other content (the file changed since it was read): fall back
    if lines is None:
        return [
            msgspec.structs.replace(n, created_at=plan.created or None, changed_at=plan.changed or None)
            for n in nodes
        ]
    # Lines owned by top-level definitions: a module remainder's times skip them.
    covered = bytearray(len(lines) + 2)
    for n in nodes:
        if n.parent_uid == 0 and n.kind != NodeKind.MODULE.value:
            lo, hi = max(1, n.start_line), min(len(lines), n.end_line)
            if hi >= lo:
                covered[lo : hi + 1] = b"\x01" * (hi - lo + 1)
    out = []
    for n in nodes:
        lo, hi = max(1, n.start_line), max(1, n.end_line)
        span = lines[lo - 1 : hi]
        if n.kind == NodeKind.MODULE.value:
            own = [t for i, t in enumerate(span, start=lo) if not covered[i]]
            span = own or span
        if span:
            created, changed = min(span), max(span)
        else:
            created, changed = plan.created, plan.changed
        out.append(msgspec.structs.replace(n, created_at=created or None, changed_at=changed or None))
    return out
