"""Snippets and token budgets (pure)."""

from __future__ import annotations

import msgspec
from hypothesis import given
from hypothesis import strategies as st

from indexlib.records import Hit, Related, Snippet
from indexlib.retrieval.budget import pack
from indexlib.retrieval.snippets import make_snippet

BODY = "\n".join(f"line {i} filler text here" for i in range(200)) + "\ndef retry_charge():\n    pass\n"


def test_snippet_centres_on_first_match_and_reports_lines() -> None:
    s = make_snippet(BODY, 100, ["retry_charge"], 200)
    assert "retry_charge" in s.text
    assert s.truncated
    first_line_no = 100 + BODY[: BODY.index(s.text)].count("\n")
    assert s.start_line == first_line_no
    assert s.end_line == s.start_line + s.text.count("\n")
    a, b = s.highlights[0]
    assert s.text[a:b].lower() in ("retry_charge", "retry", "charge")


def test_a_declaration_ending_its_node_stays_in_the_window() -> None:
    """A field under a long doc comment is its node's last line: snapping the window to a line start
    must not push it out."""
    doc = "".join(f"\t// {'word ' * 12}{i}\n" for i in range(12))
    text = doc + "\tUse string"
    s = make_snippet(text, 1, ["Use"], 600, indent="\t", declares="Use", signature="Use string")
    assert s.text.endswith("Use string") and s.end_line == 13, s


def test_the_line_of_the_match_is_shown_whole_when_it_fits() -> None:
    """The piped `path:line: text` is the snippet's line: a window ending inside it (the first match
    of the line, `path` of `path_regex`, well before `compile_path`) would show a cut line."""
    assign = "        self.path_regex, self.path_format, self.param_convertors = compile_path(path)"
    text = (
        "\n".join(f"        assert check_{i}(value), 'message number {i}'" for i in range(30)) + "\n" + assign
    )
    s = make_snippet(text, 1, ["compile_path"], 600)
    assert s.text.split("\n")[-1] == assign and s.end_line == 31, s.text[-120:]
    middle = (
        "\n".join(f"x{i} = {i}" for i in range(80))
        + "\n"
        + assign
        + "\n"
        + "\n".join(f"y{i} = {i}" for i in range(80))
    )
    s = make_snippet(middle, 1, ["compile_path"], 200)
    assert assign in s.text.split("\n"), s.text
    long_line = "v = [" + ", ".join(str(i) for i in range(400)) + "] + compile_path(p)"
    s = make_snippet("a = 1\n" + long_line, 1, ["compile_path"], 200)  # longer than the window: cut
    assert "compile_path" in s.text and len(s.text) < 300 and s.truncated
    assert s.cut == [2], s  # and it says so: the line starts before the excerpt does
    s = make_snippet(long_line + "\nb = 2\n", 1, ["v"], 200)
    assert s.start_line == s.end_line == 1 and s.cut == [1], s  # ends mid-line
    s = make_snippet(middle, 1, ["compile_path"], 200)
    assert s.cut == [], s  # whole lines only


def test_a_stem_lights_up_the_inflected_word_bm25_matched() -> None:
    text = "\n".join(f"x{i} = {i}" for i in range(40)) + "\ndef register_blueprint(self, bp):\n    pass\n"
    s = make_snippet(text, 1, ["registered", "blueprints"], 120, stems=["regist", "blueprint"])
    lit = [s.text[a:b] for a, b in s.highlights]
    assert "register" in lit and "blueprint" in lit, lit  # the whole letter run, not `regist`
    assert "def register_blueprint" in s.text  # and the window centres on it
    plain = make_snippet(text, 1, ["registered", "blueprints"], 120)
    assert plain.highlights == [] and plain.start_line == 1
    short = make_snippet("user = reuse()", 1, ["uses"], 80, stems=["use"])
    assert short.highlights == []  # a stem under 4 letters lights nothing


def test_head_fallback_without_match() -> None:
    s = make_snippet(BODY, 1, ["nothingmatches"], 120)
    assert s.start_line == 1 and s.text.startswith("line 0")
    assert s.truncated


