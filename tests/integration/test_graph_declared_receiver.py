"""A receiver whose declaration writes its type is not guessed, by its name, to hold another type."""

from __future__ import annotations

from pathlib import Path

from indexlib import open_engine, related
from tests.repokit import make_repo

FILES = {
    "src/lib.rs": "pub mod blocking;\npub mod read;\n",
    "src/blocking.rs": "pub(crate) struct Buf {\n    n: usize,\n}\n\nimpl Buf {\n"
    "    pub(crate) fn refill(&mut self) -> usize {\n        self.n\n    }\n}\n",
    "src/read.rs": "pub struct ReadBuf {\n    n: usize,\n}\n\n"
    "pub fn slice(buf: &'static mut [u8]) -> usize {\n    buf.refill()\n}\n\n"
    "pub fn typed(buf: &mut ReadBuf) -> usize {\n    buf.refill()\n}\n\n"
    "pub fn named(buf: &mut Buf) -> usize {\n    buf.refill()\n}\n",
}


def test_a_declared_type_stops_the_guess_by_the_variables_name(tmp_path: Path) -> None:
    """On tokio `buf.len()` with `buf: &'a mut [u8]` or `buf: &mut ReadBuf<'_>` linked, certain, to
    the crate's `Buf.len`, since `buf` is named after `Buf`. A slice is no type the index holds (no
    edge); an indexed type lacking the method leaves a guess by name, marked ambiguous; `buf: &mut
    Buf` still links for certain."""
    engine = open_engine(make_repo(tmp_path, FILES) / ".qry")

    def callees(at: str) -> list[tuple[str, bool]]:
        return [(r.symbol, r.ambiguous) for r in related(engine, at, callers=False).related]

    assert callees("src/read.rs:5") == []
    assert callees("src/read.rs:9") == [("Buf.refill", True)]
    assert callees("src/read.rs:13") == [("Buf.refill", False)]


SCRIPTS = {
    "buf.py": "class Buffer:\n    def refill(self):\n        pass\n\n\n"
    "def typed(buffer: bytearray):\n    buffer.refill()\n\n\ndef plain(buffer):\n    buffer.refill()\n",
    "buf.ts": "export class Buffer {\n  refill(): void {}\n}\n\n"
    "export function typed(buffer: Uint8Array): void {\n  buffer.refill();\n}\n\n"
    "export function plain(buffer): void {\n  buffer.refill();\n}\n",
}


def test_a_declared_type_stops_the_guess_in_python_and_typescript(tmp_path: Path) -> None:
    """`buffer: bytearray` holds no indexed class (no edge); `buffer: Uint8Array` may be an alias or
    a class the index does not hold, so `Buffer.refill` is only a guess by name; an undeclared
    `buffer` is still read as named after `Buffer`."""
    engine = open_engine(make_repo(tmp_path, SCRIPTS) / ".qry")

    def callees(at: str) -> list[tuple[str, bool]]:
        return [(r.symbol, r.ambiguous) for r in related(engine, at, callers=False).related]

    assert callees("buf.py:6") == []
    assert callees("buf.py:10") == [("Buffer.refill", False)]
    assert callees("buf.ts:5") == [("Buffer.refill", True)]
    assert callees("buf.ts:9") == [("Buffer.refill", False)]


SHADOWED = {
    "src/lib.rs": "pub mod file;\npub mod mock;\n",
    "src/mock.rs": "pub struct MockFile;\n\nimpl MockFile {\n    pub fn default() -> Self {\n        MockFile\n    }\n"
    "    pub fn expect_write(&mut self) {}\n    pub fn expect_flush(&mut self) {}\n    pub fn write_all(&mut self) {}\n}\n",
    "src/file.rs": "pub struct File;\n\nimpl File {\n    pub fn from_std<T>(_t: T) -> Self {\n        File\n    }\n}\n\n"
    "fn open_write() {\n    let mut file = MockFile::default();\n    file.expect_write();\n"
    "    {\n        let file = wrap(file);\n    }\n    file.expect_flush();\n"
    "    let mut file = File::from_std(file);\n    file.write_all();\n}\n",
}


def test_a_rust_local_re_declared_with_an_unread_value_keeps_no_class(tmp_path: Path) -> None:
    """On tokio's `fs/file/tests.rs` `let mut file = MockFile::default();` then `let mut file =
    File::from_std(file);` made every later `file.write(..)` `MockFile.write`, certain (33 edges):
    the constructor's class was read for every use of the name. After a `let` whose value's type is
    not read (in scope: not one in a block already closed) the class is not known; before it, it is."""
    engine = open_engine(make_repo(tmp_path, SHADOWED) / ".qry")
    callees = [(r.symbol, r.line, r.ambiguous) for r in related(engine, "open_write", callers=False).related]
    assert ("MockFile.expect_write", 11, False) in callees
    assert ("MockFile.expect_flush", 15, False) in callees
    assert ("MockFile.write_all", 17, False) not in callees
