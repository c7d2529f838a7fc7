"""`qry related` on a name a Java class overloads: every overload answers, each with its own
neighbourhood, instead of an error asking for a line the user cannot know in advance."""

from __future__ import annotations

import json
from pathlib import Path

from tests.cli.clikit import run_qry_process
from tests.repokit import make_repo

FILES = {
    "src/Element.java": (
        "class Element {\n"
        "    String text() {\n        return collect();\n    }\n\n"  # 2
        "    Element text(String s) {\n        empty();\n        return this;\n    }\n\n"  # 6
        '    String collect() { return ""; }\n'
        "    void empty() {}\n"
        "}\n"
    ),
    "src/Node.java": 'class Node {\n    String text() { return ""; }\n}\n',
    "src/Main.java": (
        "class Main {\n"
        "    void read(Element el) {\n        el.text();\n    }\n\n"
        '    void write(Element el) {\n        el.text("x");\n    }\n'
        "}\n"
    ),
}


def _calls(rows: list[dict[str, object]], direction: str) -> list[object]:
    return sorted(r["symbol"] for r in rows if r["edge"] == "calls" and r["direction"] == direction)


def test_every_overload_of_a_name_answers_with_its_own_callers_and_callees(tmp_path: Path) -> None:
    repo = make_repo(tmp_path, FILES)
    run = run_qry_process("related", "Element.text", "--json", cwd=repo)
    assert run.code == 0, run.describe()
    got = json.loads(run.out)
    assert not got["ambiguous"] and got["node"]["start_line"] == 2, run.out
    assert _calls(got["related"], "in") == ["Main.read"] and _calls(got["related"], "out") == [
        "Element.collect"
    ]
    [other] = got["overloads"]
    assert other["node"]["start_line"] == 6, run.out
    assert _calls(other["related"], "in") == ["Main.write"] and _calls(other["related"], "out") == [
        "Element.empty"
    ]
    # The table: a note, then one header and table per overload, in the order they are declared.
    text = run_qry_process("related", "Element.text", cwd=repo)
    assert text.code == 0, text.describe()
    assert "'Element.text' names 2 overloads" in text.err, text.err
    headers = [line for line in text.err.splitlines() if line.startswith("Element.text (method)")]
    assert headers == [
        "Element.text (method) src/Element.java:2-4",
        "Element.text (method) src/Element.java:6-9",
    ]
    assert "Main.read" in text.out and "Main.write" in text.out, text.out


def test_same_named_methods_of_two_classes_stay_ambiguous(tmp_path: Path) -> None:
    repo = make_repo(tmp_path, FILES)
    run = run_qry_process("related", "text", cwd=repo)
    assert run.code == 2 and "'text' names 3 definitions" in run.err, run.describe()
    assert "Node.text" in run.err and "Element.text" in run.err, run.err


def test_a_workspace_answers_with_every_overload_of_the_repository_defining_it(tmp_path: Path) -> None:
    from indexlib import Federation, Member, related_across

    repo = make_repo(tmp_path / "lib", FILES)
    other = make_repo(tmp_path / "app", {"src/App.java": "class App {\n    void run() {}\n}\n"})
    fed = Federation("w", [Member("lib", repo / ".qry"), Member("app", other / ".qry")])
    got = related_across(fed, "Element.text")
    assert got.repo == "lib" and got.node is not None and not got.ambiguous, got
    assert [o.node.start_line for o in got.overloads] == [6], got


def test_a_swift_method_named_with_its_labels_is_that_overload(tmp_path: Path) -> None:
    """Alamofire's `qry related 'Session.request(_:method:)'` found no definition: Swift and DocC
    name a method with its argument labels, which pick one overload of the name."""
    repo = make_repo(
        tmp_path,
        {
            "Sources/Session.swift": "class Session {\n"
            '    func request(_ url: String, method: String = "GET") -> Int {\n        return 1\n    }\n'
            '    func request(for r: Int) -> Int {\n        return request("x", method: "POST")\n    }\n}\n'
        },
    )
    for name, line in (("Session.request(_:method:)", 2), ("Session.request(for:)", 5)):
        run = run_qry_process("related", name, "--json", cwd=repo)
        got = json.loads(run.out)
        assert run.code == 0 and got["node"]["start_line"] == line and got["overloads"] == [], run.describe()
    # Labels no overload declares leave the name's overloads, each answering.
    loose = json.loads(run_qry_process("related", "Session.request(zz:)", "--json", cwd=repo).out)
    assert [loose["node"]["start_line"], *(o["node"]["start_line"] for o in loose["overloads"])] == [2, 5]
