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

Cost, and how it is bounded (measured numbers: docs/benchmarks.md, "git times"). `git blame` costs from ~5 ms for
a file with one commit to seconds for a long-lived file, so it is avoided where a cheaper command gives
the same answer and capped where it does not:

1. One `git log --name-status -M` pass over HEAD's history records, per wanted file, how many commits
   touched it, its first and last commit times, and whether its only commit added it whole. A file
   whose only commit added it (not renamed or copied it) has every line from that commit: blame would
   say the same, so it is not blamed. The pass stops early once every wanted file has been seen twice,
   and it gets half the time budget (at least LOG_FLOOR_S).
2. The remaining files (and every file modified in the work tree) are blamed, two at a time, newest
   first, until the budget runs out (`budget` seconds for the whole call; blames still running then are
   killed).
3. A file left unblamed falls back to its log times: `changed_at` = its last commit (exact for the
   newest node, an upper bound for the others; the file time if it is modified on disk) and
   `created_at` = its first commit the log pass saw (a lower bound when the pass read the whole
   history). Both err towards keeping a node under --since and --as-of rather than losing it.

Known blind spots, accepted: an "evil" merge that edits a file whose only other commit added it (the log
pass does not diff merges); files inside a submodule (they are not tracked by this repository, so they
take file times); a shallow clone, where blame and log both stop at the boundary commit and attribute
everything older to it.

Paths are handled as bytes with NUL-separated (`-z`) git output, so spaces, newlines and non-UTF-8
names survive; no value read from a file or a user ever reaches git's argument list before `--`.
"""

from __future__ import annotations

import os
import re
import subprocess
import threading
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import msgspec

from indexlib.records import Node, NodeKind

SOURCE_GIT = "git"
SOURCE_FILES = "file times"

DEFAULT_BUDGET_S = 30.0  # whole-call cap on history reading; see docs/benchmarks.md
DEFAULT_WORKERS = 2  # the machines this runs on have two cores, shared with parsing and embedding
LOG_SHARE = 0.5  # the log pass may use this share of the budget ...
LOG_FLOOR_S = 2.0  # ... but at least this long: without it no fallback time exists at all
_CMD_TIMEOUT_S = 30.0  # small bookkeeping commands (rev-parse, ls-files, diff)
_BLAME_TIMEOUT_S = 300.0  # one file's blame, whatever the budget
_LOG_TIMEOUT_S = 600.0  # the log pass, whatever the budget

_UNCOMMITTED = b"0" * 40
_UNCOMMITTED_256 = b"0" * 64
_BLAME_HEADER = re.compile(rb"^([0-9a-f]{40}|[0-9a-f]{64}) \d+ (\d+)(?: \d+)?$")
_LOG_HEADER = re.compile(rb"^\x01([0-9a-f]{40}|[0-9a-f]{64}) (-?\d+)$")

# Settings a user's git config could set that would change or break the output we parse.
_GIT_CONFIG = (
    "-c", "blame.ignoreRevsFile=",
    "-c", "blame.markIgnoredLines=false",
    "-c", "blame.markUnblamableLines=false",
    "-c", "log.showSignature=false",
    "-c", "core.quotePath=false",
    "-c", "diff.external=",
    "-c", "color.ui=false",
)  # fmt: skip


@dataclass(slots=True)
class GitTimesStats:
    """What one `annotate` call did, for benchmarks and tests (the build does not need it)."""

    source: str = SOURCE_FILES
    files: int = 0
    untracked: int = 0  # untracked or new since HEAD: file time
    modified: int = 0  # differs from HEAD in the index or work tree: blamed (uncommitted lines = file time)
    single_commit: int = 0  # one commit added the file whole: its time, no blame
    blamed: int = 0
    blame_failed: int = 0
    fallback: int = 0  # wanted a blame, got the log pass's times (budget spent, or blame failed)
    log_complete: bool = False
    log_commits: int = 0
    log_seconds: float = 0.0
    blame_seconds: float = 0.0  # wall time of the blame phase
    blame_file_seconds: list[float] = field(default_factory=list)  # per blamed file, as measured
    total_seconds: float = 0.0
    error: str = ""  # an unexpected failure that made every file fall back to file times


@dataclass(slots=True)
class _History:
    """One file as the log pass saw it."""

    commits: int = 0
    first: int = 0
    last: int = 0
    only_added: bool = False  # its single commit so far added it whole (status A)


@dataclass(slots=True)
class _Plan:
    """How one file gets its times: `lines` from blame, else the flat (created, changed) pair."""

    created: int
    changed: int
    blame: bool = False
    lines: list[int] | None = None


def annotate(
    root: Path,
    nodes: Sequence[Node],
    file_mtimes: dict[str, int],
    *,
    use_git: bool,
    budget: float = DEFAULT_BUDGET_S,
    workers: int = DEFAULT_WORKERS,
    stats: GitTimesStats | None = None,
) -> tuple[list[Node], str]:
    """Return `nodes` with `created_at` / `changed_at` set, and where the times came from.

    `nodes` are the nodes of the files the build re-parsed; `file_mtimes` maps their paths (relative
    to `root`) to st_mtime_ns. The source is "git" when history was read, else "file times". Never
    raises for git trouble: the affected files fall back to file times or log times.

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
                plans = _plan_from_git(repo, by_path, mtimes, budget, max(1, workers), st, t0)
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
    st: GitTimesStats,
    t0: float,
) -> dict[str, _Plan] | None:
    """Decide per file: file time, single-commit time, or blame (with a log-time fallback)."""
    key_of = {p: repo.prefix + os.fsencode(p) for p in by_path}
    tracked_out = repo.run("ls-files", "-z", "--full-name", "--", ".")
    diff_out = repo.run(
        "diff", "--name-status", "-z", "--no-renames", "--no-relative", "--no-ext-diff", "HEAD", "--", "."
    )
    if tracked_out is None or diff_out is None:
        return None
    tracked = set(tracked_out.split(b"\0"))
    changed_vs_head = _parse_name_status(diff_out)

    plans: dict[str, _Plan] = {}
    need_history: dict[bytes, str] = {}
    for path, key in key_of.items():
        m = mtimes[path]
        status = changed_vs_head.get(key)
        if key not in tracked or status == b"A":
            plans[path] = _Plan(created=m, changed=m)  # every line uncommitted
            st.untracked += 1
            continue
        if status is not None:
            st.modified += 1
        need_history[key] = path

    log_deadline = t0 + max(budget * LOG_SHARE, LOG_FLOOR_S)
    histories, oldest_seen, complete = _log_pass(repo, set(need_history), log_deadline, st)

    for key, path in need_history.items():
        m = mtimes[path]
        h = histories.get(key)
        modified = key in changed_vs_head
        if h is None:
            # Not in the history we read: older than `oldest_seen` if the pass was cut short.
            t = oldest_seen if (not complete and oldest_seen) else m
            plans[path] = _Plan(created=t, changed=m if modified else t, blame=True)
        elif complete and h.commits == 1 and h.only_added and not modified:
            plans[path] = _Plan(created=h.last, changed=h.last)
            st.single_commit += 1
        else:
            plans[path] = _Plan(created=h.first, changed=m if modified else h.last, blame=True)

    _blame_all(repo, plans, mtimes, t0 + budget, workers, st)
    return plans


