"""The CORI collection weight and the workspace-wide idf factors of the workspace merge
(indexlib/workspace/collection.py)."""

from __future__ import annotations

import pytest

from indexlib.workspace.collection import MERGE_WEIGHT, collection_terms, idf_boosts, tantivy_idf, weights


def test_the_index_that_uses_the_rare_terms_gets_the_full_weight() -> None:
    stats = {
        "html": (5000, {"attribute": 400, "representation": 30, "html": 900}),
        "vue": (5000, {"attribute": 40, "representation": 0, "html": 60}),
        "cli": (5000, {"attribute": 2, "representation": 0, "html": 0}),
    }
    w = weights(stats)
    assert w["html"] == 1.0
    assert w["cli"] == pytest.approx(1 / (1 + MERGE_WEIGHT))
    assert w["cli"] < w["vue"] < w["html"]


def test_no_difference_means_no_weight() -> None:
    assert weights({"a": (10, {"x": 1})}) == {"a": 1.0}
    same = {"a": (100, {"x": 5}), "b": (100, {"x": 5})}
    assert weights(same) == {"a": 1.0, "b": 1.0}
    assert weights({"a": (100, {}), "b": (100, {})}) == {"a": 1.0, "b": 1.0}


def test_a_term_no_index_has_changes_nothing() -> None:
    base = {"a": (100, {"x": 20}), "b": (100, {"x": 0})}
    typo = {"a": (100, {"x": 20, "qqzx": 0}), "b": (100, {"x": 0, "qqzx": 0})}
    assert weights(base) == weights(typo)


def test_collection_terms_drop_function_words_and_split_identifiers() -> None:
    terms = collection_terms("Get the HTML representation of parseConfig")
    assert "the" not in terms and "of" not in terms
    assert "html" in terms and "representation" in terms and "parse" in terms


def test_one_index_gets_no_idf_factor() -> None:
    assert idf_boosts({"a": (100, {"x": 5})}) == {"a": {}}


def test_a_word_rare_here_but_common_elsewhere_weighs_less_here() -> None:
    stats = {
        "vue": (1000, {"html": 5, "attribute": 40}),  # html is rare in vue: its own idf is high
        "jsoup": (1000, {"html": 400, "attribute": 40}),
    }
    b = idf_boosts(stats)
    assert b["vue"]["html"] < 1.0  # the workspace says html is common
    assert b["jsoup"]["html"] > 1.0  # and somewhat rarer than jsoup alone says
    assert b["vue"]["attribute"] == pytest.approx(b["jsoup"]["attribute"])
    n_all, df_all = 2000, 405
    assert b["vue"]["html"] == pytest.approx(tantivy_idf(n_all, df_all) / tantivy_idf(1000, 5))


def test_a_term_an_index_lacks_gets_no_factor_there() -> None:
    b = idf_boosts({"a": (100, {"x": 0, "y": 3}), "b": (100, {"x": 7, "y": 3})})
    assert "x" not in b["a"] and "x" in b["b"]


def test_term_boosts_are_checked_and_written_into_the_bm25_query() -> None:
    from indexlib import SearchRequest, UsageError
    from indexlib.retrieval.streams import _weighted

    SearchRequest(term_boosts={"x": 0.5}).validate("x")
    with pytest.raises(UsageError, match="term_boosts"):
        SearchRequest(term_boosts={"x": 0.0}).validate("x")
    assert _weighted("html", {"html": 0.5}) == '"html"^0.500000'
    assert _weighted("html", {}) == '"html"'
    assert _weighted("html", {"html": 1.0}) == '"html"'


def test_length_scales_move_each_index_to_the_workspace_mean_length() -> None:
    from indexlib.workspace.collection import K1, B, length_scales

    s = length_scales({"long": (1000, 150.0), "short": (1000, 50.0)})
    assert s["long"] < 1.0 < s["short"]  # long nodes were normalised by a mean too high, short too low
    mean_ws = 100.0
    assert s["long"] == pytest.approx((1 + K1) / (1 + K1 * (1 - B + B * 150.0 / mean_ws)))
    # node-weighted: a big index pulls the workspace mean towards its own, so its factor nears 1
    big = length_scales({"big": (9000, 150.0), "small": (1000, 50.0)})
    assert abs(big["big"] - 1.0) < abs(s["long"] - 1.0)
    assert length_scales({"a": (10, 80.0), "b": (30, 80.0)}) == {
        "a": pytest.approx(1.0),
        "b": pytest.approx(1.0),
    }


def test_length_scales_leave_out_indexes_that_do_not_know_their_mean() -> None:
    from indexlib.workspace.collection import length_scales

    assert length_scales({"a": (10, 80.0)}) == {}
    assert length_scales({"a": (10, 80.0), "old": (10, None)}) == {}  # one known: nothing to compare
    got = length_scales({"a": (10, 80.0), "b": (10, 120.0), "old": (10, None), "empty": (0, 5.0)})
    assert set(got) == {"a", "b"}
