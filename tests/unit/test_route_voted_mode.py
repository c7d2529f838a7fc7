"""Which mode a routing vote counts as: the keep rule of a routed search depends on it."""

from __future__ import annotations

from indexlib.workspace.federate import IndexAnswer
from indexlib.workspace.routing import voted_mode

HYBRID = {"bm25": 1.4, "symbol": 0.1, "vector": 1.0}


def _answer(repo: str, *, unavailable: list[str], ok: bool = True) -> IndexAnswer:
    return IndexAnswer(repo=repo, index_dir=f"/x/{repo}", ok=ok, weights=HYBRID, unavailable=unavailable)


def test_a_hybrid_vote_over_indexes_without_vectors_is_lexical() -> None:
    lexical_only = [_answer("a", unavailable=["vector"]), _answer("b", unavailable=["vector"])]
    assert voted_mode("hybrid", lexical_only) == "lexical"


def test_one_index_with_vectors_makes_the_vote_hybrid() -> None:
    mixed = [_answer("a", unavailable=["vector"]), _answer("b", unavailable=[])]
    assert voted_mode("hybrid", mixed) == "hybrid"
    # an index that failed ran nothing, whatever its weights say
    failed = [_answer("a", unavailable=["vector"]), _answer("b", unavailable=[], ok=False)]
    assert voted_mode("hybrid", failed) == "lexical"


def test_other_modes_are_kept_as_asked() -> None:
    answers = [_answer("a", unavailable=["vector"])]
    assert voted_mode("lexical", answers) == "lexical"
    assert voted_mode("symbol", answers) == "symbol"