def test_without_a_match_the_window_opens_on_the_declaration() -> None:
    """guzzle's `RetryMiddleware::__construct`: found by its name alone, its snippet was the head of
    its long doc comment, without the declaration to show it by."""
    doc = "    /**\n" + "".join(
        f"     * @param callable $p{i} What the handler does with it.\n" for i in range(12)
    )
    text = (
        doc
        + "     */\n    public function __construct(callable $decider)\n    {\n        $this->d = $decider;\n    }"
    )
    s = make_snippet(
        text, 33, ["RetryMiddleware"], 300, signature="public function __construct(callable $decider)"
    )
    assert "public function __construct(callable $decider)" in s.text and s.highlights == []
    assert make_snippet(text, 33, ["RetryMiddleware"], 300).start_line == 33  # no signature: the head


def test_without_a_match_a_file_is_shown_from_past_its_licence_header() -> None:
    """A Kotlin file's module row found by its name alone opened on ` * Copyright (C) 2015 Square`."""
    header = "/*\n * Copyright (C) 2015 Square, Inc.\n *\n * Licensed under the Apache License.\n */\n"
    text = header + "package com.squareup.moshi\n\nimport kotlin.annotation.Target\n"
    s = make_snippet(text, 1, ["jsonqualifier"], 300)
    assert (s.start_line, s.text.splitlines()[0], s.truncated) == (6, "package com.squareup.moshi", True)
    # A match inside the header is shown there; a comment naming no licence is kept.
    assert make_snippet(text, 1, ["square"], 300).start_line == 1
    plain = make_snippet("// Transfer statistics.\npackage transfer\n", 1, ["zzz"], 300)
    assert (plain.start_line, plain.truncated) == (1, False)


def test_short_node_is_whole_and_not_truncated() -> None:
    s = make_snippet("def f():\n    return 1\n", 5, ["f"], 600)
    assert not s.truncated and s.start_line == 5 and s.end_line == 6


def test_width_is_clamped() -> None:
    assert len(make_snippet("x" * 10_000, 1, [], 10).text) == 80
    assert len(make_snippet("x" * 10_000, 1, [], 100_000).text) == 4000


@given(st.text(max_size=3000), st.lists(st.text(max_size=12), max_size=4), st.integers(80, 4000))
def test_snippet_stays_inside_the_node(text: str, words: list[str], width: int) -> None:
    s = make_snippet(text, 1, words, width)
    assert s.text in text
    assert len(s.text) <= width
    assert 1 <= s.start_line <= s.end_line
    assert s.end_line <= 1 + text.count("\n")
    # A line not listed in `cut` is shown whole: its first and last lines are the text's own lines.
    lines, shown = text.split("\n"), s.text.split("\n")
    for at, line in ((s.start_line, shown[0]), (s.end_line, shown[-1])):
        if at not in s.cut:
            assert line == lines[at - 1], (at, s)


def hit(path: str, a: int, b: int, text: str = "x" * 100) -> Hit:
    return Hit(
        uid="0",
        path=path,
        start_line=a,
        end_line=b,
        kind="function",
        symbol="f",
        language="python",
        score=1.0,
        snippet=Snippet(text=text, start_line=a, end_line=b, truncated=False),
    )


def test_budget_packs_whole_results_and_skips_overlaps() -> None:
    hs = [hit("a.py", 1, 10), hit("a.py", 5, 12), hit("b.py", 1, 3), hit("c.py", 1, 3, "y" * 4000)]
    kept, left = pack(hs, 300)
    assert [h.path for h in kept] == ["a.py", "b.py"]
    assert left == 2


def test_budget_always_keeps_the_best_hit() -> None:
    kept, left = pack([hit("a.py", 1, 3, "z" * 8000), hit("b.py", 1, 3)], 50)
    assert [h.path for h in kept] == ["a.py"] and left == 1


def _hit_as_served(i: int) -> Hit:
    """A hit shaped as a real one: a snippet of indented code (JSON escapes its quotes and line
    breaks) and callers in its `related` rows, each row a dozen fields."""
    code = "".join(f'    value_{j} = parse("key {j}", strict=True)\n' for j in range(12))
    callers = [
        Related(
            uid=f"{j:016x}",
            edge="calls",
            direction="in",
            path=f"src/pkg/caller_{j}.py",
            start_line=j,
            end_line=j + 9,
            kind="function",
            symbol=f"caller_{j}",
            via=f"{i:016x}",
            line=j + 3,
            decl_line=j,
        )
        for j in range(5)
    ]
    h = hit(f"src/pkg/module_{i}.py", 10, 22, code)
    h.uid, h.signature, h.related = f"{i:016x}", f"def handler_{i}(request, *, strict=True)", callers
    return h


