"""Shell scripts: functions are definitions, the commands a script runs are calls by name, and
`source FILE` / `. FILE` imports FILE, so `qry related` follows a script into its library."""

from __future__ import annotations

from pathlib import Path

from indexlib import BuildOptions, build_index, open_engine, related
from indexlib.index.parsing import parse_file
from indexlib.index.parsing.languages import detect_language
from tests.parsekit import node, table

DEPLOY = b"""#!/usr/bin/env bash
set -euo pipefail
source ./lib/common.sh
. "$DIR/env.sh"

# Deploys to the staging cluster.
deploy_staging() {
  local tag="$1"
  build_image "$tag"
  kubectl apply -f k8s/
}

function build_image {
  echo "building"
  docker build -t "app:$1" .
}

deploy_staging "$VERSION"
"""


def test_shell_files_are_code() -> None:
    assert detect_language("scripts/deploy.sh") == "bash"
    assert detect_language("bin/release", b"#!/bin/sh\nset -e\n") == "bash"
    assert detect_language("bin/setup", b"#!/usr/bin/env zsh\n") == "bash"


def test_shell_functions_and_commands() -> None:
    parsed = parse_file("scripts/deploy.sh", DEPLOY, "bash")
    defs = table(parsed)
    assert defs["deploy_staging"] == ("function", 6, 11, "")  # from its comment
    assert defs["build_image"][:3] == ("function", 13, 16)
    assert node(parsed, "deploy_staging").doc == "Deploys to the staging cluster."
    names = {n.uid: n.qualified_name for n in parsed.nodes}
    refs = {(r.kind, names.get(r.src_uid, ""), r.target) for r in parsed.refs}
    assert {("calls", "deploy_staging", "build_image"), ("calls", "deploy_staging", "kubectl")} <= refs
    assert ("calls", "deploy", "deploy_staging") in refs  # the script's own top level
    assert ("imports", "deploy", "./lib/common.sh") in refs
    assert ("imports", "deploy", "./env.sh") in refs  # a path from a variable: from the script's folder
    assert not any(target in ("set", "echo") for _kind, _src, target in refs)  # builtins call nothing


def test_a_script_calls_into_the_library_it_sources(tmp_path: Path) -> None:
    (tmp_path / "scripts/lib").mkdir(parents=True)
    (tmp_path / "scripts/lib/common.sh").write_text('# Logs a line.\nlog_info() {\n  echo "$*"\n}\n')
    (tmp_path / "scripts/release.sh").write_text(
        "#!/bin/bash\nsource ./lib/common.sh\nrelease() {\n  log_info releasing\n}\nrelease\n"
    )
    build_index(tmp_path, BuildOptions(embed="none"))
    res = related(open_engine(tmp_path / ".qry"), "log_info", callers=True, callees=False, depth=1)
    callers = {(r.symbol, r.path) for r in res.related if r.direction == "in"}
    assert callers == {("release", "scripts/release.sh")}


def test_a_script_sees_the_functions_it_sources_not_a_tests_mock(tmp_path: Path) -> None:
    """A command a script does not define nor source (`npm`, a program) is not a test's mock of it;
    a test script calls the library it sources."""
    (tmp_path / "test").mkdir()
    (tmp_path / "lib.sh").write_text("install_npm() {\n  npm install -g npm\n}\n")
    (tmp_path / "test/install_test.sh").write_text(
        "#!/bin/sh\n. ../lib.sh\nnpm() {\n  echo mocked\n}\ninstall_npm\n"
    )
    build_index(tmp_path, BuildOptions(embed="none"))
    engine = open_engine(tmp_path / ".qry")
    res = related(engine, "install_npm", callers=True, callees=True, depth=1)
    assert not [r for r in res.related if r.direction == "out"]  # `npm` is the program
    callers = [(r.path, r.ambiguous) for r in res.related if r.direction == "in"]
    assert callers == [("test/install_test.sh", False)]
