"""Which cheap ranking best picks the repositories routing asks for content? (issue 15)

Owns: for each dev-set question, the rank of its own repository under three rankings that read no
postings: the profile router (route/score.py: slug, README head, top-level names), CORI's collection
belief (workspace/collection.py) and the vocabulary likelihood routing uses (route/vocab.py), the last
two from each index's document frequencies of the question's terms. Prints recall@1, @3 and @8 (is
the owner among the best k) and the time the statistics took.

    python bench/route_candidates.py --from-git /work/.mirror --work /work/eval/work-ws \
        [--per-group 15] [--distractor DIR ...]

Reuses workspace_bench's snapshot trees and indexes (and its `--distractor` repositories).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import workspace_bench as wb

RECALL_AT = (1, 3, 8)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--work", default="/work/eval/work-ws")
    ap.add_argument("--from-git", action="append", default=[])
    ap.add_argument("--per-group", type=int, default=0, help="at most N queries per kind and corpus")
    ap.add_argument("--distractor", action="append", default=[], help="another repository's index dir")
    args = ap.parse_args()

    from indexlib.retrieval.query import parse_query
    from indexlib.route import vocab
    from indexlib.route.profile import profile
    from indexlib.route.score import route
    from indexlib.workspace import collection
    from indexlib.workspace.config import Member
    from indexlib.workspace.federate import Federation

    dv_run, _score = wb._deveval()
    queries = dv_run.load_all_queries(str(wb.DEVEVAL / "queries"))
    if args.per_group:
        queries = dv_run.select(queries, list(wb.KINDS), [], args.per_group)
    idx = wb.prepare(Path(args.work), args.from_git, queries, "none")
    corpus_of = {q["snapshot"]: q["corpus"] for q in queries}
    feds = {
        nodoc: Federation(
            "bench",
            [Member(corpus_of[s], p) for s, p in sorted(idx.items()) if s.endswith("+nodoc") == nodoc]
            + [Member(Path(d).name, Path(d)) for d in args.distractor],
        )
        for nodoc in (False, True)
    }
    pools = {n: [profile(f.engine(m.name), m.name) for m in f.members] for n, f in feds.items()}
    ranks: dict[str, dict[str, list[int]]] = defaultdict(lambda: defaultdict(list))
    took: list[float] = []
    for q in queries:
        nodoc = q["snapshot"].endswith("+nodoc")
        fed = feds[nodoc]
        by_profile = route(parse_query(q["query"]).text, pools[nodoc], limit=len(pools[nodoc]))
        t0 = time.perf_counter()
        terms = collection.collection_terms(q["query"])
        stats = {m.name: collection.index_stats(fed.engine(m.name), terms) for m in fed.members}
        took.append(time.perf_counter() - t0)
        cori = collection.weights(stats)
        orders = {
            "profile": [r.repo for r in by_profile.routes],
            "CORI": sorted(cori, key=lambda r: -cori[r]),
            "vocabulary": vocab.best(stats, len(stats)),
        }
        for name, order in orders.items():
            at = order.index(q["corpus"]) + 1 if q["corpus"] in order else len(stats) + 1
            ranks[name][q["kind"]].append(at)
    n = len(feds[False].members)
    print(
        f"{len(queries)} questions, {n} repositories; statistics p50 {statistics.median(took) * 1000:.2f} ms\n"
    )
    print("| ranking | kind | n | " + " | ".join(f"recall@{k}" for k in RECALL_AT) + " |")
    print("|---|---|---|" + "---|" * len(RECALL_AT))
    for name, per in ranks.items():
        for kind in (*wb.KINDS, "ALL"):
            got = [r for v in per.values() for r in v] if kind == "ALL" else per[kind]
            cells = " | ".join(f"{sum(r <= k for r in got) / len(got):.3f}" for k in RECALL_AT)
            print(f"| {name} | {kind} | {len(got)} | {cells} |")


if __name__ == "__main__":
    main()
