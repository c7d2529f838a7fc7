"""Rust paths read by Cargo's layout: a crate-anchored path names its own crate's file alone, and a
binary under `src/bin/` is a crate of its own whose `mod x;` and `crate::x` sit beside its main.rs."""

from __future__ import annotations

from pathlib import Path

import pytest

from indexlib import open_engine, related
from tests.repokit import make_repo

OUTPUT = "pub struct OutputType;\n\nimpl OutputType {\n    pub fn stdout() -> Self {\n        OutputType\n    }\n}\n"


@pytest.mark.parametrize(
    ("files", "caller", "expected"),
    [
        (  # a test fixture's copy of a source file
            {
                "src/lib.rs": "pub mod output;\npub mod controller;\n",
                "src/output.rs": OUTPUT,
                "src/controller.rs": "use crate::output::OutputType;\n\npub fn run() {\n"
                "    OutputType::stdout();\n}\n",
                "tests/syntax/source/Rust/output.rs": OUTPUT,
            },
            "run",
            ("OutputType.stdout", "src/output.rs"),
        ),
        (  # a workspace whose crates each hold an `output.rs`
            {
                "app/src/lib.rs": "pub mod output;\npub mod controller;\n",
                "app/src/output.rs": OUTPUT,
                "app/src/controller.rs": "use crate::output::OutputType;\n\npub fn run() {\n"
                "    OutputType::stdout();\n}\n",
                "core/src/lib.rs": "pub mod output;\n",
                "core/src/output.rs": OUTPUT,
            },
            "run",
            ("OutputType.stdout", "app/src/output.rs"),
        ),
    ],
)
def test_a_crate_anchored_path_names_its_own_crates_file_alone(
    tmp_path: Path, files: dict[str, str], caller: str, expected: tuple[str, str]
) -> None:
    """On bat, `OutputType::from_mode(..)` in `Controller.run_with_error_handler` (after `use
    crate::output::OutputType`) linked to `src/output.rs`'s and to the copy in
    `tests/syntax-tests/source/Rust/output.rs`, ambiguous: the written `crate.output` was kept beside
    the anchored `/src/output` and matched every file ending in `output.rs`."""
    engine = open_engine(make_repo(tmp_path, files) / ".qry")
    callees = [(r.symbol, r.path, r.ambiguous) for r in related(engine, caller, callers=False).related]
    assert callees == [(*expected, False)]


BINARY = {
    "Cargo.toml": '[package]\nname = "tool"\nversion = "1.0.0"\n',
    "src/lib.rs": "pub mod config;\n",
    "src/config.rs": "pub fn load() -> u8 {\n    1\n}\n",
    "src/bin/tool/main.rs": "mod config;\nmod run;\n\nuse crate::config::load;\n\nfn main() {\n    load();\n}\n\n"
    "fn direct() {\n    config::load();\n}\n",
    "src/bin/tool/config.rs": "pub fn load() -> u8 {\n    2\n}\n",
    "src/bin/tool/run.rs": "use tool::config::load;\n\npub fn run() {\n    load();\n}\n",
    "src/bin/other.rs": "mod helper;\n\nfn other() {\n    helper::load();\n}\n",
    "src/bin/helper.rs": "pub fn load() -> u8 {\n    3\n}\n",
}


def test_a_binary_under_src_bin_is_a_crate_of_its_own(tmp_path: Path) -> None:
    """On bat, `mod config;` in `src/bin/bat/main.rs` imported both `src/config.rs` and
    `src/bin/bat/config.rs` (and `src/lib.rs`'s `mod config;` both too), ambiguous: the binary was
    read as the library's crate and `config` matched every `config.rs`. A binary's `mod x;` and
    `crate::x` sit beside its root (a one-file binary's beside it in `src/bin/`); the library is
    reached by the package's name (`use tool::config::load`)."""
    engine = open_engine(make_repo(tmp_path, BINARY) / ".qry")
    for importer, imported in (
        ("src/bin/tool/main.rs:1", ["src/bin/tool/config.rs", "src/bin/tool/run.rs"]),
        ("src/lib.rs:1", ["src/config.rs"]),
    ):
        edges = related(engine, importer, callers=False).related
        assert sorted((r.path, r.ambiguous) for r in edges if r.edge == "imports") == [
            (p, False) for p in imported
        ], importer
    for caller, callee in (
        ("src/bin/tool/main.rs:main", "src/bin/tool/config.rs"),
        ("direct", "src/bin/tool/config.rs"),
        ("run", "src/config.rs"),
        ("other", "src/bin/helper.rs"),
    ):
        callees = [(r.path, r.ambiguous) for r in related(engine, caller, callers=False).related]
        assert callees == [(callee, False)], caller


def test_a_local_named_as_a_module_is_the_value_its_methods_are_called_on(tmp_path: Path) -> None:
    """`assets.themes()` on bat's `let assets = ..` beside `mod assets;` linked by the module the
    name is bound to; once `mod assets;` named the binary's own `assets.rs` alone (which holds no
    `themes`), the call would link to nothing. Rust writes a module's item with `::`, so a name
    followed by `.` is a value: the local shadows the module and its method is found as any other."""
    files = {
        "src/lib.rs": "pub mod assets;\n",
        "src/assets.rs": "pub struct Assets;\n\nimpl Assets {\n    pub fn themes(&self) -> u8 {\n"
        "        1\n    }\n}\n\npub fn load() -> Assets {\n    Assets\n}\n",
        "src/bin/tool/main.rs": "mod assets;\n\nfn list() {\n    let assets = assets::open();\n"
        "    assets\n        .themes();\n}\n",
        "src/bin/tool/assets.rs": "pub fn open() -> u8 {\n    1\n}\n",
    }
    engine = open_engine(make_repo(tmp_path, files) / ".qry")
    callees = sorted((r.symbol, r.path) for r in related(engine, "list", callers=False).related)
    assert callees == [("Assets.themes", "src/assets.rs"), ("open", "src/bin/tool/assets.rs")]


def test_a_variable_named_after_another_crates_private_type_is_not_one(tmp_path: Path) -> None:
    """`buf.len()` in one crate linked, for certain, to `Buf.len` of another crate's `pub(crate)
    struct Buf` (tokio-util's ~40 calls to tokio's `io::blocking::Buf`): a type private to its crate
    is no value another crate holds, so the name says nothing there. A `pub` type still answers."""
    files = {
        "core/src/lib.rs": "pub mod blocking;\npub mod notify;\n",
        "core/src/blocking.rs": "pub(crate) struct Buf;\n\nimpl Buf {\n"
        "    pub(crate) fn len(&self) -> usize {\n        0\n    }\n}\n\n"
        "pub(crate) fn fill(buf: &Buf) -> usize {\n    buf.len()\n}\n",
        "core/src/notify.rs": "pub struct Notify;\n\nimpl Notify {\n    pub fn notified(&self) {}\n}\n",
        "util/src/lib.rs": "pub fn size(buf: &[u8], notify: &core::notify::Notify) -> usize {\n"
        "    notify.notified();\n    buf.len()\n}\n",
    }
    engine = open_engine(make_repo(tmp_path, files) / ".qry")
    util = [(r.symbol, r.ambiguous) for r in related(engine, "util/src/lib.rs:size", callers=False).related]
    assert util == [("Notify.notified", False)]
    own = [(r.symbol, r.ambiguous) for r in related(engine, "fill", callers=False).related]
    assert own == [("Buf.len", False)]
