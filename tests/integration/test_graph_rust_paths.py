"""Rust calls through module paths, macros and the crate's own name, resolved as Rust reads them."""

from __future__ import annotations

from pathlib import Path

import pytest

from indexlib import open_engine, related
from tests.repokit import make_repo

CRATE = {
    "src/lib.rs": "pub mod ser;\npub mod value;\n",
    "src/ser.rs": "pub fn to_writer(w: u8) -> u8 {\n    w\n}\n",
    "src/value/mod.rs": "mod de;\n\npub fn via_super() -> u8 {\n    super::ser::to_writer(1)\n}\n\n"
    "pub fn via_crate() -> u8 {\n    crate::ser::to_writer(2)\n}\n",
    "src/value/de.rs": "pub fn via_super_super() -> u8 {\n    super::super::ser::to_writer(3)\n}\n",
    # Another module's function of the same name: a path names one module, not every `to_writer`.
    "src/other.rs": "pub fn to_writer(w: u8) -> u8 {\n    w\n}\n",
}


@pytest.mark.parametrize("caller", ["via_super", "via_crate", "via_super_super"])
def test_a_rust_call_through_a_module_path_reaches_that_modules_function(tmp_path: Path, caller: str) -> None:
    """`super::ser::to_writer(w)` made no edge (`super` was read as Python's `super()`, a base class)
    and neither did `crate::ser::to_writer(w)` (`ser` was read as a type): serde_json's `Value`'s
    Display impl had no edge to the `to_writer` it calls."""
    engine = open_engine(make_repo(tmp_path, CRATE) / ".qry")
    callees = [(r.symbol, r.path, r.ambiguous) for r in related(engine, caller, callers=False).related]
    assert callees == [("to_writer", "src/ser.rs", False)]


def test_calls_inside_a_rust_macros_arguments_are_calls(tmp_path: Path) -> None:
    """`tri!(format_escaped_str_contents(w))` and `assert_eq!(parse(1), 1)` made no edge: tree-sitter
    gives a macro's arguments as a token tree, which the call capture never sees, so serde_json's
    `format_escaped_str` listed `tri` and one callee of its three."""
    files = {
        "src/lib.rs": "macro_rules! tri {\n    ($e:expr) => {\n        $e\n    };\n}\n\n"
        "pub struct Formatter;\n\nimpl Formatter {\n    pub fn begin(&mut self) -> u8 {\n        0\n    }\n}\n\n"
        "fn contents(w: u8) -> u8 {\n    w\n}\n\n"
        "pub fn escaped(f: &mut Formatter, w: u8) -> u8 {\n    tri!(f.begin());\n"
        "    tri!(contents(Vec::<u8>::new().len() as u8 + w))\n}\n\n"
        "#[test]\nfn checks() {\n    assert_eq!(escaped(&mut Formatter, 1), crate::contents(1));\n}\n",
    }
    engine = open_engine(make_repo(tmp_path, files) / ".qry")
    callees = {r.symbol: r.line for r in related(engine, "escaped", callers=False).related}
    assert callees == {"tri": 20, "Formatter.begin": 20, "contents": 21}
    callers = {r.symbol for r in related(engine, "contents", callees=False).related}
    assert callers == {"escaped", "checks"}


def test_a_definition_a_macro_wraps_calls_nothing_by_its_name(tmp_path: Path) -> None:
    """`cfg_rt! { pub(crate) fn new() -> Self { .. } }` declares `new`: its `fn new()` was read as a
    call of `new`, so tokio's module remainders linked, for certain, to another crate's `new`."""
    files = {
        "src/lib.rs": "macro_rules! cfg_rt {\n    ($($item:item)*) => { $($item)* };\n}\n\n"
        "pub fn new() -> u8 {\n    0\n}\n\npub fn helper() -> u8 {\n    1\n}\n",
        "src/queue.rs": "pub struct Queue(u8);\n\nimpl Queue {\n    cfg_rt! {\n"
        "        pub(crate) fn new() -> Self {\n            Self(helper())\n        }\n"
        "        struct Id(u8);\n    }\n}\n",
    }
    engine = open_engine(make_repo(tmp_path, files) / ".qry")
    callers = {(r.symbol, r.path) for r in related(engine, "src/lib.rs:new", callees=False).related}
    assert callers == set()
    callers = {r.path for r in related(engine, "helper", callees=False).related if r.edge == "calls"}
    assert callers == {"src/queue.rs"}


