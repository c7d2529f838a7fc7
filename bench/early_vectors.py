"""Early vectors (indexlib/index/build/prefetch.py) on and off, side by side: an incremental
`qry index` after a pull, where the parse runs in-process and leaves cores idle.

Not a test: prints a markdown table for docs/benchmarks.md. For each repository (a git mirror or
clone): a clone checked out N first-parent commits back is indexed with vectors; then, alternately
with the prefetch forced on (`PREFETCH_MIN_IDLE = 1`, so one idle core is enough) and off, a copy of
that index is brought to HEAD with the history cache warm and the vector caches holding only the
older commit's texts, so each run embeds the pull's new texts. Whole process (`qry index --json`);
"lexical root" is the build's seconds minus its vector stage.

  python bench/early_vectors.py /work/.mirror/pallets+flask/repo --back 20 --rounds 5
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

_RUN = (
    "import sys; import indexlib.index.build.prefetch as p; p.PREFETCH_MIN_IDLE = int(sys.argv[1]); "
    "sys.argv = ['qry', 'index', sys.argv[2], '--json', '--threads', sys.argv[3]]; "
    "from cli.entry import run; run()"
)


def _git(*args: str | Path) -> None:
    subprocess.run(["git", *map(str, args)], check=True, capture_output=True)


def _build(tree: Path, min_idle: int, env: dict[str, str], threads: int) -> dict[str, Any]:
    out = subprocess.run(
        [sys.executable, "-c", _RUN, str(min_idle), str(tree), str(threads)],
        env=env,
        check=True,
        capture_output=True,
        text=True,
    )
    return dict(json.loads(out.stdout))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("repos", nargs="+", type=Path)
    ap.add_argument("--back", type=int, default=20, help="first-parent commits the clone starts behind")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument(
        "--threads",
        type=int,
        default=0,
        help="the model's cores (0: all). With 1 on two cores, the model has a core the in-process "
        "parse does not use: a machine with idle cores beside the parse, in small",
    )
    args = ap.parse_args()
    cores = len(os.sched_getaffinity(0))
    print(f"\nload average before: {os.getloadavg()[0]:.2f}, cores: {cores}, --threads {args.threads}\n")
    print(
        "| repository | early vectors | runs | embedded | lexical root s (median) | whole build s (median) | min-max s |"
    )
    print("|---|---|---:|---:|---:|---:|---:|")
    for repo in args.repos:
        with tempfile.TemporaryDirectory() as tmp:
            work = Path(tmp)
            tree = work / "clone"
            _git("clone", "-q", repo, tree)
            _git("-C", tree, "checkout", "-q", f"HEAD~{args.back}")
            base_xdg = work / "xdg-base"
            env = dict(os.environ, XDG_CACHE_HOME=str(base_xdg))
            _build(tree, 99, env, args.threads)
            shutil.copytree(tree / ".qry", work / "index-base", symlinks=True)
            shutil.rmtree(base_xdg / "qry" / "shared", ignore_errors=True)  # keep the history cache only
            _git("-C", tree, "checkout", "-q", "-")
            runs: dict[str, list[tuple[float, float, int]]] = {"on": [], "off": []}
            for _ in range(args.rounds):
                for label, min_idle in (("off", 99), ("on", 1)):
                    shutil.rmtree(tree / ".qry")
                    shutil.copytree(work / "index-base", tree / ".qry", symlinks=True)
                    xdg = work / "xdg-run"
                    shutil.rmtree(xdg, ignore_errors=True)
                    shutil.copytree(base_xdg, xdg, symlinks=True)
                    report = _build(tree, min_idle, dict(os.environ, XDG_CACHE_HOME=str(xdg)), args.threads)
                    total = float(report["elapsed"])
                    lexical = total - float(report["timings"].get("embed", 0.0))
                    runs[label].append((lexical, total, int(report["embedded"])))
        name = repo.parent.name if repo.name == "repo" else repo.name
        for label in ("off", "on"):
            lex = [r[0] for r in runs[label]]
            whole = [r[1] for r in runs[label]]
            print(
                f"| {name} (HEAD~{args.back} -> HEAD) | {label} | {len(whole)} | {runs[label][0][2]} "
                f"| {statistics.median(lex):.2f} | {statistics.median(whole):.2f} | {min(whole):.2f}-{max(whole):.2f} |",
                flush=True,
            )


if __name__ == "__main__":
    main()
