"""Node times: when each node's lines were created and last changed.

Owns: turning repository history into `Node.created_at` / `Node.changed_at`, for the nodes of the files
a build re-parsed: which files take file times, blame or the replay, blaming them, and cutting line
times into node times. Running git and parsing its output is git.py's; the replay is replay.py's; the
per-file plan and the statistics are plan.py's; one time per split definition is parts.py's. Does not
own: where the times are stored or filtered (lexical.py, streams.py), or the decision to read git at
all (the build passes `use_git`).

What a time means. A node's `created_at` is the earliest and its `changed_at` the latest **committer
time** among the lines of its range [start_line, end_line], as `git blame --first-parent` attributes
them: when each line landed on the branch being indexed. The earliest leaves out a line the file
holds more than once (`}`, `return nil`, a blank line) when the node has others: the diff may match
it to a copy in an older function, which made a function added after a reorder "exist" years
before it did. Committer time, not author time, because `--as-of v1.2.0` and `--since HEAD~20`
resolve a ref to its commit time (`%ct`, timeparse.py): comparing commit times with commit times
keeps "existed at that ref" honest for rebased and cherry-picked work, whose author dates can be
years older than the commit that landed it. First parent, for the same reason: a line written on
a side branch in March and merged in May did not exist on this branch in April, and plain blame
would say it did (it names the side-branch commit).
Lines not committed yet (modified, staged or untracked files) take the file's modification time. A
module-remainder node spans from its first to its last line, holes included, so its times are taken
over its lines minus those of the file's top-level definitions: editing a function does not make the
module's imports "changed". A definition split into windows (parts) takes, in every part, the times
of the whole (parts.py), since search answers any part as the whole definition.

Outside a git work tree, with `use_git=False`, when git is missing or broken, or before the first
commit, every node of a file takes the file's modification time and the source is "file times", so
`qry status` never pretends history it does not have. Nothing here raises: a failing git command makes
its files fall back, never the build.

How, and what it costs (bench/gittimes_cost.py measures it). `git blame` walks the history once
per file: ~5-25 ms a file in a young, packed repository, ~50-150 ms with a few thousand commits (up to
~1 s for a file with a thousand of them), so blaming every file of a mature repository takes minutes.
Two strategies, and a cache:

- Few files (an incremental build, <= DIRECT_BLAME_MAX files): blame each, two at a time.
- Many files: one **replay** of HEAD's first-parent history, newest first, `git log -p -U0 -M`: every
  wanted line starts unattributed at HEAD's version (after mapping the work tree onto HEAD with
  `git diff -U0 HEAD`); each commit's zero-context hunks attribute the lines they add and map the others
  to the parent's line numbers; renames carry a file to its old name; a merge is diffed against its
  first parent. This is `blame --first-parent`'s own algorithm (same diffs, same rename detection),
  done for all files in one walk that stops as soon as every line is attributed; its answer is
  blame's exactly (checked line by line in the tests, with merges, and on vuejs/core: 12,239 lines of
  25 files its merges touched; the walk of 6,436 commits took 2.7 s, where blaming the 353 files that
  took lines from merges took 12 s more under plain blame's semantics). The log comes from one git
  per core over consecutive segments of the history (logwalk.py).
- Either way, with a cache folder (cache.py): when a commit on HEAD's first-parent chain has cached
  line times, the replay reads only the commits above it and takes the rest from there, whatever the
  number of files; each call keeps the exact times of its clean files at HEAD for the next one.

The budget (`budget` seconds for the whole call) bounds both: the replay is killed at the deadline, and
so are blames still running. Lines the replay had not reached take the time of the oldest commit it
read (they last changed before it: an upper bound), and those files are blamed while budget remains;
files not blamed in time keep those bounds, or in the direct strategy HEAD's commit time. Upper
bounds keep a node under --since (it may look newer than it is); under --until and --as-of it may be left out.

Known blind spots, accepted: files inside a submodule (not tracked by this repository: file times);
a shallow clone, where history stops at the boundary commit, which owns everything older (blame says
the same); content filters that change line structure between the work tree and git.

Paths are handled as bytes (git's C-quoting undone), so spaces, newlines and non-UTF-8 names survive;
no value read from a file or a user ever reaches git's argument list before `--`.
"""

from __future__ import annotations

import os
import subprocess
import threading
import time
from collections import Counter
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import msgspec

