"""The type a Scala 3 `extension` adds its methods to.

Owns: reading, for a `def` written in a top-level `extension (p: T)` block, the type of the
extension's parameter (`extension [T](inline parse0: => P[T])` -> `P`, `extension (s: String)` ->
`String`; for a type parameter, its upper bound: `extension [T <: Node](n: T)` -> `Node`).

Why: the grammar nests such a `def` in no class, so on com-lihaoyi/fastparse the Scala 3 operators
`repX`, `rep`, `map`, `flatMap` of `fastparse/src-3/fastparse/package.scala` were top-level functions
named alone, while the Scala 2 sources name the same methods `ByNameOps.repX` (an implicit class).
They are the receiver type's methods, named `P.repX`, as a Kotlin extension (`fun String.shout()`)
is `String.shout` (kotlinswift.py `receiver`). An extension written inside an object or class stays
that container's member, as Kotlin's member extensions do.
"""

from __future__ import annotations

import re

from indexlib.engines.treesitter import Node
from indexlib.index.parsing.text import Source

# The type an extension's parameter is written with: a by-name `=> T` is `T`, generic arguments and
# a package qualifier are left off (`collection.Seq[Int]` -> `Seq`).
_TYPE_NAME = re.compile(r"^(?:=>\s*)?(?:[A-Za-z_]\w*\.)*(?P<name>[A-Za-z_]\w*)")
# Type parameters followed to the upper bound one names (`[T <: Node, U <: T]`).
MAX_BOUND_STEPS = 4


def receiver(src: Source, node: Node, language: str) -> str:
    """The type whose method a `def` of a Scala `extension` block is; "" for any other definition."""
    block = node.parent
    if language != "scala" or block is None or block.type != "extension_definition":
        return ""
    parameters = next((c for c in block.named_children if c.type == "parameters"), None)
    first = (
        next((c for c in parameters.named_children if c.type == "parameter"), None) if parameters else None
    )
    written = first.named_children[-1] if first is not None and first.named_child_count > 1 else None
    found = _TYPE_NAME.match(src(written).strip()) if written is not None else None
    if found is None:
        return ""
    name, bounds = found.group("name"), _bounds(src, block)
    for _ in range(MAX_BOUND_STEPS):
        bound = bounds.get(name)
        if bound is None:
            break
        name = bound
    return name


def _bounds(src: Source, block: Node) -> dict[str, str | None]:
    """type parameter -> its upper bound's name (None: unbounded) of an extension block."""
    parameters = next((c for c in block.named_children if c.type == "type_parameters"), None)
    out: dict[str, str | None] = {}
    current = ""
    for child in parameters.named_children if parameters is not None else []:
        if child.type == "identifier":
            current = src(child)
            out[current] = None
        elif child.type == "upper_bound" and current and child.named_child_count:
            found = _TYPE_NAME.match(src(child.named_children[0]).strip())
            out[current] = found.group("name") if found else None
    return out


__all__ = ["receiver"]
