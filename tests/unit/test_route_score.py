"""The source router's formula (indexlib/route/score.py), on hand-made profiles."""

from __future__ import annotations

import math

import pytest

from indexlib.route.score import RepoText, idf, query_terms, route


def _repo(name: str, names: str = "", readme: str = "", labels: str | None = None) -> RepoText:
    return RepoText(repo=name, labels=labels if labels is not None else name, readme=readme, names=names)


POOL = [
    _repo("billing", names="billing.retry.charge_card\nsrc/billing/retry.py\nbilling.invoice.render"),
    _repo("auth", names="auth.session.refresh_token\nsrc/auth/session.py", readme="login and tokens"),
    _repo("web", names="web.render.page\nsrc/web/render.py", readme="renders pages"),
]


def test_idf_is_zero_for_a_term_found_nowhere_and_for_one_found_everywhere() -> None:
    assert idf(3, 0) == 0.0
    assert idf(3, 3) == 0.0
    assert idf(3, 1) == pytest.approx(math.log(4 / 2))


def test_a_typo_does_not_change_any_score() -> None:
    clean = route("retry charge", POOL)
    typo = route("retry charge xqzzyv", POOL)
    assert [(r.repo, r.confidence) for r in clean.routes] == [(r.repo, r.confidence) for r in typo.routes]
    assert clean.routes[0].repo == "billing" and clean.routes[0].confidence == 1.0


def test_substring_match_inside_dotted_names_and_unmatched_repositories_are_dropped() -> None:
    res = route("refresh_token", POOL)
    assert [r.repo for r in res.routes] == ["auth"]
    assert "refresh_token" in res.routes[0].rationale


def test_coverage_is_idf_weighted_and_the_label_boost_is_capped_at_one() -> None:
    # "render" is in billing and web (df 2), "page" only in web (df 1).
    res = route("render page", POOL)
    assert [r.repo for r in res.routes] == ["web", "billing"]
    w_render, w_page = idf(3, 2), idf(3, 1)
    assert res.routes[1].confidence == pytest.approx(w_render / (w_render + w_page), abs=1e-4)
    boosted = route("web render page", POOL)  # "web" is web's label: 1 + 0.5 * 1/3, capped at 1
    assert boosted.routes[0].repo == "web" and boosted.routes[0].confidence == 1.0
    assert boosted.routes[0].label_matched == ["web"]


def test_label_boost_multiplies_coverage() -> None:
    pool = [
        _repo("alpha", names="shared.thing\nalpha.only"),
        _repo("beta", names="shared.thing\nbeta.x\nzeta"),
    ]
    res = route("alpha zeta", pool)
    by = {r.repo: r for r in res.routes}
    # each matches one of two equally weighted terms; alpha's is also its label: 0.5 * (1 + 0.5 * 1/2)
    assert by["alpha"].confidence == pytest.approx(0.625, abs=1e-4)
    assert by["beta"].confidence == pytest.approx(0.5, abs=1e-4)


def test_nothing_routes_when_no_term_tells_repositories_apart() -> None:
    res = route("the of", POOL)
    assert res.routes == [] and res.notes
    assert route("", POOL).routes == []


def test_query_terms_split_dots_and_keep_identifiers() -> None:
    assert query_terms("nodes.first_leaf_of and printTaskAliases a") == [
        "nodes",
        "first_leaf_of",
        "and",
        "printtaskaliases",
    ]


def test_limit_cuts_the_list() -> None:
    res = route("render page refresh_token charge_card", POOL, limit=2)
    assert len(res.routes) == 2


def test_function_words_do_not_route_a_question() -> None:
    # Two repositories: "where", "is", "the" in one README would each weigh log(3/2), as a name does.
    pool = [
        RepoText(repo="docs", labels="docs", readme="where is the guide? the answer is here", names=""),
        RepoText(repo="auth", labels="auth", readme="", names="auth/session.py\nauth.session.refresh_token"),
    ]
    res = route("where is the session token refreshed", pool)
    assert [r.repo for r in res.routes] == ["auth"]
    assert res.terms == ["session", "token", "refreshed"]
    assert route("where is the", pool).terms == ["where", "is", "the"]  # nothing else: kept


def test_a_pool_of_one_routes_to_it_by_the_share_of_the_question_it_covers() -> None:
    # idf is 0 for every term when there is one repository; the one index still answers (MCP's
    # `route` without a workspace), with the share of the terms it holds as the confidence.
    one = [POOL[1]]
    res = route("refresh session token expiry", one)
    assert [r.repo for r in res.routes] == ["auth"]
    assert res.routes[0].confidence == pytest.approx(0.75)  # refresh, session, token of four
    assert route("billing invoice", one).routes == []


def test_a_term_matches_where_a_word_or_a_name_part_starts_not_inside_a_word() -> None:
    pool = [
        _repo("docs", readme="a catalog of tools that work inside any shell"),
        _repo("server", names="server.log_side_effects\nsrc/server/express.js", readme="logs requests"),
    ]
    res = route("log side", pool)
    assert [r.repo for r in res.routes] == ["server"]  # not "catalog", not "inside"
    assert res.routes[0].matched == ["log", "side"]
    # a word's longer forms count: `token` in "tokens", `express` in "expressions"
    regex = [_repo("regex", readme="regular expressions"), _repo("other", readme="nothing")]
    assert [r.repo for r in route("express", regex).routes] == ["regex"]
