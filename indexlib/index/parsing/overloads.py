"""Overload declarations beside the definition they declare: Python `@overload` stubs, TypeScript
overload signatures.

Owns: which of a file's items are overload declarations with an implementation in the same container,
and what becomes of them: a Python stub is dropped (its text stays in the container's remainder); a
TypeScript signature list joins its implementation, whose span and doc then start at the first
signature. Declarations with no implementation (a `.pyi` or `.d.ts` file, a Protocol or interface,
`declare function`) are the only definitions of their name and stay.

Why: as definitions of their own, the declarations ranked above the code (short, the same name: zod's
`toJSONSchema` came third, after its two signatures) and made the name ambiguous to `qry related`
(`json-schema-processors.ts:toJSONSchema names 3 definitions`, the signatures without an edge). A
TypeScript overload list is one function, written as its signatures then its body, and JSDoc on the
first signature documents it all.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from indexlib.index.parsing.text import Source

if TYPE_CHECKING:
    from indexlib.index.parsing.items import Item

_OVERLOAD = re.compile(r"@\s*(?:[A-Za-z_][\w.]*\.)?overload\s*$")
_SIGNATURES = frozenset({"function_signature", "method_signature"})  # a TypeScript overload declaration
_SIGNED_LANGUAGES = frozenset({"typescript", "tsx"})


def without_overload_stubs(src: Source, items: list[Item], language: str) -> list[Item]:
    """`items` without the overload declarations that have an implementation beside them (a later
    definition of the same name in the same container, not itself an overload declaration)."""
    if language == "python":
        stubs = [i for i in items if _python_stub(src, i)]
    elif language in _SIGNED_LANGUAGES:
        stubs = [i for i in items if i.node.type in _SIGNATURES]
    else:
        return items
    if not stubs:
        return items
    stub_ids = {id(i) for i in stubs}
    implementations: dict[tuple[int, tuple[str, ...]], Item] = {}
    for i in items:
        if id(i) not in stub_ids:
            implementations.setdefault(_key(i), i)
    dropped = [s for s in stubs if _key(s) in implementations]
    if language in _SIGNED_LANGUAGES:
        for stub in sorted(dropped, key=lambda s: s.start, reverse=True):  # the first one last
            body = implementations[_key(stub)]
            if stub.start < body.start:  # the implementation's span and doc begin at its signatures
                body.outer, body.start = stub.outer, stub.start
    gone = {id(s) for s in dropped}
    return [i for i in items if id(i) not in gone]


def _python_stub(src: Source, item: Item) -> bool:
    """A definition decorated `@overload` (`@typing.overload`)."""
    outer = item.outer
    if outer.type != "decorated_definition":
        return False
    return any(_OVERLOAD.match(src(d)) for d in outer.named_children if d.type == "decorator")


def _key(item: Item) -> tuple[int, tuple[str, ...]]:
    """The container's syntax node and the written name: what an overload shares with its body."""
    container = item.outer.parent
    return (container.id if container is not None else -1, tuple(item.names))
