"""A receiver whose value no name says (a call's result, an untyped closure parameter, a Go variable
of a written type) is not taken, by its name, to hold a type it is named after."""

from __future__ import annotations

from pathlib import Path

from indexlib import open_engine, related
from tests.repokit import make_repo

CALLED = {
    "src/lib.rs": "pub mod time;\npub mod atomic;\n",
    "src/time.rs": "pub struct Inner {\n    n: u64,\n}\n\nimpl Inner {\n"
    "    pub fn lock(&self) -> u64 {\n        self.n\n    }\n}\n",
    "src/atomic.rs": "pub struct Counter {\n    inner: Inner,\n    cell: u64,\n}\n\nimpl Counter {\n"
    "    fn inner(&self) -> &std::sync::Mutex<u64> {\n        todo!()\n    }\n\n"
    "    pub fn load(&self) -> u64 {\n        *self.inner().lock()\n    }\n\n"
    "    pub fn field(&self) -> u64 {\n        self.inner.lock()\n    }\n\n"
    "    fn time(&self) -> &Inner {\n        &self.inner\n    }\n\n"
    "    pub fn returned(&self) -> u64 {\n        self.time().lock()\n    }\n}\n",
}


def test_a_rust_method_result_is_no_field_named_after_a_type(tmp_path: Path) -> None:
    """On tokio `*self.inner().lock()` in `StaticAtomicU64.load` was stored as `self.inner.lock`, a
    field named after the struct `Inner`, so it linked, certain, to `time::Inner.lock`. The result
    of `inner()` (a `Mutex`) is not known: `Inner.lock` is at most a guess by name; the field
    `self.inner` (declared `inner: Inner`) still links for certain, and so does a call's result
    whose function says it returns the type (`fn time(&self) -> &Inner`)."""
    engine = open_engine(make_repo(tmp_path, CALLED) / ".qry")

    def callees(name: str) -> list[tuple[str, bool]]:
        return [(r.symbol, r.ambiguous) for r in related(engine, name, callers=False).related]

    assert ("Inner.lock", False) not in callees("Counter.load")
    assert ("Counter.inner", False) in callees("Counter.load")
    assert callees("Counter.field") == [("Inner.lock", False)]
    assert ("Inner.lock", True) in callees(
        "Counter.returned"
    )  # `fn time(&self) -> &Inner`: its type, by name


CLOSURES = {
    "src/lib.rs": "pub mod blocking;\npub mod file;\n",
    "src/blocking.rs": "pub(crate) struct Buf {\n    n: usize,\n}\n\nimpl Buf {\n"
    "    pub(crate) fn refill(&self) -> usize {\n        self.n\n    }\n}\n",
    "src/file.rs": "fn each<F: Fn(&[u8]) -> usize>(f: F) -> usize {\n    f(&[])\n}\n\n"
    "fn open_write() -> usize {\n    each(|buf| buf.refill())\n}\n",
    "buf.py": "class Buffer:\n    def refill(self):\n        pass\n\n\n"
    "def each(f):\n    return f(b'')\n\n\ndef open_write():\n    return each(lambda buffer: buffer.refill())\n",
}


def test_an_untyped_closure_parameter_guesses_no_type_for_certain(tmp_path: Path) -> None:
    """On tokio `|buf| Ok(buf.len())` in `fs/file/tests.rs:open_write` linked, certain, to the
    crate's `Buf.len`, since `buf` is named after `Buf`; the closure's caller passes the value, whose
    type the closure does not write. The name's guess is kept, marked ambiguous (Rust, Python)."""
    engine = open_engine(make_repo(tmp_path, CLOSURES) / ".qry")

    def callees(at: str) -> list[tuple[str, bool]]:
        return [(r.symbol, r.ambiguous) for r in related(engine, at, callers=False).related]

    assert ("Buf.refill", True) in callees("src/file.rs:open_write")
    assert ("Buffer.refill", True) in callees("buf.py:open_write")


GO = {
    "go.mod": "module example.com/app\n\ngo 1.21\n",
    "command.go": "package app\n\ntype Command struct{}\n\nfunc (c *Command) Launch() {}\n\n"
    "type Other struct{}\n\nfunc (o *Other) Stop() {}\n\n"
    "func typed(command *Other) {\n\tcommand.Launch()\n}\n\n"
    "func named(command *Command) {\n\tcommand.Launch()\n}\n\n"
    "func plain() {\n\tcommand := build()\n\tcommand.Launch()\n}\n\n"
    "func build() *Command {\n\treturn &Command{}\n}\n",
}


def test_a_go_variable_of_a_written_type_is_not_guessed_by_its_name(tmp_path: Path) -> None:
    """With `command *Other`, where `Other` has no `Launch`, `command.Launch()` linked, certain, to
    `Command.Launch`: the declared type found no method, so the call fell back to the variable's
    name. The guess is kept, ambiguous; `command *Command` and a value made by a call
    (`command := build()`, typed by its result) still link for certain."""
    engine = open_engine(make_repo(tmp_path, GO) / ".qry")

    def callees(name: str) -> list[tuple[str, bool]]:
        return [(r.symbol, r.ambiguous) for r in related(engine, name, callers=False).related]

    assert callees("typed") == [("Command.Launch", True)]
    assert callees("named") == [("Command.Launch", False)]
    assert ("Command.Launch", False) in callees("plain")


def test_an_event_listener_call_on_an_untyped_receiver_is_the_emitters_own(tmp_path: Path) -> None:
    """On got `response.once('end', ..)`, `socket.on('error', ..)` and `stream.once(..)` (Node's
    emitters) linked, ambiguous, to `promise.on`/`promise.once`, set on a local object inside
    `asPromise`. A listener method on an untyped receiver is the library's, as `items.push(x)` is;
    a receiver named after the object (`promise.on`) or of a declared class still links."""
    files = {
        "src/as-promise.ts": "export function asPromise() {\n  const promise = new Promise(() => {})\n"
        "  promise.on = function (event: string, fn: () => void) {\n    return promise\n  }\n"
        "  return promise\n}\n",
        "src/emitter.ts": "export class Emitter {\n  once(event: string): void {}\n}\n",
        "src/use.ts": "export function wait(response: any, bus: Emitter, promise: any) {\n"
        "  response.once('end', () => {})\n  response.on('data', () => {})\n  bus.once('x')\n"
        "  promise.on('retry', () => {})\n}\n",
    }
    engine = open_engine(make_repo(tmp_path, files) / ".qry")
    callees = sorted((r.symbol, r.ambiguous) for r in related(engine, "wait", callers=False).related)
    assert callees == [("Emitter.once", False), ("asPromise.promise.on", False)]
