"""The line a hit is shown by, and the lines a list of hits is printed by (pure, on hand-made hits)."""

from __future__ import annotations

import re

import msgspec

from indexlib.records import Hit, Provenance, Snippet
from indexlib.retrieval.hitline import crowded_hits, printed_lines, shown_line


def hit(
    symbol: str,
    span: tuple[int, int],
    snippet: tuple[int, str],
    *,
    kind: str = "method",
    signature: str = "",
    line: int = 0,
    path: str = "a.cs",
) -> Hit:
    start, text = snippet
    return Hit(
        uid="0",
        path=path,
        start_line=span[0],
        end_line=span[1],
        kind=kind,
        symbol=symbol,
        language="csharp",
        score=1.0,
        snippet=Snippet(text=text, start_line=start, end_line=start + text.count("\n"), truncated=False),
        signature=signature,
        provenance=Provenance(bm25_rank=1),
        line=line,
    )


POLICY = (
    "class ProjectedDestructuringPolicy : IDestructuringPolicy\n{\n"
    "    readonly Func<object, object> _projection;\n\n"
    "    public ProjectedDestructuringPolicy(Func<object, object> projection)\n    { ... }"
)
CTOR = (
    "    public ProjectedDestructuringPolicy(Func<object, object> projection)\n    {\n"
    "        _projection = projection;\n    }"
)


def test_a_class_shown_by_its_members_line_gives_it_to_the_member_ranked_below_it() -> None:
    """serilog: the class (rank 1) was shown by its constructor's line, and the constructor (rank 2)
    by the same line, its declaration: `ProjectedDestructuringPolicy.cs:22` printed twice. A line
    inside a member that is a hit itself is the member's, whichever ranks first."""
    cls = hit(
        "P", (17, 32), (17, POLICY), kind="class", signature="class ProjectedDestructuringPolicy", line=22
    )
    ctor = hit("P.P", (22, 26), (22, CTOR), signature="public ProjectedDestructuringPolicy(", line=22)
    assert printed_lines([cls, ctor]) == [17, 22]
    assert printed_lines([ctor, cls]) == [22, 17]
    assert crowded_hits([cls, ctor]) == []


OUTER = "    class SelfLogFailureListener : ILoggingFailureListener\n    { ... }"
NESTED = (
    "    class SelfLogFailureListener : ILoggingFailureListener\n    {\n"
    "        public void OnLoggingFailed(object sender, string message)\n        { ... }"
)
METHOD = "        public void OnLoggingFailed(object sender, string message)\n        {\n            o();\n        }"


def test_a_hit_whose_every_line_is_held_by_others_is_crowded() -> None:
    """serilog's SelfLog: the outer class's snippet was its nested class's outline line, which the
    nested class (a hit) is shown by: its only line to show is held, and the search cuts it again."""
    method = hit(
        "S.L.OnLoggingFailed", (82, 96), (82, METHOD), signature="public void OnLoggingFailed(", line=82
    )
    nested = hit(
        "S.L", (80, 97), (80, NESTED), kind="class", signature="class SelfLogFailureListener", line=82
    )
    outer = hit("S", (17, 104), (80, OUTER), kind="class", signature="public static class SelfLog", line=80)
    hits = [method, nested, outer]
    assert printed_lines(hits)[:2] == [82, 80]
    assert crowded_hits(hits) == [2]
    # In another file the same lines are free.
    assert (
        crowded_hits([method, nested, hit("S", (17, 104), (80, OUTER), kind="class", line=80, path="b.cs")])
        == []
    )


PHP_MEMBER = (
    "    /**\n     * Get promise\n     */\n    public function promise(): PromiseInterface\n    { ... }"
)
JAVA_MEMBER = "    /**\n     * Get promise\n     */\n    @Override\n    public Promise promise() {\n        return p;\n    }"
CS_TEST = "    [Fact]\n    public void JsonFormattedEventsIncludeTimestamp()\n    {\n        Run();\n    }"


def test_a_hit_holding_no_query_word_is_shown_by_its_declaration() -> None:
    """guzzle's `qry search Pool`: methods found by their path and name alone were shown by the `/**`
    opening their doc comment; as among lines holding query words, code from the declaration comes
    before the doc comment and the attributes above it."""
    php = hit(
        "Pool.promise", (70, 76), (70, PHP_MEMBER), signature="public function promise(): PromiseInterface"
    )
    assert shown_line(php) == 3
    java = hit("Pool.promise", (9, 15), (9, JAVA_MEMBER), signature="public Promise promise()")
    assert shown_line(java) == 4
    unsigned = hit("T.Json", (9, 13), (9, CS_TEST))  # no signature: the first line of code
    assert shown_line(unsigned) == 1


