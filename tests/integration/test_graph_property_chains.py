"""A fluent chain that steps through a property (C# `new Conf().WriteTo.Sink(1).Build()`, Kotlin
`Conf().writeTo.sink(1).build()`, Swift alike) follows the property's declared type, as a call's
step follows its declared return type (graph/locals.py `returned_class`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from indexlib import open_engine, related
from tests.repokit import make_repo

# Each language: a `Conf` whose property `WriteTo` is a `Sinks`, whose `Sink` returns the `Conf`, and
# an unrelated class with a `Build` of its own that a guess by name would list beside `Conf.Build`.
REPOS = {
    "csharp": (
        {
            "src/Conf.cs": "namespace N;\n\npublic class Conf\n{\n"
            "    public Sinks WriteTo { get; }\n    public Sinks? Audit { get; internal set; } = null;\n"
            '    public string Build() { return ""; }\n}\n',
            "src/Sinks.cs": "namespace N;\n\npublic class Sinks\n{\n    public Conf Sink(int x) { return null; }\n}\n",
            "src/Other.cs": 'namespace N;\n\npublic class Other\n{\n    public string Build() { return ""; }\n}\n',
            "src/Use.cs": "namespace N;\n\npublic class Use\n{\n    public void Run()\n    {\n"
            "        new Conf().WriteTo.Sink(1).Audit.Sink(2).Build();\n    }\n}\n",
        },
        "N.Use.Run",
        [("N.Conf", False), ("N.Conf.Build", False), ("N.Sinks.Sink", False)],
    ),
    "kotlin": (
        {
            "Conf.kt": "class Conf {\n    val writeTo: Sinks = Sinks()\n    var audit: Sinks? = null\n"
            '    fun build(): String = ""\n}\n',
            "Sinks.kt": "class Sinks {\n    fun sink(x: Int): Conf = Conf()\n}\n",
            "Other.kt": 'class Other {\n    fun build(): String = ""\n}\n',
            "Use.kt": "fun run() {\n    Conf().writeTo.sink(1).audit.sink(2).build()\n}\n",
        },
        "run",
        [("Conf", False), ("Conf.build", False), ("Sinks.sink", False)],
    ),
    "swift": (
        {
            "Conf.swift": "class Conf {\n    let writeTo: Sinks = Sinks()\n    var audit: Sinks?\n"
            '    func build() -> String { return "" }\n}\n',
            "Sinks.swift": "class Sinks {\n    func sink(x: Int) -> Conf { return Conf() }\n}\n",
            "Other.swift": 'class Other {\n    func build() -> String { return "" }\n}\n',
            "Use.swift": "func run() {\n    Conf().writeTo.sink(x: 1).audit.sink(x: 2).build()\n}\n",
        },
        "run",
        [("Conf", False), ("Conf.build", False), ("Sinks.sink", False)],
    ),
}


@pytest.mark.parametrize("language", sorted(REPOS))
def test_a_chain_through_a_property_follows_its_declared_type(tmp_path: Path, language: str) -> None:
    files, caller, expected = REPOS[language]
    repo = make_repo(tmp_path, files)
    edges = related(open_engine(repo / ".qry"), caller, callees=True).related
    got = sorted({(r.symbol, r.ambiguous) for r in edges if r.edge == "calls" and r.direction == "out"})
    assert got == expected


# A variable whose declaration names its class, then a field of that class (its own or an inherited
# one's) whose declaration names another: `r.connection.send(p)` with `r: Response` and `connection:
# Adapter` in `Base`. A guess by name would list `Session.send` beside it, ambiguous.
FIELD_REPOS = {
    "python": (
        {
            "adapters.py": "class Adapter:\n    def send(self, p):\n        return p\n",
            "sessions.py": "class Session:\n    def send(self, p):\n        return p\n",
            "models.py": "class Base:\n    connection: Adapter\n\n\nclass Response(Base):\n    status: int\n\n"
            "    def __init__(self):\n        self.status = 0\n",
            "auth.py": "def retry(r: Response, p):\n    return r.connection.send(p)\n",
        },
        "retry",
        [("Adapter.send", False)],
    ),
    "typescript": (
        {
            "src/adapter.ts": "export class Adapter {\n  send(p: string): string { return p }\n}\n",
            "src/session.ts": "export class Session {\n  send(p: string): string { return p }\n}\n",
            "src/response.ts": "export class Base {\n  connection: Adapter\n}\n\n"
            "export class Response extends Base {\n  status: number\n}\n",
            "src/auth.ts": "export function retry(r: Response, p: string) {\n  return r.connection.send(p)\n}\n",
        },
        "retry",
        [("Adapter.send", False)],
    ),
}


@pytest.mark.parametrize("language", sorted(FIELD_REPOS))
def test_a_chain_through_a_field_of_a_typed_variable_follows_its_declared_type(
    tmp_path: Path, language: str
) -> None:
    files, caller, expected = FIELD_REPOS[language]
    repo = make_repo(tmp_path, files)
    edges = related(open_engine(repo / ".qry"), caller, callees=True).related
    got = sorted({(r.symbol, r.ambiguous) for r in edges if r.edge == "calls" and r.direction == "out"})
    assert got == expected
