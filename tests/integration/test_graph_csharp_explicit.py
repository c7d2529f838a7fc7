"""A C# explicit interface implementation (`TypeMap IConfig.Find(Pair p) => Find(p);`) is no call's
target, and it alone implements the interface's member (graph/explicitimpl.py): the bare call in it
is the class's private overload, not itself, and that overload implements nothing."""

from __future__ import annotations

from pathlib import Path

from indexlib import open_engine, related
from tests.repokit import make_repo

FILES = {
    "src/IConfig.cs": (
        "namespace N;\n\npublic interface IConfig\n{\n    Map Find(Pair pair);\n"
        "    Factory Maker { get; }\n}\n"
    ),
    "src/Config.cs": (
        "namespace N;\n\npublic sealed class Config : IConfig\n{\n"
        "    Map IConfig.Find(Pair pair) => Find(pair);\n"
        "    Map Find(Pair pair) => Lookup(pair);\n"
        "    Factory IConfig.Maker => Maker();\n"
        "    private Factory Maker() => null;\n"
        "    Map Lookup(Pair pair) => null;\n"
        "    public Map Use(Pair pair) => this.Find(pair);\n}\n"
    ),
}


def _edges(repo: Path, where: str, edge: str) -> list[tuple[str, int, str, bool]]:
    found = related(open_engine(repo / ".qry"), where).related
    return sorted((r.symbol, r.decl_line, r.direction, r.ambiguous) for r in found if r.edge == edge)


def test_a_call_never_names_an_explicit_implementation(tmp_path: Path) -> None:
    """`IConfig.Find`'s `Find(pair)` and `Use`'s `this.Find(pair)` call the private `Find` (line
    6) alone and for certain: before, each was ambiguous with the explicit one (itself, for the
    first), and `IConfig.Maker`'s `Maker()` likewise."""
    repo = make_repo(tmp_path, FILES)
    assert _edges(repo, "src/Config.cs:6", "calls") == [
        ("N.Config.Find", 5, "in", False),
        ("N.Config.Lookup", 9, "out", False),
        ("N.Config.Use", 10, "in", False),
    ]
    assert _edges(repo, "src/Config.cs:5", "calls") == [("N.Config.Find", 6, "out", False)]
    assert _edges(repo, "src/Config.cs:7", "calls") == [("N.Config.Maker", 8, "out", False)]


def test_only_the_explicit_implementation_implements_the_interfaces_member(tmp_path: Path) -> None:
    """The private `Find(Pair)`, of the interface method's shape, implemented it too."""
    repo = make_repo(tmp_path, FILES)
    assert _edges(repo, "N.IConfig.Find", "implements") == [("N.Config.Find", 5, "in", False)]
    assert _edges(repo, "src/Config.cs:6", "implements") == []
