"""A Kotlin Multiplatform `expect` declaration and its platforms' `actual`s are one definition to a
call and to a name (graph/family.py `without_actuals`, retrieval/definitions.py `preference`): the
expected one, certain, not the three as a guess."""

from __future__ import annotations

from pathlib import Path

from indexlib import open_engine, related
from indexlib.records import is_actual
from tests.repokit import make_repo

FILES = {
    "lib/src/commonMain/kotlin/pool/Pool.kt": "package pool\n\n"
    "internal expect object Pool {\n  fun take(): Chunk\n  fun recycle(chunk: Chunk)\n}\n\n"
    "expect fun now(): Long\n",
    "lib/src/jvmMain/kotlin/pool/Pool.kt": "package pool\n\n"
    "internal actual object Pool {\n  actual fun take(): Chunk = Chunk()\n"
    "  actual fun recycle(chunk: Chunk) {\n    chunk.next = null\n  }\n}\n\n"
    "actual fun now(): Long = System.nanoTime()\n",
    "lib/src/nativeMain/kotlin/pool/Pool.kt": "package pool\n\n"
    "internal actual object Pool {\n  actual fun take(): Chunk = Chunk()\n"
    "  actual fun recycle(chunk: Chunk) {\n  }\n}\n\n"
    "actual fun now(): Long = 0L\n",
    "lib/src/commonMain/kotlin/pool/Chunk.kt": "package pool\n\n"
    "class Chunk {\n  var next: Chunk? = null\n\n"
    "  fun split(): Chunk {\n    val prefix = Pool.take()\n    Pool.recycle(prefix)\n"
    "    stamp(now())\n    return prefix\n  }\n\n  fun stamp(at: Long) {\n  }\n}\n",
}


def test_a_call_of_an_expected_declaration_is_it_not_every_platforms_actual(tmp_path: Path) -> None:
    repo = make_repo(tmp_path, FILES)
    edges = related(open_engine(repo / ".qry"), "Chunk.split", callees=True).related
    calls = sorted((r.symbol, r.path, r.ambiguous) for r in edges if r.edge == "calls")
    common = "lib/src/commonMain/kotlin/pool/Pool.kt"
    assert calls == [
        ("Chunk.stamp", "lib/src/commonMain/kotlin/pool/Chunk.kt", False),
        ("Pool.recycle", common, False),
        ("Pool.take", common, False),
        ("now", common, False),
    ]


def test_an_expected_name_is_one_definition_to_related(tmp_path: Path) -> None:
    repo = make_repo(tmp_path, FILES)
    res = related(open_engine(repo / ".qry"), "Pool.recycle", callers=True, callees=False)
    assert not res.ambiguous
    assert res.node is not None and res.node.path == "lib/src/commonMain/kotlin/pool/Pool.kt"
    assert [(r.symbol, r.ambiguous) for r in res.related if r.edge == "calls"] == [("Chunk.split", False)]


def test_actual_is_a_modifier_not_a_parameter_name() -> None:
    assert is_actual("kotlin", "@JvmField internal actual var head: Segment? = null")
    assert is_actual("kotlin", "actual override fun readUtf8(): String")
    assert is_actual("kotlin", "public actual abstract class FileSystem")
    assert not is_actual("kotlin", "expect class Buffer() : BufferedSource")
    assert not is_actual("kotlin", "private fun checkEqual(name: String, actual: Int)")
    assert not is_actual("swift", "actual func f()")


def test_an_actual_has_its_expected_ones_callers_and_the_expected_one_lists_its_actuals(
    tmp_path: Path,
) -> None:
    """A call names the expected declaration, so an `actual` had no callers ("no callers" for okio's
    jvmMain `SegmentPool.take`): they are its expected one's, noted as reached through it (`via`),
    and each is linked to the other by `implements`, as a method to the interface method it
    implements (graph/expected.py)."""
    repo = make_repo(tmp_path, FILES)
    engine = open_engine(repo / ".qry")
    jvm = "lib/src/jvmMain/kotlin/pool/Pool.kt"
    common = "lib/src/commonMain/kotlin/pool/Pool.kt"
    res = related(engine, f"{jvm}:Pool.take", callers=True, callees=False)
    assert res.node is not None and res.node.path == jvm
    callers = [(r.symbol, r.edge, r.via != res.node.uid) for r in res.related]
    assert callers == [("Chunk.split", "calls", True)], res.related
    both = related(engine, f"{jvm}:Pool.take").related
    assert [(r.symbol, r.path, r.direction) for r in both if r.edge == "implements"] == [
        ("Pool.take", common, "out")
    ]
    expected = related(engine, "Pool.take").related
    assert sorted((r.path, r.direction) for r in expected if r.edge == "implements") == [
        (jvm, "in"),
        ("lib/src/nativeMain/kotlin/pool/Pool.kt", "in"),
    ]
    now = related(engine, f"{jvm}:now", callers=True, callees=False).related
    assert [r.symbol for r in now] == ["Chunk.split"]
