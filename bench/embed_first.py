"""A first `qry index` of a real tree, whole process, side by side with another qry (e.g. main's code).

Not a test: prints a markdown table for docs/benchmarks.md. For each qry command given (`--qry`, as a
shell-split command line; the first is the one under test), on a fresh copy of TREE with an empty user
cache folder:

1. the full build (`index COPY`, vectors included): wall seconds, the moment the lexical root was
   published (`.qry/HEAD` first appears; polled every 10 ms), peak RSS of the largest process;
2. a second clone: another fresh copy indexed with the same user cache (the shared vector cache);
3. the same tree again, unchanged (the incremental fast path).

  python bench/embed_first.py TREE --qry "python -m cli" --qry "env PYTHONPATH=/tmp/base python -m cli"
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

_WRAPPER = (
    "import resource, subprocess, sys; p = subprocess.run(sys.argv[1:], stdout=subprocess.PIPE); "
    "sys.stderr.write('RSS ' + str(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss) + '\\n'); "
    "sys.stdout.buffer.write(p.stdout); sys.exit(p.returncode)"
)


def run_index(cmd: list[str], tree: Path, env: dict[str, str]) -> dict[str, float]:
    head = tree / ".qry" / "HEAD"
    first_root: list[float] = []
    done = threading.Event()
    t0 = time.perf_counter()

    def watch() -> None:
        while not done.is_set():
            if head.exists():
                first_root.append(time.perf_counter() - t0)
                return
            time.sleep(0.01)

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    proc = subprocess.run(
        [sys.executable, "-c", _WRAPPER, *cmd, "index", str(tree), "--json"],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    wall = time.perf_counter() - t0
    done.set()
    watcher.join()
    if proc.returncode != 0:
        raise SystemExit(f"{cmd} failed: {proc.stderr[-2000:]}")
    rss_kb = next(int(line.split()[1]) for line in proc.stderr.splitlines() if line.startswith("RSS "))
    report = json.loads(proc.stdout)
    return {
        "wall": wall,
        "lexical_root": first_root[0] if first_root else float("nan"),
        "rss_mb": rss_kb / 1024,
        "embedded": report.get("embedded", 0),
        "cached": report.get("embed_cached", 0),
        "nodes": report.get("nodes_total", 0),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("tree", type=Path)
    ap.add_argument("--qry", action="append", default=[], help="a qry command line (repeatable)")
    ap.add_argument(
        "--first-only",
        action="append",
        default=[],
        help="a qry command line of which only the first build is run (e.g. one without a shared cache)",
    )
    args = ap.parse_args()
    if not args.qry and not args.first_only:
        ap.error("give at least one --qry or --first-only command")
    print(f"\n{args.tree.name}, load average before: {os.getloadavg()[0]:.2f}\n")
    print("| qry | run | wall s | lexical root s | peak RSS MB | nodes | embedded | cached |")
    print("|---|---|---:|---:|---:|---:|---:|---:|")
    for cmd_text in [*args.qry, *args.first_only]:
        cmd = shlex.split(cmd_text)
        labels = (
            ("first build",)
            if cmd_text in args.first_only
            else ("first build", "second clone", "unchanged re-index")
        )
        with tempfile.TemporaryDirectory() as tmp:
            work = Path(tmp)
            env = dict(os.environ, XDG_CACHE_HOME=str(work / "xdg"))
            runs = []
            for label in labels:
                target = work / ("clone-b" if label == "second clone" else "clone-a")
                if label != "unchanged re-index":
                    shutil.copytree(args.tree, target, symlinks=True, ignore=shutil.ignore_patterns(".qry"))
                runs.append((label, run_index(cmd, target, env)))
            for label, r in runs:
                print(
                    f"| `{cmd_text}` | {label} | {r['wall']:.1f} | {r['lexical_root']:.2f} | {r['rss_mb']:.0f} "
                    f"| {r['nodes']:.0f} | {r['embedded']:.0f} | {r['cached']:.0f} |",
                    flush=True,
                )
    print(f"\nload average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