from indexlib.index.gittimes.cache import TimesCache
from indexlib.index.gittimes.git import BLAME_TIMEOUT_S, GitRepo, blame_file, parse_blame_porcelain
from indexlib.index.gittimes.parts import spread_over_parts
from indexlib.index.gittimes.plan import SOURCE_FILES, SOURCE_GIT, FilePlan, GitTimesStats
from indexlib.index.gittimes.replay import replay
from indexlib.records import Node, NodeKind

__all__ = [
    "DEFAULT_BUDGET_S",
    "DEFAULT_WORKERS",
    "DIRECT_BLAME_MAX",
    "SOURCE_FILES",
    "SOURCE_GIT",
    "GitTimesStats",
    "apply_times",
    "parse_blame_porcelain",
    "plan_times",
]

DEFAULT_BUDGET_S = 30.0  # whole-call cap on history reading (bench/gittimes_cost.py)
DEFAULT_WORKERS = 2  # the machines this runs on have two cores, shared with parsing and embedding
# Up to this many files with history: blame each; more: one replay of the log. Blame's cost grows with
# the files, the replay's with the history only; the two cross at 50-64 of a pull's most recently
# changed files on vuejs/core, flask and clap (docs/benchmarks.md), so 40 stays on blame's side.
DIRECT_BLAME_MAX = 40


def plan_times(
    root: Path,
    paths: Sequence[str],
    file_mtimes: dict[str, int],
    *,
    use_git: bool,
    budget: float = DEFAULT_BUDGET_S,
    workers: int = DEFAULT_WORKERS,
    direct_max: int = DIRECT_BLAME_MAX,
    stats: GitTimesStats | None = None,
    cache_dir: Path | None = None,
) -> tuple[dict[str, FilePlan], str]:
    """The line times of each file of `paths` (relative to `root`), and where they came from.

    Needs only the files, not their nodes: a build runs it beside the parse (`apply_times` then cuts
    the lines into node times). `file_mtimes` maps paths to st_mtime_ns (a path missing is stat'ed).
    With `cache_dir`, history another build already read is taken from there (gittimes/cache.py),
    and what this call learns is kept there.

    >>> plan_times(Path("/not/a/repo"), [], {}, use_git=True)
    ({}, 'file times')
    """
    t0 = time.monotonic()
    st = stats if stats is not None else GitTimesStats()
    st.files = len(paths)
    mtimes = {p: _mtime_s(root, p, file_mtimes) for p in paths}
    plans: dict[str, FilePlan] | None = None
    if use_git and paths:
        repo = GitRepo.open(root)
        if repo is not None:
            try:
                cache = TimesCache(cache_dir) if cache_dir is not None else None
                plans = _plan_from_git(repo, mtimes, budget, max(1, workers), direct_max, st, t0, cache)
            except Exception as exc:  # times are secondary: a bug here must not fail a build
                st.error = f"{type(exc).__name__}: {exc}"
                plans = None
    if plans is None:
        plans = {p: FilePlan(created=m, changed=m) for p, m in mtimes.items()}
        st.source = SOURCE_FILES
    else:
        st.source = SOURCE_GIT
        # Which lines repeat is read from the files here, in the times job beside the parse: the
        # nodes the build hands `apply_times` carry no text (0.1-0.2 s per 100k lines, off the
        # build's critical path).
        for path, plan in plans.items():
            if plan.lines is not None:
                plan.repeated = _repeated_lines(root / path, len(plan.lines))
    st.total_seconds = time.monotonic() - t0
    return plans, st.source


def apply_times(nodes: Sequence[Node], plans: dict[str, FilePlan]) -> list[Node]:
    """`nodes` with the times their files' plans give their line ranges (every path must be planned)."""
    by_path: dict[str, list[Node]] = {}
    for n in nodes:
        by_path.setdefault(n.path, []).append(n)
    out: list[Node] = []
    for path, file_nodes in by_path.items():
        out.extend(spread_over_parts(_times_for_file(file_nodes, plans[path])))
    return out


def _mtime_s(root: Path, path: str, file_mtimes: dict[str, int]) -> int:
    ns = file_mtimes.get(path)
    if ns is None:
        try:
            ns = os.stat(root / path).st_mtime_ns
        except OSError:
            return int(time.time())
    return ns // 1_000_000_000


