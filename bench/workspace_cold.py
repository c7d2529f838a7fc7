"""Whole-process cost of a cold hybrid `qry search -w W`: wall time and peak RSS, two source trees side by side.

Owns: running `python -m cli search QUESTION -w W` as a fresh process per run, each question new to
every index's query-vector cache (so the model is loaded and the question embedded, as on a user's
first question), alternating the source trees given with --src so both share the machine's state, and
printing the median wall time and peak RSS of each (os.wait4's ru_maxrss: the one process's peak).

Why: a workspace search asks each index from its own Engine; the query model used to be loaded once
per Engine (retrieval/querymodel.py shares it now), which a per-query, in-process benchmark with the
vectors cached does not see.

    python bench/workspace_cold.py -w dev --src new=/work/main --src old=/tmp/qry-old --runs 7
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
import uuid


def run_once(src: str, workspace: str, question: str) -> tuple[float, float]:
    """(wall seconds, peak RSS in MB) of one `qry search` run from the source tree `src`."""
    env = {**os.environ, "PYTHONPATH": src}
    cmd = [sys.executable, "-m", "cli", "search", question, "-w", workspace, "-k", "5", "--json"]
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, cwd=src, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _pid, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - t0
    err = proc.stderr.read().decode() if proc.stderr else ""
    if os.waitstatus_to_exitcode(status) not in (0, 1):
        raise SystemExit(f"{src}: qry search failed: {err}")
    return wall, usage.ru_maxrss / 1024


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("-w", "--workspace", required=True)
    ap.add_argument("--src", action="append", required=True, metavar="NAME=DIR")
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--question", default="handle a signal in the file watcher")
    args = ap.parse_args()
    trees = [tuple(s.split("=", 1)) for s in args.src]
    got: dict[str, list[tuple[float, float]]] = {name: [] for name, _src in trees}
    for i in range(args.runs):
        for name, src in trees if i % 2 == 0 else reversed(trees):
            got[name].append(run_once(src, args.workspace, f"{args.question} {uuid.uuid4().hex[:8]}"))
    print("| source | runs | wall p50 | wall min | peak RSS p50 |")
    print("|---|---:|---:|---:|---:|")
    for name, rows in got.items():
        walls = [w for w, _m in rows]
        print(
            f"| {name} | {len(rows)} | {statistics.median(walls):.2f} s | {min(walls):.2f} s |"
            f" {statistics.median(m for _w, m in rows):.0f} MB |"
        )


if __name__ == "__main__":
    main()