def test_a_module_row_is_shown_by_its_first_line_with_something_to_say() -> None:
    """A PHP file's module row was shown by its `<?php`; like a Go file's by its package comment and
    a Python file's by its docstring, it is shown by its first line past the file's markup."""
    php = hit("Pool", (1, 40), (1, "<?php\n\nnamespace GuzzleHttp;\n\nuse A\\B;"), kind="module")
    assert shown_line(php) == 2
    python = hit(
        "m", (1, 9), (1, '#!/usr/bin/env python3\n"""Transfer statistics."""\n\nimport os'), kind="module"
    )
    assert shown_line(python) == 1
    go = hit("m", (1, 9), (1, "// Package transfer keeps statistics.\npackage transfer\n"), kind="module")
    assert shown_line(go) == 0


def test_a_module_row_is_not_shown_by_its_licence_header() -> None:
    """moshi's `qry search JsonQualifier` showed JsonQualifier.kt's module row by ` * Copyright (C)
    2015 Square, Inc.`: a licence says whose the file is, its first line past it what it is."""
    licence = "/*\n * Copyright (C) 2015 Square, Inc.\n *\n * Licensed under the Apache License.\n */\n"
    kotlin = hit(
        "JsonQualifier", (1, 9), (1, licence + "package com.squareup.moshi\n\nimport a.B"), kind="module"
    )
    assert shown_line(kotlin) == 5
    python = hit(
        "m", (1, 9), (1, '# SPDX-License-Identifier: MIT\n"""Transfer statistics."""\n'), kind="module"
    )
    assert shown_line(python) == 1
    # A file whose snippet is its licence alone has nothing else to show; a plain comment is no licence.
    only = hit("m", (1, 4), (1, licence), kind="module")
    assert shown_line(only) == 1
    said = hit("m", (1, 9), (1, "// Statistics of a transfer.\npackage transfer\n"), kind="module")
    assert shown_line(said) == 0


IFACE = (
    "    /**\n     * Extract cookies from an HTTP response.\n     */\n"
    "    public function extractCookies($request, $response): void;\n\n"
    "    /**\n     * Sets a cookie in the cookie jar.\n     */\n    public function setCookie($cookie): bool;"
)
MEMBER = "    /**\n     * Extract cookies from an HTTP response.\n     */\n    public function extractCookies($request, $response): void;"


def test_a_class_matched_in_its_member_hit_shows_none_of_the_members_lines() -> None:
    """guzzle: `CookieJarInterface`, matched in the doc comment of `extractCookies` (a hit too), was
    shown by that comment's line or, giving way, by the next member's doc comment, which holds no
    query word: the member's lines are the member's, and the interface's snippet is cut again."""
    highlights = [(IFACE.index("Extract"), IFACE.index("Extract") + 7)]
    iface = hit(
        "I", (8, 80), (34, IFACE), kind="interface", signature="interface CookieJarInterface", line=35
    )
    iface.snippet.highlights = highlights
    member = hit(
        "I.extractCookies", (34, 37), (34, MEMBER), signature="public function extractCookies(", line=35
    )
    member.snippet.highlights = highlights
    assert crowded_hits([member, iface]) == [1]
    assert crowded_hits([iface, member]) == [0]
    assert printed_lines([iface, member])[1] == 35  # the member keeps the line holding the words


def test_among_lines_of_as_many_query_words_code_is_shown_before_a_comment() -> None:
    # ripgrep's `impl Matcher for`: the module was shown by the comment above the impl block.
    text = "// dispatches on the internal matcher impl\nimpl Matcher for RegexMatcher {\n"
    lit = [m.span() for m in re.finditer(r"(?i)matcher|impl", text)][:4]  # not RegexMatcher's
    h = hit("matcher", (1, 670), (406, text), kind="module", path="matcher.rs")
    h = msgspec.structs.replace(h, snippet=msgspec.structs.replace(h.snippet, highlights=lit))
    assert [text[a:b] for a, b in lit] == ["matcher", "impl", "impl", "Matcher"]
    assert shown_line(h) == 1
