"""A variable declared with a type parameter (`rootCommand: T` in `fun <T : Command<T>> parse(..)`,
Java's `T j` in `<T extends Job> void run(T j)`, a class's `val command: T`) holds the
parameter's bound (graph/typeparams.py), so a call on it is the bound's method, not a guess at every
same-named one; an unbounded parameter says nothing of the class."""

from __future__ import annotations

from pathlib import Path

from indexlib import open_engine
from indexlib.graph.typeparams import type_parameter_bounds
from indexlib.index.parsing import parse_file
from tests.repokit import call_lines, make_repo

KOTLIN = {
    "src/Command.kt": (
        "package app\n\n"
        "abstract class Command<T : Command<T>> {\n"
        "    fun reset() {}\n"
        "}\n\n"
        "class Widget {\n"
        "    fun reset() {}\n"
        "}\n"
    ),
    "src/Parse.kt": (
        "package app\n\n"
        "fun <T : Command<T>, U : T> parse(root: T, next: U) {\n"  # 3
        "    root.reset()\n"  # 4
        "    next.reset()\n"  # 5
        "}\n\n"
        "class Parser<T : Command<T>>(private val command: T) {\n"  # 8
        "    fun run(other: T) {\n"  # 9
        "        command.reset()\n"  # 10
        "        other.reset()\n"  # 11
        "    }\n"
        "}\n"
    ),
}

JAVA = {
    "src/Job.java": "package app;\n\npublic class Job {\n    public void start() {}\n}\n",
    "src/Task.java": "package app;\n\npublic class Task {\n    public void start() {}\n}\n",
    "src/Runner.java": (
        "package app;\n\n"
        "public class Runner {\n"
        "    public static <T extends Job> void run(T j) {\n"  # 4
        "        j.start();\n"  # 5
        "    }\n"
        "}\n"
    ),
}


def _calls(root: Path, qualified: str) -> list[tuple[int, str, bool]]:
    return call_lines(open_engine(root / ".qry").snapshot(), qualified)


def test_a_kotlin_variable_of_a_bounded_type_parameter_calls_the_bounds_method(tmp_path: Path) -> None:
    """ajalt/clikt's `parseArgv(rootCommand: T, ..)` with `<T : BaseCliktCommand<T>>`: each call was
    ambiguous between `Command.reset` and `Widget.reset`."""
    root = make_repo(tmp_path, KOTLIN)
    assert _calls(root, "parse") == [(4, "Command.reset", False), (5, "Command.reset", False)]
    assert _calls(root, "Parser.run") == [(10, "Command.reset", False), (11, "Command.reset", False)]


def test_a_java_parameter_of_a_bounded_type_parameter_calls_the_bounds_method(tmp_path: Path) -> None:
    root = make_repo(tmp_path, JAVA)
    assert _calls(root, "Runner.run") == [(5, "Job.start", False)]


def test_type_parameter_bounds_as_each_language_writes_them() -> None:
    """The bound of each parameter a signature declares; none for an unbounded one, a Scala context
    bound (`O: Ordering`) or a C# `class` constraint; a `where` clause's first bound."""
    sources = {
        ("F.kt", "kotlin"): "fun <T> f(x: T) where T : Sink, T : Closeable {}\n",
        (
            "F.cs",
            "csharp",
        ): "class A { T F<T, U>(T x, U u) where T : Base, new() where U : class { return x; } }\n",
        ("F.scala", "scala"): "object A { def f[T <: Base, O: Ordering](x: T, o: O) = x }\n",
        ("f.ts", "typescript"): "function f<T extends Base>(x: T) {}\n",
        ("f.swift", "swift"): "func f<T: Base>(x: T) {}\n",
        ("F.java", "java"): "class A { List<String> f(String s) { return null; } }\n",
    }
    found = {}
    for (path, language), text in sources.items():
        nodes = parse_file(path, text.encode(), language).nodes
        found[language] = [type_parameter_bounds(n) for n in nodes if n.name == "f" or n.name == "F"]
    assert found == {
        "kotlin": [{"T": "Sink"}],
        "csharp": [{"T": "Base", "U": None}],
        "scala": [{"T": "Base", "O": None}],
        "typescript": [{"T": "Base"}],
        "swift": [{"T": "Base"}],
        "java": [{}],
    }
