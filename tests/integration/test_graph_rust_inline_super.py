"""Rust's `super::` out of a `mod tests { .. }` block names the file's own module (graph/rustpaths.py
`inline_modules`), and is never read as a base class's `super()` (graph/resolve.py): on tokio-rs/axum
`qry related TestExecutor` (serve/mod.rs's `impl super::Executor for TestExecutor` in `mod tests`)
died of a RecursionError, the trait's resolution asking for the struct's own traits again, and so
did `qry related --callees` on three of the tests beside it."""

from __future__ import annotations

from pathlib import Path

from indexlib import open_engine, related
from tests.repokit import make_repo

FILES = {
    "src/lib.rs": "pub mod serve;\n",
    "src/serve/mod.rs": "pub trait Executor {\n    fn execute(&self) -> u32 {\n        1\n    }\n}\n\n"
    "pub fn helper() -> u32 {\n    2\n}\n\n#[cfg(test)]\nmod tests {\n    struct TestExecutor;\n\n"
    "    impl super::Executor for TestExecutor {}\n\n    fn runs() -> u32 {\n        super::helper()\n    }\n}\n",
    # The parent module's function of the same name, which a `super` read from the file would name.
    "src/other.rs": "pub fn helper() -> u32 {\n    3\n}\n",
}


def test_a_trait_implemented_through_super_in_an_inline_module(tmp_path: Path) -> None:
    repo = make_repo(tmp_path, FILES)
    rows = related(open_engine(repo / ".qry"), "tests.TestExecutor").related
    assert [(r.edge, r.symbol, r.path) for r in rows if r.direction == "out"] == [
        ("implements", "Executor", "src/serve/mod.rs")
    ]


def test_a_call_through_super_in_an_inline_module_is_the_files_own(tmp_path: Path) -> None:
    repo = make_repo(tmp_path, FILES)
    rows = related(open_engine(repo / ".qry"), "tests.runs", callers=False).related
    assert [(r.symbol, r.path, r.ambiguous) for r in rows] == [("helper", "src/serve/mod.rs", False)]
