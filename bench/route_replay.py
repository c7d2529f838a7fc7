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
half-and-half with the workspace's, against the workspace's), and each repository's commit history
up to its snapshot (`--from-git`'s clone: the last HISTORY_TITLES commit subjects; the reciprocal-
rank vote share of the best HISTORY_HITS of them by BM25, added to the confidence). The dev set's
`fix` queries are titles of commits made after the snapshot, so the history read never holds them.
Last, identifier coverage: only the question's code-like words (backticked, camelCase, snake_case,
dotted, ALL_CAPS, a capitalised word not first), each index's idf-weighted share of those it holds.
And stream agreement (hybrid captures): each index's share of 1/position over its own best 10 hits
that both its BM25 and its dense stream rank within AGREE_DEPTH (words and meaning pointing at the
same code, where a neighbour's code shares only the words). And agreement between the router and
the vocabulary ranking (route/vocab.py): when both put the same repository first, search it alone.

    python bench/route_replay.py --from-git /work/.mirror --work /work/eval/work-ws [--embed onnx]

Reuses workspace_bench's snapshot trees and indexes (lexical, or with `--embed onnx` the default
hybrid mode's).
"""

from __future__ import annotations

import argparse
import math
import re
import subprocess
import sys
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import workspace_bench as wb

HISTORY_TITLES = 2000
HISTORY_HITS = 10
AGREE_DEPTH = 5
_WORD = re.compile(r"[a-z0-9]+")
_CODE_WORD = re.compile(r"`[^`]+`|[\w$]+(?:\.[\w$]+)*")
Feats = dict[str, dict[str, float]]  # repo -> feature -> value
Score = Callable[[dict[str, float]], float]


def capture(work: Path, git_dirs: list[str], embed: str = "none") -> list[dict[str, Any]]:
    from indexlib import Engine, SearchRequest
    from indexlib.workspace.collection import idf_boosts, idf_terms
    from indexlib.workspace.config import Member
    from indexlib.workspace.federate import Federation, answer_one, idf_stats_one, per_index_requests
    from indexlib.workspace.routing import route_members

    dv_run, _ = wb._deveval()
    queries = dv_run.load_all_queries(str(wb.DEVEVAL / "queries"))
    idx = wb.prepare(work, git_dirs, queries, embed)
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


def identifier_terms(text: str) -> list[str]:
    """The analysed joined forms of the question's code-like words (as the index spells them)."""
    from indexlib.analyzer import split_identifier

    out: list[str] = []
    for i, m in enumerate(_CODE_WORD.finditer(text)):
        tok = m.group(0)
        if tok.startswith("`"):
            out += ["".join(split_identifier(w)).lower() for w in re.findall(r"[\w$]+", tok)]
        elif "." in tok:
            out.append(".".join("".join(split_identifier(s)).lower() for s in tok.split(".")))
        elif len(split_identifier(tok)) > 1 or (tok.isupper() and len(tok) > 1) or (i and tok[:1].isupper()):
            out.append("".join(split_identifier(tok)).lower())
    return [t for t in dict.fromkeys(out) if t]


def features(rec: dict[str, Any]) -> Feats:
    from indexlib.route import vocab
    from indexlib.workspace import collection

    stats = {a.repo: (a.docs, a.term_df) for a, _h in rec["answers"] if a.ok}
    n_all = sum(d for d, _ in stats.values())
    terms = {t for _d, df in stats.values() for t in df}
    df_all = {t: sum(df.get(t, 0) for _d, df in stats.values()) for t in terms}
    idf = {t: collection.tantivy_idf(n_all, df_all[t]) for t in terms}
    total = sum(idf.values()) or 1.0
    cori = collection.weights(stats)
    code = [t for t in identifier_terms(rec["q"]["query"]) if df_all.get(t, 0) > 0]
    code_total = sum(idf[t] for t in code)
    agree = {a.repo: _agreement(hits) for a, hits in rec["answers"] if a.ok}
    agree_total = sum(agree.values())
    first = vocab.best(stats, 1)
    conf_first = max(stats, key=lambda r: rec["routes"].get(r, (0.0,))[0], default=None)
    agreed = bool(first) and first[0] == conf_first
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
            "ident": sum(idf[t] for t in code if df.get(t, 0) > 0) / code_total if code_total else -1.0,
            "agree": agree.get(repo, 0.0) / agree_total if agree_total else 0.0,
            # the router and the vocabulary ranking (route/vocab.py) put the same repository first
            "both_first": 1.0 if agreed and repo == conf_first else 0.0,
            "agreed": 1.0 if agreed else 0.0,
        }
    return out


def _agreement(hits: list[Any]) -> float:
    """Sum of 1/position over the best 10 hits that BM25 and the dense stream both rank in AGREE_DEPTH."""
    both = [
        1.0 / pos
        for pos, h in enumerate(hits[:10], start=1)
        if (h.provenance.bm25_rank or AGREE_DEPTH + 1) <= AGREE_DEPTH
        and (h.provenance.vector_rank or AGREE_DEPTH + 1) <= AGREE_DEPTH
    ]
    return sum(both)


