"""Cost of git-aware node times (indexlib.index.gittimes) on a repository with history.

Measures: the log pass; `git blame` per file (serial, by the file's commit count); plan_times() + apply_times() end to end
with an unlimited budget (exact), with smaller budgets (how many files fall back, and how far the
fallback times are from the exact ones); and blaming every file with no fast path, for comparison.
Usage: python bench/gittimes_cost.py REPO (make one with bench/gittimes_make_repo.py) [BUDGETS...]
"""
import os
import statistics
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from indexlib.index import gittimes
from indexlib.index.parsing import parse_file
from indexlib.index.parsing.languages import detect_language

repo = Path(sys.argv[1]).resolve()
budgets = [float(b) for b in sys.argv[2:]] or [1.0, 3.0]
files = subprocess.run(["git", "-C", str(repo), "ls-files", "-z"], capture_output=True, check=True).stdout.split(b"\0")
nodes, mtimes = [], {}
for f in files:
    p = os.fsdecode(f)
    lang = detect_language(p) if p else None
    if not lang:
        continue
    data = (repo / p).read_bytes()
    nodes.extend(parse_file(p, data, lang).nodes)
    mtimes[p] = os.stat(repo / p).st_mtime_ns
paths = sorted(mtimes)
print(f"repo {repo}: {len(paths)} files, {len(nodes)} nodes, "
      f"{subprocess.run(['git','-C',str(repo),'rev-list','--count','HEAD'],capture_output=True,text=True).stdout.strip()} commits")

counts = {}
out = subprocess.run(["git", "-C", str(repo), "log", "--format=", "--name-only", "-z"], capture_output=True).stdout
for name in out.replace(b"\n", b"").split(b"\0"):
    if name:
        counts[os.fsdecode(name)] = counts.get(os.fsdecode(name), 0) + 1

# 1. blame per file, serial
per = []
t = time.perf_counter()
for p in paths:
    t1 = time.perf_counter()
    subprocess.run(["git", "-C", str(repo), "blame", "--porcelain", "--", p], capture_output=True, check=False)
    per.append((counts.get(p, 0), time.perf_counter() - t1))
serial = time.perf_counter() - t
def summary(xs):
    xs = sorted(xs)
    return f"n={len(xs)} median {1000*statistics.median(xs):.1f} ms, p90 {1000*xs[int(0.9*(len(xs)-1))]:.1f} ms, max {1000*xs[-1]:.1f} ms"
print(f"blame per file, serial: {summary([s for _, s in per])}; total {serial:.2f} s")
for lo, hi in ((0, 1), (2, 3), (4, 9), (10, 10**9)):
    sel = [s for c, s in per if lo <= c <= hi]
    if sel:
        print(f"  files with {lo}-{hi if hi < 10**9 else 'inf'} commits: {summary(sel)}")

# 2. blame everything, 2 workers, no fast path
t = time.perf_counter()
with ThreadPoolExecutor(2) as pool:
    list(pool.map(lambda p: subprocess.run(["git", "-C", str(repo), "blame", "--porcelain", "--", p], capture_output=True), paths))
print(f"blame every file, 2 workers, no fast path: {time.perf_counter() - t:.2f} s")

# 3. plan_times + apply_times: replay (default for many files), exact and budgeted; blame strategy for comparison
def run(budget, direct_max=gittimes.DIRECT_BLAME_MAX, sel=None):
    st = gittimes.GitTimesStats()
    ns = nodes if sel is None else [n for n in nodes if n.path in sel]
    mt = mtimes if sel is None else {p: mtimes[p] for p in sel}
    t = time.perf_counter()
    paths = list(dict.fromkeys(n.path for n in ns))
    plans, _src = gittimes.plan_times(
        repo, paths, mt, use_git=True, budget=budget, direct_max=direct_max, stats=st
    )
    out = gittimes.apply_times(ns, plans)
    return out, st, time.perf_counter() - t
exact, st, el = run(1e9, direct_max=10**9)
print(f"node times, blame strategy, no budget: {el:.2f} s (blamed {st.blamed})")
ref = {n.uid: (n.created_at, n.changed_at) for n in exact}
def accuracy(out):
    same = sum(1 for n in out if ref[n.uid] == (n.created_at, n.changed_at))
    errs = [(n.changed_at - ref[n.uid][1]) / 86400 for n in out if ref[n.uid][1] != n.changed_at]
    ch = sum(1 for n in out if ref[n.uid][1] == n.changed_at)
    return (f"nodes exact {100*same/len(out):.1f}%, changed_at exact {100*ch/len(out):.1f}%"
            + (f", changed_at off by median {statistics.median(errs):+.0f} days (min {min(errs):+.0f}, max {max(errs):+.0f})" if errs else ""))
out, st, el = run(1e9)
print(f"node times, {st.strategy}, no budget: {el:.2f} s (replay {st.replay_seconds:.2f} s over {st.replay_commits} commits, "
      f"complete={st.replay_complete}; merge-touched files {st.merge_files}, blamed {st.blamed} in {st.blame_seconds:.2f} s); {accuracy(out)}")
for b in budgets:
    out, st, el = run(b)
    print(f"node times, {st.strategy}, budget {b:g} s: {el:.2f} s; replay commits {st.replay_commits}, complete={st.replay_complete}, "
          f"blamed {st.blamed}, files with bounds {st.fallback}; {accuracy(out)}")
    out, st, el = run(b, direct_max=10**9)
    print(f"node times, blame strategy, budget {b:g} s: {el:.2f} s; blamed {st.blamed}, files with bounds {st.fallback}; {accuracy(out)}")
sel = set(paths[:: max(1, len(paths) // 10)][:10])
out, st, el = run(1e9, sel=sel)
print(f"incremental, {len(sel)} files: {st.strategy} {el:.2f} s")
