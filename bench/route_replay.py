"""Where does `qry search --route` lose to own-repository search, and would another rule help? (issue 15)

Owns: one pass over the 900 dev-set queries that records, per query, what every index of the
five-corpus workspace answers (as `Federation.search` asks it), what each index answers alone, and
the router's scores (confidence, profile score, content share); then replays routing rules over those
records: the repositories a rule keeps are searched alone (one kept) or merged as the workspace merges
them (several kept), so the rules differ only in what they keep.

Prints the loss split by what the default rule kept for the query's own repository, then file MRR@10
minus own-repository search per kind for each rule: the keep share and cap, only the best repository,
the router's confidence as a merge weight, and three statistics of the query's terms as more router
evidence (CORI belief; idf-weighted coverage of the terms by each index's vocabulary; a
document-frequency language model, each index's share of documents holding each term smoothed
half-and-half with the workspace's, against the workspace's).

    python bench/route_replay.py --from-git /work/.mirror --work /work/eval/work-ws

Reuses workspace_bench's snapshot trees and indexes (lexical, `--embed none`).
"""

from __future__ import annotations

import argparse
import math
import sys
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import workspace_bench as wb

Feats = dict[str, dict[str, float]]  # repo -> feature -> value
Score = Callable[[dict[str, float]], float]


def capture(work: Path, git_dirs: list[str]) -> list[dict[str, Any]]:
    from indexlib import Engine, SearchRequest
    from indexlib.workspace.collection import idf_boosts, idf_terms
    from indexlib.workspace.config import Member
    from indexlib.workspace.federate import Federation, answer_one, idf_stats_one, per_index_requests
    from indexlib.workspace.routing import route_members

    dv_run, _ = wb._deveval()
    queries = dv_run.load_all_queries(str(wb.DEVEVAL / "queries"))
    idx = wb.prepare(work, git_dirs, queries, "none")
    corpus_of = {q["snapshot"]: q["corpus"] for q in queries}
    feds = {
        nd: Federation(
            "ws", [Member(corpus_of[s], p) for s, p in sorted(idx.items()) if s.endswith("+nodoc") == nd]
        )
        for nd in (False, True)
    }
    own = {sid: Engine(p) for sid, p in idx.items()}
    opts = SearchRequest(top_k=10, graph=False)
    recs = []
    for q in queries:
        fed, text = feds[q["snapshot"].endswith("+nodoc")], q["query"]
        got = [idf_stats_one(lambda m=m, fed=fed: fed.engine(m.name), idf_terms(text)) for m in fed.members]
        boosts = idf_boosts({m.name: st for m, st in zip(fed.members, got, strict=True) if st})
        reqs = per_index_requests(opts, [m.name for m in fed.members], boosts)
        routed = route_members(fed, text, limit=len(fed.members))
        alone = {m.name: fed.engine(m.name).search(text, opts).results for m in fed.members}
        recs.append(
            {
                "q": q,
                "own": [
                    wb._row(h.path, h, q["corpus"], q["corpus"])
                    for h in own[q["snapshot"]].search(text, opts).results
                ],
                "answers": [
                    answer_one(m, lambda m=m, fed=fed: fed.engine(m.name), text, reqs[m.name])
                    for m in fed.members
                ],
                "alone": {r: [wb._row(h.path, h, r, q["corpus"]) for h in hs] for r, hs in alone.items()},
                "routes": {
                    r.repo: (r.confidence, r.profile_confidence, r.content_share) for r in routed.routes
                },
            }
        )
    return recs


def features(rec: dict[str, Any]) -> Feats:
    from indexlib.workspace import collection

    stats = {a.repo: (a.docs, a.term_df) for a, _h in rec["answers"] if a.ok}
    n_all = sum(d for d, _ in stats.values())
    terms = {t for _d, df in stats.values() for t in df}
    df_all = {t: sum(df.get(t, 0) for _d, df in stats.values()) for t in terms}
    idf = {t: collection.tantivy_idf(n_all, df_all[t]) for t in terms}
    total = sum(idf.values()) or 1.0
    cori = collection.weights(stats)
    out: Feats = {}
    for repo, (docs, df) in stats.items():
        lm = 0.0
        for t in terms:
            background = (df_all[t] + 0.5) / (n_all + 1)
            lm += math.log((0.5 * df.get(t, 0) / max(docs, 1) + 0.5 * background) / background)
        conf, prof, share = rec["routes"].get(repo, (0.0, 0.0, 0.0))
        out[repo] = {
            "conf": conf,
            "prof": prof,
            "share": share,
            "cov": sum(idf[t] for t, f in df.items() if f > 0) / total,
            "lm": lm,
            "cori": cori.get(repo, 1.0),
        }
    return out


