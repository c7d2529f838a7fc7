"""The workspace merge's imputation for an index that cannot run a stream the others ran."""

from __future__ import annotations

import pytest

from indexlib import SearchRequest
from indexlib.records import Hit, Provenance, Snippet
from indexlib.workspace.federate import IndexAnswer, assemble, imputed

NATURAL = {"bm25": 0.8, "symbol": 0.1, "vector": 1.0}


def _answer(repo: str, *, unavailable: list[str], weights: dict[str, float] = NATURAL) -> IndexAnswer:
    return IndexAnswer(
        repo=repo, index_dir=f"/{repo}", ok=True, weights=dict(weights), unavailable=unavailable
    )


def _hit(uid: str, score: float, **prov: float | int) -> Hit:
    return Hit(
        uid=uid,
        path=f"{uid}.py",
        start_line=1,
        end_line=2,
        kind="function",
        symbol=uid,
        language="python",
        score=score,
        snippet=Snippet(text="", start_line=1, end_line=2, truncated=False),
        provenance=Provenance(**prov),  # type: ignore[arg-type]
    )


def test_an_index_without_vectors_is_scaled_by_the_weight_it_could_not_run() -> None:
    got = imputed([_answer("lex", unavailable=["vector"]), _answer("hyb", unavailable=[])])
    assert got == {"lex": pytest.approx((0.8 + 0.1 + 1.0) / (0.8 + 0.1))}


def test_nothing_is_imputed_when_no_index_ran_the_stream() -> None:
    # Every index lacks vectors, or the mode never asked for them: the answers are on one footing.
    assert imputed([_answer("a", unavailable=["vector"]), _answer("b", unavailable=["vector"])]) == {}
    # An index with vectors that chose not to run the dense stream (the query names a definition)
    # reports no `vector` weight: nobody ran it, so nothing is imputed to the one without vectors.
    named = {"bm25": 1.0, "symbol": 1.5}
    assert (
        imputed([_answer("lex", unavailable=["vector"]), _answer("hyb", unavailable=[], weights=named)]) == {}
    )
    lexical = {"bm25": 1.0, "symbol": 1.0}
    assert (
        imputed(
            [_answer("a", unavailable=[], weights=lexical), _answer("b", unavailable=[], weights=lexical)]
        )
        == {}
    )


def test_the_merge_scales_the_lexical_indexs_hits_and_says_so() -> None:
    k = SearchRequest().rrf_k
    lex = _hit("a", 0.8 / (k + 1), bm25_rank=1, bm25_score=10.0)
    hyb = _hit(
        "b", 0.8 / (k + 1) + 1.0 / (k + 1), bm25_rank=1, bm25_score=5.0, vector_rank=1, vector_score=0.7
    )
    answers = [(_answer("lex", unavailable=["vector"]), [lex]), (_answer("hyb", unavailable=[]), [hyb])]
    result = assemble("w", "q", answers, SearchRequest(top_k=5))
    by_repo = {h.repo: h.score for h in result.results}
    # lex keeps its BM25 rank 1 across both (10.0 beats 5.0) and gains the imputed dense term.
    assert by_repo["lex"] == pytest.approx(0.8 / (k + 1) * 1.9 / 0.9, rel=1e-4)
    # hyb's BM25 rank is 2 across both, its dense rank 1 stays; the ratio weighs each stream's term
    # as hyb fused it (BM25 0.8, dense 1.0).
    ratio = (0.8 / (k + 2) + 1.0 / (k + 1)) / (0.8 / (k + 1) + 1.0 / (k + 1))
    assert by_repo["hyb"] == pytest.approx(hyb.score * ratio, rel=1e-4)
    assert any(n.startswith("lex: no vectors") for n in result.meta.notes), result.meta.notes
    assert not any(n.startswith("hyb:") for n in result.meta.notes)


def test_the_indexes_without_vectors_are_named_in_one_note() -> None:
    """The trial: a workspace of five `--embed none` indexes beside one with vectors printed five
    `qry: warning: X: no vectors ...` lines before every hybrid search's answer: one note names them all."""
    answers = [(_answer(r, unavailable=["vector"]), []) for r in ("a", "b", "c")]
    answers.append((_answer("hyb", unavailable=[]), []))
    notes = assemble("w", "q", answers, SearchRequest(top_k=5)).meta.notes
    assert [n for n in notes if "no vectors" in n] == [
        "a, b, c: no vectors (qry index --embed onnx): their hits are scored as if the dense stream"
        " agreed with their others"
    ], notes
