"""Code outside tests never calls into a test file by a name alone (graph/resolve.py): on got, a
test's `globalThis.setTimeout = ..` stub was the callee of the library's `setTimeout(..)`, and on
thor, a spec's `def shell` helper that of `Thor::Actions#inside`."""

from __future__ import annotations

from pathlib import Path

from indexlib import open_engine, related
from tests.repokit import make_repo

LIBRARY = (
    "export function retry(run: () => void): void {\n"
    "    setTimeout(run, 100);\n"
    "    flush();\n"
    "}\n\n"
    "export function flush(): void {}\n"
)
TEST = (
    "import {retry} from '../source/retry.js';\n\n"
    "test('retries', () => {\n"
    "    globalThis.setTimeout = (callback: () => void) => { callback(); };\n"
    "    retry(() => {});\n"
    "});\n\n"
    "function flush(): void {}\n"
)
RUBY_LIBRARY = "module Actions\n  def inside(dir)\n    shell.padding += 1\n  end\nend\n"
RUBY_SPEC = "def shell\n  @shell ||= Shell.new\nend\n"
VENDORED = "export function helper(): number { return 1; }\n"
USES_VENDORED = "export function main(): number {\n    return helper();\n}\n"


def _callees(repo: Path, name: str) -> list[tuple[str, str]]:
    rows = related(open_engine(repo / ".qry"), name, callers=False).related
    return sorted((r.symbol, r.path) for r in rows if r.edge == "calls")


def test_a_test_files_definition_is_no_callee_of_the_librarys_code(tmp_path: Path) -> None:
    repo = make_repo(tmp_path, {"source/retry.ts": LIBRARY, "test/retry.ts": TEST})
    assert _callees(repo, "retry") == [("flush", "source/retry.ts")]
    # A test still calls what its own file defines, and the library it imports.
    rows = related(open_engine(repo / ".qry"), "retry").related
    assert ("in", "test/retry.ts") in {(r.direction, r.path) for r in rows if r.edge == "calls"}


def test_a_specs_helper_is_no_callee_of_a_librarys_bare_name(tmp_path: Path) -> None:
    repo = make_repo(tmp_path, {"lib/actions.rb": RUBY_LIBRARY, "spec/helper.rb": RUBY_SPEC})
    assert _callees(repo, "Actions.inside") == []


def test_vendored_code_stays_a_callee(tmp_path: Path) -> None:
    repo = make_repo(tmp_path, {"src/bundled/helper.ts": VENDORED, "src/main.ts": USES_VENDORED})
    assert _callees(repo, "main") == [("helper", "src/bundled/helper.ts")]
