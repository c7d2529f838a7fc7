"""Scala member accesses without arguments read as call sites (uniform access).

Why: Scala calls a parameterless `def` without parentheses (`Lib.size`, `OParser.builder[Config]`,
`c.toList`), so a call graph reading only `call_expression`s had no caller of such a method. The
same syntax reads a `val` or names a nested object, so a reference made here is marked
`UNIFORM_ACCESS` and the resolver keeps it only when its name is a function or method.

Owns: which `field_expression` / `generic_function` is such an access and the target it names.
Does not own: resolution (graph/resolve.py) or the ordinary call sites (references.py).
"""

from __future__ import annotations

from indexlib.engines.treesitter import Node
from indexlib.index.parsing.text import Source, callee_target

ACCESS_TYPES = frozenset({"field_expression", "generic_function"})


def is_access(language: str, node: Node) -> bool:
    """Whether a call-site capture is a Scala member access (not a `call_expression`)."""
    return language == "scala" and node.type in ACCESS_TYPES


def access_target(src: Source, node: Node, _language: str) -> tuple[str, Node | None, bool]:
    """(target, the node naming the member, False) for a Scala access, as `call_target` answers; no
    target for an access another site already reads: the callee of a call (`Lib.run()`, read by the
    `call_expression`), the member a `generic_function` applies type arguments to (read by it), the
    left side of an assignment (a setter), or a `generic_function` not on a member (`identity[A]`).
    A receiver no name holds is `<expr>`, as a call's is (`"b".rep`, `(a ~ b).rep`: text.py
    `callee_target`), not the literal's characters (`b.rep`) nor nothing (a bare `rep`)."""
    parent = node.parent
    if parent is not None:
        if parent.type in ("call_expression", "generic_function") and _is_field(parent, "function", node):
            return "", None, False
        if parent.type == "assignment_expression" and _is_field(parent, "left", node):
            return "", None, False
    member = node
    if node.type == "generic_function":
        function = node.child_by_field_name("function")
        if function is None or function.type != "field_expression":
            return "", None, False
        member = function
    name = member.child_by_field_name("field")
    if name is None:
        return "", None, False
    return callee_target(src(member)), name, False


def _is_field(parent: Node, field: str, node: Node) -> bool:
    """Whether `node` is `parent`'s child in `field` (compared by span: tree-sitter hands out a new
    wrapper object for every child read)."""
    child = parent.child_by_field_name(field)
    return child is not None and (child.start_byte, child.end_byte) == (node.start_byte, node.end_byte)