def _plan_from_git(
    repo: GitRepo,
    mtimes: dict[str, int],
    budget: float,
    workers: int,
    direct_max: int,
    st: GitTimesStats,
    t0: float,
    cache: TimesCache | None = None,
) -> dict[str, FilePlan] | None:
    """Decide per file: file time (untracked, new), blame (few files), or the replay (many, or any
    number when a commit below HEAD has cached times: the walk then stops there)."""
    deadline = t0 + budget
    key_of = {p: repo.prefix + os.fsencode(p) for p in mtimes}
    tracked_out = repo.run("ls-files", "-z", "--full-name", "--", ".")
    status_out = repo.run("diff", "--name-status", "-z", "--no-renames", "--no-relative", "HEAD", "--", ".")
    head_out = repo.run("show", "-s", "--format=%H %ct", "HEAD^{commit}", "--")
    if tracked_out is None or status_out is None or head_out is None:
        return None
    head_sha, _sp, head_ct = head_out.decode("ascii", "replace").strip().partition(" ")
    head_time = int(head_ct or 0)
    tracked = set(tracked_out.split(b"\0"))
    changed_vs_head = _parse_name_status(status_out)

    plans: dict[str, FilePlan] = {}
    history: dict[bytes, str] = {}  # top-relative path -> the build's path, for files with history
    for path, key in key_of.items():
        m = mtimes[path]
        status = changed_vs_head.get(key)
        if key not in tracked or status == b"A":
            plans[path] = FilePlan(created=m, changed=m)  # every line uncommitted
            st.untracked += 1
            continue
        modified = status is not None
        st.modified += modified
        # Until history says better: HEAD's commit time bounds every committed line from above.
        plans[path] = FilePlan(
            created=head_time, changed=max(head_time, m) if modified else head_time, blame=True
        )
        history[key] = path

    base = cache.nearest(repo) if cache is not None and history else None
    if len(history) <= direct_max and base is None:
        st.strategy = "blame"
    else:
        st.strategy = "replay"
        dirty = {k for k in history if k in changed_vs_head}
        replay(repo, history, dirty, plans, mtimes, head_time, deadline, st, base)
    _blame_all(repo, plans, mtimes, deadline, workers, st)
    st.fallback = sum(1 for p in history.values() if plans[p].blame)
    if cache is not None and head_sha:
        # Exact times of files clean against HEAD are HEAD's own: what a later build may start from.
        cache.save(head_sha, {
            key: lines
            for key, path in history.items()
            if key not in changed_vs_head and not plans[path].blame and (lines := plans[path].lines) is not None
        }, known=base[1] if base is not None and base[0] == head_sha else None)  # fmt: skip
    return plans


def _parse_name_status(out: bytes) -> dict[bytes, bytes]:
    """`git diff --name-status -z --no-renames` -> {path: status letter}."""
    toks = out.split(b"\0")
    res: dict[bytes, bytes] = {}
    for i in range(0, len(toks) - 1, 2):
        if toks[i]:
            res[toks[i + 1]] = toks[i][:1]
    return res


def _blame_all(
    repo: GitRepo,
    plans: dict[str, FilePlan],
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
            lines = blame_file(repo, path, mtimes[path], min(remaining, BLAME_TIMEOUT_S))
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


def _times_for_file(nodes: list[Node], plan: FilePlan) -> list[Node]:
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
    repeated = plan.repeated or bytes(len(lines))
    out = []
    for n in nodes:
        lo, hi = max(1, n.start_line), max(1, n.end_line)
        span = lines[lo - 1 : hi]
        if n.kind == NodeKind.MODULE.value:
            own = [t for i, t in enumerate(span, start=lo) if not covered[i]]
            span = own or span
        if span:
            # A line the file holds more than once (`}`, `return nil`, a blank) may be matched by the
            # diff to any copy, an older function's among them: only the others date its creation.
            telling = [t for i, t in enumerate(lines[lo - 1 : hi], start=lo) if not repeated[i - 1]]
            created, changed = min(telling or span), max(span)
        else:
            created, changed = plan.created, plan.changed
        out.append(msgspec.structs.replace(n, created_at=created or None, changed_at=changed or None))
    return out


def _repeated_lines(path: Path, count: int) -> bytes | None:
    """FilePlan.repeated for the file at `path`, or None when it cannot be read or no longer has the
    `count` lines its line times describe."""
    try:
        data = path.read_bytes()
    except OSError:
        return None
    texts = [line.strip() for line in data.split(b"\n")]
    if data.endswith(b"\n"):
        texts.pop()
    if len(texts) != count:
        return None
    seen = Counter(texts)
    return bytes(seen[t] > 1 for t in texts)
