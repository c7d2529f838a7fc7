"""`MemoryGraph`: an in-memory `GraphView` for the graph and graph-query tests.

Owns: a graph built from explicit nodes and edges, checked as it is built (no duplicate uid, no edge
to a missing node, no `contains` edge: containment follows from `parent_uid`, as in the snapshot).

Does not own: anything the library runs; `indexlib.graph.view.SnapshotGraph` is the real view.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping

from indexlib.graph.expand import Direction, GraphNode, uid_hex
from indexlib.graph.query.profile import FIND_PROPS
from indexlib.records import Edge, RefKind

ALL_EDGE_KINDS = tuple(k.value for k in RefKind)


class MemoryGraph:
    """An in-memory `GraphView` for tests and small tools: nodes and edges held in dicts.

    Edges must join nodes already added. `contains` edges cannot be added: they follow from
    `parent_uid`, exactly as in the snapshot, so the two implementations cannot disagree about them.
    """

    def __init__(self, nodes: Iterable[GraphNode] = (), edges: Iterable[Edge] = ()) -> None:
        self._nodes: dict[int, GraphNode] = {}
        self._out: dict[int, list[Edge]] = {}
        self._in: dict[int, list[Edge]] = {}
        for n in nodes:
            self.add_node(n)
        for e in edges:
            self.add_edge(e)

    def add_node(self, node: GraphNode) -> None:
        if node.uid in self._nodes:
            raise ValueError(f"duplicate node uid {uid_hex(node.uid)}")
        self._nodes[node.uid] = node

    def add_edge(self, edge: Edge) -> None:
        if edge.kind == RefKind.CONTAINS:
            raise ValueError("contains edges follow from parent_uid; set it on the member node instead")
        if edge.kind not in ALL_EDGE_KINDS:
            raise ValueError(f"unknown edge kind {edge.kind!r}")
        for end in (edge.src, edge.dst):
            if end not in self._nodes:
                raise ValueError(f"edge endpoint {uid_hex(end)} is not a node of this graph")
        self._out.setdefault(edge.src, []).append(edge)
        self._in.setdefault(edge.dst, []).append(edge)

    def __len__(self) -> int:
        return len(self._nodes)

    def uids(self) -> list[int]:
        """Every node uid, sorted."""
        return sorted(self._nodes)

    def node(self, uid: int) -> GraphNode | None:
        return self._nodes.get(uid)

    def _contains(self, uid: int, direction: Direction) -> list[Edge]:
        node = self._nodes.get(uid)
        if node is None:
            return []
        if direction == "in":
            parent = self._nodes.get(node.parent_uid) if node.parent_uid else None
            if parent is None:
                return []
            return [Edge(src=parent.uid, dst=uid, kind=RefKind.CONTAINS.value, line=node.start_line)]
        members = sorted(
            (m for m in self._nodes.values() if m.parent_uid == uid), key=lambda m: (m.start_line, m.uid)
        )
        return [Edge(src=uid, dst=m.uid, kind=RefKind.CONTAINS.value, line=m.start_line) for m in members]

    def edges(self, uid: int, kinds: Collection[str], direction: Direction) -> list[Edge]:
        table = self._out if direction == "out" else self._in
        found = [e for e in table.get(uid, ()) if e.kind in kinds]
        if RefKind.CONTAINS.value in kinds:
            found.extend(self._contains(uid, direction))
        return found

    def find(self, *, kind: str | None, props: Mapping[str, object], limit: int) -> list[int]:
        unknown = set(props) - FIND_PROPS
        if unknown:
            raise ValueError(f"find() cannot filter on {sorted(unknown)}")
        found: list[int] = []
        for uid in sorted(self._nodes):
            n = self._nodes[uid]
            if kind is not None and n.kind != kind:
                continue
            if all(getattr(n, key) == value for key, value in props.items()):
                found.append(uid)
                if len(found) >= limit:
                    break
        return found

    def degree(self, uid: int, kinds: Collection[str]) -> int:
        return len(self.edges(uid, kinds, "out")) + len(self.edges(uid, kinds, "in"))


__all__ = ["MemoryGraph"]
