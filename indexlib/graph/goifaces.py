"""Go's implicit interfaces: which types implement an interface, and which interfaces a type implements.

Owns: the `implements` edges of Go types. Go has no `implements` clause: a type implements an
interface when its methods include every method the interface declares or embeds, so the parser
writes no reference to resolve, and `qry related Shape` listed no implementation while Java's and
Rust's did. Found at read time, like every other edge, by method names: in, the types declaring the
interface's rarest method name that also declare all the others; out, the interfaces declaring one
of the type's method names (or embedding such an interface) whose whole method set the type
covers. A pair of same-named methods
must take as many parameters (callarity.same_shape), so `Close()` does not make `Close(force bool)` an implementation. The methods of a type are its `contains` members (methods
in other files of the package included, outside.py), a named non-struct type's too (`type
HandlerFunc func(..)`); a method promoted from an embedded struct is not counted. An empty interface (`any`) is implemented
by every type and lists none.

Method links follow from these (view.py `_method_links`): `Circle.Area` implements `Shape.Area`
when `Circle` implements `Shape`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from indexlib.engines.lexical import StoredNode
from indexlib.graph.callarity import same_shape
from indexlib.records import Edge, NodeKind, RefKind

if TYPE_CHECKING:
    from indexlib.graph.view import SnapshotGraph

_GO_TYPES = frozenset({NodeKind.STRUCT, NodeKind.TYPE, NodeKind.INTERFACE})
MAX_EMBEDDING = 4  # interfaces embedding interfaces, followed this deep
MAX_NAME_LOOKUP = 500  # methods of one name read when looking for implementations
MAX_TYPE_METHODS = 64  # a type's method names looked up for the interfaces it implements


def is_go_type(node_kind: str, language: str) -> bool:
    """Whether a node's `implements` edges are found here (a Go struct, named type or interface)."""
    return language == "go" and node_kind in _GO_TYPES


def implements(graph: SnapshotGraph, src: StoredNode, direction: str) -> list[Edge]:
    """The `implements` edges of Go type `src`: in, for an interface, every type implementing it;
    out, for a type, every interface it implements (each edge points from the type to the
    interface, as an explicit `implements` does)."""
    n = src.node
    if direction == "in":
        if n.kind != NodeKind.INTERFACE:
            return []
        wanted = method_set(graph, n.uid, interface=True)
        types = _declaring(graph, wanted, interface=False)
        pairs = [(t, n.uid) for t in types if t != n.uid and _covers(method_set(graph, t), wanted)]
    else:
        if n.kind == NodeKind.INTERFACE:  # an interface extends others by embedding them (`inherits`)
            return []
        have = method_set(graph, n.uid)
        declaring = {
            u for name in sorted(have)[:MAX_TYPE_METHODS] for u in _holders(graph, name, interface=True)
        }
        ifaces = _with_embedders(graph, declaring)
        pairs = [
            (n.uid, i)
            for i in sorted(ifaces)
            if i != n.uid and _covers(have, method_set(graph, i, interface=True))
        ]
    edges = []
    for t, i in pairs:
        typ = graph.snap.node(t)
        if typ is not None:
            edges.append(Edge(src=t, dst=i, kind=RefKind.IMPLEMENTS.value, line=typ.node.start_line))
    return sorted(edges, key=lambda e: (e.src, e.dst))


def method_set(graph: SnapshotGraph, uid: int, *, interface: bool = False) -> dict[str, StoredNode]:
    """name -> method of a Go type; of an interface, with those of the interfaces it embeds."""
    out: dict[str, StoredNode] = {}
    todo, seen = [(uid, 0)], {uid}
    while todo:
        at, depth = todo.pop()
        for e in graph.edges(at, (RefKind.CONTAINS.value,), "out"):
            m = graph.snap.node(e.dst)
            if m is not None and m.node.kind == NodeKind.METHOD:
                out.setdefault(m.node.name, m)
        if interface and depth < MAX_EMBEDDING:
            for e in graph.edges(at, (RefKind.INHERITS.value,), "out"):
                if e.dst not in seen:
                    seen.add(e.dst)
                    todo.append((e.dst, depth + 1))
    return out


def _with_embedders(graph: SnapshotGraph, ifaces: set[int]) -> set[int]:
    """`ifaces` and the interfaces embedding them (`Codec` of `Encoder` and `Decoder`, declaring no
    method of its own), MAX_EMBEDDING deep."""
    out, frontier = set(ifaces), set(ifaces)
    for _ in range(MAX_EMBEDDING):
        frontier = {e.src for at in frontier for e in graph.edges(at, (RefKind.INHERITS.value,), "in")} - out
        out |= frontier
    return out


def _covers(have: dict[str, StoredNode], wanted: dict[str, StoredNode]) -> bool:
    """Whether methods `have` include every one of `wanted`, of the same shape; never for no methods."""
    return bool(wanted) and all(
        name in have and same_shape(have[name].node, m.node) for name, m in wanted.items()
    )


def _declaring(graph: SnapshotGraph, wanted: dict[str, StoredNode], *, interface: bool) -> set[int]:
    """The Go types (or interfaces) declaring the rarest of `wanted`'s method names."""
    if not wanted:
        return set()
    found = [_holders(graph, name, interface=interface) for name in wanted]
    return min(found, key=len)


def _holders(graph: SnapshotGraph, name: str, *, interface: bool) -> set[int]:
    """The Go interfaces (or the other types) declaring a method named `name`. An interface's
    methods are declared inside it, so their parent is it; a type's may be in another file of its
    package, so its container is found as `contains` finds it (outside.py)."""
    out: set[int] = set()
    kinds: dict[int, str | None] = {}
    for m in graph.snap.lookup("name_exact", name.lower(), limit=MAX_NAME_LOOKUP):
        if m.node.language != "go" or m.node.kind != NodeKind.METHOD or m.node.name != name:
            continue
        if interface:
            parent = m.node.parent_uid
            if parent and parent not in kinds:
                stored = graph.snap.node(parent)
                kinds[parent] = stored.node.kind if stored is not None else None
            if parent and kinds[parent] == NodeKind.INTERFACE:
                out.add(parent)
            continue
        for e in graph.edges(m.node.uid, (RefKind.CONTAINS.value,), "in"):
            holder = graph.snap.node(e.src)
            if (
                holder is not None
                and holder.node.kind in _GO_TYPES
                and holder.node.kind != NodeKind.INTERFACE
            ):
                out.add(e.src)
    return out
