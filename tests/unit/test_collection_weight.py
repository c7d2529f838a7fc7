"""The CORI collection weight of the workspace merge (indexlib/workspace/collection.py)."""

from __future__ import annotations

import pytest

from indexlib.workspace.collection import MERGE_WEIGHT, collection_terms, weights


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
