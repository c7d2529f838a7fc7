"""A C# call on a variable of a library class (`List<Item> _items`) reaches only the indexed
extension methods such a value may be passed to, and a declaration's type arguments never run on
into the next parameter's type."""

from __future__ import annotations

from pathlib import Path

from indexlib import open_engine, related
from tests.repokit import make_repo

MODEL = (
    "namespace App;\n\n"
    "public class Item { }\n\n"
    "public class Bag\n{\n    public void Add(Item item) { }\n}\n\n"
    "public class Pipeline<T>\n{\n    public void Run() { }\n}\n\n"
    "public class Other\n{\n    public void Run() { }\n}\n\n"
    "public static class ListExtensions\n{\n    public static void Shuffle<T>(this IList<T> xs) { }\n}\n\n"
    "public static class BagExtensions\n{\n    public static void Shuffle(this Bag b) { }\n}\n"
)
REGISTRY = (
    "namespace App;\n\n"
    "public class Registry\n{\n"
    "    private readonly List<Item> _items = new();\n\n"
    "    public void Load(Func<Item, Item> func, Item item, Pipeline<Item> inner)\n    {\n"
    "        _items.Add(item);\n        _items.Shuffle();\n        inner.Run();\n    }\n\n"
    "    public void Check(Other policy)\n    {\n        policy.Run();\n    }\n\n"
    "    public void Again()\n    {\n        var policy = Make();\n        policy.Run();\n    }\n\n"
    "    private Pipeline<Item> Make() => new();\n}\n"
)


def _callees(engine: object, caller: str) -> list[tuple[str, bool]]:
    edges = related(engine, caller, callees=True).related  # type: ignore[arg-type]
    return sorted((r.symbol, r.ambiguous) for r in edges if r.edge == "calls" and r.direction == "out")


def test_a_library_typed_variable_reaches_only_extensions_it_may_take(tmp_path: Path) -> None:
    """On Polly, `_tasks.Add(execution)` on a field `List<TaskExecution<T>> _tasks` was an
    ambiguous edge to the four indexed `Add` methods (`Context.Add`, `PredicateBuilder.Add`, ..),
    none of them `List`'s; `innerPolicy.Execute(..)` after a parameter `Func<Context, T> func` was
    read as a `Func` (the type arguments ran on to the next parameter), so it was a guess at
    every `Execute`; and `var policy = Make()` was typed by another method's parameter `policy`."""
    engine = open_engine(make_repo(tmp_path, {"src/Model.cs": MODEL, "src/Registry.cs": REGISTRY}) / ".qry")
    assert _callees(engine, "App.Registry.Load") == [
        ("App.ListExtensions.Shuffle", True),
        ("App.Pipeline.Run", False),
    ]
    assert _callees(engine, "App.Registry.Check") == [("App.Other.Run", False)]
    assert ("App.Pipeline.Run", False) in _callees(engine, "App.Registry.Again")
    assert ("App.Other.Run", False) not in _callees(engine, "App.Registry.Again")
