"""The pure parts of `qry grep`: trigram queries, normalisation, line matching, context, flags."""

from __future__ import annotations

import re
import string
import sysconfig
from pathlib import Path

import pytest

from cli.grepcmd import parse_grep_args
from indexlib.errors import UsageError
from indexlib.grep.files import FileFilter
from indexlib.grep.lines import context_groups, match_lines
from indexlib.grep.ngrams import CASE_EQUIVALENTS, GramQuery, normalise, trigram_query
from indexlib.grep.pattern import compile_pattern


def _satisfied(query: GramQuery, grams: set[str]) -> bool:
    if query is None:
        return True
    if isinstance(query, str):
        return query in grams
    results = [_satisfied(c, grams) for c in query[1]]
    return all(results) if query[0] == "and" else any(results)


def _grams(text: str) -> set[str]:
    norm = normalise(text.encode("utf-8"))
    return {norm[i : i + 3] for i in range(len(norm) - 2)}


def test_case_equivalents_are_every_non_ascii_character_re_matches_with_an_ascii_letter() -> None:
    letters = re.compile("[a-z]", re.IGNORECASE)
    found = {
        chr(c): next(a for a in string.ascii_lowercase if re.fullmatch(a, chr(c), re.IGNORECASE))
        for c in range(128, 0x110000)
        if letters.fullmatch(chr(c))
    }
    assert found == CASE_EQUIVALENTS


@pytest.mark.parametrize(
    ("pattern", "grams"),
    [
        ("def .*_request", {"def", "ef ", "_re", "req", "equ", "que", "ues", "est"}),
        (r"\bSECRET_KEY\b", {"sec", "ecr", "cre", "ret", "et_", "t_k", "_ke", "key"}),
        ("ab", set()),
        (r"\w+", set()),
        ("foo|ba", set()),  # one side has no trigram: no narrowing at all
        ("[Ff]oo", {"foo"}),
        ("a.*b", set()),
    ],
)
def test_trigram_query_names_required_trigrams_only(pattern: str, grams: set[str]) -> None:
    from indexlib.grep.ngrams import query_grams

    assert query_grams(trigram_query(pattern)) == grams
    assert (trigram_query(pattern) is None) == (not grams)


def test_alternations_and_optional_parts_multiply_out() -> None:
    q = trigram_query("(get|set)_value")
    assert q is not None and q[0] == "or"
    assert _satisfied(q, _grams("x.set_value(1)")) and not _satisfied(q, _grams("put_value"))
    assert _satisfied(trigram_query("colou?r"), _grams("color")) and _satisfied(
        trigram_query("colou?r"), _grams("colour")
    )


def test_every_line_a_pattern_matches_satisfies_its_query() -> None:
    """The index may only narrow: over real stdlib lines, a matching line always passes the query."""
    std = Path(sysconfig.get_paths()["stdlib"])
    lines = [ln for f in sorted((std / "json").glob("*.py")) for ln in f.read_text("utf-8").split("\n")]
    lines += ["İMPORT ſys", "K_ELVIN", "naïve café", "Straße"]
    patterns = [
        r"def \w+\(self",
        "(?i)import sys",
        "(?i)kelvin",
        r"\bjson\b",
        "[A-Z][a-z]+Error",
        "caf.",
        "(?i)STRASSE|straße",
        r"return (self|obj)\.\w+",
        "(?i)JSONDecodeError",
        "encode(r|d)?",
        "(?i)naïve",
    ]
    for p in patterns:
        regex = re.compile(p)
        query = trigram_query(p)
        for line in lines:
            if regex.search(line):
                assert _satisfied(query, _grams(line)), (p, line)


def test_normalise_lower_cases_ascii_and_folds_the_rest() -> None:
    assert normalise(b"Hello") == "hello"
    assert normalise("İſK é".encode()) == "isk \x01"


def test_match_lines_splits_on_newline_only() -> None:
    rx = re.compile(r"b$", re.M)
    assert match_lines("ab\r\nab\ncab", rx) == [(2, 4, 6), (3, 7, 10)]
    assert match_lines("", re.compile("^", re.M)) == []
    assert match_lines("a\n\nb\n", re.compile("^$", re.M)) == [(2, 2, 2)]
    # a match that crosses a newline is no line's match
    assert match_lines("foo\nbar\n", re.compile(r"o[^x]b", re.M)) == []
    assert match_lines("foo\nbar\nfoo bar\n", re.compile(r"o\s+b", re.M)) == [(3, 8, 15)]
    assert match_lines("x\nx\nx\n", re.compile("x"), max_count=2) == [(1, 0, 1), (2, 2, 3)]


def test_context_groups_merge_when_they_touch() -> None:
    text = "\n".join(f"l{i}" for i in range(1, 11)) + "\n"
    lines = match_lines(text, re.compile(r"l(3|5|10)$", re.M))
    groups = context_groups(text, lines, 1, 1)
    assert [[n for n, _t, _m in g] for g in groups] == [[2, 3, 4, 5, 6], [9, 10]]
    assert [m for _n, _t, m in groups[0]] == [False, True, False, True, False]


def test_pattern_flags() -> None:
    assert compile_pattern("parse", smart_case=True).ignore_case
    assert not compile_pattern("Parse", smart_case=True).ignore_case
    assert compile_pattern(r"\Wparse", smart_case=True).ignore_case  # an escape is not a literal
    assert compile_pattern("a.b", fixed=True).regex.search("a.b") and not compile_pattern(
        "a.b", fixed=True
    ).regex.search("axb")
    w = compile_pattern("foo", word=True).regex
    assert w.search("a foo b") and not w.search("foobar") and not w.search("_foo")
    with pytest.raises(UsageError):
        compile_pattern("a(")
    with pytest.raises(UsageError):
        compile_pattern("a\nb")


