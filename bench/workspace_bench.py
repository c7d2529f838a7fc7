"""Measure workspace search and the source router on the dev set (five repositories in one workspace).

Owns: building the ten dev-set indexes (five snapshots and their +nodoc copies, `--embed none`, or
with `--embed onnx` the default hybrid mode's vectors too), and
per query kind: file MRR@10 of each query searched in its own repository alone, in the five-index
workspace (each merge, with and without the workspace-wide idf), and in the workspace with routing; router accuracy@1/@3 (is the query's own
repository first / in the top three). A workspace hit counts only when its repository is the query's,
so a same-named file of another repository never scores. Metrics are deveval's own (score.metrics).

deveval's run.py searches one snapshot per process, so it cannot build a workspace; this script reuses
its snapshot extraction (ensure_tree) and its scorer instead of copying them.

    python bench/workspace_bench.py --from-git /work/.mirror --work /work/eval/work-multi \
        --out /work/eval/runs/multi      # writes multi-<variant>.jsonl run files and prints the tables

`--distractor DIR` (repeatable) adds another repository's index to both workspaces: a question then
routes and merges among more repositories than the five it may come from.
"""

from __future__ import annotations

import argparse
import json
import os
import pickle
import sys
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

DEVEVAL = Path(os.environ.get("QRY_DEVEVAL", "/work/shared/deveval"))
KINDS = ("fix", "symbol", "concept", "concept-nodoc")
# (run name, merge, workspace-wide idf): the default first, then what each part of it adds.
WS_VARIANTS = (
    ("ws-stream", "stream", True),
    ("ws-cori", "cori", True),
    ("ws-cori-localidf", "cori", False),
    ("ws-stream-localidf", "stream", False),
    ("ws-rank-localidf", "rank", False),
)


def _deveval() -> tuple[Any, Any]:
    sys.path.insert(0, str(DEVEVAL))
    import run as dv_run
    import score as dv_score

    return dv_run, dv_score


def cached(path: str, make: Callable[[], Any]) -> Any:
    """What `make()` returns, pickled at `path` once and read from there after (no file when `path`
    is empty): the captures the replay benchmarks run many rules over take minutes to make."""
    if path and Path(path).is_file():
        return pickle.loads(Path(path).read_bytes())
    made = make()
    if path:
        Path(path).write_bytes(pickle.dumps(made))
    return made


def prepare(
    work: Path, git_dirs: list[str], queries: list[dict[str, Any]], embed: str = "none"
) -> dict[str, Path]:
    """Snapshot trees and indexes (`embed`: none or onnx) for every snapshot id; returns sid -> index dir."""
    from indexlib import BuildOptions, build_index

    dv_run, _ = _deveval()
    spans = dv_run.nodoc_spans(queries)
    first: dict[str, dict[str, Any]] = {}
    for q in queries:
        first.setdefault(q["snapshot"], q)
    out: dict[str, Path] = {}
    for sid, q0 in sorted(first.items()):
        tree = Path(dv_run.ensure_tree(str(work), sid, q0, spans, git_dirs))
        idx = work / ("idx" if embed == "none" else f"idx-{embed}") / sid.replace("+", "_")
        # Incremental: a no-op for a current index, a rebuild for one in an older on-disk format.
        t0 = time.perf_counter()
        report = build_index(tree, BuildOptions(index_dir=idx, embed=embed, git_times=False))
        if report.published:
            print(f"indexed {sid} in {time.perf_counter() - t0:.1f} s", file=sys.stderr)
        out[sid] = idx
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--work", default="/work/eval/work-ws")
    ap.add_argument("--from-git", action="append", default=[])
    ap.add_argument("--out", default="", help="prefix of the run files (PREFIX-<variant>.jsonl)")
    ap.add_argument("--per-group", type=int, default=0, help="at most N queries per kind and corpus")
    ap.add_argument("--route-keep", type=float, default=None, help="override ROUTE_KEEP for --route")
    ap.add_argument(
        "--embed", default="none", help="none (lexical indexes) or onnx (hybrid, the default mode)"
    )
    ap.add_argument(
        "--variants",
        default="",
        help="comma-separated workspace variants to run (default: all of WS_VARIANTS; none: own and --route only)",
    )
    ap.add_argument(
        "--distractor",
        action="append",
        default=[],
        help="an index directory of another repository to add to both workspaces (repeatable; "
        "named after its folder): the dev-set questions then route and merge among more repositories",
    )
    ap.add_argument(
        "--content-candidates",
        type=int,
        default=None,
        help="override routing.CONTENT_CANDIDATES (the profile's best repositories the content fan-out asks)",
    )
    args = ap.parse_args()
    if args.content_candidates is not None:
        from indexlib.workspace import routing

        routing.CONTENT_CANDIDATES = args.content_candidates
    wanted = args.variants.split(",") if args.variants else [v[0] for v in WS_VARIANTS]
    unknown = set(wanted) - {v[0] for v in WS_VARIANTS} - {"none"}
    if unknown:
        ap.error(f"unknown variants: {', '.join(sorted(unknown))}")
    variants_run = [v for v in WS_VARIANTS if v[0] in wanted]

    dv_run, dv_score = _deveval()
    from indexlib import Engine, SearchRequest
    from indexlib.workspace.config import Member
    from indexlib.workspace.federate import Federation
    from indexlib.workspace.routing import route_members, routed_search

    queries = dv_run.load_all_queries(str(DEVEVAL / "queries"))
    queries = dv_run.select(queries, list(KINDS), [], args.per_group) if args.per_group else queries
    work = Path(args.work)
    idx = prepare(work, args.from_git, queries, args.embed)
    corpus_of = {q["snapshot"]: q["corpus"] for q in queries}
    feds: dict[bool, Federation] = {}
    for nodoc in (False, True):
        members = [
            Member(corpus_of[sid], path)
            for sid, path in sorted(idx.items())
            if sid.endswith("+nodoc") == nodoc
        ] + [Member(Path(d).name, Path(d)) for d in args.distractor]
        feds[nodoc] = Federation("deveval-nodoc" if nodoc else "deveval", members)
    own = {sid: Engine(p) for sid, p in idx.items()}
    opts = SearchRequest(top_k=10, graph=False)
    runs: dict[str, list[dict[str, Any]]] = defaultdict(list)
    rows: dict[str, dict[str, list[dict[str, float]]]] = defaultdict(lambda: defaultdict(list))
    router: dict[tuple[str, str], list[tuple[int, int]]] = defaultdict(list)
    lat: dict[str, list[float]] = defaultdict(list)
    for q in queries:
        fed = feds[q["snapshot"].endswith("+nodoc")]
        variants: dict[str, list[dict[str, Any]]] = {}
        t0 = time.perf_counter()
        res = own[q["snapshot"]].search(q["query"], opts)
        lat["own"].append(time.perf_counter() - t0)
        variants["own"] = [_row(h.path, h, q["corpus"], q["corpus"]) for h in res.results]
        for name, merge, global_idf in variants_run:
            t0 = time.perf_counter()
            ws = fed.search(q["query"], opts, merge=merge, global_idf=global_idf)
            lat[name].append(time.perf_counter() - t0)
            variants[name] = [_row(h.path, h, h.repo, q["corpus"]) for h in ws.results]
        for how, content in (("profile", False), ("profile+content", True)):
            t0 = time.perf_counter()
            routed = route_members(fed, q["query"], limit=len(fed.members), content=content, opts=opts)
            lat[f"route ({how})"].append(time.perf_counter() - t0)
            names = [r.repo for r in routed.routes]
            rank = names.index(q["corpus"]) + 1 if q["corpus"] in names else 0
            router[(how, q["kind"])].append((rank, len(names)))
        t0 = time.perf_counter()
        rs = routed_search(fed, q["query"], opts, keep=args.route_keep)
        lat["ws-route"].append(time.perf_counter() - t0)
        variants["ws-route"] = [_row(h.path, h, h.repo, q["corpus"]) for h in rs.results]
        for name, results in variants.items():
            rows[name][q["kind"]].append(dv_score.metrics(q, results))
            runs[name].append({"id": q["id"], "tool": f"qry-{name}", "results": results})
    if args.out:
        for name, recs in runs.items():
            with open(f"{args.out}-{name}.jsonl", "w") as f:
                for r in recs:
                    f.write(json.dumps(r) + "\n")
    print(_tables(rows, router, lat, [v[0] for v in variants_run]))


