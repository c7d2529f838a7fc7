"""Rust methods called on a path value: an enum's variant or a type's associated constant.

Owns: the target of a call whose receiver chain starts at a value path (`ExitCode::GeneralError
.exit()`, `Color::Rgb(1, 2).to_hex()`, `Self::DEFAULT.clone()`). Does not own: other calls'
targets (references.py), their resolution (graph/).

Why: written as is, the target read the variant as a type (`ExitCode.GeneralError.exit`), one that
declares no method, so the call linked to nothing: on fd, `qry related ExitCode.exit` missed
`ExitCode::KilledBySigint.exit()` in `WorkerState.scan`. A variant's value is of its enum's type,
and an associated constant's nearly always of the type holding it (`Duration::ZERO`), so the
method is that type's: `ExitCode.exit`. Read only where both segments are capitalised, as types,
variants and constants are: `config::SETTINGS.get()` (a module's static) and `Foo::new(x).bar()`
(a call whose result the chain reader types) are left as written.
"""

from __future__ import annotations

from indexlib.engines.treesitter import Node
from indexlib.index.parsing.text import Source, normalize_target
from indexlib.records import CALLED

_CHAIN = {"field_expression": "value", "call_expression": "function"}  # the receiver's side of each


def variant_receiver(src: Source, callee: Node, target: str) -> str:
    """`target` (as normalize_target wrote `callee`) with a leading `Type.Variant` read as `Type`
    when the chain's first value is such a path (`ExitCode.GeneralError.exit` -> `ExitCode.exit`),
    else `target` unchanged."""
    value = callee
    while value.type in _CHAIN:
        inner = value.child_by_field_name(_CHAIN[value.type])
        if inner is None:
            return target
        value = inner
    if value is callee or value.type != "scoped_identifier":
        return target
    path, name = value.child_by_field_name("path"), value.child_by_field_name("name")
    if path is None or name is None or not src(name)[:1].isupper():
        return target
    owner = normalize_target(src(path))
    if not owner.rsplit(".", 1)[-1][:1].isupper():
        return target
    written = normalize_target(src(value))
    return owner + target[len(written) :] if target.startswith(written + ".") else target


def called_receiver(src: Source, callee: Node, target: str) -> str:
    """`target` with the mark CALLED after its qualifier when the receiver `callee` reads the member
    on is a call's result (`self.inner().lock` for `self.inner().lock()`, also through `?`; not
    through `.await`, which normalize_target keeps as a name): normalize_target drops the arguments,
    so the method's result read as a field or a variable of the call's name, which the graph may
    take to be named after its type. A tuple struct or variant built in place (`Wrapper(x).get()`)
    is no call's result: its type is the one written."""
    value = callee.child_by_field_name("value")
    while value is not None and value.type == "try_expression":
        value = value.named_child(0) if value.named_child_count else None
    called = (
        value.child_by_field_name("function")
        if value is not None and value.type == "call_expression"
        else None
    )
    if called is None or "." not in target:
        return target
    if (
        called.type in ("identifier", "scoped_identifier")
        and src(called.child_by_field_name("name") or called)[:1].isupper()
    ):
        return target  # `Wrapper(x).get()`, `Color::Rgb(1, 2).to_hex()`: a value of that type, as written
    qualifier, name = target.rsplit(".", 1)
    return target if qualifier.endswith(CALLED) else f"{qualifier}{CALLED}.{name}"
