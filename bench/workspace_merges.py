"""Which repository evidence could close the workspace's gap to own-repository search? (issue 15)

Owns: one pass over the 900 dev-set queries that asks every index of the five-corpus workspace once
(exactly as `Federation.search` does: workspace-wide idf, each index's request) and keeps the
per-index answers, then re-merges those same answers under each candidate rule, so the variants
differ only in the merge. The rules measured:

- `stream`: the default per-stream merge (workspace/federate.py: assemble): BM25 compared at the
  workspace's mean node length.
- `ranks read off the returned hits`: each other index's count of better candidates taken as the
  highest rank among the hits it returned (a lower bound), not from its stream scores.
- `no length norm`: the stream merge comparing each index's BM25 scores as they come, each
  normalised by its own mean node length (the merge before `collection.length_scales`).
- `prior P`: every index's hits times 1 + P * (router confidence / best confidence), the source
  router (route/score.py) as a soft prior instead of a filter.
- `cori W`: the CORI collection weight (workspace/collection.py) with merge weight W.
- `dense level`: each index's cosines shifted by its own level (its k-th candidate's cosine) against
  the workspace's mean: taken out (a language the model scores higher lifts every one of its
  repository's hits) or doubled (the level as evidence of the repository).
- `redde G`: a weight from the first merge itself, 1 + G * (the index's share of reciprocal ranks in
  the merged top 20 / the best share): repositories holding many good hits are more likely the one.

    python bench/workspace_merges.py --from-git /work/.mirror --work /work/eval/work-ws [--embed onnx] \
        [--recs /work/eval/recs-none.pkl]     # capture once into the file, replay from it after

Prints file MRR@10 per kind for own-repository search and each rule. Reuses workspace_bench's
snapshot trees and indexes.
"""

from __future__ import annotations

import argparse
import copy
import sys
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import workspace_bench as wb

Answers = list[tuple[str, list[Any]]]


def capture(work: Path, git_dirs: list[str], embed: str) -> list[dict[str, Any]]:
    from indexlib import Engine, SearchRequest
    from indexlib.workspace.config import Member
    from indexlib.workspace.federate import Federation
    from indexlib.workspace.routing import route_members

    dv_run, _score = wb._deveval()
    queries = dv_run.load_all_queries(str(wb.DEVEVAL / "queries"))
    idx = wb.prepare(work, git_dirs, queries, embed)
    corpus_of = {q["snapshot"]: q["corpus"] for q in queries}
    feds = {
        nodoc: Federation(
            "ws", [Member(corpus_of[s], p) for s, p in sorted(idx.items()) if s.endswith("+nodoc") == nodoc]
        )
        for nodoc in (False, True)
    }
    own = {sid: Engine(p) for sid, p in idx.items()}
    opts = SearchRequest(top_k=10, graph=False)
    recs = []
    for q in queries:
        nodoc = q["snapshot"].endswith("+nodoc")
        fed, text = feds[nodoc], q["query"]
        mine = own[q["snapshot"]].search(text, opts).results
        answers = fed.ask(text, opts, fed.members)
        routed = route_members(fed, text, limit=len(fed.members), opts=opts)
        recs.append(
            {
                "q": q,
                "nodoc": nodoc,
                "own": [wb._row(h.path, h, q["corpus"], q["corpus"]) for h in mine],
                "answers": answers,
                "conf": {r.repo: r.confidence for r in routed.routes},
            }
        )
    return recs


def lists_of(rec: dict[str, Any]) -> Answers:
    return [(ans.repo, hits) for ans, hits in rec["answers"] if ans.ok]


def scales_of(rec: dict[str, Any]) -> dict[str, float]:
    """What assemble scales each index's BM25 by (its mean node length against the workspace's)."""
    from indexlib.workspace.collection import length_scales

    return length_scales({a.repo: (a.docs, a.content_length) for a, _h in rec["answers"] if a.ok})