def replay(rec: dict[str, Any], feats: Feats, score: Score, *, keep: float, cap: int, prior: float) -> float:
    """File MRR@10 of the routed search under one rule."""
    from indexlib import SearchRequest
    from indexlib.workspace.collection import length_scales
    from indexlib.workspace.federate import merge_hits

    _r, dv_score = wb._deveval()
    q = rec["q"]
    sc = {r: score(v) for r, v in feats.items()}
    order = sorted(sc, key=lambda r: -sc[r])
    best = sc[order[0]]
    kept = [r for r in order[:cap] if sc[r] > 0 and sc[r] >= keep * best] if best > 0 else []
    kept = kept or order
    if len(kept) == 1:
        return float(dv_score.metrics(q, rec["alone"][kept[0]])["file_MRR"])
    lists = [(a.repo, h) for a, h in rec["answers"] if a.ok and a.repo in kept]
    w = {r: 1 + prior * sc[r] / best for r in kept} if prior else None
    scale = length_scales({a.repo: (a.docs, a.content_length) for a, _h in rec["answers"] if a.repo in kept})
    kept_answers = [a for a, _h in rec["answers"] if a.ok and a.repo in kept]
    scores = {a.repo: a.stream_scores for a in kept_answers if isinstance(a.stream_scores, dict)}
    sw = {a.repo: a.weights for a in kept_answers}
    merged = merge_hits(
        lists, k=SearchRequest().rrf_k, weights=w, bm25_scale=scale, stream_scores=scores, stream_weights=sw
    )[:10]
    return float(dv_score.metrics(q, [wb._row(h.path, h, h.repo, q["corpus"]) for h in merged])["file_MRR"])


def rules() -> dict[str, tuple[Score, float, int, float]]:
    """name -> (score, keep share, cap, prior); the first is the default rule."""
    conf: Score = lambda v: v["conf"]  # noqa: E731
    out: dict[str, tuple[Score, float, int, float]] = {"default (keep 0.5, up to 3)": (conf, 0.5, 3, 0.0)}
    out |= {
        f"keep {k}, up to {c}": (conf, k, c, 0.0) for k in (0.3, 0.5) for c in (3, 5) if (k, c) != (0.5, 3)
    }
    out["the best only"] = (conf, 1.0, 1, 0.0)
    out |= {f"confidence as merge weight, P {p}": (conf, 0.5, 3, p) for p in (0.5, 1.0, 2.0)}
    out["CORI belief alone"] = (lambda v: v["cori"] - 0.5, 1.0, 1, 0.0)
    out["coverage alone"] = (lambda v: v["cov"], 1.0, 1, 0.0)
    out["language model alone"] = (lambda v: math.exp(v["lm"]), 1.0, 1, 0.0)
    for w in (0.1, 0.3, 1.0):
        out[f"confidence + {w} x coverage"] = (lambda v, w=w: v["conf"] + w * v["cov"], 0.5, 3, 0.0)
        out[f"confidence x exp({w} x lm)"] = (
            lambda v, w=w: v["conf"] * math.exp(w * max(-20.0, v["lm"])),
            0.5,
            3,
            0.0,
        )
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--work", default="/work/eval/work-ws")
    ap.add_argument("--from-git", action="append", default=[])
    args = ap.parse_args()
    _r, dv_score = wb._deveval()
    recs = capture(Path(args.work), args.from_git)
    feats = [features(rec) for rec in recs]
    own = [float(dv_score.metrics(rec["q"], rec["own"])["file_MRR"]) for rec in recs]
    split: dict[str, list[float]] = defaultdict(list)
    for rec, f, o in zip(recs, feats, own, strict=True):
        sc = {r: v["conf"] for r, v in f.items()}
        best = max(sc.values(), default=0.0)
        kept = sorted((r for r in sc if sc[r] > 0 and sc[r] >= 0.5 * best), key=lambda r: -sc[r])[:3]
        n = len(kept) - 1
        how = "not kept" if rec["q"]["corpus"] not in kept else f"kept with {n} others" if n else "kept alone"
        split[how].append(replay(rec, f, lambda v: v["conf"], keep=0.5, cap=3, prior=0.0) - o)
    print("| kept (default rule) | queries | file MRR@10 lost (share of all) |\n|---|---:|---:|")
    for how, d in sorted(split.items()):
        print(f"| {how} | {len(d)} | {sum(d) / len(recs):+.3f} |")
    kinds = [*wb.KINDS, "ALL"]
    print("\n| rule | acc@1 | " + " | ".join(kinds) + " |\n|---|---|" + "---|" * len(kinds))
    for name, (score, keep, cap, prior) in rules().items():
        per: dict[str, list[float]] = defaultdict(list)
        hit = 0
        for rec, f, o in zip(recs, feats, own, strict=True):
            per[rec["q"]["kind"]].append(replay(rec, f, score, keep=keep, cap=cap, prior=prior) - o)
            hit += max(f, key=lambda r: score(f[r])) == rec["q"]["corpus"]
        cells = [f"{sum(per[k]) / len(per[k]):+.3f}" for k in wb.KINDS]
        cells.append(f"{sum(sum(v) for v in per.values()) / len(recs):+.3f}")
        print(f"| {name} | {hit / len(recs):.3f} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
