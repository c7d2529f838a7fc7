"""A workspace mixing an index without vectors with indexes that have them: what the imputation does.

Owns: for each dev-set corpus in turn, the five-corpus workspace in which that corpus is indexed with
`--embed none` and the other four with vectors (the `+nodoc` copies form their own workspace the same
way); every one of the 900 queries is asked once per such workspace (each index answered exactly as
`Federation.search` asks it), and its answers merged twice: with the imputation of the dense stream
for the index without vectors (workspace/federate.py: imputed, the default) and without it. File
MRR@10 per kind, split by whether the query's own repository is the one without vectors (where the
imputation should help) or one of the others (where it can only cost), next to the all-vectors
workspace's own figure from the same answers of the other four.

    python bench/workspace_mixed.py --from-git /work/.mirror --work /work/eval/work-ws

Reuses workspace_bench's snapshot trees and both sets of indexes (lexical and `--embed onnx`).
"""

from __future__ import annotations

import argparse
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import workspace_bench as wb


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--work", default="/work/eval/work-ws")
    ap.add_argument("--from-git", action="append", default=[])
    args = ap.parse_args()

    from indexlib import Engine, SearchRequest
    from indexlib.workspace.collection import idf_boosts, idf_terms, length_scales
    from indexlib.workspace.config import Member
    from indexlib.workspace.federate import (
        answer_one,
        assemble,
        idf_stats_one,
        merge_hits,
        per_index_requests,
    )

    dv_run, dv_score = wb._deveval()
    queries = dv_run.load_all_queries(str(wb.DEVEVAL / "queries"))
    work = Path(args.work)
    lex = wb.prepare(work, args.from_git, queries, "none")
    vec = wb.prepare(work, args.from_git, queries, "onnx")
    corpus_of = {q["snapshot"]: q["corpus"] for q in queries}
    engines: dict[str, Engine] = {str(p): Engine(p) for p in [*lex.values(), *vec.values()]}
    opts = SearchRequest(top_k=10, graph=False)
    k = opts.rrf_k
    mrr: dict[tuple[str, str, str], list[float]] = defaultdict(list)  # (variant, side, kind)
    for plain in sorted({corpus_of[s] for s in lex}):
        for q in queries:
            nodoc = q["snapshot"].endswith("+nodoc")
            members = [
                Member(corpus_of[s], (lex if corpus_of[s] == plain else vec)[s])
                for s in sorted(lex)
                if s.endswith("+nodoc") == nodoc
            ]
            text = q["query"]
            stats = [idf_stats_one(lambda m=m: engines[str(m.index)], idf_terms(text)) for m in members]
            boosts = idf_boosts({m.name: st for m, st in zip(members, stats, strict=True) if st})
            reqs = per_index_requests(opts, [m.name for m in members], boosts)
            answers = [answer_one(m, lambda m=m: engines[str(m.index)], text, reqs[m.name]) for m in members]
            lists = [(a.repo, hits) for a, hits in answers if a.ok]
            lengths = {a.repo: (a.docs, a.content_length) for a, _hits in answers if a.ok}
            # read before assemble, which unsets them
            scores = {a.repo: a.stream_scores for a, _h in answers if isinstance(a.stream_scores, dict)}
            side = "own repository without vectors" if q["corpus"] == plain else "own repository with vectors"
            # imputed: the workspace search's own merge; plain: the same answers without the imputation.
            merges = (
                ("imputed", assemble("ws", text, answers, opts).results),
                (
                    "plain",
                    merge_hits(
                        lists,
                        k=k,
                        bm25_scale=length_scales(lengths),
                        stream_scores=scores,
                        stream_weights={a.repo: a.weights for a, _h in answers if a.ok},
                    ),
                ),
            )
            for variant, merged in merges:
                rows = [wb._row(h.path, h, h.repo, q["corpus"]) for h in merged[:10]]
                mrr[(variant, side, q["kind"])].append(float(dv_score.metrics(q, rows)["file_MRR"]))
    _print(mrr)


def _print(mrr: dict[tuple[str, str, str], list[float]]) -> None:
    kinds = [*wb.KINDS, "ALL"]
    print("| queries | merge | " + " | ".join(kinds) + " |\n|---|---|" + "---|" * len(kinds))
    for side in ("own repository without vectors", "own repository with vectors"):
        for variant in ("plain", "imputed"):
            cells: list[str] = []
            every: list[float] = []
            for kind in wb.KINDS:
                got: list[Any] = mrr[(variant, side, kind)]
                every += got
                cells.append(f"{sum(got) / len(got):.3f}" if got else "-")
            cells.append(f"{sum(every) / len(every):.3f} (n {len(every)})")
            print(f"| {side} | {variant} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
