"""A TypeScript or JavaScript call on a variable or an own field the function tests with
`instanceof` is the tested class's method when the declared class has none of that name
(graph/narrowed.py), as a PHP one is: on sindresorhus/p-queue `if (this.#queue instanceof
PriorityQueue) { this.#queue.remove(run); }`, `#queue` being of a type parameter bounded by a
type alias, had no callee, and `qry related PriorityQueue.remove` no caller outside the tests."""

from __future__ import annotations

from pathlib import Path

from indexlib import open_engine
from indexlib.graph.narrowed import tested_classes as narrowed_classes
from tests.repokit import call_lines, calls, make_repo

FILES = {
    "queue.ts": (
        "export type Queue = { size: number };\n\n"
        "export class PriorityQueue {\n  remove(id: string): void {}\n  size = 0;\n}\n\n"
        "export class Other {\n  remove(id: string): void {}\n}\n"
    ),
    "main.ts": (
        "import {PriorityQueue, type Queue} from './queue';\n\n"
        "export class Runner<Q extends Queue> {\n"
        "  #queue: Q;\n\n"
        "  drop(id: string): void {\n"
        "    if (this.#queue instanceof PriorityQueue) {\n      this.#queue.remove(id);\n      return;\n    }\n"
        "    this.#queue.remove(id);\n  }\n}\n\n"
        "export function clear(q: Queue, id: string): void {\n"
        "  if (q instanceof PriorityQueue) {\n    q.remove(id);\n  }\n}\n\n"
        "export function keep(q: Queue, id: string): void {\n"
        "  if (!(q instanceof PriorityQueue)) {\n    q.remove(id);\n  }\n}\n"
    ),
}


def test_a_call_on_a_tested_subject_is_the_tested_class_method(tmp_path: Path) -> None:
    repo = make_repo(tmp_path, FILES)
    assert calls(repo, "Runner.drop") == [("PriorityQueue.remove", False)]
    assert calls(repo, "clear") == [("PriorityQueue.remove", False)]
    assert calls(repo, "keep") == []  # the branch of a negated test is any other class's


def test_only_the_branch_a_test_opens_is_narrowed(tmp_path: Path) -> None:
    """The call after `if (..instanceof..) { ..; return; }` runs when the test failed."""
    graph = call_lines(open_engine(make_repo(tmp_path, FILES) / ".qry").snapshot(), "Runner.drop")
    assert graph == [(8, "PriorityQueue.remove", False)]


def test_the_tested_classes_of_a_subject() -> None:
    text = "if (this.#queue instanceof PriorityQueue) {}\nif (q instanceof A || q instanceof B) {}"
    assert narrowed_classes(text, ["this", "#queue"]) == ["PriorityQueue"]
    assert narrowed_classes(text, ["q"]) == ["A", "B"]
    assert narrowed_classes(text, ["queue"]) == []
    assert narrowed_classes("x.q instanceof A", ["q"]) == []
    assert narrowed_classes("if (!(q instanceof A)) {}", ["q"]) == []
    branch = "if (q instanceof A) {\n  q.m();\n}\nq.m();\nq instanceof B && q.n();"
    assert narrowed_classes(branch, ["q"], line=1) == ["A"]
    assert narrowed_classes(branch, ["q"], line=3) == []
    assert narrowed_classes(branch, ["q"], line=4) == ["B"]