def test_packed_results_fit_the_budget_as_the_json_an_agent_reads() -> None:
    """The budget is what a model pays for: the results' JSON, 4 characters a token, stays within it
    whenever more than the one hit always kept is packed (it was 1.5-1.9 times over on real code)."""
    for budget in (1500, 3000, 6000):
        kept, left = pack([_hit_as_served(i) for i in range(20)], budget)
        assert len(kept) > 1 and left == 20 - len(kept)
        assert len(msgspec.json.encode(kept)) / 4 <= budget, (budget, len(kept))


def test_indent_restores_the_first_line_as_the_file_has_it() -> None:
    """Issue 12: a method's text starts at `def`; its snippet's first line keeps the indentation."""
    s = make_snippet(
        "def should_set_cookie(self):\n        return True", 233, ["should_set_cookie"], 600, indent="    "
    )
    assert s.text.splitlines()[0] == "    def should_set_cookie(self):"
    assert s.text[s.highlights[0][0] : s.highlights[0][1]] == "should_set_cookie"


def test_a_module_remainder_never_shows_the_lines_other_nodes_own() -> None:
    """Issue 12: a module remainder keeps only the line breaks of the functions inside it; its snippet
    keeps to its own lines around the match instead of printing blank lines the file does not have."""
    text = "import logging\n\n" + "\n" * 12 + "\n\nhandler = logging.StreamHandler()\nhandler.setLevel(1)"
    hidden = set(range(3, 15))  # a function's lines
    s = make_snippet(text, 1, ["handler"], 600, hidden_lines=hidden)
    assert s.start_line == 17 and s.text == "handler = logging.StreamHandler()\nhandler.setLevel(1)", s
    assert s.truncated
    shown = set(range(s.start_line, s.end_line + 1))
    assert not shown & hidden
    whole = make_snippet(text, 1, ["handler"], 600)  # without hidden lines: the old behaviour, all of it
    assert whole.start_line == 1 and not whole.truncated


def test_a_name_spelled_whole_outweighs_a_line_holding_its_words_apart() -> None:
    text = (
        "func (c *Command) ExecuteC() error {\n"
        + "\n".join(f"\tstep{i}()" for i in range(30))
        + "\n\tif !c.SilenceErrors {\n"
        + "\n".join(f"\tmore{i}()" for i in range(30))
        + "\n\tif !c.SilenceUsage {\n\t\tc.Println(c.UsageString())\n\t}\n}\n"
    )
    s = make_snippet(text, 1, ["SilenceUsage"], 160)
    assert "c.SilenceUsage" in s.text and "SilenceErrors" not in s.text
    # A dotted name: its whole spelling, not a comment holding both words.
    module = (
        "/**\n * Module exports.\n */\n"
        + "\n".join(f"var x{i} = {i};" for i in range(40))
        + "\nmodule.exports = View;\n"
    )
    s = make_snippet(module, 1, ["module.exports"], 120)
    assert "module.exports = View;" in s.text


def test_among_lines_of_as_many_words_the_one_spelling_them_whole_wins() -> None:
    # ripgrep's `impl Matcher for`: the window opened on `impl Default for RegexMatcherBuilder`
    # (impl, matcher: as many words) 380 lines above `impl Matcher for RegexMatcher`.
    text = (
        "impl Default for RegexMatcherBuilder {\n"
        + "\n".join(f"    step{i}();" for i in range(40))
        + "\nimpl Matcher for RegexMatcher {\n    fn find_at() {}\n}\n"
        + "\n".join(f"    more{i}();" for i in range(5))
        + "\nimpl Matcher for Other {}\n"
    )
    s = make_snippet(text, 1, ["impl", "Matcher"], 120)
    assert "impl Matcher for RegexMatcher" in s.text and "RegexMatcherBuilder" not in s.text, s.text
