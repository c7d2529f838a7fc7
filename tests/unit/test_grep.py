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


# One character per line, as rg reads a file of them; each case: what `rg -n PATTERN` (15.2) prints.
ALPHABET = "aqzAQZ059_-[]:^&~|!/@`{ \t\x0b\x7f\u00e9\u0663\u017f\u212a"


@pytest.mark.parametrize(
    ("pattern", "flags", "expected"),
    [
        ("[[:digit:]]+", "", "059"),
        ("[[:alpha:]]", "", "aqzAQZ"),
        ("[[:alpha:]]", "-i", "aqzAQZ\u017f\u212a"),
        ("[[:alpha:]]", "-S", "aqzAQZ"),  # a POSIX class is no literal: smart case stays sensitive
        ("[[:upper:]_0-9]", "", "AQZ059_"),
        ("[[:upper:]_0-9]", "-S", "aqzAQZ059_\u017f\u212a"),  # `_`, `0`, `9` are lower-case literals
        ("[[:lower:]]", "", "aqz"),
        ("[[:alnum:]]", "", "aqzAQZ059"),
        ("[[:word:]]", "", "aqzAQZ059_"),
        ("[[:xdigit:]]", "", "aA059"),
        ("[[:space:]]", "", " \t\x0b"),
        ("[[:blank:]]", "", " \t"),
        ("[[:cntrl:]]", "", "\t\x0b\x7f"),
        ("[[:punct:]]", "", "_-[]:^&~|!/@`{"),
        ("[[:print:]]", "", "aqzAQZ059_-[]:^&~|!/@`{ "),
        ("[[:graph:]]", "", "aqzAQZ059_-[]:^&~|!/@`{"),
        ("[[:ascii:]]", "", "aqzAQZ059_-[]:^&~|!/@`{ \t\x0b\x7f"),
        ("[[:^digit:]]", "", "aqzAQZ_-[]:^&~|!/@`{ \t\x0b\x7f\u00e9\u0663\u017f\u212a"),
        ("[^[:^alpha:]]", "", "aqzAQZ"),
        ("[[:^digit:]a]", "", "aqzAQZ_-[]:^&~|!/@`{ \t\x0b\x7f\u00e9\u0663\u017f\u212a"),
        ("[^[:digit:]a-z]", "", "AQZ_-[]:^&~|!/@`{ \t\x0b\x7f\u00e9\u0663\u017f\u212a"),
        ("[a-c[x-z]]", "", "az"),
        ("[a-z&&[^aeiou]]", "", "qz"),
        ("[a-z&&[^aeiou]]", "-i", "qzQZ\u017f\u212a"),
        ("[0-9--5]", "", "09"),
        ("[a-g~~b-h]", "", "a"),
        ("[[:foo:]]", "", ":"),  # no such class: a nested class of `:`, `f`, `o`
        ("[--a]", "", "a-"),  # leading dashes are literals (Python read a range `-`..`a`)
        ("[a||b]", "", "a|"),
        ("[\\w--[:alpha:]]", "", "059_\u00e9\u0663\u017f\u212a"),
        ("[\\w--[:alpha:]]", "-i", "059_\u00e9\u0663"),
        ("[:alpha:]", "", "a:"),  # outside a class, as rg reads it: a class of `:alph`
    ],
)
def test_classes_are_read_as_ripgrep_reads_them(pattern: str, flags: str, expected: str) -> None:
    """`[[:digit:]]+` found far fewer lines than rg (Python read `[[:digit:]` as a set of `[:dgit`,
    then a literal `]`) and printed `FutureWarning: Possible nested set`. POSIX classes (ASCII, as in
    Rust's regex), nested classes and `&&` `--` `~~` now mean what they mean to rg."""
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        p = compile_pattern(pattern, ignore_case=flags == "-i", smart_case=flags == "-S")
    assert "".join(c for c in ALPHABET if p.regex.search(c)) == expected


@pytest.mark.parametrize("pattern", ["[[]", "[a[]", "[]", "[^]", "[[:digit:]", "[a-[]"])
def test_a_class_ripgrep_refuses_is_an_error_with_a_hint_and_no_warning(pattern: str) -> None:
    import warnings

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with pytest.raises(UsageError) as raised:
            compile_pattern(pattern)
    assert caught == [] and raised.value.hint
    assert raised.value.message.startswith(f"invalid regular expression {pattern!r}")


def test_no_python_warning_escapes_pattern_compilation() -> None:
    """Whatever the pattern, Python's `re` never gets to print a warning: it compiles, or it is a
    UsageError (exit 2 with a hint)."""
    import warnings

    candidates = [
        "[[:digit:]]",
        "[a--b]",
        "[a&&b]",
        "[a~~b]",
        "[a||b]",
        "x[[y]]",
        "[[]]",
        "(?x)[ [:digit:] ]",
    ]
    candidates += [f"[{a}{b}{c}]" for a in "[-&~|^" for b in "[-&~|:" for c in "-&~|]"]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for pattern in candidates:
            try:
                compile_pattern(pattern)
            except UsageError:
                pass
    assert [str(w.message) for w in caught] == []


def test_the_prefilter_stays_sound_for_classes() -> None:
    """A line a class pattern matches always passes its trigram query (the index only narrows)."""
    lines = ["int f12345(void);", "X_1 = 42", "a\tb = c", "Grep Upper", "café latinFunc", "qz!~", "0x1F"]
    patterns = [
        "f[[:digit:]]+\\(",
        "[[:upper:]_0-9]{3}",
        "[[:alpha:]][[:blank:]][[:alpha:]]",
        "Grep[[:space:]][[:upper:]]",
        "lat[[:alpha:]]nFunc",
        "[a-z&&[^aeiou]]{2}[[:punct:]]",
        "0x[[:xdigit:]]+",
        "[^[:^alpha:]]{4}",
    ]
    for p in patterns:
        compiled = compile_pattern(p)
        query = trigram_query(compiled.source)
        hits = [line for line in lines if compiled.regex.search(line)]
        assert hits, p
        for line in hits:
            assert _satisfied(query, _grams(line)), (p, line)


def test_several_patterns_match_any_one_as_rg_e_does() -> None:
    parsed = parse_grep_args(["-e", "foo", "-e", "-bar", "src", "-i"])
    assert parsed is not None and parsed[0] is None and parsed[1] == ["src"]
    assert parsed[2]["regexp"] == ["foo", "-bar"] and parsed[2]["ignore_case"]
    p = compile_pattern("foo", more=["-bar", "a(b"], fixed=True)
    assert [bool(p.regex.search(s)) for s in ("x foo", "x-bar", "a(b", "ab")] == [True, True, True, False]
    assert compile_pattern("foo", more=["Bar"], smart_case=True).ignore_case is False
    with pytest.raises(UsageError):
        compile_pattern("foo", more=["a("])
