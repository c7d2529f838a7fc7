"""The line a definition declares itself on, past the doc comment its span holds."""

from __future__ import annotations

from pathlib import Path

from indexlib import BuildOptions, build_index, open_engine, related
from indexlib.declaration import attribute_line, attribute_lines, declaration_line, first_code_line


def test_the_declaration_is_below_the_doc_comment() -> None:
    go = "// Match finds the pattern.\n// It is fast.\nfunc Match(p string) bool {\n\treturn true\n}"
    assert declaration_line(go, 10, "func Match(p string) bool") == 12
    # Without a signature: the first line of code.
    assert declaration_line("/**\n * Says hi.\n */\nvoid hi() {}", 1, "") == 4
    # A decorator opens a Python definition; its `def` is the line its signature names.
    assert (
        declaration_line("@property\ndef path(self) -> str:\n    return p", 5, "def path(self) -> str") == 6
    )
    assert declaration_line("// only a comment", 3, "") == 3


def test_attribute_lines_are_not_the_declaration() -> None:
    """C# `[Attr]`, PHP 8 and Rust `#[attr]` lines are skipped as Java's `@Annotation`s are, whether
    the signature holds them (an index made before they were left out of it) or not."""
    cs = '/// <summary>Writes.</summary>\n[MessageTemplateFormatMethod("t")]\npublic void Information(string t)\n{\n}'
    assert declaration_line(cs, 861, "public void Information(string t)") == 863
    assert (
        declaration_line(cs, 861, '[MessageTemplateFormatMethod("t")] public void Information(string t)')
        == 863
    )
    assert declaration_line(cs, 861, "") == 863  # without a signature: the first line of code
    php = "/**\n * Doc.\n */\n#[Pure]\n#[Deprecated(reason: 'x')]\npublic function f(): int\n{ ... }"
    assert declaration_line(php, 10, "#[Pure] #[Deprecated(reason: 'x')] public function f(): int") == 15
    assert declaration_line(php, 10, "") == 15
    rust = "/// A batch.\n#[derive(Debug, Clone)]\n#![allow(dead_code)]\npub struct Batch {"
    assert declaration_line(rust, 1, "") == 4
    assert declaration_line("<?php\n\nnamespace App;\n", 1, "") == 3  # a PHP file: past its opening tag


def test_an_annotation_over_several_lines_is_not_the_declaration() -> None:
    """`@Deprecated(` with its arguments on the lines below it, as okio writes one: the declaration is
    the line after its closing parenthesis, with a signature (the annotation past or in it) or not."""
    kotlin = '/** Size. */\n@Deprecated(\n  message = "moved to val",\n  level = DeprecationLevel.ERROR,\n)\nfun size()'
    assert declaration_line(kotlin, 10, "fun size()") == 15
    assert declaration_line(kotlin, 10, '@Deprecated( message = "moved to val", ) fun size()') == 15
    assert declaration_line(kotlin, 10, "") == 15
    assert first_code_line(["@Generated(", '    "x") int size()']) == 0  # the declaration's line is in it


def test_comment_and_blank_lines_between_annotations_are_not_the_declaration() -> None:
    """A `// why` between `@Deprecated` and `@SuppressWarnings` (gson's `JsonReader.setLenient`)
    stopped the scan: the node was shown by the comment's line, 3 lines above its declaration."""
    java = (
        '/** Doc. */\n@Deprecated\n// why it is deprecated\n\n@SuppressWarnings("x")\npublic void f(int n) {}'
    )
    assert declaration_line(java, 2, "public void f(int n)") == 7
    assert declaration_line(java, 2, "") == 7
    assert attribute_lines("@A\n/* over\n   lines */\n#[b]\n// last\nfn f()") == len(
        "@A\n/* over\n   lines */\n#[b]\n// last\n"
    )
    # Comments before any attribute, or code after a comment on the declaration's line, stay.
    assert attribute_lines("// c\n@A\nvoid f()") == 0
    assert attribute_lines("@A\n/* x */ void f()") == len("@A\n")


def test_an_indexer_an_array_type_or_a_list_is_no_attribute() -> None:
    assert (
        attribute_line("    [Fact]")
        and attribute_line("[return: NotNull]")
        and attribute_line("[A, B(1)][C]")
    )
    assert attribute_line("[TypeConverter(typeof(Foo))]") and attribute_line(
        "@app.route('/x', methods=['GET'])"
    )
    for code in (
        "    public int this[int index] => index;",
        "    public int[] Levels() => new int[0];",
        "[Pure] public int Count() => 1;",  # an attribute on the declaration's own line
        "[1, 2, 3]",
        "[x for x in items]",
        "[Symbol.iterator]() {",
        "[key: string]: unknown;",
        "[typeof(LoggerSinkConfiguration)] = lc => lc.WriteTo,",
    ):
        assert not attribute_line(code), code
    indexer = "/// <summary>By index.</summary>\npublic int this[int index] => index;"
    assert declaration_line(indexer, 5, "public int this[int index]") == 6


def test_related_rows_point_at_the_declaration_not_the_comment_above(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / "m.go").write_text(
        "package m\n\n// Run runs.\n// Twice.\nfunc Run() {\n\thelp()\n}\n\n// help helps.\nfunc help() {}\n"
    )
    build_index(repo, BuildOptions(embed="none"))
    res = related(open_engine(repo / ".qry"), "Run")
    (callee,) = [r for r in res.related if r.symbol == "help"]
    assert (callee.start_line, callee.decl_line) == (9, 10)
    back = related(open_engine(repo / ".qry"), "help")
    (caller,) = [r for r in back.related if r.symbol == "Run"]
    assert (caller.start_line, caller.decl_line, caller.line) == (3, 5, 6)  # and the call's line