def test_a_crate_at_the_top_is_used_by_its_cargo_toml_name(tmp_path: Path) -> None:
    """`use serde_json::to_writer` in `tests/` made no edge: crates were known by their folder's
    name, and a crate at the repository's top has none. Its Cargo.toml's `[package] name` (dashes
    read as underscores) names it."""
    files = {
        "Cargo.toml": '[package]\nname = "my-crate"\nversion = "1.0.0"\n\n[dependencies]\nname = "x"\n',
        "src/lib.rs": "mod ser;\npub use crate::ser::to_writer;\n",
        "src/ser.rs": "pub fn to_writer(w: u8) -> u8 {\n    w\n}\n",
        "tests/test.rs": "use my_crate::to_writer;\n\n#[test]\nfn writes() {\n    to_writer(1);\n}\n",
        # Another module's function of the same name: by name alone the call would be ambiguous.
        "tools/gen.rs": "pub fn to_writer(w: u8) -> u8 {\n    w\n}\n",
    }
    engine = open_engine(make_repo(tmp_path, files) / ".qry")
    callees = [(r.symbol, r.path, r.ambiguous) for r in related(engine, "writes", callers=False).related]
    assert callees == [("to_writer", "src/ser.rs", False)]


@pytest.mark.parametrize(
    ("caller", "files", "expected"),
    [
        (
            "temp",
            {
                "src/exec.rs": "pub struct CommandBuilder;\n\nimpl CommandBuilder {\n"
                "    pub fn new() -> Self {\n        CommandBuilder\n    }\n}\n",
                "src/tests.rs": "fn temp() {\n    let d = tempfile::Builder::new();\n"
                "    let b = builder.new();\n}\n",
            },
            [("CommandBuilder.new", 3)],
        ),
        (
            "App.run",
            {
                "src/RequestBuilder.java": "class RequestBuilder {\n    static RequestBuilder create() {\n"
                "        return null;\n    }\n}\n",
                "src/App.java": "class App {\n    void run() {\n        Builder.create();\n"
                "        builder.create();\n    }\n}\n",
            },
            [("RequestBuilder.create", 4)],
        ),
    ],
)
def test_a_type_the_index_does_not_hold_is_not_one_it_ends_with(
    tmp_path: Path, caller: str, files: dict[str, str], expected: list[tuple[str, int]]
) -> None:
    """fd's `tempfile::Builder::new()` linked to `CommandBuilder::new` (ambiguous): the rule for a
    variable named after its type (`builder.new()`, kept) took the library type `Builder` for one."""
    engine = open_engine(make_repo(tmp_path, files) / ".qry")
    assert [(r.symbol, r.line) for r in related(engine, caller, callers=False).related] == expected


def test_a_method_called_on_an_enum_variant_or_associated_constant_is_the_types(tmp_path: Path) -> None:
    """`ExitCode::GeneralError.exit()` made no edge: the variant was read as a type
    (`ExitCode.GeneralError.exit`) that declares no method, so fd's `qry related ExitCode.exit`
    missed its callers. A variant's value (a tuple variant's too, `Color::Rgb(1, 2)`) and an
    associated constant's is of the type holding it."""
    files = {
        "src/lib.rs": "pub mod exit_codes;\npub mod color;\npub mod config;\npub mod run;\n",
        "src/exit_codes.rs": "pub enum ExitCode {\n    Success,\n    GeneralError,\n}\n\n"
        "impl ExitCode {\n    pub const OK: ExitCode = ExitCode::Success;\n\n"
        "    pub fn exit(self) -> u8 {\n        0\n    }\n}\n",
        "src/color.rs": "pub enum Color {\n    Rgb(u8, u8),\n}\n\n"
        "impl Color {\n    pub fn to_hex(&self) -> u8 {\n        0\n    }\n}\n",
        # Another type's `exit`: a call linked by its name alone would be ambiguous.
        "src/config.rs": "pub struct Shell;\n\nimpl Shell {\n    pub fn exit(self) -> u8 {\n        1\n    }\n}\n",
        "src/run.rs": "use crate::color::Color;\nuse crate::exit_codes::ExitCode;\n\n"
        "pub fn fail() -> u8 {\n    ExitCode::GeneralError.exit()\n}\n\n"
        "pub fn succeed() -> u8 {\n    crate::exit_codes::ExitCode::OK.exit()\n}\n\n"
        "pub fn paint() -> u8 {\n    Color::Rgb(1, 2).to_hex()\n}\n",
    }
    engine = open_engine(make_repo(tmp_path, files) / ".qry")
    for caller, callee in (
        ("fail", ("ExitCode.exit", "src/exit_codes.rs", False)),
        ("succeed", ("ExitCode.exit", "src/exit_codes.rs", False)),
        ("paint", ("Color.to_hex", "src/color.rs", False)),
    ):
        callees = [(r.symbol, r.path, r.ambiguous) for r in related(engine, caller, callers=False).related]
        assert callees == [callee], caller
