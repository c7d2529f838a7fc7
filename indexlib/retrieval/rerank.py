"""The reranker seam: an optional second pass over the fused head of the ranking. Off by default.

Owns: the `Reranker` protocol and the gate deciding when a rerank may run: never for a blank
query, never when fewer candidates than `threshold` came back (nothing to reorder that fusion did not
already settle), and never when an exact symbol match already leads (a cross-encoder can only make
`ParseConfig` -> `ParseConfig` worse). No cross-encoder ships with qry: a model that would run offline
here has not been shown to beat the fused ranking on our evaluation, so none is wired by default.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

RERANK_THRESHOLD = 50  # candidates below which reranking is skipped
RERANK_DEPTH = 50  # how many of the fused head a reranker sees


class Reranker(Protocol):
    """Scores (query, text) pairs; higher is better. The order of the head is rebuilt from these."""

    name: str

    def score(self, query: str, texts: Sequence[str]) -> list[float]: ...


def rerank_gate(
    *, query_blank: bool, candidates: int, exact_lead: bool, threshold: int = RERANK_THRESHOLD
) -> str | None:
    """Why a rerank is skipped (a note for the result meta), or None if it may run."""
    if query_blank:
        return "rerank skipped: blank query"
    if candidates < threshold:
        return f"rerank skipped: {candidates} candidates < threshold {threshold}"
    if exact_lead:
        return "rerank skipped: an exact symbol match leads"
    return None


def apply_rerank(reranker: Reranker, query: str, texts: Sequence[str]) -> list[int]:
    """The new order of `texts` (indices, best first), stable for equal scores."""
    scores = reranker.score(query, texts)
    if len(scores) != len(texts):
        raise ValueError(f"reranker {reranker.name} returned {len(scores)} scores for {len(texts)} texts")
    return sorted(range(len(texts)), key=lambda i: (-scores[i], i))
