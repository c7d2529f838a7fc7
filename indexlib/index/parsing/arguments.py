"""How many arguments a call writes, where a language tells overloads apart by it.

Owns: the count stored with a call's reference (`Ref.args`) for Java, C# and C++, whose classes
declare several methods of one name (jsoup's `Element.text()` and `Element.text(String)`); the
resolver keeps the overloads whose parameters admit it (graph/callarity.py). Elsewhere, and where
the call's argument list cannot be read, -1: unknown.
"""

from __future__ import annotations

from indexlib.engines.treesitter import Node

OVERLOAD_LANGUAGES = frozenset({"java", "csharp", "cpp"})


def argument_count(call: Node, language: str) -> int:
    """The arguments written in `call`'s argument list (comments aside), or -1 when unknown."""
    if language not in OVERLOAD_LANGUAGES:
        return -1
    found = call.child_by_field_name("arguments")
    if found is None or found.type != "argument_list":
        return -1
    return sum(1 for c in found.named_children if "comment" not in c.type)
