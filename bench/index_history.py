"""`qry index --embed none` on fresh git clones, with and without the user-level caches: how much of a
build is reading history, and what the history cache (indexlib/index/gittimes/cache.py) saves.

Not a test: prints a markdown table for docs/benchmarks.md. For each repository (a git mirror or
clone), with an empty user cache each time, whole process: a fresh clone; a second clone of the same
commit; a third clone checked out N first-parent commits back; the same clone moved to HEAD again,
as after a `git pull` of N commits. Once with the caches, once with `--no-shared-cache`.

  python bench/index_history.py /work/.mirror/vuejs+core/repo /work/.mirror/clap-rs+clap/repo [--back 60]
"""

from __future__ import annotations

import argparse
import os
import shlex
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def _index(qry: list[str], tree: Path, env: dict[str, str], extra: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run([*qry, "index", str(tree), "--embed", "none", "--quiet", *extra], env=env, check=True)
    return time.perf_counter() - start


def _git(*args: str | Path) -> None:
    subprocess.run(["git", *map(str, args)], check=True, capture_output=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("repos", nargs="+", type=Path)
    ap.add_argument("--back", type=int, default=60, help="first-parent commits the pulled clone starts behind")
    ap.add_argument("--qry", default=f"{sys.executable} -m cli", help="the qry command line")
    args = ap.parse_args()
    qry = shlex.split(args.qry)
    print(f"\nload average before: {os.getloadavg()[0]:.2f}\n")
    print(f"| repository | caches | first clone | second clone | at HEAD~{args.back} | after pulling {args.back} commits |")
    print("|---|---|---:|---:|---:|---:|")
    for repo in args.repos:
        for extra in ([], ["--no-shared-cache"]):
            with tempfile.TemporaryDirectory() as tmp:
                work = Path(tmp)
                env = dict(os.environ, XDG_CACHE_HOME=str(work / "xdg"))
                clones = [work / f"clone{i}" for i in range(3)]
                for clone in clones:
                    _git("clone", "-q", repo, clone)
                first = _index(qry, clones[0], env, extra)
                second = _index(qry, clones[1], env, extra)
                _git("-C", clones[2], "checkout", "-q", f"HEAD~{args.back}")
                behind = _index(qry, clones[2], env, extra)
                _git("-C", clones[2], "checkout", "-q", "-")
                pulled = _index(qry, clones[2], env, extra)
            label = "none (`--no-shared-cache`)" if extra else "user-level"
            name = repo.parent.name if repo.name == "repo" else repo.name
            print(f"| {name} | {label} | {first:.2f} s | {second:.2f} s | {behind:.2f} s | {pulled:.2f} s |", flush=True)
    print(f"\nload average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
