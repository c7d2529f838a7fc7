"""Sweep BM25's weight in the fusion of a question (the `natural` route) over three query sets.

Owns: the table of docs/benchmarks.md "BM25's weight on questions". For each weight, in process over
indexes built with vectors (the default hybrid mode), it reports:
- the dev set's `fix`, `concept` and `concept-nodoc` queries, each in its own repository's index
  (file MRR@10, deveval's definition: each file once, at its best hit);
- commit titles of repositories outside the dev set (`commit_queries.mine`, as the dev set mines
  `fix`), each in its repository's index (file MRR@10);
- the doc-less sentences of `bench/eval` (`concept`: a doc comment's first sentence with the comment
  removed from the indexed copy), MRR@10 of the one relevant node.

Why: a weight chosen on the dev set alone would be tuned on it; the two other sets are repositories
the dev set does not hold. Reuses the indexes of bench/workspace_bench.py (`--embed onnx`),
bench/workspace_commits.py (`--embed onnx`) and bench/eval/run.py; builds nothing.

    python bench/natural_weights.py --dev-indexes /work/eval/work-ws/idx-onnx \\
        --commits-work /work/eval/wscommits \\
        --repo tokio=/work/.mirror/tokio-rs+tokio/repo@0922aa2a0b09cf35582f15c799996c64e0b6e50a \\
        --repo vite=/work/.mirror/vitejs+vite/repo@a3d89187 \\
        --repo bubbletea=/work/.mirror/charmbracelet+bubbletea/repo@HEAD~300 \\
        --weights 0.8,1.0,1.2,1.4,1.6,2.0
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE / "eval"))
sys.path.insert(0, str(HERE.parent))
DEVEVAL = Path(os.environ.get("QRY_DEVEVAL", "/work/shared/deveval"))
DEV_KINDS = ("fix", "concept-nodoc", "concept")


def _mean(values: list[float]) -> float:
    return sum(values) / len(values) if values else 0.0


def _file_mrr(paths: list[str], gold: list[str]) -> float:
    import commit_queries as cq

    rank = cq.file_rank(paths, gold)
    return 1.0 / rank if rank is not None and rank <= 10 else 0.0


def dev_set(indexes: Path) -> Callable[[], dict[str, float]]:
    """File MRR@10 per dev-set kind, each query in its own snapshot's index."""
    import indexlib

    queries: list[dict[str, Any]] = []
    for name in ("fix", "concept"):
        with (DEVEVAL / "queries" / f"{name}.jsonl").open() as fh:
            queries += [q for q in map(json.loads, fh) if q["kind"] in DEV_KINDS]
    engines: dict[str, Any] = {}

    def run() -> dict[str, float]:
        got: dict[str, list[float]] = {k: [] for k in DEV_KINDS}
        for q in queries:
            snap = str(q["snapshot"]).replace("+nodoc", "_nodoc")
            engine = engines.get(snap) or engines.setdefault(snap, indexlib.open_engine(indexes / snap))
            res = engine.search(q["query"], indexlib.SearchRequest(top_k=10, graph=False))
            got[q["kind"]].append(_file_mrr([h.path for h in res.results], q["gold_files"]))
        return {f"dev {k} ({len(v)})": _mean(v) for k, v in got.items()}

    return run


def commit_titles(work: Path, repos: list[str]) -> Callable[[], dict[str, float]]:
    """File MRR@10 of commit titles mined after each repository's snapshot, in its own index."""
    import commit_queries as cq

    import indexlib

    queries: list[tuple[str, dict[str, Any]]] = []
    for spec in repos:
        name, _, where = spec.partition("=")
        git_dir, _, rev = where.rpartition("@")
        snapshot = cq.git(Path(git_dir), "rev-parse", rev).strip()
        queries += [(name, q) for q in cq.mine(Path(git_dir), snapshot, 200)]
    engines = {name: indexlib.open_engine(work / name / ".qry") for name in {n for n, _q in queries}}

    def run() -> dict[str, float]:
        got = [
            _file_mrr(
                [
                    h.path
                    for h in engines[name]
                    .search(q["query"], indexlib.SearchRequest(top_k=10, graph=False))
                    .results
                ],
                q["gold"],
            )
            for name, q in queries
        ]
        return {f"outside commit titles ({len(got)})": _mean(got)}

    return run


def eval_sentences() -> Callable[[], dict[str, float]]:
    """MRR@10 of bench/eval's doc-less sentences over its cached indexes (bench/eval/run.py builds them)."""
    import corpora
    import make_queries
    from metrics import first_relevant

    import indexlib

    runs: list[tuple[Any, list[Any]]] = []
    for corpus in corpora.get(None):
        index = corpora.CACHE / "index" / f"{corpus.name}-onnx"
        if not index.is_dir():
            raise SystemExit(f"no index at {index}: run python bench/eval/run.py first")
        kept = [q for q in make_queries.load(corpus.name) if q.kind == "concept"]
        runs.append((indexlib.open_engine(index), kept))

    def run() -> dict[str, float]:
        got: list[float] = []
        for engine, queries in runs:
            for q in queries:
                res = engine.search(q.query, indexlib.SearchRequest(top_k=10, graph=False))
                rank = first_relevant(h.path == q.path and h.symbol == q.qualified_name for h in res.results)
                got.append(1.0 / rank if rank is not None and rank <= 10 else 0.0)
        return {f"outside doc-less sentences ({len(got)})": _mean(got)}

    return run


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("--dev-indexes", type=Path, required=True)
    ap.add_argument("--commits-work", type=Path, required=True)
    ap.add_argument("--repo", action="append", required=True, metavar="NAME=GITDIR@REV")
    ap.add_argument("--weights", default="0.8,1.0,1.2,1.4,1.6,2.0")
    args = ap.parse_args()
    from indexlib.retrieval import fusion

    sets = [dev_set(args.dev_indexes), commit_titles(args.commits_work, args.repo), eval_sentences()]
    default = dict(fusion.ROUTE_WEIGHTS["natural"])
    rows: list[tuple[str, dict[str, float]]] = []
    for w in (float(x) for x in args.weights.split(",")):
        fusion.ROUTE_WEIGHTS["natural"] = {**default, "bm25": w}
        row: dict[str, float] = {}
        for measure in sets:
            row.update(measure())
        rows.append((f"{w:g}" + (" (default)" if w == default["bm25"] else ""), row))
        print(
            f"bm25 {w:g}: " + ", ".join(f"{k} {v:.3f}" for k, v in row.items()), file=sys.stderr, flush=True
        )
    fusion.ROUTE_WEIGHTS["natural"] = default
    cols = list(rows[0][1])
    print("| BM25 weight | " + " | ".join(cols) + " |")
    print("|---|" + "---|" * len(cols))
    for name, row in rows:
        print(f"| {name} | " + " | ".join(f"{row[c]:.3f}" for c in cols) + " |")


if __name__ == "__main__":
    main()
