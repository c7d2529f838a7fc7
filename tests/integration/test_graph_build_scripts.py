"""A Gradle build script calls Gradle's API and the build's own sources, not the code it builds:
moshi's `configurations.create("baseline")` linked to every `create` of the project, ambiguously."""

from __future__ import annotations

from pathlib import Path

from indexlib import open_engine, related
from tests.repokit import make_repo

FILES = {
    "lib/src/main/kotlin/a/Factory.kt": "package a\n\nobject Factory {\n    fun create(name: String): String = name\n}\n",
    "lib/src/main/kotlin/a/Main.kt": 'package a\n\nfun main() {\n    Factory.create("x")\n}\n',
    "buildSrc/src/main/kotlin/Versions.kt": "fun configure(name: String): String = name\n",
    "lib/build.gradle.kts": 'val baseline = configurations.create("baseline")\nval other = configure("x")\n',
}


def test_a_build_script_calls_the_build_not_the_project(tmp_path: Path) -> None:
    engine = open_engine(make_repo(tmp_path, FILES) / ".qry")
    callers = related(engine, "Factory.create", callees=False).related
    assert sorted(r.symbol for r in callers if r.edge == "calls") == ["main"], callers
    script = related(engine, "lib/build.gradle.kts:2", callers=False).related
    assert [(r.symbol, r.path) for r in script if r.edge == "calls"] == [
        ("configure", "buildSrc/src/main/kotlin/Versions.kt")
    ], script
