"""Members defined outside their type's file, end to end: a Go method in another file of the
package, a Rust `impl` in another module, a C++ `Type::method` beside its header; and `related`
keeping room for what a busy function calls."""

from __future__ import annotations

from pathlib import Path

from indexlib import open_engine, related
from indexlib.api import Engine
from tests.repokit import make_repo


def _index(root: Path, files: dict[str, str]) -> Engine:
    return open_engine(make_repo(root, files) / ".qry")


def _edges(engine: Engine, symbol: str, edge: str, direction: str) -> list[tuple[str, str]]:
    return [
        (r.symbol, r.path)
        for r in related(engine, symbol).related
        if r.edge == edge and r.direction == direction
    ]


GO = {
    "task/executor.go": (
        "package task\n\ntype Executor struct {\n\tDir string\n}\n\n"
        "func (e *Executor) Run() error {\n\te.setup()\n\treturn nil\n}\n"
    ),
    "task/setup.go": (
        "package task\n\nfunc (e *Executor) setup() {\n\te.logger()\n}\n\nfunc (e *Executor) logger() {}\n"
    ),
    # Another package's type of the same name, with a method of the same name.
    "other/executor.go": "package other\n\ntype Executor struct{}\n\nfunc (x *Executor) setup() {}\n",
    # A method of a type no file of its package defines.
    "cmd/stray.go": "package main\n\nfunc (e *Executor) Stray() {}\n",
}


def test_a_go_type_has_the_methods_its_package_defines_in_other_files(tmp_path: Path) -> None:
    engine = _index(tmp_path, GO)
    members = _edges(engine, "task/executor.go:Executor", "contains", "out")
    assert members == [
        ("Executor.Dir", "task/executor.go"),
        ("Executor.Run", "task/executor.go"),
        ("Executor.setup", "task/setup.go"),
        ("Executor.logger", "task/setup.go"),
    ]
    assert _edges(engine, "task/setup.go:Executor.setup", "contains", "in") == [
        ("Executor", "task/executor.go")
    ]
    assert _edges(engine, "other/executor.go:Executor", "contains", "out") == [
        ("Executor.setup", "other/executor.go")
    ]
    assert _edges(engine, "Executor.Stray", "contains", "in") == []


def test_a_go_call_through_the_receiver_is_the_own_types_method(tmp_path: Path) -> None:
    """`e.setup()` in a method of `e`'s type: that type's `setup` in another file, not the other
    package's, and not marked ambiguous."""
    engine = _index(tmp_path, GO)
    calls = [r for r in related(engine, "Executor.Run").related if r.edge == "calls" and r.direction == "out"]
    assert [(r.symbol, r.path, r.ambiguous) for r in calls] == [("Executor.setup", "task/setup.go", False)]
    assert _edges(engine, "task/setup.go:Executor.logger", "calls", "in") == [
        ("Executor.setup", "task/setup.go")
    ]


def test_a_rust_impl_in_another_module_belongs_to_its_struct_unless_that_is_a_guess(tmp_path: Path) -> None:
    engine = _index(
        tmp_path,
        {
            "src/buffer.rs": "pub struct Buffer {\n    n: usize,\n}\n",
            "src/io.rs": "use crate::buffer::Buffer;\n\nimpl Buffer {\n    pub fn flush(&mut self) {}\n}\n",
            # A test's type of the same name is not the one `src/io.rs` extends.
            "tests/common.rs": "pub struct Buffer;\n",
            # Two same-named types equally near an impl: which one it extends is not guessed.
            "src/a/conf.rs": "pub struct Conf {\n    x: u8,\n}\n",
            "src/b/conf.rs": "pub struct Conf {\n    y: u8,\n}\n",
            "src/conf_impl.rs": "impl Conf {\n    pub fn load() -> u8 {\n        0\n    }\n}\n",
            # The standard library's `OsStr`, imported, is not the crate's own `OsStr`; another
            # crate's `impl Buffer` is not this crate's `Buffer`.
            "src/os_str.rs": "pub struct OsStr {\n    b: u8,\n}\n",
            "src/ext.rs": "use std::ffi::OsStr;\n\nimpl Ext for OsStr {\n    fn strip(&self) {}\n}\n",
            "lexer/src/buf.rs": "impl Buffer {\n    pub fn fill(&mut self) {}\n}\n",
            # `io::Error` is the module `io`'s, not the crate's `Error`.
            "src/error.rs": "pub struct Error {\n    k: u8,\n}\n",
            "src/pool.rs": "use std::io;\n\nimpl From<E> for io::Error {\n    fn from(e: E) -> Self {\n"
            "        todo!()\n    }\n}\n",
            # A type a macro declares in the impl's own file is that type, not a mock's elsewhere.
            "src/join.rs": "cfg_rt! {\n    pub struct JoinHandle<T> {\n        raw: T,\n    }\n}\n\n"
            "impl<T> JoinHandle<T> {\n    pub fn abort(&self) {}\n}\n",
            "src/mocks.rs": "pub struct JoinHandle<T> {\n    t: T,\n}\n",
        },
    )
    assert _edges(engine, "Buffer.flush", "contains", "in") == [("Buffer", "src/buffer.rs")]
    assert ("Buffer.flush", "src/io.rs") in _edges(engine, "src/buffer.rs:Buffer", "contains", "out")
    assert _edges(engine, "tests/common.rs:Buffer", "contains", "out") == []
    assert _edges(engine, "Conf.load", "contains", "in") == []
    assert _edges(engine, "OsStr.strip", "contains", "in") == []
    assert _edges(engine, "Buffer.fill", "contains", "in") == []
    assert _edges(engine, "Error.from", "contains", "in") == []
    assert _edges(engine, "JoinHandle.abort", "contains", "in") == []


