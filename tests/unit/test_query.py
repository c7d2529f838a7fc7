"""Query syntax and routing (pure)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from indexlib.errors import UsageError
from indexlib.query import Route, classify, glob_to_regex, identifier_of, parse_query, well_formed


def test_terms_phrases_prefixes_and_filters() -> None:
    q = parse_query('retry "failed charge" lang:py -path:tests/** kind:fn pars* path:src/**')
    assert q.terms == ["retry"]
    assert q.phrases == ["failed charge"]
    assert q.prefixes == ["pars"]
    assert q.langs == ["python"]
    assert q.kinds == ["function"]
    assert q.paths == ["src/**"]
    assert q.excludes == ["tests/**"]
    assert q.text == "retry failed charge pars"


def test_options_merge_with_inline_filters() -> None:
    q = parse_query("x lang:go", langs=["rust"], kinds=["class"], paths=["a/**"], excludes=["b"])
    assert q.langs == ["go", "rust"]
    assert q.kinds == ["class"]
    assert q.paths == ["a/**"]
    assert q.excludes == ["b"]


@pytest.mark.parametrize("bad", ["lang:cobol", "kind:widget", "lang:"])
def test_unknown_filter_values_are_usage_errors_with_hints(bad: str) -> None:
    with pytest.raises(UsageError) as info:
        parse_query(bad)
    assert info.value.hint


@pytest.mark.parametrize(
    ("text", "route"),
    [
        ("ParseConfig", Route.IDENTIFIER),
        ("parse_config", Route.IDENTIFIER),
        ("Server.Handle", Route.IDENTIFIER),
        ("std::fs::read_to_string", Route.IDENTIFIER),
        ("func (s *Server) Handle", Route.SIGNATURE),
        ("def parse(path: str)", Route.SIGNATURE),
        ("how does billing retry a failed charge", Route.NATURAL),
        ("parse config", Route.KEYWORDS),
        ("retry failed charge now", Route.KEYWORDS),
        ("how to parse config", Route.NATURAL),
    ],
)
def test_classify(text: str, route: Route) -> None:
    assert classify(parse_query(text)) is route


def test_identifier_of_strips_call_parens() -> None:
    assert identifier_of(parse_query("parse_config()")) == "parse_config"
    assert identifier_of(parse_query("how do we parse")) is None


def test_tantivy_syntax_is_literal_text() -> None:
    q = parse_query('foo:bar AND (baz OR "qux')
    assert "foo:bar" in q.terms
    assert "AND" in q.terms and "(baz" in q.terms
    assert q.phrases == ["qux"]


@pytest.mark.parametrize(
    ("glob", "path", "expected"),
    [
        ("*.py", "src/a/b.py", True),
        ("*.py", "src/a/b.pyc", False),
        ("src/**", "src/a/b.py", True),
        ("src/**/*.py", "src/b.py", True),
        ("src/**/*.py", "lib/src/b.py", False),
        ("tests", "a/tests/x.py", True),
        ("src/a", "src/a/b.py", True),
        ("src/a", "src/ab.py", False),
        ("a/*.py", "a/b/c.py", False),
        ("*_test.go", "pkg/x_test.go", True),
    ],
)
def test_globs(glob: str, path: str, expected: bool) -> None:
    assert bool(glob_to_regex(glob).search(path)) is expected


@given(st.text(max_size=300))
def test_any_text_parses_without_crashing(text: str) -> None:
    try:
        q = parse_query(text)
    except UsageError:
        return  # a bad filter value is a clean error, never a crash
    assert isinstance(q.text, str)
    classify(q)


def test_very_long_query_is_cut() -> None:
    q = parse_query("word " * 50_000)
    assert len(q.text) <= 4096


def test_lone_surrogates_become_one_replacement_character_each() -> None:
    """argv bytes that are not UTF-8 arrive as lone surrogates; the parsed query must encode as UTF-8."""
    assert well_formed("plain ascii") == "plain ascii"
    assert well_formed("café") == "café"
    assert well_formed("caf\udce9 charge") == "caf\ufffd charge"
    q = parse_query("\ud800 retry path:src/\udcff", paths=["lib/\udce9"])
    assert q.raw == "\ufffd retry path:src/\ufffd"
    assert q.paths == ["src/\ufffd", "lib/\ufffd"]
    q.raw.encode("utf-8")
