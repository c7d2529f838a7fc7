"""A C# construction (`new LogEvent(a)`, a target-typed `new(a)` returned as a `LogEvent`) calls the
class or its constructor, never a method that shares the class's name (a factory `static LogEvent
LogEvent(..)` of a test helper), and a target-typed one calls the class its target declares."""

from __future__ import annotations

from pathlib import Path

from indexlib import open_engine, related
from tests.repokit import make_repo

FILES = {
    "src/LogEvent.cs": "namespace N;\n\npublic class LogEvent\n{\n    public LogEvent(int a) { }\n}\n",
    "src/Map.cs": "namespace N;\n\npublic class Map\n{\n    public Map(int a, int b) { }\n}\n",
    "test/Some.cs": (
        "namespace T;\n\nusing N;\n\npublic static class Some\n{\n"
        "    public static LogEvent LogEvent(int a)\n    {\n        return new LogEvent(a);\n    }\n\n"
        "    public static LogEvent Other(int a)\n    {\n        Map? m = null;\n"
        "        m = new(a, a);\n        return new(a);\n    }\n}\n"
    ),
}


def test_a_construction_calls_the_class_not_a_method_of_its_name(tmp_path: Path) -> None:
    engine = open_engine(make_repo(tmp_path, FILES) / ".qry")
    found = {}
    for caller in ("T.Some.LogEvent", "T.Some.Other"):
        edges = related(engine, caller, callees=True).related
        found[caller] = sorted(
            (r.symbol, r.ambiguous) for r in edges if r.edge == "calls" and r.direction == "out"
        )
    assert found == {
        "T.Some.LogEvent": [("N.LogEvent", False)],
        "T.Some.Other": [("N.LogEvent", False), ("N.Map", False)],
    }
