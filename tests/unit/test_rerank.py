"""The reranker seam: the gate and the reordering (a fake reranker; none ships by default)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest

from indexlib.retrieval.rerank import apply_rerank, rerank_gate


class ByLength:
    name = "by-length"

    def score(self, query: str, texts: Sequence[str]) -> list[float]:
        return [float(len(t)) for t in texts]


def test_gate_reasons() -> None:
    assert rerank_gate(query_blank=True, candidates=500, exact_lead=False) == "rerank skipped: blank query"
    assert "threshold" in (rerank_gate(query_blank=False, candidates=10, exact_lead=False) or "")
    assert "exact symbol" in (rerank_gate(query_blank=False, candidates=500, exact_lead=True) or "")
    assert rerank_gate(query_blank=False, candidates=500, exact_lead=False) is None


def test_apply_rerank_orders_by_score_stably() -> None:
    assert apply_rerank(ByLength(), "q", ["aa", "a", "aaa", "bb"]) == [2, 0, 3, 1]


def test_rerank_runs_in_search_only_when_the_gate_allows(polyglot_lexical: Path) -> None:
    from indexlib import SearchOptions, open_engine

    engine = open_engine(polyglot_lexical / ".qry")
    few = engine.search("charge", SearchOptions(reranker=ByLength()))
    assert any("rerank skipped" in n for n in few.meta.notes)
    exact = engine.search("retry_failed_charge", SearchOptions(reranker=ByLength()))
    assert any("rerank skipped" in n for n in exact.meta.notes)


@pytest.mark.parametrize("threshold", [0])
def test_rerank_reorders_when_allowed(
    polyglot_lexical: Path, monkeypatch: pytest.MonkeyPatch, threshold: int
) -> None:
    import indexlib.retrieval.rerank as rr
    from indexlib import SearchOptions, open_engine

    monkeypatch.setattr(rr, "RERANK_THRESHOLD", threshold)
    monkeypatch.setattr(rr.rerank_gate, "__kwdefaults__", {"threshold": threshold})
    res = open_engine(polyglot_lexical / ".qry").search(
        "charge customer", SearchOptions(reranker=ByLength(), explain=True)
    )
    assert any(n.startswith("reranked the top") for n in res.meta.notes)
    assert any("reranked by by-length" in e for h in res.results for e in h.explain)
