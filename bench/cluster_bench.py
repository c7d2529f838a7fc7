"""Measure `qry index --cluster`: the same build parsed by 1 vs 2 local Ray workers, next to a local build.

Owns: the speed-up figure of docs/benchmarks.md's cluster section. Each variant runs in a fresh process
(`python bench/cluster_bench.py one VARIANT TREE`), connects first (Ray start-up is reported apart,
not counted), then times a full `--rebuild` with `--embed none` into a fresh index folder, so parsing
dominates. Variants: `local` (this machine's fork pool), `ray1` (Ray, 1 CPU), `ray2` (Ray, 2 CPUs).

With `--embed onnx` the build also embeds every node with the bundled model (no user-level cache,
so every text is embedded) and the embed stage is timed apart: on Ray the model runs on one actor per
CPU (`indexlib/cluster/rayembed.py`), locally on the fork pool's workers.

    python bench/cluster_bench.py TREE [--runs 2] [--embed onnx]
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def one(variant: str, tree: Path, embed: str) -> dict[str, float]:
    from indexlib import BuildOptions, build_index
    from indexlib.cluster.connect import connect
    from indexlib.cluster.raybuild import ray_parse_map
    from indexlib.cluster.rayembed import ray_embedder_factory

    t0 = time.perf_counter()
    opts = BuildOptions(
        index_dir=Path(tempfile.mkdtemp()) / "idx",
        embed=embed,
        git_times=False,
        rebuild=True,
        shared_cache=False,
        threads=1 if variant == "local1" else 0,
    )
    parse_map = embedder = None
    if variant.startswith("ray"):
        ray = connect("local:1" if variant == "ray1" else "local:2")
        parse_map, embedder = ray_parse_map(ray), ray_embedder_factory(ray)
    started = time.perf_counter() - t0
    t1 = time.perf_counter()
    report = build_index(tree, opts, parse_map=parse_map, embedder=embedder)
    return {
        "startup_s": started,
        "build_s": time.perf_counter() - t1,
        "embed_s": report.timings.get("embed", 0.0),
        "embedded": report.embedded,
        "files": report.files,
    }


def main() -> None:
    if sys.argv[1] == "one":
        print(json.dumps(one(sys.argv[2], Path(sys.argv[3]), sys.argv[4])))
        return
    tree = Path(sys.argv[1])
    runs = int(sys.argv[sys.argv.index("--runs") + 1]) if "--runs" in sys.argv else 2
    embed = sys.argv[sys.argv.index("--embed") + 1] if "--embed" in sys.argv else "none"
    variants = ["local", "ray1", "ray2"] if embed == "none" else ["local1", "local", "ray1", "ray2"]
    results: dict[str, list[dict[str, float]]] = {v: [] for v in variants}
    for _ in range(runs):
        for variant in results:
            out = subprocess.run(
                [sys.executable, __file__, "one", variant, str(tree), embed],
                capture_output=True,
                text=True,
                check=True,
            )
            results[variant].append(json.loads(out.stdout.strip().splitlines()[-1]))
    best = {v: min(r["build_s"] for r in rs) for v, rs in results.items()}
    emb = {v: min(r["embed_s"] for r in rs) for v, rs in results.items()}
    for v, rs in results.items():
        print(
            f"{v}: build {best[v]:.2f} s, embed {emb[v]:.2f} s (best of {runs}; {rs[0]['embedded']:.0f} "
            f"embedded), start-up {min(r['startup_s'] for r in rs):.1f} s, files {rs[0]['files']:.0f}"
        )
    print(
        f"speed-up ray2 vs ray1: build {best['ray1'] / best['ray2']:.2f}x; ray2 vs local: {best['local'] / best['ray2']:.2f}x"
    )
    if embed != "none":
        print(
            f"embed stage: ray2 vs ray1 {emb['ray1'] / emb['ray2']:.2f}x, local 2 workers vs 1 "
            f"{emb['local1'] / emb['local']:.2f}x, ray2 vs local {emb['local'] / emb['ray2']:.2f}x"
        )


if __name__ == "__main__":
    main()
