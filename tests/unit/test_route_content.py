"""The content evidence of the router: votes of the top hits combined with the profile score."""

from __future__ import annotations

import pytest

from indexlib.route.content import CONTENT_HITS, PROFILE_WEIGHT, combine, votes
from indexlib.route.score import Route, RouteResult


def _profile(**scores: float) -> RouteResult:
    routes = [Route(repo=r, confidence=c, rationale=f"matched in {r}") for r, c in scores.items()]
    return RouteResult(query="q", terms=["q"], routes=routes, considered=3)


def test_votes_weigh_each_hit_by_its_reciprocal_rank_and_stop_at_the_cut() -> None:
    v = votes(["a", "b", "a", *(["c"] * 20)])
    assert v["a"] == pytest.approx(1 + 1 / 3) and v["b"] == pytest.approx(1 / 2)
    assert v["c"] == pytest.approx(sum(1 / r for r in range(4, CONTENT_HITS + 1)))


def test_the_top_hits_outweigh_a_profile_that_names_another_repository() -> None:
    # The profile alone would pick "docs" (its README names the words); the code answering is in "core".
    hits = [("core", "src/retry.py:10"), ("core", "src/charge.py:4"), ("docs", "guide.md:1")]
    out = combine(_profile(docs=0.9, core=0.2), hits, limit=3)
    assert [r.repo for r in out.routes] == ["core", "docs"]
    core = out.routes[0]
    share = (1 + 1 / 2) / (1 + 1 / 2 + 1 / 3)
    assert core.confidence == pytest.approx((share + PROFILE_WEIGHT * 0.2) / (1 + PROFILE_WEIGHT), abs=1e-4)
    assert core.content_share == pytest.approx(share, abs=1e-4) and core.profile_confidence == 0.2
    assert "2 of the top 3 hits (first: src/retry.py:10)" in core.rationale
    assert all(0 < r.confidence <= 1 for r in out.routes)


def test_a_repository_with_neither_evidence_is_dropped_and_the_limit_cuts() -> None:
    out = combine(_profile(a=0.5), [("b", "x.py:1")], limit=1)
    assert [r.repo for r in out.routes] == ["b"]
    assert combine(_profile(), [], limit=3).routes == []
    only_profile = combine(_profile(a=0.5), [], limit=3).routes
    assert [r.repo for r in only_profile] == ["a"] and only_profile[0].content_share == 0.0
