"""How many arguments a call writes, where a language tells overloads apart by it.

Owns: the count stored with a call's reference (`Ref.args`) for Java, C#, C++ and Kotlin, whose
classes declare several methods of one name (jsoup's `Element.text()` and `Element.text(String)`,
moshi's eight `Moshi.adapter`); the resolver keeps the overloads whose parameters admit it
(graph/callarity.py). Elsewhere, and where the call's argument list cannot be read, -1: unknown.
"""

from __future__ import annotations

from indexlib.engines.treesitter import Node

OVERLOAD_LANGUAGES = frozenset({"java", "csharp", "cpp", "kotlin"})


def argument_count(call: Node, language: str) -> int:
    """The arguments written in `call`'s argument list (comments aside), or -1 when unknown."""
    if language not in OVERLOAD_LANGUAGES:
        return -1
    if language == "kotlin":
        return _kotlin_count(call)
    found = call.child_by_field_name("arguments")
    if found is None or found.type != "argument_list":
        return -1
    return sum(1 for c in found.named_children if "comment" not in c.type)


def _kotlin_count(call: Node) -> int:
    """A Kotlin `call_expression`'s arguments: those in its parentheses plus a trailing lambda, which
    is the last argument written outside them (`foo(a) { b }` passes two, `xs.let { it }` one)."""
    suffix = call.named_child(call.named_child_count - 1) if call.named_child_count else None
    if call.type != "call_expression" or suffix is None or suffix.type != "call_suffix":
        return -1
    count = 0
    for part in suffix.named_children:
        if part.type == "value_arguments":
            count += sum(1 for c in part.named_children if c.type == "value_argument")
        elif part.type == "annotated_lambda":
            count += 1
    return count
