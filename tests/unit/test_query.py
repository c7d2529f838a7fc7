"""Query syntax and routing (pure)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from indexlib.errors import UsageError
from indexlib.pathglob import compile_glob
from indexlib.retrieval.names import fragment_pattern
from indexlib.retrieval.query import Route, classify, identifier_of, parse_query, well_formed
from indexlib.retrieval.streams import symbol_candidates


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


def test_a_phrase_quote_never_closed_is_known() -> None:
    assert parse_query('"never closed here').open_quote
    assert parse_query('retry -"open').open_quote
    assert not parse_query('"closed" retry').open_quote
    assert not parse_query('print("hello').open_quote  # a quote inside a word opens no phrase


def test_kind_filter_names_fields_and_properties() -> None:
    assert parse_query("port kind:field").kinds == ["field"]
    assert parse_query("port kind:property").kinds == ["field"]
    assert parse_query("port kind:var").kinds == ["constant"]


def test_a_long_flag_in_a_sentence_is_literal_text_not_an_exclusion() -> None:
    q = parse_query("where is --max-count handled -v -vendor ---x")
    assert q.terms == ["where", "is", "--max-count", "handled", "-v", "---x"]
    assert q.negated == ["vendor"]  # one dash before a word stays the documented exclusion
    assert q.text == "where is --max-count handled -v ---x"
    assert parse_query("--help").terms == ["--help"] and not parse_query("--help").is_blank


def test_a_dash_before_no_word_is_not_an_exclusion() -> None:
    """`--` (the end of options) and `->` hold no word to leave out: they stay text."""
    q = parse_query("error: include -- in more cases, a -> b")
    assert q.negated == [] and "--" in q.text and "->" in q.text, q


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
        ("logger::~logger", Route.IDENTIFIER),  # a C++ destructor
        ("~file_helper", Route.IDENTIFIER),
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


def test_an_annotation_or_decorator_names_its_definition() -> None:
    """moshi's `qry search @ToJson` was read as keywords, and the `toJson` methods ranked above the
    annotation class `ToJson`: an `@Name` is the name, as `name()` is."""
    for text, name in (("@ToJson", "ToJson"), ("@app.route", "app.route"), ("@Override()", "Override")):
        q = parse_query(text)
        assert classify(q) is Route.IDENTIFIER and identifier_of(q) == name, text
    assert classify(parse_query("@ToJson on a method")) is not Route.IDENTIFIER


def test_a_swift_selector_names_its_method() -> None:
    """Alamofire's `qry search 'request(_:method:parameters:)'` (a method named as Swift, DocC and
    Objective-C name it, by its argument labels) was a signature query: the `Parameters` type and
    `parameters` fields ranked first. The labels stay out of the name; the symbol stream looks the
    name up, not the text with its parentheses."""
    for text, name in (
        ("request(_:method:parameters:)", "request"),
        ("Session.request(_:method:)", "Session.request"),
        ("validate(statusCode:)", "validate"),
    ):
        q = parse_query(text)
        assert classify(q) is Route.IDENTIFIER and identifier_of(q) == name, text
        assert symbol_candidates(q) == [name], text
    for code in ("f(x: 1)", "f(x:)y", "f(:)"):  # a call with values, or no selector
        assert classify(parse_query(code)) is not Route.IDENTIFIER, code


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
    assert compile_glob(glob).search(path) is expected


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


@pytest.mark.parametrize(
    ("glob", "path", "expected"),
    [
        ("src/**", "src", False),  # `src/**` names what is inside src
        ("a/**/b", "a/b", True),
        ("a/**/b", "a/x/y/b", True),
        ("tests/", "a/tests/x.py", True),  # a trailing slash: folders only
        ("tests/", "a/tests", False),
        ("[ab].py", "x/a.py", True),
        ("[!ab].py", "x/a.py", False),
        ("[a-c]*.go", "pkg/b_test.go", True),
        ("\\[x].py", "[x].py", True),
        (".github/**", ".github/workflows/ci.yml", True),
        ("**/" * 40 + "*.py", "src/a/b.py", True),
    ],
)
def test_more_globs(glob: str, path: str, expected: bool) -> None:
    assert compile_glob(glob).search(path) is expected


@pytest.mark.parametrize(
    ("glob", "path", "expected"),
    [
        ("*.{py,pyi}", "src/a.pyi", True),
        ("*.{py,pyi}", "src/a.pyc", False),
        ("src/**/*.{py,pyi}", "src/a/b.py", True),
        ("src/**/*.{py,pyi}", "lib/b.py", False),
        ("{src,lib}/*.py", "lib/b.py", True),
        ("a{b,{c,d}}.py", "x/ad.py", True),
        ("{src/**,b.md}", "b.md", True),
        ("{src/**,b.md}", "docs/b.md", False),  # the glob has a folder part: b.md at the top only
        ("a{b,}.py", "a.py", False),  # an empty alternative is dropped, as rg 15 does
        ("{}.py", ".py", False),
        ("\\{a\\}.py", "{a}.py", True),
        ("[{]a[}].py", "{a}.py", True),
        ("{src,docs}", "docs/x.md", True),
    ],
)
def test_brace_globs(glob: str, path: str, expected: bool) -> None:
    """`path:src/**/*.{py,pyi}` matched no file: braces were literal text; rg reads alternatives."""
    assert compile_glob(glob).search(path) is expected


def test_brace_expansion_is_bounded() -> None:
    from indexlib.errors import UsageError
    from indexlib.pathglob import MAX_GLOB_ALTERNATIVES

    assert MAX_GLOB_ALTERNATIVES < 2**9
    with pytest.raises(UsageError, match="alternatives"):
        compile_glob("{a,b}" * 9)


@pytest.mark.parametrize("glob", ["[", "src/[a-", "[z-a].py", "**/" * 400, "a{b", "{a,{b}", "a}b"])
def test_invalid_or_oversized_globs_are_usage_errors(glob: str) -> None:
    from indexlib.errors import UsageError

    with pytest.raises(UsageError, match="invalid path glob"):
        compile_glob(glob)


def test_hostile_globs_match_in_linear_time() -> None:
    """`**/` repeated took 44 s as a backtracking regex; the component matcher does 10k paths at once.
    The count of steps is bounded by construction; the check here is only that it finishes and is right."""
    paths = [f"src/d{i}/sub{j}/f{k}.py" for i in range(20) for j in range(10) for k in range(50)]
    for glob, want in (("**/" * 300, len(paths)), ("**/" * 300 + "*.py", len(paths)), ("*a" * 400 + "b", 0)):
        assert sum(compile_glob(glob).search(p) for p in paths) == want


def test_deeply_nested_braces_in_a_path_glob_are_refused_not_a_recursion_error() -> None:
    from indexlib.errors import UsageError
    from indexlib.pathglob import MAX_BRACE_DEPTH, compile_glob

    deep = "{" * (MAX_BRACE_DEPTH + 1) + "a" + "}" * (MAX_BRACE_DEPTH + 1)
    with pytest.raises(UsageError, match="nested more than"):
        compile_glob(deep)
    assert compile_glob("{" * MAX_BRACE_DEPTH + "a" + "}" * MAX_BRACE_DEPTH).search("a")
    with pytest.raises(UsageError):
        compile_glob("h" + "{" * 600)  # the fuzz finding: unclosed, 600 deep


def test_php_backslash_names_are_identifiers_and_regex_escapes_are_not() -> None:
    from indexlib.retrieval.names import dotted, last_name_part
    from indexlib.retrieval.query import regex_syntax

    for text in ("Slim\\App", "\\Slim\\Middleware\\ErrorMiddleware", "App\\helpers\\url"):
        assert classify(parse_query(text)) is Route.IDENTIFIER, text
        assert regex_syntax(text) is None, text
    assert regex_syntax("namespace Slim\\Handlers\\Strategies") is None
    assert classify(parse_query("\\bfoo\\b")) is Route.NATURAL and regex_syntax("\\bfoo\\b") == "\\b"
    assert dotted("\\Slim\\App") == "Slim.App" and last_name_part("Rack::Response#finish") == "finish"


def test_a_qualified_name_is_spelled_with_any_separator_and_smart_case() -> None:
    from indexlib.retrieval.names import spelling_pattern

    pattern = spelling_pattern("res.set")
    assert pattern is not None
    assert pattern.search("res.set = res.header = function header(field, val) {")
    assert pattern.search("RES::SET")  # typed in lower case: any case, any separator
    assert not pattern.search("res.settings") and not pattern.search("pres.set")
    cased = spelling_pattern("View.lookup")
    assert cased is not None and not cased.search("view.lookup") and cased.search("View->lookup(")
    assert spelling_pattern("lookup") is None


def test_top_of_keeps_the_best_hit_of_each_file_up_to_k_files() -> None:
    from indexlib.retrieval.request import top_of

    hits = [("a.py", 1), ("a.py", 2), ("b.py", 3), ("a.py", 4), ("c.py", 5), ("d.py", 6)]
    assert top_of(hits, 3, per_file=False, key=lambda h: h[0]) == hits[:3]
    assert top_of(hits, 3, per_file=True, key=lambda h: h[0]) == [("a.py", 1), ("b.py", 3), ("c.py", 5)]


def test_a_signature_without_its_keyword_still_declares_a_name() -> None:
    from indexlib.retrieval.declared import declared_name

    assert declared_name("(c *Command) Execute") == "Command.Execute"
    assert declared_name("res.send = function send(body)") == "res.send"
    assert declared_name("View.prototype.lookup = async function lookup(name)") == "View.lookup"
    assert declared_name("x = function") is None  # a plain variable: no property, no definition named


def test_a_short_flag_named_in_a_sentence_is_a_word_not_an_exclusion() -> None:
    for text, flag in (
        ("docs: clarify that -e/--extension matches all entry types", "-e/--extension"),
        ("what does -H do with hidden files", "-H"),
    ):
        q = parse_query(text)
        assert flag in q.terms and not q.negated, (q.terms, q.negated)
    assert parse_query("retry -tests").negated == ["tests"]  # a word excluded still is


def test_a_dash_word_typed_in_backticks_is_code_not_an_exclusion() -> None:
    # nvm's `[Robustness] avoid a \`set -u\` error when \`$_\` is unset` left out every result holding `u`.
    q = parse_query("[Robustness] avoid a `set -u` error when `$_` is unset")
    assert not q.negated and "-u`" in q.terms, (q.terms, q.negated)
    assert parse_query("`set -u` -unset").negated == ["unset"]  # outside the backticks it still excludes


def test_a_commit_scope_after_a_bracketed_tag_and_in_backticks() -> None:
    assert parse_query("[Robustness] `install.sh`: `nvm_download`: avoid `eval`").scope == "install.sh"
    assert parse_query("[Fix] support arm64-musl on Alpine Linux").scope == ""
    assert parse_query("fix(parser): allow E").scope == "parser"


def test_a_ruby_name_ending_in_bang_or_question_mark_is_an_identifier() -> None:
    for text in ("compile!", "Base.route!", "empty?"):
        q = parse_query(text)
        assert classify(q) is Route.IDENTIFIER and identifier_of(q) == text, text


def test_a_code_fragment_matches_as_code_may_space_it() -> None:
    pattern = fragment_pattern("cacheCleared := false")
    assert pattern is not None
    assert pattern.search("\tcacheCleared := false\n") and pattern.search("cacheCleared:=false")
    assert not pattern.search("mycacheCleared := false") and not pattern.search("cachecleared := false")
    words = fragment_pattern("return &t, nil")
    assert words is not None and words.search("return  &t,nil") and not words.search("return &tt, nil")
    assert not fragment_pattern("return&t,nil").search("returnx &t, nil")  # type: ignore[union-attr]
    lower = fragment_pattern("media_type = none")  # typed in lower case: any case
    assert lower is not None and lower.search("media_type = None")
    assert fragment_pattern("parse") is None


def test_a_filter_glob_is_not_taken_for_regex_syntax_in_the_words() -> None:
    from indexlib.retrieval.query import regex_syntax

    # `path:` takes a glob and `repo:` a regex: neither is the words the note is about.
    assert regex_syntax("Item path:cJSON_Utils.*") is None
    assert regex_syntax("retry -repo:^web$ lang:c") is None
    assert regex_syntax("def .*_request path:src/*.py") == ".*"


def test_a_pasted_struct_tag_or_attribute_is_a_phrase_as_written() -> None:
    q = parse_query('form:"name" binding:"required" type="submit" std::fs -json:"x"')
    assert q.phrases == ['form:"name"', 'binding:"required"', 'type="submit"']
    assert q.terms == ["std::fs"] and q.negated == ['json:"x"']
    # a filter's quoted value is still a filter's
    assert parse_query('path:"src/**" x').paths == ["src/**"]


def test_a_bar_opening_a_word_is_no_alternation() -> None:
    """`|default` is a Jinja filter and `| grep` a pipe, `a || b` an operator: taken as words without
    a note that they look like a regular expression; `get|set` is an alternation."""
    from indexlib.retrieval.query import regex_syntax

    for text in ("|default filter", "cat file | grep x", "a || b", "|| fallback"):
        assert regex_syntax(text) is None, text
    assert regex_syntax("get|set handler") == "|s"
