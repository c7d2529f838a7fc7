"""The line a definition declares itself on, past the doc comment its span holds."""

from __future__ import annotations

from pathlib import Path

from indexlib import BuildOptions, build_index, open_engine, related
from indexlib.declaration import declaration_line


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
