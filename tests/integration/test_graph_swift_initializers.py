"""A Swift initializer's delegation (`self.init(..)`) and an implicit member's `.init(..)` are linked
as Swift reads them (graph/qualified.py), and a declaration longer than its stored signature is read
whole for its labels (graph/callarity.py `declared_signature`)."""

from __future__ import annotations

from pathlib import Path

from indexlib import open_engine, related
from tests.repokit import make_repo

# 24 defaulted parameters: the designated initializer's signature is longer than the stored one.
_PARAMS = ", ".join(f"optionNumber{i}: Int = {i}" for i in range(24))
_ARGS = ", ".join(f"optionNumber{i}: {i}" for i in range(24))
FILES = {
    "Sources/Session.swift": "final class Session {\n"
    f"    init(session: Int, {_PARAMS}) {{}}\n\n"
    f"    convenience init(configuration: Int, {_PARAMS}) {{\n"
    f"        self.init(session: configuration, {_ARGS})\n    }}\n}}\n",
    "Sources/URLRequest+Extras.swift": "extension URLRequest {\n"
    "    init(link: String, method: String) {\n        self.init(url: URL(string: link)!)\n    }\n}\n",
    "Sources/Event.swift": "struct Event {\n    let id: Int\n\n    init(id: Int) {\n        self.id = id\n    }\n\n"
    "    static func make(_ send: (Token) -> Void) {\n        send(.init(value: 1))\n    }\n}\n",
}


def _callees(repo: Path, where: str) -> list[tuple[str, int, bool]]:
    edges = related(open_engine(repo / ".qry"), where, callees=True).related
    return sorted((r.symbol, r.decl_line, r.ambiguous) for r in edges if r.edge == "calls")


def test_self_init_is_the_own_types_initializer_or_none(tmp_path: Path) -> None:
    """`self.init(session:..)` is the designated initializer alone (its labels were past the stored
    signature, so it was ambiguous with the convenience one); `self.init(url:)` in an extension of
    Foundation's `URLRequest` is Foundation's, not `Session.init` by its name (nor itself)."""
    repo = make_repo(tmp_path, FILES)
    assert _callees(repo, "Sources/Session.swift:5") == [("Session.init", 2, False)]
    assert _callees(repo, "URLRequest.init") == []


def test_an_implicit_members_init_names_no_initializer(tmp_path: Path) -> None:
    """`send(.init(value: 1))`: the type is the parameter's (`Token`), not the caller's `Event`."""
    repo = make_repo(tmp_path, FILES)
    assert _callees(repo, "Event.make") == []
