"""parse_file on hostile or unusual input: identity stability, windows, caps, bad bytes, deep nesting."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from indexlib.index.parsing import parse_file
from indexlib.index.parsing.ids import content_hash, node_uid
from indexlib.index.parsing.text import normalize_target
from indexlib.records import ParsedFile

SOURCE = b'''"""Billing helpers."""

import os


def compute_backoff(attempt):
    """Delay before attempt."""
    return 2 ** attempt


def schedule_retry(attempt):
    return compute_backoff(attempt)


class Retrier:
    def run(self):
        return schedule_retry(1)
'''


def nodes_by_name(parsed: ParsedFile) -> dict[str, tuple[int, int]]:
    return {node.qualified_name: (node.uid, node.content_hash) for node in parsed.nodes}


def check_spans(parsed: ParsedFile, data: bytes) -> None:
    for node in parsed.nodes:
        assert 0 <= node.start_byte <= node.end_byte <= len(data)
        assert data.count(b"\n", 0, node.start_byte) + 1 == node.start_line
        assert node.start_line <= node.end_line
        assert node.text.count("\n") == node.end_line - node.start_line
    live = {node.uid for node in parsed.nodes}
    assert all(ref.src_uid in live for ref in parsed.refs)


def test_uid_formula() -> None:
    import xxhash

    parsed = parse_file("pkg/mod.py", SOURCE, "python")
    node = next(n for n in parsed.nodes if n.qualified_name == "Retrier.run")
    expected = xxhash.xxh3_64_intdigest(b"pkg/mod.py\0Retrier.run\0method\0000\0000")
    assert node.uid == expected == node_uid("pkg/mod.py", "Retrier.run", "method", 0, 0)
    assert node.content_hash == content_hash(node.text) == xxhash.xxh3_64_intdigest(node.text.encode())


def test_same_input_same_nodes() -> None:
    assert parse_file("a.py", SOURCE, "python") == parse_file("a.py", SOURCE, "python")


def test_editing_one_body_changes_only_its_hash() -> None:
    before = nodes_by_name(parse_file("a.py", SOURCE, "python"))
    edited = SOURCE.replace(b"return 2 ** attempt", b"return 3 ** attempt")
    after = nodes_by_name(parse_file("a.py", edited, "python"))
    assert before.keys() == after.keys()
    changed = {name for name in before if before[name][1] != after[name][1]}
    assert changed == {"compute_backoff"}
    assert all(before[name][0] == after[name][0] for name in before)  # every uid survives


def test_inserting_lines_above_keeps_uids_and_hashes() -> None:
    before = nodes_by_name(parse_file("a.py", SOURCE, "python"))
    shifted = SOURCE.replace(b"import os\n", b"import os\nimport sys\n\nLIMIT = 3\n")
    after = nodes_by_name(parse_file("a.py", shifted, "python"))
    for name in ("compute_backoff", "schedule_retry", "Retrier", "Retrier.run"):
        assert before[name] == after[name]


def test_uid_depends_on_path() -> None:
    a = nodes_by_name(parse_file("a.py", SOURCE, "python"))
    b = nodes_by_name(parse_file("b.py", SOURCE, "python"))
    assert a["compute_backoff"][0] != b["compute_backoff"][0]
    assert a["compute_backoff"][1] == b["compute_backoff"][1]


def test_overloads_get_ordinals_in_source_order() -> None:
    java = b"""class Billing {
    void charge(String id) { log(id); }
    void charge(String id, long cents) { log(id); }
    void charge() { }
}
"""
    parsed = parse_file("Billing.java", java, "java")
    overloads = [n for n in parsed.nodes if n.qualified_name == "Billing.charge"]
    assert [n.signature for n in overloads] == [
        "void charge(String id)",
        "void charge(String id, long cents)",
        "void charge()",
    ]
    assert [n.uid for n in overloads] == [
        node_uid("Billing.java", "Billing.charge", "method", i, 0) for i in range(3)
    ]
    # Python redefinitions disambiguate the same way.
    python = b"def f():\n    pass\n\n\ndef f():\n    return 1\n"
    defs = [n for n in parse_file("a.py", python, "python").nodes if n.kind == "function"]
    assert [n.uid for n in defs] == [node_uid("a.py", "f", "function", i, 0) for i in range(2)]


def test_huge_function_is_split_into_windows() -> None:
    body = b"".join(b"    total = step_%d(total)\n" % i for i in range(50_000))
    data = b"def huge(total):\n" + body + b"    return total\n\n\ndef after():\n    return huge(0)\n"
    parsed = parse_file("big.py", data, "python", window_lines=200, max_nodes=1000)
    assert parsed.skip is None
    windows = [n for n in parsed.nodes if n.qualified_name == "huge"]
    assert len(windows) == 251  # 50,002 lines in windows of 200
    assert [w.part for w in windows] == list(range(251))
    assert {(w.kind, w.name, w.signature) for w in windows} == {("function", "huge", "def huge(total)")}
    assert windows[0].start_line == 1 and windows[-1].end_line == 50_002
    for previous, current in itertools.pairwise(windows):
        assert current.start_line == previous.end_line + 1
        assert previous.end_line - previous.start_line + 1 == 200
    for window in windows:
        assert window.text == data[window.start_byte : window.end_byte].decode()
        assert window.uid == node_uid("big.py", "huge", "function", 0, window.part)
    check_spans(parsed, data)
    # A call made on line 30,000 is attributed to the window holding that line.
    ref = next(r for r in parsed.refs if r.target == "step_29998")
    assert ref.line == 30_000
    holder = next(w for w in windows if w.uid == ref.src_uid)
    assert holder.start_line <= 30_000 <= holder.end_line
    after = next(n for n in parsed.nodes if n.qualified_name == "after")
    assert after.part == 0 and after.start_line == 50_005


def test_node_cap_keeps_the_first_nodes_and_their_refs() -> None:
    data = b"".join(b"def f%d():\n    return g%d()\n\n" % (i, i) for i in range(100))
    parsed = parse_file("many.py", data, "python", max_nodes=10)
    assert parsed.skip == "node_cap"
    assert len(parsed.nodes) == 10
    assert [n.qualified_name for n in parsed.nodes] == [f"f{i}" for i in range(10)]
    assert {r.target for r in parsed.refs} == {f"g{i}" for i in range(10)}
    assert "10 of 100" in parsed.note


def test_invalid_utf8_never_raises() -> None:
    data = b"def caf\xe9(x):\n    return \xff\xfe(x)\n\nclass K\xc3:\n    def m(self):\n        s = '\xed\xa0\x80'\n"
    parsed = parse_file("bad.py", data, "python")
    assert parsed.skip is None
    check_spans(parsed, data)
    assert any(node.kind == "method" and node.name == "m" for node in parsed.nodes)
    assert all("\ufffd" not in n.text or n.text.encode("utf-8") for n in parsed.nodes)


@pytest.mark.parametrize(
    ("path", "language", "data"),
    [
        ("p.py", "python", b"x = " + b"(" * 5000 + b"1" + b")" * 5000 + b"\n"),
        (
            "p.py",
            "python",
            b"".join(b" " * i + b"def f%d():\n" % i for i in range(300)) + b" " * 300 + b"g()\n",
        ),
        ("j.js", "javascript", b"function f() " + b"{" * 5000 + b"g();" + b"}" * 5000),
        ("j.js", "javascript", b"function f() {" * 2000 + b"g();" + b"}" * 2000),
        ("j.js", "javascript", b"f(" * 5000 + b")" * 5000),
        ("c.c", "c", b"int f() { return " + b"(" * 5000 + b"g(1)" + b")" * 5000 + b"; }"),
        ("r.rs", "rust", b"fn f() { " + b"{" * 5000 + b"g();" + b"}" * 5000 + b"}"),
        ("g.go", "go", b"package a\nfunc f() {" + b"func() {" * 3000 + b"g()" + b"}()" * 3000 + b"}"),
        ("a.rb", "ruby", b"x = " + b"[" * 5000 + b"]" * 5000),
        ("A.java", "java", b"class A {" * 2000 + b"void f() { g(); }" + b"}" * 2000),
        ("a.cpp", "cpp", b"namespace a {" * 2000 + b"void f() { g(); }" + b"}" * 2000),
        ("a.php", "php", b"<?php " + b"f(" * 5000 + b")" * 5000 + b";"),
        ("a.ts", "typescript", b"let x = " + b"[" * 5000 + b"]" * 5000 + b";"),
        ("A.kt", "kotlin", b"class A {" * 2000 + b"fun f() { g() }" + b"}" * 2000),
        ("A.swift", "swift", b"struct A {" * 2000 + b"func f() { g() }" + b"}" * 2000),
        ("A.scala", "scala", b"object A {" * 2000 + b"def f() = g()" + b"}" * 2000),
        ("a.lua", "lua", b"local x = " + b"{" * 5000 + b"}" * 5000),
        ("a.sh", "bash", b"f() { " * 2000 + b"g; " + b"}; " * 2000),
        (
            "A.vue",
            "vue",
            b"<template><div/></template>\n<script>\nlet x = " + b"[" * 5000 + b"]" * 5000 + b"\n</script>\n",
        ),
    ],
)
def test_deeply_nested_code_never_crashes(path: str, language: str, data: bytes) -> None:
    parsed = parse_file(path, data, language, max_nodes=5000)
    assert parsed.nodes
    check_spans(parsed, data)
    assert all(len(node.qualified_name.split(".")) <= 32 for node in parsed.nodes)


def test_deep_nesting_bounds_qualified_names_and_text() -> None:
    data = b"function f() {" * 3000 + b"g();" + b"}" * 3000
    parsed = parse_file("deep.js", data, "javascript", max_nodes=5000)
    assert len(parsed.nodes) == 3000
    # Each function's text elides the nested one's body, so the total text stays linear.
    assert sum(len(node.text) for node in parsed.nodes) < 20 * len(data)
    innermost = parsed.nodes[-1]
    assert innermost.qualified_name == ".".join(["f"] * 32)
    assert [r.target for r in parsed.refs if r.kind == "calls"] == ["g"]
    assert next(r for r in parsed.refs if r.target == "g").src_uid == innermost.uid


def test_timeout_falls_back_to_line_windows() -> None:
    data = b"".join(b"def f%d(a, b):\n    return g(a) + h(b)\n\n" % i for i in range(60_000))
    parsed = parse_file("slow.py", data, "python", timeout_ms=1)
    assert parsed.skip == "parse_timeout"
    assert parsed.refs == []
    assert parsed.nodes and {node.kind for node in parsed.nodes} == {"chunk"}
    assert parsed.nodes[0].language == "python"
    assert "line windows" in parsed.note
    # The parser is reset after a cancelled parse: the next file parses normally.
    again = parse_file("ok.py", b"def ok():\n    return 1\n", "python")
    assert [(n.kind, n.qualified_name) for n in again.nodes] == [("function", "ok")]


@pytest.mark.parametrize("source", [b"def f():\n", b"class A:\n    def m(self):\n", b"def f():\n    "])
def test_definitions_with_empty_bodies(source: bytes) -> None:
    """Regression: an empty block (a file ending after `def f():`) once failed docstring lookup."""
    parsed = parse_file("a.py", source, "python")
    assert parsed.skip is None
    assert parsed.nodes[-1].kind in ("function", "method") and parsed.nodes[-1].doc == ""


def test_empty_and_blank_files() -> None:
    for language in ("python", "javascript", "go", "markdown", "text"):
        assert parse_file("empty", b"", language).nodes == []
        assert parse_file("blank", b"\n\n   \n", language).nodes == []


def test_module_node_is_skipped_when_only_trivia() -> None:
    only_defs = b"# helpers\n\ndef f():\n    return 1\n"
    assert [n.kind for n in parse_file("a.py", only_defs, "python").nodes] == ["function"]
    go = b"package billing\n\n// F does f.\nfunc F() {}\n"
    assert [n.kind for n in parse_file("a.go", go, "go").nodes] == ["function"]
    # A module-level constant is a node of its own: nothing is left for a module node.
    with_constant = b"LIMIT = 3\n\ndef f():\n    return LIMIT\n"
    nodes = parse_file("a.py", with_constant, "python").nodes
    assert [(n.kind, n.name, n.text) for n in nodes] == [
        ("constant", "LIMIT", "LIMIT = 3"),
        ("function", "f", "def f():\n    return LIMIT"),
    ]
    with_code = b"configure(3)\n\ndef f():\n    return 1\n"
    module = parse_file("a.py", with_code, "python").nodes[0]
    assert (module.kind, module.name, module.text) == ("module", "a", "configure(3)")


def test_a_comment_ending_a_one_line_constant_or_field_is_its_own() -> None:
    """It is part of the node (its line reads whole) and its doc when nothing above documents it."""
    cases = [
        ("a.py", "python", b"X = 1  # the x\n# about y\nY = 2  # more\n", {"X": "the x", "Y": "about y"}),
        ("a.go", "go", b"package a\n\nconst Size int = 100 * 1024 // 100KB\n", {"Size": "100KB"}),
        ("a.rs", "rust", b"enum E {\n    A, // the a\n    B,\n}\n", {"A": "the a", "B": ""}),
        ("a.js", "javascript", b"export const J = 2 // the j\nlet k = 1\n", {"J": "", "k": ""}),
    ]
    for path, language, source, docs in cases:
        nodes = [n for n in parse_file(path, source, language).nodes if n.kind in ("constant", "field")]
        assert {n.name: n.doc for n in nodes} == docs, path
        lines = source.decode().split("\n")
        for n in nodes:  # a node whose line ends in a comment ends with its line, comment and all
            if "//" in lines[n.end_line - 1] or "#" in lines[n.end_line - 1]:
                assert n.text.split("\n")[-1].strip() == lines[n.end_line - 1].strip(), (path, n.name)
    # `export const J = 2 // why` (no `;`) is one declaration: its `export const` is its own, not
    # a module remainder's.
    kinds = [(n.kind, n.text) for n in parse_file("a.js", b"export const J = 2 // why\n", "javascript").nodes]
    assert kinds == [("constant", "export const J = 2 // why")]


def test_doc_comments_need_to_touch_the_definition() -> None:
    js = b"// license header\n\nfunction a() {}\n\n// Does b.\n// Twice.\nfunction b() {}\nlet x = 1; // trailing\nfunction c() {}\n"
    docs = {n.name: n.doc for n in parse_file("a.js", js, "javascript").nodes if n.kind == "function"}
    assert docs == {"a": "", "b": "Does b.\nTwice.", "c": ""}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("self.retry", "self.retry"),
        ("self.client.get(url).json", "self.client.get.json"),
        ("Foo::new", "Foo.new"),
        ("std::make_unique<Foo>", "std.make_unique"),
        ("Vec::<u8>::with_capacity", "Vec.with_capacity"),
        ("$this->gateway->post", "this.gateway.post"),
        ("a?.b", "a.b"),
        ("obj[key].run", "obj.run"),
        ("(lambda: 1)", ""),
        ("a\n  .b\n  .c", "a.b.c"),
    ],
)
def test_normalize_target(text: str, expected: str) -> None:
    assert normalize_target(text) == expected


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    data=st.binary(max_size=400),
    language=st.sampled_from(
        [
            "python",
            "javascript",
            "typescript",
            "go",
            "rust",
            "c",
            "cpp",
            "ruby",
            "php",
            "java",
            "csharp",
            "tsx",
            "kotlin",
            "swift",
            "scala",
            "lua",
            "bash",
            "vue",
            "svelte",
            "markdown",
            "text",
        ]
    ),
)
def test_arbitrary_bytes_never_raise(data: bytes, language: str) -> None:
    parsed = parse_file("x", data, language, max_nodes=50)
    check_spans(parsed, data)


@settings(max_examples=40, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            [
                "def f(x):",
                "    return g(x)",
                "class A:",
                "    def m(self):",
                "        pass",
                "",
                "@d",
                "import os",
                "x = (",
                ")",
                "  # c",
                '"""doc"""',
                "async def h():",
                "    await k()",
            ]
        ),
        max_size=30,
    )
)
def test_python_fragments_keep_invariants(lines: list[str]) -> None:
    data = "\n".join(lines).encode()
    parsed = parse_file("frag.py", data, "python")
    check_spans(parsed, data)
    assert parse_file("frag.py", data, "python") == parsed
