"""Peak memory of `qry index --embed none` on large trees; prints a markdown table.

Trees: a copy of this interpreter's standard library (without site-packages and __pycache__), and a
synthetic repository of tiny one-function Python files (100k by default). For each, a full build into a
fresh index, then a re-index of the unchanged tree (the incremental fast path).

Two numbers per run, because `qry index` parses in a fork pool when many files changed:
- "peak RSS, qry": the largest resident set of any one process of the run (getrusage RUSAGE_CHILDREN
  of a wrapper process that runs only this build, so earlier runs do not leak into it; the same number
  /usr/bin/time -v prints as "Maximum resident set size");
- "peak RSS, all": the largest sum of resident sets over qry and its workers, sampled every 50 ms
  from /proc (workers share copy-on-write pages with the parent, so this over-counts shared pages).

Usage: python bench/memory.py [--tiny N] [--skip-stdlib] [--skip-tiny] [--workdir DIR]
Measured numbers belong in docs/reliability.md; timings are for orientation only (shared cores).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import threading
import time
from pathlib import Path

_WRAPPER = (
    "import resource, subprocess, sys; p = subprocess.run(sys.argv[1:], stdout=subprocess.PIPE); "
    "sys.stderr.write(str(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss) + '\\n'); "
    "sys.stdout.buffer.write(p.stdout); sys.exit(p.returncode)"
)


def copy_stdlib(dest: Path) -> Path:
    """This interpreter's standard library, without site-packages and bytecode caches."""
    src = Path(sysconfig.get_paths()["stdlib"])
    shutil.copytree(src, dest, ignore=shutil.ignore_patterns("site-packages", "__pycache__"), symlinks=True)
    return dest


def make_tiny_repo(root: Path, count: int) -> Path:
    """`count` one-function Python files, 500 per directory (as tests/reliability uses)."""
    for i in range(count):
        d = root / f"d{i // 500:04d}"
        if i % 500 == 0:
            d.mkdir(parents=True)
        (d / f"f{i}.py").write_bytes(b"def tiny_%d():\n    return %d\n" % (i, i))
    return root


def _group_rss_kib(pgid: int) -> int:
    total = 0
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as fh:
                stat = fh.read()
            fields = stat[stat.rfind(b")") + 2 :].split()
            if int(fields[2]) != pgid:
                continue
            with open(f"/proc/{entry}/status", "rb") as fh:
                for line in fh:
                    if line.startswith(b"VmRSS:"):
                        total += int(line.split()[1])
                        break
        except (OSError, ValueError, IndexError):
            continue
    return total


def measure(repo: Path, index_dir: Path) -> dict[str, float]:
    """Run one `qry index` in a fresh wrapper process; return wall time, both peaks, the report."""
    cmd = [sys.executable, "-c", _WRAPPER, sys.executable, "-m", "cli", "index", str(repo), "--embed", "none",
           "--no-git-times", "--json", "--index-dir", str(index_dir)]  # fmt: skip
    peak_all = 0
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    done = threading.Event()

    def sample() -> None:
        nonlocal peak_all
        while not done.is_set():
            peak_all = max(peak_all, _group_rss_kib(proc.pid))
            time.sleep(0.05)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    out, err = proc.communicate()
    done.set()
    sampler.join()
    wall = time.perf_counter() - t0
    if proc.returncode != 0:
        raise SystemExit(f"qry index failed ({proc.returncode}):\n{err.decode(errors='replace')[-2000:]}")
    peak_one = int(err.decode().strip().splitlines()[-1])
    report = json.loads(out)
    return {
        "wall": wall,
        "peak_one_mib": peak_one / 1024,
        "peak_all_mib": peak_all / 1024,
        "files": report["files"],
        "nodes": report["nodes_total"],
        "published": report["published"],
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tiny", type=int, default=100_000, help="files in the synthetic repository")
    ap.add_argument("--skip-stdlib", action="store_true")
    ap.add_argument("--skip-tiny", action="store_true")
    ap.add_argument("--workdir", type=Path, default=None, help="where to build the trees (default: a temp dir)")
    args = ap.parse_args()
    work = args.workdir or Path(tempfile.mkdtemp(prefix="qry-memory-"))
    work.mkdir(parents=True, exist_ok=True)
    trees: list[tuple[str, Path]] = []
    if not args.skip_stdlib:
        trees.append(("Python stdlib", copy_stdlib(work / "stdlib") if not (work / "stdlib").exists() else work / "stdlib"))
    if not args.skip_tiny:
        tiny = work / f"tiny{args.tiny}"
        if not tiny.exists():
            make_tiny_repo(tiny, args.tiny)
        trees.append((f"{args.tiny:,} tiny files", tiny))
    rows = []
    for name, repo in trees:
        index_dir = work / f"{repo.name}.qry"
        shutil.rmtree(index_dir, ignore_errors=True)
        for run in ("full build", "unchanged re-index"):
            m = measure(repo, index_dir)
            rows.append((name, run, m))
            print(f"{name} / {run}: {m}", file=sys.stderr, flush=True)
    print("| tree | run | files | nodes | wall s | peak RSS, qry (MiB) | peak RSS, all processes (MiB) |")
    print("|---|---|---:|---:|---:|---:|---:|")
    for name, run, m in rows:
        print(f"| {name} | {run} | {m['files']:,} | {m['nodes']:,} | {m['wall']:.1f} | "
              f"{m['peak_one_mib']:.0f} | {m['peak_all_mib']:.0f} |")  # fmt: skip
    if args.workdir is None:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