def _row(path: str, h: Any, repo: str, corpus: str) -> dict[str, Any]:
    """A run-file result; another repository's hit gets a path no gold file can equal."""
    return {
        "path": path if repo == corpus else f"<{repo}>/{path}",
        "start_line": h.start_line,
        "end_line": h.end_line,
        "symbol": h.symbol,
        "repo": repo,
    }


def _mean(xs: list[float]) -> float:
    return sum(xs) / len(xs) if xs else 0.0


def _tables(
    rows: dict[str, dict[str, list[dict[str, float]]]],
    router: dict[tuple[str, str], list[tuple[int, int]]],
    lat: dict[str, list[float]],
    ws_names: list[str],
) -> str:
    names = ["own", *ws_names, "ws-route"]
    out = ["| kind | n | " + " | ".join(names) + " |", "|---|---|" + "---|" * len(names)]
    for kind in (*KINDS, "ALL"):
        cells = []
        for nm in names:
            ms = [m for k, v in rows[nm].items() if kind in ("ALL", k) for m in v]
            cells.append(_mean([m["file_MRR"] for m in ms]))
        n = sum(len(v) for k, v in rows["own"].items() if kind in ("ALL", k))
        deltas = [f"{c:.3f} ({c - cells[0]:+.3f})" for c in cells[1:]]
        out.append(f"| {kind} | {n} | {cells[0]:.3f} | " + " | ".join(deltas) + " |")
    out.append("")
    out.append("| router | kind | n | acc@1 | acc@3 | no repository routed |")
    out.append("|---|---|---|---|---|---|")
    for how in sorted({h for h, _k in router}):
        for kind in (*KINDS, "ALL"):
            rs = [r for (h, k), v in router.items() if h == how and kind in ("ALL", k) for r in v]
            a1 = _mean([float(r == 1) for r, _n in rs])
            a3 = _mean([float(1 <= r <= 3) for r, _n in rs])
            none = _mean([float(n == 0) for _r, n in rs])
            out.append(f"| {how} | {kind} | {len(rs)} | {a1:.3f} | {a3:.3f} | {none:.3f} |")
    out.append("")
    for nm, xs in lat.items():
        xs = sorted(xs)
        out.append(
            f"{nm}: p50 {1000 * xs[len(xs) // 2]:.1f} ms, p95 {1000 * xs[int(len(xs) * 0.95)]:.1f} ms (in-process)"
        )
    return "\n".join(out)


if __name__ == "__main__":
    main()
