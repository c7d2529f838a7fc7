"""Retrieval metrics for queries with exactly one relevant item (binary relevance).

Owns: recall@k, reciprocal rank cut at k, nDCG@k, and their mean over a query set. Pure functions
over the 1-based rank of the relevant item (None when it was not retrieved), so they are tested on
hand-computed examples without any engine. It does not decide relevance (run.py matches hits to
answers).

With one relevant item the ideal DCG is 1 (the item at rank 1), so nDCG@k is 1/log2(rank + 1) when
rank <= k, else 0; recall@k is 1 or 0 per query.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

Rank = int | None  # 1-based rank of the relevant item, None when it was not in the results


def recall_at(rank: Rank, k: int) -> float:
    """1.0 when the relevant item is within the first `k` results."""
    return 1.0 if rank is not None and 1 <= rank <= k else 0.0


def reciprocal_rank(rank: Rank, k: int = 10) -> float:
    """1/rank when the relevant item is within the first `k` results, else 0 (MRR@k per query)."""
    return 1.0 / rank if rank is not None and 1 <= rank <= k else 0.0


def ndcg_at(rank: Rank, k: int = 10) -> float:
    """nDCG@k with one relevant item: 1/log2(rank + 1) within the first `k`, else 0."""
    return 1.0 / math.log2(rank + 1) if rank is not None and 1 <= rank <= k else 0.0


def first_relevant(flags: Iterable[bool]) -> Rank:
    """The 1-based position of the first True in a ranked list of relevance flags, or None."""
    for i, relevant in enumerate(flags, start=1):
        if relevant:
            return i
    return None


METRIC_NAMES = ("R@1", "R@5", "R@10", "MRR@10", "nDCG@10")


def summarize(ranks: Sequence[Rank]) -> dict[str, float]:
    """Mean of each metric over `ranks`; an empty list gives zeros (and `n` = 0)."""
    n = len(ranks)
    if n == 0:
        return {"n": 0.0, **dict.fromkeys(METRIC_NAMES, 0.0)}
    return {
        "n": float(n),
        "R@1": sum(recall_at(r, 1) for r in ranks) / n,
        "R@5": sum(recall_at(r, 5) for r in ranks) / n,
        "R@10": sum(recall_at(r, 10) for r in ranks) / n,
        "MRR@10": sum(reciprocal_rank(r, 10) for r in ranks) / n,
        "nDCG@10": sum(ndcg_at(r, 10) for r in ranks) / n,
    }