def history_titles(git_dirs: list[str], queries: list[dict[str, Any]]) -> dict[str, list[list[str]]]:
    """corpus -> its last HISTORY_TITLES non-merge commit subjects at the snapshot, as word lists."""
    out: dict[str, list[list[str]]] = {}
    for q in queries:
        if q["corpus"] in out:
            continue
        for base in git_dirs:
            d = Path(base) / q["repo"].replace("/", "+") / "repo"
            args = ["git", "-C", str(d), "log", "--no-merges", "--format=%s", f"-{HISTORY_TITLES}"]
            got = subprocess.run([*args, q["snapshot_commit"]], capture_output=True, text=True, check=False)
            if got.returncode == 0:
                out[q["corpus"]] = [_WORD.findall(t.lower()) for t in got.stdout.splitlines()]
                break
    return out


def history_votes(text: str, titles: dict[str, list[list[str]]]) -> dict[str, float]:
    """repo -> its share of 1/rank over the best HISTORY_HITS titles of the pool by BM25 (k1 1.2, b 0.75)."""
    from indexlib.retrieval.query import FUNCTION_WORDS

    docs = [(repo, words) for repo, ts in titles.items() for words in ts]
    avg = sum(len(w) for _r, w in docs) / max(len(docs), 1)
    terms = {t for t in _WORD.findall(text.lower()) if len(t) > 1 and t not in FUNCTION_WORDS}
    df = {t: sum(t in w for _r, w in docs) for t in terms}
    scored = []
    for i, (_repo, words) in enumerate(docs):
        s = 0.0
        for t in terms & set(words):
            tf = words.count(t)
            idf = math.log(1 + (len(docs) - df[t] + 0.5) / (df[t] + 0.5))
            s += idf * tf * 2.2 / (tf + 1.2 * (0.25 + 0.75 * len(words) / avg))
        if s > 0:
            scored.append((-s, i))
    vote: dict[str, float] = defaultdict(float)
    for rank, (_s, i) in enumerate(sorted(scored)[:HISTORY_HITS], start=1):
        vote[docs[i][0]] += 1 / rank
    total = sum(vote.values()) or 1.0
    return {r: vote[r] / total for r in titles}


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
        f"keep {k}, up to {c}": (conf, k, c, 0.0)
        for k in (0.1, 0.2, 0.25, 0.3, 0.4, 0.5)
        for c in (3, 5)
        if (k, c) != (0.5, 3)
    }
    out["the best only"] = (conf, 1.0, 1, 0.0)
    out |= {f"confidence as merge weight, P {p}": (conf, 0.5, 3, p) for p in (0.5, 1.0, 2.0)}
    out["CORI belief alone"] = (lambda v: v["cori"] - 0.5, 1.0, 1, 0.0)
    out["coverage alone"] = (lambda v: v["cov"], 1.0, 1, 0.0)
    out["language model alone"] = (lambda v: math.exp(v["lm"]), 1.0, 1, 0.0)
    for w in (0.3, 0.5, 0.8):
        out[f"(confidence + {w} x history) / {1 + w}"] = (
            lambda v, w=w: (v["conf"] + w * v["hist"]) / (1 + w),
            0.5,
            3,
            0.0,
        )
    for w in (0.1, 0.3, 1.0):
        out[f"confidence + {w} x coverage"] = (lambda v, w=w: v["conf"] + w * v["cov"], 0.5, 3, 0.0)
        out[f"confidence x exp({w} x lm)"] = (
            lambda v, w=w: v["conf"] * math.exp(w * max(-20.0, v["lm"])),
            0.5,
            3,
            0.0,
        )
    for w in (0.4, 1.0):
        for keep in (0.3, 0.5):
            out[f"(confidence + {w} x identifiers) / {1 + w}, keep {keep}"] = (
                lambda v, w=w: v["conf"] if v["ident"] < 0 else (v["conf"] + w * v["ident"]) / (1 + w),
                keep,
                3,
                0.0,
            )
    for w in (0.3, 1.0):
        out[f"(confidence + {w} x agreement) / {1 + w}"] = (
            lambda v, w=w: (v["conf"] + w * v["agree"]) / (1 + w),
            0.3,
            3,
            0.0,
        )
    # When the router and the vocabulary agree on the first repository, it alone; else the default.
    out["agreement: the first alone, else keep 0.3"] = (
        lambda v: v["conf"] if not v["agreed"] or v["both_first"] else 0.0,
        0.3,
        3,
        0.0,
    )
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--work", default="/work/eval/work-ws")
    ap.add_argument("--from-git", action="append", default=[])
    ap.add_argument(
        "--embed", default="none", help="none (lexical indexes) or onnx (hybrid, the default mode)"
    )
    ap.add_argument("--recs", help="a pickle of the capture: read if it exists, else written after capturing")
    args = ap.parse_args()
    _r, dv_score = wb._deveval()
    recs = wb.cached(args.recs or "", lambda: capture(Path(args.work), args.from_git, args.embed))
    feats = [features(rec) for rec in recs]
    titles = history_titles(args.from_git, [rec["q"] for rec in recs])
    for rec, f in zip(recs, feats, strict=True):
        for repo, share in history_votes(rec["q"]["query"], titles).items():
            if repo in f:
                f[repo]["hist"] = share
    for f in feats:
        for v in f.values():
            v.setdefault("hist", 0.0)
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
