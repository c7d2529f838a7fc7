"""A constructor's callers are the calls that make its class, as far as its parameters admit the
arguments written (graph/constructed.py): on MediatR `qry related Mediator.Mediator --callers`
answered "no callers" beside `new Mediator(serviceProvider)`, and on swift-argument-parser
`SplitArguments.init` had none beside `SplitArguments(arguments: arguments)`, since such a call is
linked to the class."""

from __future__ import annotations

from pathlib import Path

from indexlib import open_engine, related
from tests.repokit import calls, make_repo

FILES = {
    "src/Gadget.java": "class Gadget {\n    Gadget(int a) {}\n    Gadget(int a, int b) {}\n}\n",
    "src/Use.java": "class Use {\n    void one() {\n        new Gadget(1);\n    }\n\n"
    "    void two() {\n        new Gadget(1, 2);\n    }\n}\n",
    "app/widget.py": "class Widget:\n    def __init__(self, name):\n        self.name = name\n\n\n"
    "def make():\n    return Widget('a')\n",
    "Sources/Split.swift": "struct Split {\n    var items: [String]\n}\n\nextension Split {\n"
    "    init(arguments: [String]) {\n        self.items = arguments\n    }\n\n"
    "    init(single: String) {\n        self.items = [single]\n    }\n}\n\n"
    "func parseAll(_ a: [String]) -> Split {\n    return Split(arguments: a)\n}\n",
}


def test_a_constructors_callers_are_the_calls_of_its_class_its_parameters_admit(tmp_path: Path) -> None:
    repo = make_repo(tmp_path, FILES)
    assert calls(repo, "src/Gadget.java:2", out=False) == [("Use.one", False)]
    assert calls(repo, "src/Gadget.java:3", out=False) == [("Use.two", False)]
    assert calls(repo, "Widget.__init__", out=False) == [("make", False)]
    assert calls(repo, "Sources/Split.swift:6", out=False) == [("parseAll", False)]  # an extension's `init`
    assert (
        calls(repo, "Sources/Split.swift:10", out=False) == []
    )  # `init(single:)`: no call writes that label
    # The call itself still names the class.
    rows = related(open_engine(repo / ".qry"), "make", callers=False).related
    assert [(r.symbol, r.edge) for r in rows] == [("Widget", "calls")]
