"""A C++ call leaving out a default argument links to the out-of-line body, not the declaration."""

from __future__ import annotations

from pathlib import Path

from indexlib import open_engine, related
from tests.repokit import make_repo

FILES = {
    "include/App.hpp": "namespace cli {\nclass App {\n  public:\n    bool parse_single(int x);\n\n"
    "    int recognize(const std::string &current,\n                  bool all = true) const;\n};\n}\n",
    "include/App_inl.hpp": '#include "App.hpp"\nnamespace cli {\n'
    "int App::recognize(const std::string &current, bool all) const {\n    return all ? 1 : 0;\n}\n\n"
    'bool App::parse_single(int x) {\n    int c = recognize("a");\n    return c > x;\n}\n}\n',
}


def test_a_default_written_on_the_declaration_admits_the_body(tmp_path: Path) -> None:
    """C++ writes `bool all = true` on the class's declaration alone, so the body `App::recognize(
    const std::string &current, bool all)` read as taking two arguments: on CLIUtils/CLI11
    `_recognize(args.back())` linked to App.hpp's declaration and the body lost its caller."""
    engine = open_engine(make_repo(tmp_path, FILES) / ".qry")
    callees = [
        (r.symbol, r.path, r.ambiguous)
        for r in related(engine, "include/App_inl.hpp:7", callers=False).related
    ]
    assert callees == [("cli.App.recognize", "include/App_inl.hpp", False)]
