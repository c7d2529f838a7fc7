"""A C# call writing type arguments (`ParseArguments<Options>(args)`) calls a method declaring as
many type parameters (index/parsing/references.py keeps their count, graph/parts.py `of_arity`
reads it), not every overload of the name: commandlineparser/commandline's `Parser` has a generic
`ParseArguments<T>(args)` and a non-generic `ParseArguments(args, params Type[] types)`, and
extension methods `ParseArguments<T1, T2>(this Parser, args)`, each taking the one argument."""

from __future__ import annotations

from pathlib import Path

from indexlib import open_engine
from indexlib.graph.view import SnapshotGraph
from indexlib.index.parsing import parse_file
from tests.repokit import make_repo

FILES = {
    "src/Parser.cs": (
        "namespace App\n{\n"
        "    public class Parser\n    {\n"
        "        public static Parser Default { get; } = new Parser();\n"
        "        public Result<T> ParseArguments<T>(string[] args) { return null; }\n"  # 6
        "        public Result<object> ParseArguments(string[] args, params Type[] types) { return null; }\n"  # 7
        "    }\n\n"
        "    public static class ParserExtensions\n    {\n"
        "        public static Result<object> ParseArguments<T1, T2>(this Parser parser, string[] args)\n"  # 12
        "        {\n"
        "            return parser.ParseArguments(args, typeof(T1), typeof(T2));\n"  # 14
        "        }\n"
        "    }\n}\n"
    ),
    "src/Program.cs": (
        "namespace App\n{\n"
        "    public class Program\n    {\n"
        "        public static void Main(string[] args)\n        {\n"  # 5
        "            Parser.Default.ParseArguments<Options>(args);\n"  # 7
        "            Parser.Default.ParseArguments<Add, Commit>(args);\n"  # 8
        "        }\n"
        "    }\n}\n"
    ),
}


def test_a_call_writing_type_arguments_keeps_their_count() -> None:
    source = b"class A { void M() { p.Make<int, List<string>>(); Q.Go(); new Box<int>().Open(); } }"
    targets = {r.target for r in parse_file("A.cs", source, "csharp").refs}
    assert {"p.Make`2", "Q.Go", "Box`1"} <= targets


def test_a_generic_call_links_to_the_methods_of_its_type_parameter_count(tmp_path: Path) -> None:
    """Line 7 was ambiguous between both `Parser.ParseArguments` overloads; it is the generic one,
    certain. Line 8 named them too, though neither declares two type parameters (the extension
    method does, which a call through the typed `Parser.Default` does not reach)."""
    snap = open_engine(make_repo(tmp_path, FILES) / ".qry").snapshot()
    graph = SnapshotGraph(snap)
    (uid,) = graph.find(kind=None, props={"qualified_name": "App.Program.Main"}, limit=2)
    out = []
    for e in graph.edges(uid, ("calls",), "out"):
        other = graph.node(e.dst)
        assert other is not None
        out.append((e.line, other.qualified_name, other.start_line, e.ambiguous))
    assert sorted(out) == [(7, "App.Parser.ParseArguments", 6, False)]
