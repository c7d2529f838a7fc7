"""Rank a workspace's repositories by how their own vocabulary predicts a question (pure: no I/O).

Owns: the cheap first cut of routing over many repositories: which of them the content fan-out
(workspace/routing.py) asks, when there are too many to search every one. Every index already
reports, from its term dictionary alone, its documents and the document frequency of each query term
(the statistics of the workspace-wide idf, workspace/collection.py; no postings are read), so this
ranking costs about 0.03 ms per repository, where asking one for content evidence is a search.

Each repository is scored by the log-likelihood ratio of the question's terms under its own share of
documents holding each term, smoothed toward the workspace's (a Dirichlet prior of VOCAB_MU
documents), against the workspace's share:

    p_r(t)   = (df_r(t) + mu * p_ws(t)) / (docs_r + mu)       p_ws(t) = sum_r df_r(t) / sum_r docs_r
    score(r) = sum over terms t the workspace has of  log(p_r(t) / p_ws(t))

A word every repository uses as often weighs nothing; one that a repository uses far more than the
rest weighs for it, however small it is; a word no repository has is no evidence. Among sixteen
repositories (the dev set's five beside eleven others), the owner of a dev-set question is within
this ranking's best 8 for 98.7% of questions where the profile's (route/score.py) holds it for 85%
(docs/benchmarks.md): the profile sees 2,000 README characters and 1,500 top-level names, this the
whole index's words.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

VOCAB_MU = 100.0  # documents of the workspace's term shares each repository's is smoothed with


def likelihoods(stats: Mapping[str, tuple[int, Mapping[str, int]]]) -> dict[str, float]:
    """repo -> the log-likelihood ratio above, from each repository's (documents, df per term); {}
    when no repository holds any of the terms (a question of typos: no evidence for any)."""
    n_all = sum(docs for docs, _df in stats.values())
    df_all: dict[str, int] = {}
    for _docs, df in stats.values():
        for t, f in df.items():
            df_all[t] = df_all.get(t, 0) + f
    held = [t for t, f in df_all.items() if f > 0]
    if not held or n_all <= 0:
        return {}
    out: dict[str, float] = {}
    for repo, (docs, df) in stats.items():
        score = 0.0
        for t in held:
            p_ws = df_all[t] / n_all
            score += math.log((df.get(t, 0) + VOCAB_MU * p_ws) / (docs + VOCAB_MU) / p_ws)
        out[repo] = score
    return out


def best(stats: Mapping[str, tuple[int, Mapping[str, int]]], limit: int) -> list[str]:
    """The `limit` repositories of `stats` whose vocabulary predicts the terms best, best first (ties
    in `stats`' order); [] when no repository holds any term."""
    scores = likelihoods(stats)
    order = sorted(scores, key=lambda r: -scores[r])  # sorted() is stable: ties keep stats' order
    return order[:limit]
