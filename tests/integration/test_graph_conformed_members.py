"""A type's members include what the protocols, interfaces and traits it implements give it
(graph/heirs.py `lineage`): on swift-argument-parser `A.parse(["-h"])` with `struct A:
ParsableArguments {}` (`static func parse` in `extension ParsableArguments`) linked to nothing, nor
did a bare `describe()` in a conforming struct's method, since only a class's bases were walked and a
struct's conformances are `implements` references. A base class's method still comes before an
interface's declaration of the same name."""

from __future__ import annotations

from pathlib import Path

from tests.repokit import calls, make_repo

SWIFT = {
    "Sources/Parsable.swift": "protocol Parsable {\n    static func make() -> Self\n}\n\n"
    "extension Parsable {\n    static func parse(_ args: [String]) -> Self {\n        return make()\n    }\n\n"
    '    func describe() -> String {\n        return ""\n    }\n}\n',
    "Sources/Top.swift": "struct Top: Parsable {\n    static func make() -> Top {\n        return Top()\n    }\n\n"
    "    func shown() -> String {\n        return self.describe()\n    }\n\n"
    "    func bare() -> String {\n        return describe()\n    }\n}\n",
    "Sources/Use.swift": 'func useIt() -> Top {\n    return Top.parse(["a"])\n}\n\n'
    "final class Holder {\n    struct Inner: Parsable {\n        static func make() -> Inner {\n"
    "            return Inner()\n        }\n    }\n\n"
    '    func test() {\n        _ = Inner.parse(["x"])\n    }\n}\n',
}
KOTLIN = {
    "src/Named.kt": 'interface Named {\n    fun label(): String = "named"\n}\n',
    "src/Tool.kt": 'class Tool : Named {\n    fun run(): String = "run"\n}\n\n'
    "fun useTool(): String {\n    val tool = Tool()\n    return tool.label()\n}\n",
}
JAVA = {
    "src/Closer.java": "interface Closer {\n    void close();\n}\n",
    "src/Base.java": "class Base {\n    public void close() {}\n}\n",
    "src/Pool.java": "abstract class Pool extends Base implements Closer {\n"
    "    void shutdown() {\n        close();\n    }\n}\n",
}


def test_a_call_on_a_swift_struct_reaches_its_protocol_extensions_static_method(tmp_path: Path) -> None:
    repo = make_repo(tmp_path, SWIFT)
    assert calls(repo, "useIt") == [("Parsable.parse", False)]
    assert calls(repo, "Holder.test") == [("Parsable.parse", False)]  # a struct nested in a class


def test_a_swift_structs_own_calls_reach_its_protocols_extension_methods(tmp_path: Path) -> None:
    repo = make_repo(tmp_path, SWIFT)
    assert calls(repo, "Top.shown") == [("Parsable.describe", False)]
    assert calls(repo, "Top.bare") == [("Parsable.describe", False)]


def test_a_kotlin_local_reaches_its_interfaces_default_method(tmp_path: Path) -> None:
    repo = make_repo(tmp_path, KOTLIN)
    assert ("Named.label", False) in calls(repo, "useTool")


def test_a_base_classs_method_comes_before_an_interfaces_declaration(tmp_path: Path) -> None:
    repo = make_repo(tmp_path, JAVA)
    assert calls(repo, "Pool.shutdown") == [("Base.close", False)]
