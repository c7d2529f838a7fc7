"""Calls written inside a Rust macro's arguments: `tri!(format_escaped_str_contents(w, f, v))`,
`assert_eq!(parse(s), Ok(1))`, `format!("{}", self.name())`.

Why: tree-sitter reads a macro invocation's arguments as a token tree (identifiers, punctuation and
nested trees), not as expressions, so the call capture never sees the calls inside. serde_json
wraps nearly every fallible call in its `tri!` macro and tests assert through `assert_eq!`: those
calls had no edge, so `qry related format_escaped_str` listed `tri` and one more callee of its
three, and a function called only inside `tri!(...)` had no callers.

How: a path of identifiers joined by `::` or `.` and followed by a parenthesised token tree is a
call of that path (`crate::ser::f(..)` -> `crate.ser.f`, as the call capture spells it), and a
chain continues through it (`a.b(1).c(2)` -> `a.b`, `a.b.c`). A turbofish (`Vec::<u8>::new()`)
is stepped over; a keyword, literal or operator ends a path, and a name a definition declares
(`fn new()`, `struct Id(u64)`) is none. Nested token trees are read the same way. Pure: reads the syntax tree, returns the targets and the nodes naming them.
"""

from __future__ import annotations

from indexlib.engines.treesitter import Node
from indexlib.index.parsing.text import Source, normalize_target

_NAMES = frozenset({"identifier", "crate", "self", "super"})
_SEPARATORS = frozenset({"::", "."})
# Keywords whose next name is declared, not called, where a macro wraps items (`cfg_rt! { pub fn
# new() -> Self { .. } }`, `struct Id(u64);`): read as calls, tokio's ~140 `cfg_*!` blocks linked
# every `fn new()` they wrap to some function named `new`.
_DECLARING = frozenset({"fn", "struct", "enum", "union", "trait", "type", "mod"})
MAX_CALLS = 200  # calls read from one macro invocation: a generated table is no list of calls


def macro_calls(src: Source, macro: Node) -> list[tuple[str, Node]]:
    """(target, the identifier naming the callee) for each call inside `macro`'s token trees."""
    out: list[tuple[str, Node]] = []
    trees = [c for c in macro.children if c.type == "token_tree"]
    while trees and len(out) < MAX_CALLS:
        trees.extend(_read_tree(src, trees.pop(), out))
    return out[:MAX_CALLS]


def _read_tree(src: Source, tree: Node, out: list[tuple[str, Node]]) -> list[Node]:
    """Append the calls written at the top of `tree` to `out`; return its nested trees."""
    nested: list[Node] = []
    path: list[Node] = []  # identifiers and separators of the path being read
    generic = 0  # depth inside a turbofish's `<...>`
    previous = ""  # the kind of the token before `child`
    for child in tree.children:
        kind, previous, before = child.type, child.type, previous
        if generic:
            generic += {"<": 1, ">": -1}.get(kind, 0)
            continue
        if kind in _NAMES and before in _DECLARING:
            path = []  # `fn new()`: the name a definition declares, no call of it
        elif kind in _NAMES:
            path = [*path, child] if path and path[-1].type in _SEPARATORS else [child]
        elif kind in _SEPARATORS:
            if not path or path[-1].type not in _SEPARATORS:  # `Vec::<u8>::new`: `::` after the `<u8>`
                path = [*path, child] if path else []
        elif kind == "<" and path and path[-1].type == "::":
            generic = 1
        elif kind == "token_tree":
            nested.append(child)
            if path and path[-1].type in _NAMES and src(child).startswith("("):
                target = normalize_target("".join(src(p) for p in path if p.type != "token_tree"))
                if target:
                    out.append((target, path[-1]))
                path = [*path, child]  # the path goes on through the call: `a.b(1).c(2)`
            else:
                path = []
        else:
            path = []
    return nested


__all__ = ["macro_calls"]
