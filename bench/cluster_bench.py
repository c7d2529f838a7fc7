"""Measure `qry index --cluster`: the same build parsed by 1 vs 2 local Ray workers, next to a local build.

Owns: the speed-up figure of docs/benchmarks.md's cluster section. Each variant runs in a fresh process
(`python bench/cluster_bench.py one VARIANT TREE`), connects first (Ray start-up is reported apart,
not counted), then times a full `--rebuild` with `--embed none` into a fresh index folder, so parsing
dominates. Variants: `local` (this machine's fork pool), `ray1` (Ray, 1 CPU), `ray2` (Ray, 2 CPUs).

    python bench/cluster_bench.py TREE [--runs 2]
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def one(variant: str, tree: Path) -> dict[str, float]:
    from indexlib import BuildOptions, build_index
    from indexlib.cluster.connect import connect
    from indexlib.cluster.raybuild import ray_parse_map

    t0 = time.perf_counter()
    opts = BuildOptions(
        index_dir=Path(tempfile.mkdtemp()) / "idx", embed="none", git_times=False, rebuild=True
    )
    parse_map = None
    if variant != "local":
        ray = connect("local:1" if variant == "ray1" else "local:2")
        parse_map = ray_parse_map(ray)
    started = time.perf_counter() - t0
    t1 = time.perf_counter()
    report = build_index(tree, opts, parse_map=parse_map)
    return {"startup_s": started, "build_s": time.perf_counter() - t1, "files": report.files}


def main() -> None:
    if sys.argv[1] == "one":
        print(json.dumps(one(sys.argv[2], Path(sys.argv[3]))))
        return
    tree = Path(sys.argv[1])
    runs = int(sys.argv[sys.argv.index("--runs") + 1]) if "--runs" in sys.argv else 2
    results: dict[str, list[dict[str, float]]] = {"local": [], "ray1": [], "ray2": []}
    for _ in range(runs):
        for variant in results:
            out = subprocess.run(
                [sys.executable, __file__, "one", variant, str(tree)],
                capture_output=True,
                text=True,
                check=True,
            )
            results[variant].append(json.loads(out.stdout.strip().splitlines()[-1]))
    best = {v: min(r["build_s"] for r in rs) for v, rs in results.items()}
    for v, rs in results.items():
        print(
            f"{v}: build {best[v]:.2f} s (best of {runs}), start-up {min(r['startup_s'] for r in rs):.1f} s, files {rs[0]['files']:.0f}"
        )
    print(
        f"speed-up ray2 vs ray1: {best['ray1'] / best['ray2']:.2f}x; ray2 vs local: {best['local'] / best['ray2']:.2f}x"
    )


if __name__ == "__main__":
    main()
