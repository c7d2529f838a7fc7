"""A Scala call of an `object` is a call of its `apply` (graph/applies.py): os-lib's `os.move(a, b)`
runs `object move`'s `def apply`, which listed no such caller."""

from __future__ import annotations

from pathlib import Path

from indexlib import open_engine, related
from tests.repokit import make_repo

FILES = {
    "os/src/FileOps.scala": "package os\n\nobject move {\n"
    "  def apply(from: String, to: String): Unit = ()\n"
    "  object into {\n    def apply(from: String, to: String): Unit = move(from, to)\n  }\n}\n\n"
    "object Config {\n  val default = 1\n}\n\n"
    "case class Point(x: Int)\n",
    "os/src/Model.scala": "package os\n\nimport java.nio.file.Files\n\nclass Model\n",
    "os/test/src/OpTests.scala": "package test.os\n\nobject OpTests {\n  def rename(a: String, b: String): Unit = {\n"
    "    os.move(a, b)\n    val c = Config\n    val p = Point(1)\n  }\n}\n",
}


def test_a_call_of_an_object_is_a_call_of_its_apply(tmp_path: Path) -> None:
    repo = make_repo(tmp_path, FILES)
    engine = open_engine(repo / ".qry")
    callers = related(engine, "move.apply", callers=True, callees=False).related
    assert sorted((r.symbol, r.ambiguous) for r in callers) == [
        ("OpTests.rename", False),
        ("move.into.apply", False),
    ]
    callees = related(engine, "OpTests.rename", callers=False, callees=True).related
    called = sorted(r.symbol for r in callees if r.edge == "calls")
    assert "move.apply" in called and "move" not in called, called
    assert "Point" in called, called  # a case class declares no `apply`: the call names the class
    assert not related(engine, "move", callers=True, callees=False).related
