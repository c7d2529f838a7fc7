"""Kotlin Multiplatform's `expect` declarations and their platforms' `actual`s, linked as a method and
the one it implements are.

Owns: which declarations are one another's counterparts (an `actual` of the qualified name and shape
of a Kotlin declaration that is not one: the `expect fun`, or the member of an `expect class`), and
the `implements` edges between them.

Why: a call in common code names the expected declaration (graph/family.py `without_actuals`), so
the graph held no edge into an `actual` at all. On okio, `qry related` on jvmMain's
`SegmentPool.take` answered "no callers", and commonMain's `SegmentPool.take` did not say that two
platforms supply its body, as an interface's method lists the methods implementing it.
Does not own: how a call picks among them (family.py) or what `qry related` lists (view.py).
"""

from __future__ import annotations

from indexlib.graph.callarity import same_shape
from indexlib.records import CONTAINER_KINDS, Edge, Node, RefKind, is_actual
from indexlib.snapshot import Snapshot

__all__ = ["counterparts", "expected_of", "links"]

# Most same-named nodes read to find a declaration's counterparts (a name as common as `close`
# has a few hundred definitions in a large multiplatform library).
MAX_SAME_NAMED = 500


def counterparts(snap: Snapshot, n: Node) -> list[Node]:
    """An `actual`'s expected declarations, or an expected declaration's `actual`s: the Kotlin
    declarations of `n`'s qualified name and shape on the other side, in other files. Functions,
    methods and properties only."""
    if n.language != "kotlin" or n.kind in CONTAINER_KINDS:
        return []  # a type's members are linked one by one (an `actual class` linked to its `expect
        # class` would make every member of it implement its own expected one through the class too)
    actual = is_actual("kotlin", n.signature)
    found = {
        s.node.uid: s.node
        for s in snap.lookup("name_exact", n.name.lower(), limit=MAX_SAME_NAMED)
        if s.node.language == "kotlin"
        and s.node.part == 0
        and s.node.path != n.path
        and s.node.qualified_name == n.qualified_name
        and is_actual("kotlin", s.node.signature) != actual
        and same_shape(n, s.node)
    }
    return sorted(found.values(), key=lambda m: (m.path, m.start_line))


def expected_of(snap: Snapshot, n: Node) -> list[Node]:
    """The expected declarations `n` is the `actual` of (none when it is no `actual`)."""
    return counterparts(snap, n) if is_actual(n.language, n.signature) else []


def links(snap: Snapshot, n: Node, direction: str) -> list[Edge]:
    """`implements` edges between `n` and its counterparts: out, from an `actual` to what it is the
    `actual` of; in, from each `actual` of an expected declaration."""
    kind = RefKind.IMPLEMENTS.value
    if direction == "out":
        return [Edge(src=n.uid, dst=e.uid, kind=kind, line=n.start_line) for e in expected_of(snap, n)]
    if is_actual(n.language, n.signature):
        return []
    return [Edge(src=a.uid, dst=n.uid, kind=kind, line=a.start_line) for a in counterparts(snap, n)]
