"""A call through a JVM package's name (Scala's `os.move(..)`, Kotlin's `okio.internal.openZip(..)`)
is the top-level definition of that package (graph/modulefiles.py `packaged`)."""

from __future__ import annotations

from pathlib import Path

from indexlib import open_engine, related
from indexlib.graph.modulefiles import ModuleFiles
from tests.repokit import make_repo

FILES = {
    "os/src/FileOps.scala": "/** Operations on files. */\npackage os\n\nobject move {\n"
    "  def apply(from: String, to: String): Unit = ()\n}\n\nobject remove {\n  def apply(p: String): Unit = ()\n}\n",
    "os/src/Model.scala": "package os\n\nimport java.nio.file.Files\n\nclass Model {\n  def exists(): Boolean = true\n}\n",
    "build/Build.scala": "package build\n\nobject os {\n  object move {\n    def apply(a: String): Unit = ()\n  }\n}\n",
    "os/test/src/OpTests.scala": "package test.os\n\nobject OpTests {\n  def rename(a: String, b: String): Unit = {\n"
    "    os.move(a, b)\n    os.remove(a)\n  }\n}\n",
    "src/main/kotlin/okio/internal/Zip.kt": "package okio.internal\n\nimport okio.Files\n\nfun openZip(path: String): Int = 1\n",
    "src/main/kotlin/okio/Files.kt": "package okio\n\nclass Files {\n  fun open(p: String): Int = okio.internal.openZip(p)\n}\n",
}


def _calls(repo: Path, symbol: str) -> list[tuple[str, str, bool]]:
    edges = related(open_engine(repo / ".qry"), symbol, callees=True, callers=False).related
    return sorted((r.symbol, r.path, r.ambiguous) for r in edges if r.edge == "calls")


def test_a_call_through_a_package_is_its_top_level_definition(tmp_path: Path) -> None:
    repo = make_repo(tmp_path, FILES)
    assert _calls(repo, "OpTests.rename") == [  # the objects' `apply`s (graph/applies.py)
        ("move.apply", "os/src/FileOps.scala", False),
        ("remove.apply", "os/src/FileOps.scala", False),
    ]
    assert _calls(repo, "Files.open") == [("openZip", "src/main/kotlin/okio/internal/Zip.kt", False)]


def test_a_files_package_is_its_clauses_else_its_folders(tmp_path: Path) -> None:
    """`FileOps.scala` has no module node (nothing but its package clause outside its objects):
    `Model.scala` beside it says the package."""
    repo = make_repo(tmp_path, FILES)
    modules = ModuleFiles(open_engine(repo / ".qry").snapshot(None))
    assert modules.package("os/src/FileOps.scala") == "os"
    assert modules.package("src/main/kotlin/okio/internal/Zip.kt") == "okio.internal"
