"""Code-aware terms: identifier splitting, index terms, query terms, pg_trgm similarity."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from indexlib.analyzer import (
    MAX_TERM_CHARS,
    MAX_TOKEN_CHARS,
    code_terms,
    name_similarity,
    query_terms,
    split_identifier,
    trigram_similarity,
    trigrams,
)


@pytest.mark.parametrize(
    ("word", "parts"),
    [
        ("parseConfig", ["parse", "config"]),
        ("ParseConfig", ["parse", "config"]),
        ("parse_config", ["parse", "config"]),
        ("parse-config", ["parse", "config"]),
        ("PARSE_CONFIG", ["parse", "config"]),
        ("HTTPServer2", ["http", "server", "2"]),
        ("getHTTPResponseCode", ["get", "http", "response", "code"]),
        ("XMLHttpRequest", ["xml", "http", "request"]),
        ("utf8Decode", ["utf", "8", "decode"]),
        ("__init__", ["init"]),
        ("$scope", ["scope"]),
        ("x", ["x"]),
        ("ÜberKlasse", ["über", "klasse"]),
        ("naïveParser", ["naïve", "parser"]),
        ("日本語Parser", ["日本語", "parser"]),
        ("", []),
        ("___", []),
    ],
)
def test_split_identifier(word: str, parts: list[str]) -> None:
    assert split_identifier(word) == parts


def test_code_terms_emit_joined_form_then_parts_in_text_order() -> None:
    assert code_terms("def parse_config(path):") == ["def", "parseconfig", "parse", "config", "path"]
    # Duplicates stay: term frequency matters to BM25.
    assert code_terms("x = x + 1") == ["x", "x", "1"]


def test_code_terms_dotted_names() -> None:
    assert code_terms("os.path.join(a)") == [
        "os.path.join",
        "os.path",
        "path.join",
        "os",
        "path",
        "join",
        "a",
    ]
    assert code_terms("self.parseConfig()") == ["self.parseconfig", "self", "parseconfig", "parse", "config"]
    # A sentence's final period is not part of a token.
    assert code_terms("Call it.") == ["call", "it"]


def test_code_terms_caps() -> None:
    long_ident = "a" * (MAX_TERM_CHARS + 1)
    assert code_terms(long_ident) == []
    # The joined form is dropped when too long, the parts stay.
    camel = "Alpha" * 14  # 70 characters, 14 parts
    assert code_terms(camel) == ["alpha"] * 14
    blob = "Ab9" * (MAX_TOKEN_CHARS // 3 + 1)  # a base64-like run: dropped whole
    assert code_terms(f"x = '{blob}'") == ["x"]


def test_query_forms_meet_the_index_terms_of_a_definition() -> None:
    indexed = set(code_terms("def parse_config(path): ..."))
    for query in (
        "parse config",
        "parseConfig",
        "ParseConfig",
        "parse_config",
        "parse-config",
        "PARSE_CONFIG",
    ):
        terms = set(query_terms(query))
        assert {"parse", "config", "parseconfig"} <= terms, query
        assert "parseconfig" in indexed & terms
    # The same holds the other way round: a camelCase definition, a snake_case query.
    assert "parseconfig" in set(code_terms("function parseConfig() {}")) & set(query_terms("parse_config"))


def test_a_camel_case_chunk_of_a_snake_case_name_is_a_term_of_its_own() -> None:
    """`cJSON_Parse`, `SDL_CreateWindow`: a prefixed C API's prefix and verb are searched for as
    written (`cJSON`, `CreateWindow`), whose joined form is one query term; the parts stay adjacent."""
    assert code_terms("cJSON_Parse(x)") == ["cjsonparse", "cjson", "c", "json", "parse", "x"]
    assert "cjson" in set(code_terms("cJSON *cJSON_Parse(const char *value)")) & set(query_terms("cJSON"))
    assert "createwindow" in set(code_terms("SDL_CreateWindow(t)")) & set(query_terms("CreateWindow"))
    # Chunks of one word each add nothing: `parse_config` is its joined form and its parts.
    assert code_terms("parse_config") == ["parseconfig", "parse", "config"]
    assert code_terms("a.test_parseConfig") == [
        "a.testparseconfig",
        "a",
        "testparseconfig",
        "parseconfig",
        "test",
        "parse",
        "config",
    ]


def test_a_one_letter_part_joined_to_the_next_word_is_a_term_of_its_own() -> None:
    """httpx's `GZipDecoder`, an `OAuthClient`: `gzip` and `oauth` as a reader types them are one
    term each, split off by the capitalised second letter; the parts stay adjacent after it."""
    assert code_terms("class GZipDecoder:") == ["class", "gzipdecoder", "gzip", "g", "zip", "decoder"]
    assert "gzip" in set(code_terms("GZipDecoder.decode")) & set(query_terms("gzip"))
    assert "oauth" in set(code_terms("OAuthClient")) & set(query_terms("OAuth"))
    # Nothing to add where the joined form or a chunk's is that already, or no word follows.
    assert code_terms("ETag getX cJSON_Parse") == [
        "etag", "e", "tag", "getx", "get", "x", "cjsonparse", "cjson", "c", "json", "parse",
    ]  # fmt: skip


def test_query_terms_are_unique_and_join_adjacent_words_only() -> None:
    assert query_terms("retry retry") == ["retry", "retryretry"]
    assert query_terms("read file") == ["read", "file", "readfile"]
    assert query_terms("read(file)") == ["read", "file"]
    assert query_terms("os.path join") == ["os.path", "os", "path", "join"]


def test_trigrams_follow_pg_trgm() -> None:
    assert trigrams("cat") == {"  c", " ca", "cat", "at "}
    assert trigrams("Foo_bar") == {"  f", " fo", "foo", "oo ", "  b", " ba", "bar", "ar "}
    # pg_trgm documentation: similarity('word', 'two words') = 0.363636
    assert trigram_similarity("word", "two words") == pytest.approx(4 / 11)
    assert trigram_similarity("parse_config", "ParseConfig") < trigram_similarity(
        "parse_config", "parse config"
    )
    assert trigram_similarity("parse_config", "parse config") == 1.0
    assert trigram_similarity("", "") == 1.0
    assert trigram_similarity("__", "--") == 0.0
    assert trigram_similarity("abc", "") == 0.0


def test_name_similarity_scores_a_typo_by_its_edits() -> None:
    # One edit from the name the typo means beats a name the typo contains.
    assert name_similarity("ShouldBindJSN", "ShouldBindJSON") == pytest.approx(1 - 1 / 14)
    assert name_similarity("ShouldBindJSN", "ShouldBind") == trigram_similarity("ShouldBindJSN", "ShouldBind")
    # A swap of neighbours is one edit; separators and case are not edits.
    assert name_similarity("recieve_data", "ReceiveData") == pytest.approx(1 - 1 / 11)
    # Past the budget (one edit under 6 characters, none under 3) only trigrams count.
    assert name_similarity("parse", "prase_x") == trigram_similarity("parse", "prase_x")
    assert name_similarity("ab", "ac") == trigram_similarity("ab", "ac")
    assert name_similarity("get", "set") == pytest.approx(2 / 3)


identifiers = st.text(
    alphabet=st.characters(categories=("Lu", "Ll", "Lt", "Lo", "Nd", "Nl", "No", "Pc", "Pd")), max_size=40
)


@given(identifiers)
def test_split_identifier_never_loses_letters(word: str) -> None:
    parts = split_identifier(word)
    assert "".join(parts) == "".join(c.lower() for c in word if c.isalnum())
    assert all(parts)


@given(st.text(max_size=200))
def test_code_terms_is_deterministic_and_bounded(text: str) -> None:
    first = code_terms(text)
    assert first == code_terms(text)
    assert all(0 < len(t) <= MAX_TERM_CHARS and not any(c.isspace() for c in t) for t in first)


@given(st.text(max_size=30), st.text(max_size=30))
def test_trigram_similarity_is_symmetric_and_bounded(a: str, b: str) -> None:
    s = trigram_similarity(a, b)
    assert s == trigram_similarity(b, a)
    assert 0.0 <= s <= 1.0
    assert trigram_similarity(a, a) == 1.0