def _parse_name_status(out: bytes) -> dict[bytes, bytes]:
    """`git diff --name-status -z --no-renames` -> {path: status letter}."""
    toks = out.split(b"\0")
    res: dict[bytes, bytes] = {}
    for i in range(0, len(toks) - 1, 2):
        if toks[i]:
            res[toks[i + 1]] = toks[i][:1]
    return res


def _log_pass(
    repo: _Repo, wanted: set[bytes], deadline: float, st: GitTimesStats
) -> tuple[dict[bytes, _History], int, bool]:
    """Stream HEAD's history once: per wanted path, commit count, first/last time, added-whole.

    Returns (histories, oldest commit time seen, whether the whole history was read). Stops early when
    every wanted path has two commits (they all need a blame anyway), or at the deadline.
    """
    t = time.monotonic()
    hist: dict[bytes, _History] = {}
    if not wanted:
        st.log_complete = True
        return hist, 0, True
    proc = repo.popen(
        "log", "-z", "--root", "-M", "--name-status", "--no-ext-diff", "--format=%x01%H %ct", "HEAD", "--"
    )
    if proc is None or proc.stdout is None:
        return hist, 0, False
    watchdog = threading.Timer(min(max(0.0, deadline - time.monotonic()), _LOG_TIMEOUT_S), proc.kill)
    watchdog.start()
    twice = 0
    commit_time = 0
    oldest = 0
    pending = 0  # paths still to read after a status token (2 for renames and copies)
    status = b""
    stopped = False
    buf = b""
    try:
        while True:
            chunk = os.read(proc.stdout.fileno(), 1 << 20)
            if not chunk:
                break
            buf += chunk
            toks = buf.split(b"\0")
            buf = toks.pop()
            for tok in toks:
                if pending:
                    pending -= 1
                    if pending and status in (b"R", b"C"):
                        continue  # the source of a rename or copy: not this path's history
                    if tok in wanted:
                        h = hist.get(tok)
                        if h is None:
                            h = hist[tok] = _History(first=commit_time, last=commit_time)
                        h.commits += 1
                        h.first = min(h.first, commit_time)
                        h.last = max(h.last, commit_time)
                        h.only_added = h.commits == 1 and status == b"A"
                        if h.commits == 2:
                            twice += 1
                    continue
                tok = tok.lstrip(b"\n")
                m = _LOG_HEADER.match(tok)
                if m is not None:
                    commit_time = int(m.group(2))
                    oldest = commit_time if not oldest else min(oldest, commit_time)
                    st.log_commits += 1
                    continue
                if tok:
                    status = tok[:1]
                    pending = 2 if status in (b"R", b"C") else 1
            if twice == len(wanted):
                stopped = True
                break
    except (OSError, ValueError):
        pass
    finally:
        watchdog.cancel()
        if proc.poll() is None:
            proc.kill()
        proc.wait()
        proc.stdout.close()
    complete = not stopped and proc.returncode == 0
    st.log_complete = complete
    st.log_seconds = time.monotonic() - t
    return hist, oldest, complete


def _blame_all(
    repo: _Repo,
    plans: dict[str, _Plan],
    mtimes: dict[str, int],
    deadline: float,
    workers: int,
    st: GitTimesStats,
) -> None:
    """Blame the files that need it, newest first, `workers` at a time, until the deadline."""
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

    with ThreadPoolExecutor(max_workers=workers) as pool:
        list(pool.map(one, todo))
    st.fallback = sum(1 for p in todo if plans[p].lines is None)
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