def test_file_filter() -> None:
    f = FileFilter(globs=("*.py", "!tests/"))
    assert (
        f.accepts("src/a.py", "python")
        and not f.accepts("src/a.go", "go")
        and not f.accepts("tests/a.py", "python")
    )
    assert not FileFilter().accepts(".github/x.yml", "yaml") and FileFilter(hidden=True).accepts(
        ".github/x.yml", "yaml"
    )
    assert FileFilter(langs=("python",)).accepts("a.py", "python") and not FileFilter(langs=("go",)).accepts(
        "a.py", "python"
    )
    assert not FileFilter(exclude_paths=("**/tests/**",)).accepts("a/tests/b.py", "python")
    assert FileFilter(targets=("src",)).accepts("src/a.py", "python") and not FileFilter(
        targets=("src",)
    ).accepts("srcx/a.py", "python")


def test_parse_grep_args_takes_ripgrep_forms() -> None:
    parsed = parse_grep_args(["-iwA3", "pat", "src", "-m", "5", "--glob=*.py", "-g", "!x", "lang:go"])
    assert parsed is not None
    pattern, args, v = parsed
    assert pattern == "pat" and args == ["src", "lang:go"]
    assert v["ignore_case"] and v["word_regexp"] and v["after_context"] == 3 and v["max_count"] == 5
    assert v["glob"] == ["*.py", "!x"]
    assert parse_grep_args(["--", "-x"]) == ("-x", [], parse_grep_args(["x"])[2])  # type: ignore[index]
    assert parse_grep_args(["--bogus", "x"]) is None and parse_grep_args(["-A"]) is None


def test_max_count_zero_and_hidden_paths_named_on_the_command_line() -> None:
    assert match_lines("x\nx\n", re.compile("x"), max_count=0) == []
    named = FileFilter(targets=(".github",))
    assert named.accepts(".github/ci.yml", "yaml") and not named.accepts(".github/.hidden/x.yml", "yaml")
    assert FileFilter(targets=(".env.py",)).accepts(".env.py", "python")
    assert not FileFilter(targets=("src",)).accepts("src/.cache/a.py", "python")


@pytest.mark.parametrize(
    ("glob", "why"),
    [
        ("[", "unclosed character class; missing ']'"),
        ("*.[ch", "unclosed character class; missing ']'"),
        ("!src/[", "unclosed character class; missing ']'"),
        ("[z-a]", "invalid range; 'z' > 'a'"),
        ("a\\", "dangling '\\'"),
        ("!", "nothing to match"),
        ("a\\/b", "not a pattern gitignore syntax can read"),  # pathspec's own limit: no traceback
    ],
)
def test_an_invalid_glob_is_an_error_naming_it(glob: str, why: str) -> None:
    """`-g '['` matched nothing, silently (pathspec reads an unclosed `[` as a literal), and `-g
    '[z-a]'`, `-g 'a\\'`, `-g '!'` ended in a traceback. Each is a UsageError naming the glob and what
    is wrong, from the parser the `path:` filters use (ripgrep: `error parsing glob '[': unclosed
    character class; missing ']'`)."""
    with pytest.raises(UsageError) as raised:
        FileFilter(globs=("*.py", glob))
    assert raised.value.message == f"invalid path glob {glob!r}: {why}", raised.value.message
    assert raised.value.hint


def test_globs_and_path_filters_share_one_glob_syntax() -> None:
    with pytest.raises(UsageError) as by_glob:
        FileFilter(globs=("src/[",))
    with pytest.raises(UsageError) as by_path:
        FileFilter(paths=("src/[",))
    assert by_glob.value.message == by_path.value.message
    assert (by_glob.value.hint, by_glob.value.code) == (by_path.value.hint, by_path.value.code)
    ok = FileFilter(globs=("[ab]*.py", "!tests/", "\\[x].py", "[]]"))
    assert ok.accepts("src/a.py", "python") and ok.accepts("[x].py", "python")
    assert not ok.accepts("tests/a.py", "python") and not ok.accepts("src/c.py", "python")


def test_an_unreadable_entry_is_reported_only_where_the_grep_looks() -> None:
    """`reaches`: a refused folder is reported below (or above) a PATH argument, not when hidden
    or excluded by `-g '!dir/'`; positive globs and `lang:` pick files, so they do not hide it."""
    assert FileFilter().reaches("locked", True) and FileFilter().reaches("", True)
    assert not FileFilter().reaches(".cache", True) and FileFilter(hidden=True).reaches(".cache", True)
    assert FileFilter(targets=("src",)).reaches("src/locked", True)
    assert FileFilter(targets=("src/a",)).reaches("src", True)  # above the PATH: it could not be walked
    assert not FileFilter(targets=("src",)).reaches("lib/locked", True)
    assert not FileFilter(globs=("!locked/",)).reaches("locked", True)
    assert not FileFilter(globs=("!locked/",)).reaches("locked/deeper", True)
    assert FileFilter(globs=("*.py",), langs=("python",)).reaches("locked", True)
    assert FileFilter(globs=("*.py",)).reaches("unread.py", False)
    assert not FileFilter(globs=("*.py",)).reaches("unread.txt", False)
