"""Go signatures read as text: a function's parameter list, its result types, a type expression's
named type.

Owns: the pure helpers that split a Go signature (`func (e *Engine) Run(addr ...string) (err
error)`) into its parts, which the typing of Go variables (typed.py) reads: which named type a
written type is, and what a function returns. Kept apart so typed.py holds the rules that read
the snapshot, this the text alone.
"""

from __future__ import annotations

import re

from indexlib.graph.brackets import balanced, top_level_split

FUNC = re.compile(r"func\s*(?:\(([^()]*)\))?\s*\w+\s*(?:\[[^\]]*\])?\s*\(")
# An interface's method as its node's signature writes it, with no `func`: `Field() reflect.Value`.
_METHOD_SPEC = re.compile(r"[A-Za-z_]\w*\s*\(")
TYPE_KEYWORDS = frozenset({"struct", "interface", "map", "chan", "func"})
BUILTIN_TYPES = frozenset(
    {"bool", "byte", "rune", "string", "error", "any", "int", "int8", "int16", "int32", "int64", "uint"}
    | {"uint8", "uint16", "uint32", "uint64", "uintptr", "float32", "float64", "complex64", "complex128"}
)


def type_name(written: str) -> str:
    """The named type a Go type expression is, or '' for none (`*Context` -> Context, `...Option`
    -> '' (a slice), `sync.Pool` -> sync.Pool, `Tree[K]` -> Tree, `map[string]int` -> '')."""
    t = written.strip()
    t = re.sub(r"\[[^\]]*\]$", "", t.lstrip("*").strip())  # type arguments, after a pointer's star
    if not re.fullmatch(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)?", t) or t in BUILTIN_TYPES:
        return ""
    return t


def result_type(signature: str, position: int = 0) -> str:
    """The named type a Go function's signature returns at `position`, the first by default (`func
    New() *Viper` -> Viper, `func Open(p string) (f *File, err error)` -> File; `func
    CreateTestContext(w) (c *Context, r *Engine)` at 1 -> Engine), '' for none or an unnamed one."""
    t = type_name(result_written(signature, position))
    return "" if t.rpartition(".")[2] in TYPE_KEYWORDS else t


def result_written(signature: str, position: int = 0) -> str:
    """A Go function's result type at `position` as written (`func (c *C) all() []Flag {` at 0 ->
    `[]Flag`), '' when it returns fewer. An interface's method (`Field() reflect.Value`) returns
    what it declares too: a value made by a call through an interface is typed as any other."""
    m = FUNC.match(signature) or _METHOD_SPEC.match(signature)
    if m is None:
        return ""
    params = balanced(signature, m.end())
    rest = signature[m.end() + len(params) + 1 :].split("{", 1)[0].strip()
    results = _results(balanced(rest, 1)) if rest.startswith("(") else [rest]
    return results[position] if position < len(results) else ""


def _results(listed: str) -> list[str]:
    """A parenthesized result list's types, one per value: `*Context, *Engine` as written, and
    named ones by their type (`c *Context, a, b int` -> `*Context`, `int`, `int`)."""
    items = top_level_split(listed)
    heads = [item.split(None, 1) for item in items]
    named = any(
        len(h) == 2 and re.fullmatch(r"[A-Za-z_]\w*", h[0]) and h[0] not in TYPE_KEYWORDS for h in heads
    )
    if not named:  # `(int, error)`, `(func() error, *T)`: each item a type
        return items
    out: list[str] = []
    waiting = 0  # names that take the next type written (`a, b int`)
    for h in heads:
        if len(h) == 1:
            waiting += 1
            continue
        out += [h[1].strip()] * (waiting + 1)
        waiting = 0
    return out


__all__ = [
    "BUILTIN_TYPES",
    "FUNC",
    "TYPE_KEYWORDS",
    "result_type",
    "result_written",
    "type_name",
]