def rules() -> dict[str, Callable[[dict[str, Any]], list[Any]]]:
    from indexlib import SearchRequest
    from indexlib.workspace import collection
    from indexlib.workspace.federate import merge_hits

    k = SearchRequest().rrf_k

    def stream(
        rec: dict[str, Any], weights: dict[str, float] | None = None, lens: bool = True, exact: bool = True
    ) -> list[Any]:
        scale = scales_of(rec) if lens else None
        scores = (
            {
                a.repo: a.stream_scores
                for a, _h in rec["answers"]
                if a.ok and isinstance(a.stream_scores, dict)
            }
            if exact
            else None
        )
        sw = {a.repo: a.weights for a, _h in rec["answers"] if a.ok}
        return merge_hits(
            lists_of(rec), k=k, weights=weights, bm25_scale=scale, stream_scores=scores, stream_weights=sw
        )[:10]

    def prior(p: float) -> Callable[[dict[str, Any]], list[Any]]:
        def run(rec: dict[str, Any]) -> list[Any]:
            best = max(rec["conf"].values(), default=0.0)
            w = {
                a.repo: 1 + p * (rec["conf"].get(a.repo, 0.0) / best if best else 0.0)
                for a, _ in rec["answers"]
            }
            return stream(rec, w)

        return run

    def cori(weight: float) -> Callable[[dict[str, Any]], list[Any]]:
        def run(rec: dict[str, Any]) -> list[Any]:
            stats = {a.repo: (a.docs, a.term_df) for a, _h in rec["answers"] if a.ok}
            old, collection.MERGE_WEIGHT = collection.MERGE_WEIGHT, weight
            try:
                w = collection.weights(stats)
            finally:
                collection.MERGE_WEIGHT = old
            return stream(rec, w)

        return run

    def redde(g: float) -> Callable[[dict[str, Any]], list[Any]]:
        def run(rec: dict[str, Any]) -> list[Any]:
            share: dict[str, float] = defaultdict(float)
            for i, h in enumerate(merge_hits(lists_of(rec), k=k, bm25_scale=scales_of(rec))[:20]):
                share[h.repo] += 1.0 / (i + 1)
            best = max(share.values(), default=0.0)
            return stream(
                rec,
                {a.repo: 1 + g * share.get(a.repo, 0.0) / best for a, _ in rec["answers"]} if best else None,
            )

        return run

    def dense_shift(at: int, sign: float) -> Callable[[dict[str, Any]], list[Any]]:
        """Each index's cosines moved by sign x (the workspace's mean - its own `at`-th candidate's
        cosine): sign 1 takes out a level one index's code sits at for every question (a language the
        model scores higher), sign -1 doubles it (the level as evidence of the repository)."""

        def run(rec: dict[str, Any]) -> list[Any]:
            level = {
                a.repo: (a.stream_scores.get("vector") or [0.0])[: at + 1][-1]
                for a, _h in rec["answers"]
                if a.ok and isinstance(a.stream_scores, dict)
            }
            if not level:
                return stream(rec)
            mean = sum(level.values()) / len(level)
            answers = []
            for a, hits in rec["answers"]:
                d = sign * (mean - level.get(a.repo, mean))
                if a.ok and isinstance(a.stream_scores, dict):
                    a = copy.copy(a)
                    a.stream_scores = {
                        s: [x + d for x in v] if s == "vector" else v for s, v in a.stream_scores.items()
                    }
                moved = []
                for h in hits:
                    h = copy.copy(h)
                    h.provenance = copy.copy(h.provenance)
                    if h.provenance.vector_score is not None:
                        h.provenance.vector_score += d
                    moved.append(h)
                answers.append((a, moved))
            return stream({**rec, "answers": answers})

        return run

    return {
        "stream (default)": stream,
        "dense level taken out (10th cosine)": dense_shift(10, 1.0),
        "dense level taken out (150th cosine)": dense_shift(150, 1.0),
        "dense level taken out (300th cosine)": dense_shift(299, 1.0),
        "dense level doubled (10th cosine)": dense_shift(10, -1.0),
        "dense level doubled (50th cosine)": dense_shift(50, -1.0),
        "no length norm": lambda rec: stream(rec, lens=False),
        "ranks read off the returned hits": lambda rec: stream(rec, exact=False),
        "neither (the merge before both)": lambda rec: stream(rec, lens=False, exact=False),
        "prior 0.1": prior(0.1),
        "prior 0.25": prior(0.25),
        "prior 0.5": prior(0.5),
        "prior 1.0": prior(1.0),
        "cori 0.25": cori(0.25),
        "cori 1.0": cori(1.0),
        "redde 0.25": redde(0.25),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--work", default="/work/eval/work-ws")
    ap.add_argument("--from-git", action="append", default=[])
    ap.add_argument(
        "--embed", default="none", help="none (lexical indexes) or onnx (the default hybrid mode)"
    )
    ap.add_argument("--recs", default="", help="a file of captured answers: read if it exists, else written")
    args = ap.parse_args()
    _run, dv_score = wb._deveval()
    recs = wb.cached(args.recs or "", lambda: capture(Path(args.work), args.from_git, args.embed))
    runs: dict[str, Callable[[dict[str, Any]], list[dict[str, Any]]]] = {"own": lambda rec: rec["own"]}
    for name, fn in rules().items():
        runs[name] = lambda rec, fn=fn: [wb._row(h.path, h, h.repo, rec["q"]["corpus"]) for h in fn(rec)]
    table: dict[str, dict[str, float]] = {}
    for name, run in runs.items():
        per: dict[str, list[float]] = defaultdict(list)
        for rec in recs:
            per[rec["q"]["kind"]].append(dv_score.metrics(rec["q"], run(rec))["file_MRR"])
        table[name] = {kind: sum(v) / len(v) for kind, v in per.items()}
        table[name]["ALL"] = sum(sum(v) for v in per.values()) / sum(len(v) for v in per.values())
    kinds = [*wb.KINDS, "ALL"]
    print("| merge | " + " | ".join(kinds) + " |")
    print("|---|" + "---|" * len(kinds))
    for name, row in table.items():
        cells = [
            f"{row[k]:.3f}" if name == "own" else f"{row[k]:.3f} ({row[k] - table['own'][k]:+.3f})"
            for k in kinds
        ]
        print(f"| {name} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