def test_a_cpp_method_defined_beside_its_header_is_the_class_member(tmp_path: Path) -> None:
    engine = _index(
        tmp_path,
        {
            "include/shape.h": "class Shape {\npublic:\n    double area() const;\n};\n",
            "src/shape.cpp": '#include "shape.h"\n\ndouble Shape::area() const {\n    return 1.0;\n}\n',
        },
    )
    assert _edges(engine, "Shape", "contains", "out") == [
        ("Shape.area", "include/shape.h"),
        ("Shape.area", "src/shape.cpp"),
    ]
    assert _edges(engine, "src/shape.cpp:Shape.area", "contains", "in") == [("Shape", "include/shape.h")]


PARTIAL = {
    "Capturing/Converter.cs": (
        "namespace App.Capturing\n{\n    partial class Converter\n    {\n"
        "        public int Convert(int x) { return new DepthLimiter().Limit(x); }\n    }\n}\n"
    ),
    "Capturing/DepthLimiter.cs": (  # the part naming the interface is not the one answering
        "namespace App.Capturing\n{\n    partial class Converter : IFactory\n    {\n"
        "        class DepthLimiter\n        {\n            public int Limit(int x) { return x; }\n        }\n\n"
        "        public int Twice(int x) { return Convert(x) * 2; }\n    }\n}\n"
    ),
    "Core/IFactory.cs": "namespace App.Capturing\n{\n    interface IFactory\n    {\n    }\n}\n",
    "Core/Logger.cs": (
        "namespace App.Core\n{\n    class Logger\n    {\n"
        "        public object Make() { return new Converter(); }\n    }\n}\n"
    ),
    # Two types of one name that are not `partial` are two types (two projects), not one.
    "One/Options.cs": "namespace App\n{\n    class Options\n    {\n        public int A() { return 1; }\n    }\n}\n",
    "Two/Options.cs": "namespace App\n{\n    class Options\n    {\n        public int B() { return 2; }\n    }\n}\n",
}


def test_a_csharp_partial_class_is_one_type_with_the_members_of_every_part(tmp_path: Path) -> None:
    engine = _index(tmp_path, PARTIAL)
    home = "Capturing/Converter.cs:App.Capturing.Converter"
    assert _edges(engine, home, "contains", "out") == [
        ("App.Capturing.Converter.Convert", "Capturing/Converter.cs"),
        ("App.Capturing.Converter.DepthLimiter", "Capturing/DepthLimiter.cs"),
        ("App.Capturing.Converter.Twice", "Capturing/DepthLimiter.cs"),
    ]
    # Each member's container is the type, answered by its part in Converter.cs, whichever part holds it.
    for member in ("Converter.DepthLimiter", "Converter.Twice", "Converter.Convert"):
        assert _edges(engine, member, "contains", "in") == [
            ("App.Capturing.Converter", "Capturing/Converter.cs")
        ]
    # A call to the type (`new Converter()`) is one edge to it, not an ambiguous one to each part.
    callers = [r for r in related(engine, home).related if r.edge == "calls" and r.direction == "in"]
    assert [(r.symbol, r.ambiguous) for r in callers] == [("App.Core.Logger.Make", False)]
    assert _edges(engine, "Converter.Twice", "calls", "out") == [
        ("App.Capturing.Converter.Convert", "Capturing/Converter.cs")
    ]
    assert _edges(engine, home, "implements", "out") == [("App.Capturing.IFactory", "Core/IFactory.cs")]
    assert _edges(engine, "IFactory", "implements", "in") == [
        ("App.Capturing.Converter", "Capturing/Converter.cs")
    ]
    assert _edges(engine, "One/Options.cs:App.Options", "contains", "out") == [
        ("App.Options.A", "One/Options.cs")
    ]


def test_related_of_a_busy_function_still_lists_what_it_calls(tmp_path: Path) -> None:
    """Sixty callers must not fill all fifty rows: the callees keep their share, and the answer
    says it was cut."""
    callers = "".join(f"def use_{i}():\n    return busy()\n\n" for i in range(60))
    engine = _index(
        tmp_path,
        {
            "busy.py": "def busy():\n    first()\n    return second()\n\n\ndef first():\n    pass\n\n\n"
            "def second():\n    pass\n",
            "users.py": "from busy import busy\n\n" + callers,
        },
    )
    res = related(engine, "busy")
    assert [r.symbol for r in res.related if r.direction == "out"] == ["first", "second"]
    assert len([r for r in res.related if r.direction == "in"]) == 48
    assert res.truncated
