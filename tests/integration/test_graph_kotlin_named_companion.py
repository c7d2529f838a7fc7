"""A call through a Kotlin class of a member of its *named* companion object (`Timber.plant()` for
`companion object Forest`'s `plant`) links to it (graph/qualified.py `kotlin_companion`), as an
unnamed companion's member does; a nested class's member is not reached that way."""

from __future__ import annotations

from pathlib import Path

from indexlib import open_engine, related
from tests.repokit import make_repo

FILES = {
    "src/Log.kt": "package log\n\nclass Log private constructor() {\n"
    "  open class Tree {\n    open fun write(m: String) {\n    }\n  }\n\n"
    "  companion object Forest : Tree() {\n    fun plant(tree: Tree) {\n    }\n\n"
    "    fun uprootAll() {\n    }\n  }\n}\n",
    "src/Use.kt": "package log\n\nclass Use {\n  fun setUp() {\n    Log.plant(Log.Tree())\n"
    '    Log.uprootAll()\n    Log.write("x")\n  }\n}\n',
}


def test_a_call_through_the_class_reaches_its_named_companions_member(tmp_path: Path) -> None:
    repo = make_repo(tmp_path, FILES)
    edges = related(open_engine(repo / ".qry"), "Use.setUp", callees=True).related
    calls = sorted(r.symbol for r in edges if r.edge == "calls")
    assert calls == ["Log.Forest.plant", "Log.Forest.uprootAll", "Log.Tree"]
