"""A Swift protocol's requirement and the default implementation an extension of the protocol gives
it: one method to a call, the requirement.

Why: `protocol EventMonitor { func requestDidResume(_ request: Request) }` and `extension
EventMonitor { public func requestDidResume(_ request: Request) {} }` are two nodes of one qualified
name and one shape, and a call through the protocol (`eventMonitor?.requestDidResume(self)` on an
`(any EventMonitor)?`) linked to both, ambiguous, as if it were an overload. The call dispatches to
the conforming type's method, the default only when the type has none, so what the call names is the
requirement, which `qry related` answers with its implementations. A default implementation is still
called by name where no requirement of its shape is a candidate (a method only an extension adds).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from indexlib.graph.callarity import same_shape
from indexlib.graph.codelines import code_only
from indexlib.records import ROUTINE_KINDS, Node

if TYPE_CHECKING:
    from indexlib.engines.lexical import StoredNode


def is_requirement(n: Node) -> bool:
    """A Swift method or function declared without a body: a protocol's requirement (a type's own
    methods all have one). Its doc comment may hold a `{`; its code may not."""
    return n.language == "swift" and n.kind in ROUTINE_KINDS and "{" not in code_only(n.text, "swift")


def without_defaults(tier: list[StoredNode]) -> list[StoredNode]:
    """`tier` without the default implementations of the requirements in it: a Swift method of a
    requirement's qualified name and shape (its argument labels) that has a body."""
    requirements = [c.node for c in tier if is_requirement(c.node)]
    if not requirements:
        return tier
    return [
        c
        for c in tier
        if not any(
            r.qualified_name == c.node.qualified_name and r.uid != c.node.uid and same_shape(r, c.node)
            for r in requirements
        )
        or is_requirement(c.node)
    ]
