"""Measure the unit costs docs/scale.md extrapolates from, on this machine.

Owns: per dev-set index (built by bench/workspace_bench.py): nodes and bytes on disk; a fresh
`--embed none` build of one corpus with its phase times per 1k nodes; query latency of one index vs
the five-index workspace in-process (the fan-out cost per index), and the same workspace served by
Ray actors on a local instance (`local:2`), from the driver's side.

    python bench/scale_costs.py --work /work/eval/work-multi [--queries 100]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path


def _du(path: Path) -> int:
    return sum(f.stat().st_size for f in path.rglob("*") if f.is_file() and "cache" not in f.parts)


def _pct(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, round(p * (len(xs) - 1)))]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--work", default="/work/eval/work-multi")
    ap.add_argument("--queries", type=int, default=100)
    ap.add_argument("--no-ray", action="store_true")
    args = ap.parse_args()
    sys.path.insert(0, str(Path(__file__).parent))
    import workspace_bench as wb

    from indexlib import BuildOptions, Engine, Federation, Member, SearchRequest, Store, build_index

    dv_run, _ = wb._deveval()
    queries = dv_run.load_all_queries(str(wb.DEVEVAL / "queries"))
    corpus = {q["snapshot"].replace("+", "_"): q["corpus"] for q in queries}
    idx = {p.name: p for p in sorted((Path(args.work) / "idx").iterdir()) if not p.name.endswith("_nodoc")}
    total_nodes = total_bytes = 0
    print("| corpus | files | nodes | index bytes | bytes/node |\n|---|---|---|---|---|")
    for sid, p in idx.items():
        _rid, m = Store.open(p).load()
        nodes = sum(r.nodes for r in m.files.values())
        size = _du(p)
        total_nodes += nodes
        total_bytes += size
        print(f"| {corpus[sid]} | {len(m.files)} | {nodes} | {size / 2**20:.1f} MiB | {size / nodes:.0f} |")
    print(f"| all | | {total_nodes} | {total_bytes / 2**20:.1f} MiB | {total_bytes / total_nodes:.0f} |\n")

    tree = next(Path(args.work, "trees").glob("psf__black@*[0-9a-f]"))
    t0 = time.perf_counter()
    rep = build_index(
        tree, BuildOptions(index_dir=Path(tempfile.mkdtemp()) / "i", embed="none", git_times=False)
    )
    wall = time.perf_counter() - t0
    per_k = {k: 1000 * v / rep.nodes_total for k, v in rep.timings.items()}
    phases = ", ".join(f"{k} {v:.3f}" for k, v in per_k.items())
    print(
        f"fresh build of black: {rep.files} files, {rep.nodes_total} nodes, {wall:.2f} s wall on {os.cpu_count()} cores"
    )
    print(f"  seconds per 1k nodes: {1000 * wall / rep.nodes_total:.3f} (phases: {phases})\n")

    sample = [q for q in queries if not q["snapshot"].endswith("+nodoc")][:: max(1, 700 // args.queries)]
    members = [Member(corpus[s], p) for s, p in idx.items()]
    fed = Federation("scale", members)
    own = {m.name: Engine(m.index) for m in members}
    opts = SearchRequest(top_k=10, graph=False)
    for q in sample[:5]:  # warm: open every snapshot once
        fed.search(q["query"], opts)
        own[q["corpus"]].search(q["query"], opts)
    one, ws = [], []
    for q in sample:
        t = time.perf_counter()
        own[q["corpus"]].search(q["query"], opts)
        one.append(1000 * (time.perf_counter() - t))
        t = time.perf_counter()
        fed.search(q["query"], opts)
        ws.append(1000 * (time.perf_counter() - t))
    n = len(members)
    print(f"in-process, {len(sample)} queries, --embed none, top 10:")
    print(f"  one index      p50 {_pct(one, 0.5):.1f} ms  p99 {_pct(one, 0.99):.1f} ms")
    print(f"  {n}-index workspace p50 {_pct(ws, 0.5):.1f} ms  p99 {_pct(ws, 0.99):.1f} ms")
    print(f"  marginal cost per index (p50): {(_pct(ws, 0.5) - _pct(one, 0.5)) / (n - 1):.1f} ms\n")
    if args.no_ray:
        return
    from indexlib.cluster.serve import ClusterWorkspace

    t = time.perf_counter()
    cw = ClusterWorkspace("local:2", "scale", members)
    for q in sample[:5]:
        cw.search(q["query"], opts)
    start = time.perf_counter() - t
    rs = []
    for q in sample:
        t = time.perf_counter()
        cw.search(q["query"], opts)
        rs.append(1000 * (time.perf_counter() - t))
    print(f"Ray actors (local:2, {n} actors; start-up and warm-up {start:.1f} s):")
    print(f"  {n}-index workspace p50 {_pct(rs, 0.5):.1f} ms  p99 {_pct(rs, 0.99):.1f} ms")


if __name__ == "__main__":
    main()
