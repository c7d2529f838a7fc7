"""A local or a field made by a chain of calls that starts at a type (`val b = Block.builder()`, a
Kotlin companion's factory; `var s = Spec.builder().name(n);` a Java static one) holds the class the
chain's declarations say it returns, and a factory's `Builder` is the one nested in its own class
(graph/chainmade.py, graph/locals.py). Each fixture has a second class with a nested `Builder` of
the same members, which a guess by name lists beside the right one."""

from __future__ import annotations

from pathlib import Path

import pytest

from indexlib import open_engine, related
from tests.repokit import make_repo

KOTLIN = {
    "Block.kt": "class Block {\n    class Builder {\n        fun add(s: String): Builder = this\n"
    "        fun build(): Block = Block()\n    }\n\n"
    "    companion object {\n        fun builder(): Builder = Builder()\n    }\n}\n",
    "Spec.kt": "class Spec {\n    class Builder {\n        fun add(s: String): Builder = this\n"
    "        fun build(): Spec = Spec()\n    }\n\n"
    "    companion object {\n        fun builder(): Builder = Builder()\n    }\n}\n",
    "Use.kt": "class Writer {\n    internal val body = Block.builder()\n\n"
    "    fun statement(s: String) {\n        body.add(s)\n    }\n}\n\n"
    'fun made() {\n    val b = Block.builder()\n        .add("x")\n    b.build()\n}\n\n'
    'fun chained() {\n    Block.builder().add("y").build()\n}\n',
}
JAVA = {
    "Block.java": "public class Block {\n    public static Builder builder() { return new Builder(); }\n\n"
    "    public static class Builder {\n        public Builder add(String s) { return this; }\n"
    "        public Block build() { return new Block(); }\n    }\n}\n",
    "Spec.java": "public class Spec {\n    public static Builder builder() { return new Builder(); }\n\n"
    "    public static class Builder {\n        public Builder add(String s) { return this; }\n"
    "        public Spec build() { return new Spec(); }\n    }\n}\n",
    "Use.java": "public class Use {\n    void made() {\n"
    '        var b = Block.builder().add("x");\n        b.build();\n    }\n}\n',
}
CASES = [
    (KOTLIN, "Writer.statement", [("Block.Builder.add", False)]),
    (
        KOTLIN,
        "made",
        [("Block.Builder.add", False), ("Block.Builder.build", False), ("Block.Companion.builder", False)],
    ),
    (
        KOTLIN,
        "chained",
        [("Block.Builder.add", False), ("Block.Builder.build", False), ("Block.Companion.builder", False)],
    ),
    (
        JAVA,
        "Use.made",
        [("Block.Builder.add", False), ("Block.Builder.build", False), ("Block.builder", False)],
    ),
]


@pytest.mark.parametrize(
    ("files", "caller", "expected"), CASES, ids=[c[1] + str(i) for i, c in enumerate(CASES)]
)
def test_a_variable_made_by_a_chain_from_a_type_holds_what_the_chain_returns(
    tmp_path: Path, files: dict[str, str], caller: str, expected: list[tuple[str, bool]]
) -> None:
    repo = make_repo(tmp_path, files)
    edges = related(open_engine(repo / ".qry"), caller, callees=True).related
    got = sorted({(r.symbol, r.ambiguous) for r in edges if r.edge == "calls" and r.direction == "out"})
    assert got == expected
