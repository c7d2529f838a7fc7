"""A Swift protocol's requirement and the default implementation an extension gives it are one method
to a call (graph/requirements.py): the call names the requirement, certain, not both as a guess."""

from __future__ import annotations

from pathlib import Path

from indexlib import open_engine, related
from indexlib.graph.requirements import is_requirement
from indexlib.records import Node
from tests.parsekit import text_node
from tests.repokit import make_repo

FILES = {
    "Sources/Monitor.swift": "protocol Monitor {\n    /// Called on `resume()` { once }.\n"
    "    func didResume(_ id: Int)\n    func didFinish(_ id: Int, error: Error?)\n}\n\n"
    "extension Monitor {\n    func didResume(_ id: Int) {}\n    func didFinish(_ id: Int) {}\n}\n\n"
    "final class Logger: Monitor {\n    func didResume(_ id: Int) {}\n"
    "    func didFinish(_ id: Int, error: Error?) {}\n}\n",
    "Sources/Request.swift": "final class Request {\n    let monitor: (any Monitor)?\n\n"
    "    init(monitor: (any Monitor)?) {\n        self.monitor = monitor\n    }\n\n"
    "    func resume() {\n        monitor?.didResume(1)\n    }\n\n"
    "    func finish() {\n        monitor?.didFinish(1)\n    }\n}\n",
}


def _callees(repo: Path, symbol: str) -> list[tuple[str, int, bool]]:
    edges = related(open_engine(repo / ".qry"), symbol, callees=True).related
    return sorted((r.symbol, r.decl_line, r.ambiguous) for r in edges if r.edge == "calls")


def test_a_call_through_a_protocol_is_its_requirement_not_also_the_default(tmp_path: Path) -> None:
    repo = make_repo(tmp_path, FILES)
    assert _callees(repo, "Request.resume") == [("Monitor.didResume", 3, False)]
    # `didFinish(_:)` only the extension declares: a method of its own, no requirement's default
    assert _callees(repo, "Request.finish") == [("Monitor.didFinish", 9, False)]


def _method(text: str, language: str = "swift") -> Node:
    return text_node(text, language=language, kind="method", qualified="P.f")


def test_a_requirement_is_a_swift_method_without_a_body() -> None:
    assert is_requirement(_method("/// Runs `{ x }`.\nfunc f(_ x: Int)"))
    assert not is_requirement(_method("func f(_ x: Int) {}"))
    assert not is_requirement(_method("void f(int x);", "java"))
