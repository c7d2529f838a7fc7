"""The vocabulary ranking that picks which repositories routing asks for content (route/vocab.py)."""

from __future__ import annotations

import math

from indexlib.route import vocab


def test_a_word_one_repository_uses_far_more_than_the_rest_routes_to_it_whatever_its_size() -> None:
    stats = {
        "big": (10_000, {"retry": 40, "charge": 5}),
        "small": (200, {"retry": 30, "charge": 20}),  # fewer uses, but a far larger share of its nodes
        "none": (3_000, {"retry": 0, "charge": 0}),
    }
    assert vocab.best(stats, 3) == ["small", "big", "none"]
    assert vocab.best(stats, 1) == ["small"]


def test_a_word_every_repository_uses_alike_weighs_nothing() -> None:
    even = {"a": (1_000, {"the": 500, "token": 90}), "b": (1_000, {"the": 500, "token": 10})}
    without = {"a": (1_000, {"token": 90}), "b": (1_000, {"token": 10})}
    with_it, alone = vocab.likelihoods(even), vocab.likelihoods(without)
    for repo in even:
        assert math.isclose(with_it[repo], alone[repo], abs_tol=1e-9)
    assert with_it["a"] > 0 > with_it["b"]


def test_words_no_repository_holds_are_no_evidence() -> None:
    typos = {"a": (100, {"xqzvbn": 0}), "b": (50, {"xqzvbn": 0})}
    assert vocab.likelihoods(typos) == {} and vocab.best(typos, 5) == []
    # A typo beside a real word does not change the real word's ranking.
    mixed = {"a": (100, {"xqzvbn": 0, "parse": 1}), "b": (50, {"xqzvbn": 0, "parse": 20})}
    plain = {"a": (100, {"parse": 1}), "b": (50, {"parse": 20})}
    assert vocab.likelihoods(mixed) == vocab.likelihoods(plain)
    assert vocab.best(mixed, 2) == ["b", "a"]


def test_ties_keep_the_order_the_repositories_were_given_in() -> None:
    same = {"z": (100, {"x": 5}), "a": (100, {"x": 5})}
    assert vocab.best(same, 2) == ["z", "a"]
    assert vocab.best({}, 3) == []
