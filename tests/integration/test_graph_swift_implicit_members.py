"""A Swift implicit member expression (`.retry(info: nil)`) is a member of the type the context
expects: it may call a static method (`.make()`), never a method of the caller's own object that
shares its name (parsing/kotlinswift.py `implicit_member`, graph/qualified.py `as_written`)."""

from __future__ import annotations

from pathlib import Path

from indexlib import open_engine, related
from tests.repokit import make_repo

FILES = {
    "Sources/Strategy.swift": (
        "enum Decision {\n    case retry(info: Int?)\n    case stop\n}\n\n"
        "struct Strategy {\n"
        "    func retry(handler: (Decision) -> Void) {\n        handler(.retry(info: nil))\n    }\n\n"
        "    static func make() -> Strategy {\n        return Strategy()\n    }\n\n"
        "    func copy() -> Strategy {\n        return .make()\n    }\n}\n"
    ),
}


def _callees(repo: Path, where: str) -> list[tuple[str, int, bool]]:
    edges = related(open_engine(repo / ".qry"), where, callees=True).related
    return sorted((r.symbol, r.decl_line, r.ambiguous) for r in edges if r.edge == "calls")


def test_an_implicit_member_is_no_call_of_the_callers_own_method(tmp_path: Path) -> None:
    """`handler(.retry(info: nil))` makes the case `Decision.retry`: it was a certain call of
    `Strategy.retry`, the method it is written in."""
    repo = make_repo(tmp_path, FILES)
    assert _callees(repo, "Strategy.retry") == []


def test_an_implicit_member_still_calls_a_static_method(tmp_path: Path) -> None:
    repo = make_repo(tmp_path, FILES)
    assert _callees(repo, "Strategy.copy") == [("Strategy.make", 11, False)]
