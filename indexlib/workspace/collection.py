"""How much each index of a workspace is about a query, from its own term statistics (CORI).

Owns: the collection weight the workspace merge multiplies each index's hits by. Per-index BM25 is
computed with that index's idf, so a word that is rare in an unrelated repository (`html` in a Vue
runtime) scores as high there as the owner's distinctive words do at home: ranks and BM25 scores alone
cannot tell the repository that is about the query from one that merely mentions a word. CORI
(Callan, Lu and Croft 1995), the standard collection-selection belief of federated search, reads that
from each index's document frequencies of the analysed query terms:

    T = df / (df + 50 + 150 * docs / mean docs)         how much of the index uses the term
    I = log((N + 0.5) / cf) / log(N + 1)                 how few of the N indexes have it at all
    belief = mean over terms of (0.4 + 0.6 * T * I)

and merges with `score * (1 + w * C) / (1 + w)`, C the belief min-max normalised over the workspace
(CORI's w is 0.4; MERGE_WEIGHT).
Only document frequencies are read (Tantivy's term dictionary, ~0.1 ms a term), never postings.

The same statistics give each index its query's workspace-wide idf (`idf_boosts`): before the fan-out,
every index reports its documents and the document frequency of each analysed query term in the field
prose BM25 scores (IDF_FIELD), and each index's BM25 then multiplies term t by

    idf(N_all, df_all(t)) / idf(N_index, df_index(t))      idf(N, df) = ln(1 + (N - df + 0.5) / (df + 0.5))

(Tantivy's own idf), so a word that is rare in one repository but common across the workspace no
longer weighs there as a distinctive word does at home. With one index every factor is 1.

BM25's other collection statistic is the mean length its length norm divides by, also per index: an
index of long nodes (a TypeScript runtime's) scores a node of its mean length as one of an index of
short nodes (a Go CLI's) scores its mean-length node, although in one index holding both the first
would be long and the second short. `length_scales` gives each index the factor that moves a
mean-length node's tf part (tf 1) from its own mean to the workspace's, node-weighted:

    scale = (1 + K1) / (1 + K1 * (1 - B + B * mean_index / mean_workspace))

and the merge compares BM25 scores across indexes after it (federate.merge_hits: `bm25_scale`).
"""

from __future__ import annotations

import math
from collections.abc import Mapping

from indexlib.analyzer import query_terms
from indexlib.retrieval.query import FUNCTION_WORDS, without_filters
from indexlib.retrieval.search import Engine

FIELD = "body_terms"  # every node's code-aware terms: the broadest field
CORI_DF_BASE, CORI_DF_SIZE, CORI_B = 50.0, 150.0, 0.4
K1, B = 1.2, 0.75  # Tantivy's BM25 constants
MERGE_WEIGHT = 1.0  # CORI's own merge uses 0.4; 1.0 measured better on the dev set (benchmarks.md)
MAX_TERMS = 32
IDF_FIELD = "content"  # the field prose queries are scored on (engines/lexical.py PROSE_FIELD_BOOSTS)
BOOST_RANGE = (0.05, 20.0)  # within SearchRequest's term_boosts bounds


def collection_terms(text: str) -> list[str]:
    text = without_filters(text)
    words = [w for w in text.split() if w.lower() not in FUNCTION_WORDS] or text.split()
    return list(dict.fromkeys(query_terms(" ".join(words))))[:MAX_TERMS]


def index_stats(engine: Engine, terms: list[str], field: str = FIELD) -> tuple[int, dict[str, int]]:
    """(documents, df per term in `field`) of the index's current root, summed over its segments."""
    return engine.snapshot().term_stats(field, terms)


def idf_terms(text: str) -> list[str]:
    """The analysed terms BM25 may be asked for (function words included: identifier queries keep them;
    filters are not searched for, so they are left out)."""
    return list(dict.fromkeys(query_terms(without_filters(text))))[: 2 * MAX_TERMS]


def tantivy_idf(n: int, df: int) -> float:
    return math.log(1.0 + (n - df + 0.5) / (df + 0.5))


def idf_boosts(stats: Mapping[str, tuple[int, dict[str, int]]]) -> dict[str, dict[str, float]]:
    """repo -> {term: workspace idf / the index's idf} for the terms the index has; {} for one index."""
    if len(stats) < 2:
        return {repo: {} for repo in stats}
    n_all = sum(d for d, _df in stats.values())
    df_all: dict[str, int] = {}
    for _d, df in stats.values():
        for t, f in df.items():
            df_all[t] = df_all.get(t, 0) + f
    lo, hi = BOOST_RANGE
    out: dict[str, dict[str, float]] = {}
    for repo, (docs, df) in stats.items():
        out[repo] = {
            t: min(hi, max(lo, tantivy_idf(n_all, df_all[t]) / tantivy_idf(docs, f)))
            for t, f in df.items()
            if f > 0 and docs > 0
        }
    return out


def weights(stats: Mapping[str, tuple[int, dict[str, int]]]) -> dict[str, float]:
    """repo -> merge factor in [1 / (1 + MERGE_WEIGHT), 1]; all 1.0 when the beliefs do not differ."""
    if len(stats) < 2:
        return dict.fromkeys(stats, 1.0)
    n = len(stats)
    mean_docs = sum(d for d, _ in stats.values()) / n or 1.0
    terms = {t for _d, df in stats.values() for t in df}
    cf = {t: sum(1 for _d, df in stats.values() if df.get(t, 0) > 0) for t in terms}
    belief: dict[str, float] = {}
    for repo, (docs, df) in stats.items():
        if not df:
            belief[repo] = 0.0
            continue
        total = 0.0
        for t, f in df.items():
            if cf[t] == 0:
                total += CORI_B  # a term no index has is evidence about none of them
                continue
            tt = f / (f + CORI_DF_BASE + CORI_DF_SIZE * docs / mean_docs)
            ii = math.log((n + 0.5) / cf[t]) / math.log(n + 1.0)
            total += CORI_B + (1 - CORI_B) * tt * ii
        belief[repo] = total / len(df)
    lo, hi = min(belief.values()), max(belief.values())
    if hi - lo <= 1e-12:
        return dict.fromkeys(stats, 1.0)
    return {r: (1 + MERGE_WEIGHT * (b - lo) / (hi - lo)) / (1 + MERGE_WEIGHT) for r, b in belief.items()}


def length_scales(lengths: Mapping[str, tuple[int, float | None]]) -> dict[str, float]:
    """repo -> BM25 length-norm factor, from each index's (documents, mean `content` terms); {} when
    fewer than two indexes know their mean length (an index that does not is left at 1)."""
    known = {r: (d, m) for r, (d, m) in lengths.items() if m and d > 0}
    if len(known) < 2:
        return {}
    mean_ws = sum(d * m for d, m in known.values()) / sum(d for d, _m in known.values())
    return {r: (1 + K1) / (1 + K1 * (1 - B + B * m / mean_ws)) for r, (_d, m) in known.items()}
