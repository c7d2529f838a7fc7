"""The code graph of one snapshot, read through `GraphView`.

Owns: `SnapshotGraph`, the `GraphView` adapter over a Snapshot (nodes, edges in either direction,
containment, `find`, degrees; edges cached per instance), methods' implements/overrides links, and
`related_of`, the neighbourhood `qry related` prints.
Incoming edges are found through the lexical index's reference fields, then verified by resolving
each candidate reference, so both directions agree.

Does not own: which definition a reference means (resolve.py, per-language rules) or the traversal
algorithms (expand.py, diffuse.py), or the graph context put on search hits
(`indexlib/retrieval/context.py`).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping

import msgspec

from indexlib.declaration import declaration_line
from indexlib.engines.lexical import StoredNode
from indexlib.graph import applies, constructed, expected, explicitimpl, goifaces
from indexlib.graph.callarity import same_shape
from indexlib.graph.expand import MEMBER_KINDS, Direction, GraphNode, expand, members
from indexlib.graph.outside import holds_members
from indexlib.graph.resolve import CALLABLE, Resolver, split_target
from indexlib.records import CONTAINER_KINDS, Edge, Node, Ref, RefKind, Related, is_component
from indexlib.snapshot import Snapshot

MAX_CALLERS = 500  # most referencing nodes (or members) one incoming-edge lookup reads


class SnapshotGraph:
    """`GraphView` over a Snapshot. Caches what it resolves; one instance per query."""

    def __init__(self, snap: Snapshot) -> None:
        self.snap = snap
        self._out: dict[tuple[int, str], list[Edge]] = {}
        self._in: dict[tuple[int, str], list[Edge]] = {}
        self._resolver = Resolver(snap)
        # Nodes `find` already read: the executor then asks `node` for each, which would otherwise run
        # one Tantivy uid search per node (most of a whole-graph `MATCH (n)`'s time).
        self._read: dict[int, GraphNode] = {}

    # -- GraphView ------------------------------------------------------------------------------

    def node(self, uid: int) -> GraphNode | None:
        if uid in self._read:
            return self._read[uid]
        stored = self.snap.node(uid)
        return None if stored is None else self._graph_node(stored.node)

    def edges(self, uid: int, kinds: Collection[str], direction: str) -> list[Edge]:
        out: list[Edge] = []
        for kind in sorted(set(kinds)):
            cache = self._out if direction == "out" else self._in
            key = (uid, kind)
            if key not in cache:
                cache[key] = self._compute(uid, kind, direction)
                if kind == RefKind.IMPLEMENTS and (stored := self.snap.node(uid)) is not None:
                    cache[key] = cache[key] + expected.links(self.snap, stored.node, direction)
            out.extend(cache[key])
        return out

    def find(self, *, kind: str | None, props: Mapping[str, object], limit: int) -> list[int]:
        lookup: tuple[str, str] | None = None
        if "name" in props:
            lookup = ("name_exact", str(props["name"]).lower())
        elif "qualified_name" in props:
            lookup = ("qsuffix", str(props["qualified_name"]).lower().replace("::", "."))
        elif "path" in props:
            lookup = ("path", str(props["path"]))
        elif kind is not None:
            lookup = ("kind", kind)
        elif "language" in props:
            lookup = ("lang", str(props["language"]))
        if lookup is None:
            stored_all = [s for _seg, s in self.snap.iter_live_nodes()]
        else:
            stored_all = self.snap.lookup(lookup[0], lookup[1], limit=max(limit * 4, 1000))
        out: list[int] = []
        seen: set[int] = set()
        for s in sorted(stored_all, key=lambda s: (s.node.path, s.node.start_line, s.node.uid)):
            n = s.node
            if n.part or (kind is not None and n.kind != kind):
                continue  # a window of a long definition is that definition, found by its first part
            ok = True
            for key, value in props.items():
                actual = {
                    "name": n.name,
                    "qualified_name": n.qualified_name,
                    "path": n.path,
                    "language": n.language,
                    "kind": n.kind,
                }.get(key)
                if actual != value:
                    ok = False
                    break
            if ok and n.uid not in seen:
                seen.add(n.uid)
                out.append(n.uid)
                self._read[n.uid] = self._graph_node(n)
                if len(out) >= limit:
                    break
        return out

    def degree(self, uid: int, kinds: Collection[str]) -> int:
        return len(self.edges(uid, kinds, "out")) + len(self.edges(uid, kinds, "in"))

    def _graph_node(self, n: Node) -> GraphNode:
        """`n` as the graph shows it: a definition split into windows spans all of them."""
        later = self.snap.later_parts(n) if n.part == 0 else []
        whole = to_graph_node(n)
        return msgspec.structs.replace(whole, end_line=later[-1].node.end_line) if later else whole

    # -- resolution -----------------------------------------------------------------------------

    def resolve(self, src: StoredNode, ref: Ref) -> tuple[list[int], bool]:
        """Resolve one reference of `src` to live node uids; returns (uids, ambiguous)."""
        targets, ambiguous = self._resolver.resolve(src, ref)
        return applies.applied(self.snap, src.node, ref, targets, ambiguous)

    # -- edges ----------------------------------------------------------------------------------

    def _compute(self, uid: int, kind: str, direction: str) -> list[Edge]:
        src = self.snap.node(uid)
        if src is None:
            return []
        n = src.node
        if kind == RefKind.CONTAINS:
            return self._containment(src, direction)
        if kind in (RefKind.IMPLEMENTS, RefKind.INHERITS) and n.kind == "method":
            return self._method_links(src, kind, direction)
        if kind == RefKind.IMPLEMENTS and goifaces.is_go_type(n.kind, n.language):
            return goifaces.implements(self, src, direction)
        if direction == "out":
            edges: dict[tuple[int, int], Edge] = {}
            # A definition split into windows (a 1,500-line shell function) calls from all of them;
            # a type declared in parts has the bases every part names (its home speaks for it).
            typed = kind in (RefKind.INHERITS, RefKind.IMPLEMENTS)
            refs = [
                (part, r)
                for part in (self._as_one(src) if typed else [src])
                for w in (part, *(self.snap.later_parts(part.node) if n.kind in CALLABLE else []))
                for r in w.refs
            ]
            for part, ref in refs:
                if ref.kind != kind:
                    continue
                targets, ambiguous = self.resolve(part, ref)
                for t in targets:
                    key = (t, ref.line)
                    if key not in edges:
                        edges[key] = Edge(src=uid, dst=t, kind=kind, line=ref.line, ambiguous=ambiguous)
            return sorted(edges.values(), key=lambda e: (e.line, e.dst))
        # direction == "in": who references this node's name (or file, for imports), then verify.
        if kind == RefKind.IMPORTS:
            if n.kind != "module":
                return []
            stem = n.path.rsplit("/", 1)[-1].rsplit(".", 1)[0].lower()
            if stem in ("__init__", "index", "mod") and "/" in n.path:
                stem = n.path.rsplit("/", 2)[-2].lower()
            field, value = "imports", stem
        elif kind == RefKind.CALLS:
            if n.kind not in CALLABLE and not is_component(n):
                return []
            field, value = "calls", n.name.lower()
            made, makes = constructed.made_class(self.snap, self._resolver.parts, n)  # a call of the class
            names = {value, applies.object_of_apply(self.snap, n).lower(), made.lower()} - {""}
        else:
            if n.kind not in CONTAINER_KINDS:
                return []
            field, value = "bases", n.name.lower()
        if kind != RefKind.CALLS:
            names, makes = {value}, frozenset()
        result: dict[tuple[int, int], Edge] = {}
        callers = {
            c.node.uid: c for name in sorted(names) for c in self.snap.lookup(field, name, limit=MAX_CALLERS)
        }
        for caller in callers.values():
            for ref in caller.refs:
                if ref.kind != kind:
                    continue
                if kind != RefKind.IMPORTS and split_target(ref.target)[1].lower() not in names:
                    continue
                targets, ambiguous = self.resolve(caller, ref)
                if uid not in targets and makes.intersection(targets) and constructed.admits(n, ref):
                    targets, ambiguous = [uid], ambiguous or self._constructors(n, ref) > 1
                if uid in targets:
                    # A call from a window is its definition's; a base named by a part of a type
                    # declared in parts is the type's (a call stays where it is written).
                    by_node = self.snap.first_part(caller.node)
                    by = self._resolver.parts.home(by_node) if kind != RefKind.CALLS else by_node.uid
                    key = (by, ref.line)
                    result.setdefault(
                        key, Edge(src=by, dst=uid, kind=kind, line=ref.line, ambiguous=ambiguous)
                    )
        return sorted(result.values(), key=lambda e: (e.src, e.line))

    def _as_one(self, src: StoredNode) -> list[StoredNode]:
        """The nodes whose references are `src`'s: itself, with the other parts of a type declared
        in parts when `src` is its home, and none when `src` is another part (parts.py)."""
        parts = self._resolver.parts
        if parts.home(src.node) != src.node.uid:
            return []
        others = (self.snap.node(u) for u in parts.others(src.node))
        return [src, *(o for o in others if o is not None)]

    def _containment(self, src: StoredNode, direction: str) -> list[Edge]:
        """`contains` edges: in, the container of `n` (its parent in its file, the type it belongs to
        though defined outside it, or the home of a type declared in parts); out, `n`'s members in
        source order, then those defined in other files (a Go method in another file of the
        package, a member another part of a partial class declares) by file and line."""
        n, kind = src.node, RefKind.CONTAINS.value
        outside, parts = self._resolver.outside, self._resolver.parts
        if direction == "in":
            container = outside.container_of(n) or n.parent_uid
            holder = self.snap.node(container) if container else None
            if holder is None:
                return []
            return [Edge(src=parts.home(holder.node), dst=n.uid, kind=kind, line=n.start_line)]
        own = self._as_one(src)
        members = [
            m
            for part in own
            for m in self.snap.lookup("parent", f"{part.node.uid:016x}", limit=MAX_CALLERS)
            if m.node.part == 0
        ]
        inside = sorted((m for m in members if m.node.path == n.path), key=lambda m: m.node.start_line)
        elsewhere = [m for m in members if m.node.path != n.path] + (outside.members_of(n) if own else [])
        elsewhere.sort(key=lambda m: (m.node.path, m.node.start_line))
        return [
            Edge(src=n.uid, dst=m.node.uid, kind=kind, line=m.node.start_line) for m in inside + elsewhere
        ]

    def _constructors(self, n: Node, ref: Ref) -> int:
        """How many constructors of constructor `n`'s class admit the arguments `ref` writes."""
        return sum(constructed.admits(m.node, ref) for m in self._members_named(n.parent_uid, n.name))

    def _members_named(self, container_uid: int, name: str) -> list[StoredNode]:
        """The methods named `name` of a container, in any of its parts."""
        members = [
            m
            for part in self._resolver.parts.parts(container_uid)
            for m in self.snap.lookup("parent", f"{part:016x}", limit=MAX_CALLERS)
        ]
        return [m for m in members if m.node.kind == "method" and m.node.name == name and m.node.part == 0]

    def _method_links(self, src: StoredNode, kind: str, direction: str) -> list[Edge]:
        """A method implements (or overrides) the same-named method its container's bases declare.

        Out: `Circle.area` -> `Shape.area` when Circle implements Shape. In: a trait or interface
        method -> every same-named method of the containers that implement or extend its container.
        An overload of another shape is not the method (callarity.same_shape: Alamofire's
        `Session.request(_:method:)` implemented `SessionStateProvider.request(for:)`).
        A class between them that does not declare the method passes it on: monolog's
        `AbstractProcessingHandler::handle` implements `HandlerInterface::handle` through
        `AbstractHandler extends Handler implements HandlerInterface`, neither declaring `handle`.
        """
        n = src.node
        # Its container as `contains` finds it (a Go method in another file too), at the home part of
        # a partial class, whose bases are any part's.
        up = self.edges(n.uid, (RefKind.CONTAINS.value,), "in")
        parent = self.snap.node(up[0].src) if up else None
        if parent is None or not holds_members(parent.node):
            return []
        home = parent.node.uid
        edges: list[Edge] = []
        for holder, ambiguous in self._declaring(home, kind, direction, n.name):
            for m in (m for m in self._members_named(holder, n.name) if same_shape(n, m.node)):
                if not self._explicitly(n, m.node, home, holder, direction):
                    continue
                if direction == "out":
                    edges.append(
                        Edge(src=n.uid, dst=m.node.uid, kind=kind, line=n.start_line, ambiguous=ambiguous)
                    )
                elif m.node.uid != n.uid:
                    edges.append(
                        Edge(
                            src=m.node.uid, dst=n.uid, kind=kind, line=m.node.start_line, ambiguous=ambiguous
                        )
                    )
        unique = {(e.src, e.dst): e for e in edges}
        return sorted(unique.values(), key=lambda e: (e.src, e.dst))

    def _explicitly(self, n: Node, m: Node, home: int, holder: int, direction: str) -> bool:
        """Whether the link between `n` (of `home`) and `m` (of `holder`) stands with C#'s explicit
        implementations (explicitimpl.may_implement): on AutoMapper, `MapperConfiguration`'s private
        `FindTypeMapFor(TypePair)`, which the explicit `IGlobalConfiguration.FindTypeMapFor` forwards
        to, implemented the interface's method too."""
        member, interface = (n, holder) if direction == "out" else (m, home)
        container = home if direction == "out" else holder
        owner = self.snap.node(interface)
        siblings = [s.node for s in self._members_named(container, member.name) if same_shape(member, s.node)]
        return owner is None or explicitimpl.may_implement(member, siblings, owner.node.name)

    def _declaring(self, home: int, kind: str, direction: str, name: str) -> list[tuple[int, bool]]:
        """The containers a method of `home` links to by `kind` (with whether a link on the way was
        ambiguous): out, the `kind` targets of `home` and of its ancestors by `inherits` that do not
        declare `name`; in, the `kind` sources of `home`, or their descendants by `inherits` through
        those that do not declare it. At most MAX_CALLERS containers are visited."""
        inherits = RefKind.INHERITS.value
        found: list[tuple[int, bool]] = []
        seen = {home}
        if direction == "out":
            hops = [(home, False)]  # containers whose `kind` targets are linked, ancestors passing it on
            while hops and len(seen) < MAX_CALLERS:
                at, ambiguous = hops.pop(0)
                for e in self.edges(at, (kind,), "out"):
                    if self._members_named(e.dst, name):
                        found.append((e.dst, ambiguous or e.ambiguous))
                for e in self.edges(at, (inherits,), "out"):
                    if e.dst not in seen and not self._members_named(e.dst, name):
                        seen.add(e.dst)
                        hops.append((e.dst, ambiguous or e.ambiguous))
            return found
        walk = [(e.src, e.ambiguous) for e in self.edges(home, (kind,), "in")]
        while walk and len(seen) < MAX_CALLERS:
            at, ambiguous = walk.pop(0)
            if at in seen:
                continue
            seen.add(at)
            if self._members_named(at, name):
                found.append((at, ambiguous))
                continue
            walk += [(e.src, ambiguous or e.ambiguous) for e in self.edges(at, (inherits,), "in")]
        return found


def to_graph_node(n: Node) -> GraphNode:
    """The graph layer's view of a node: identity, place and name, without its text."""
    return GraphNode(
        uid=n.uid,
        kind=n.kind,
        name=n.name,
        qualified_name=n.qualified_name,
        path=n.path,
        language=n.language,
        start_line=n.start_line,
        end_line=n.end_line,
        signature=n.signature,
        parent_uid=n.parent_uid,
        decl_line=declaration_line(n.text, n.start_line, n.signature),
    )


def related_of(
    snap: Snapshot, uid: int, *, callers: bool, callees: bool, depth: int, cap: int = 50
) -> tuple[list[Related], bool]:
    """The neighbourhood of one node for `qry related`, and whether `cap` cut it: callers and/or
    callees (calls, and a module's imports) up to depth, plus, when both are asked for, the parent
    container, bases and overrides either way and, for a type, its members (`--callers` means only
    callers: a container, a member, a subclass or an overriding method is none). A struct or class is
    rarely called itself (Rust calls `Searcher::new`, not `Searcher`), so without its members its
    answer would often be empty; a busy class's callers (tests, mostly) keep at most half of `cap`
    from its members."""
    both: tuple[Direction, ...] = ("in", "out")
    directions = tuple(d for d, on in zip(both, (callers, callees), strict=True) if on) or both
    view = SnapshotGraph(snap)
    node = view.node(uid)
    both_ways = len(directions) == 2
    with_members = both_ways and node is not None and node.kind in MEMBER_KINDS
    hierarchy = (RefKind.INHERITS.value, RefKind.IMPLEMENTS.value) if both_ways else ()
    owned = members(view, uid, skip=(), room=cap + 1) if with_members else []
    room = cap - min(len(owned), cap // 2)
    walked = {
        d: expand(
            view,
            [uid],
            depth=depth,
            cap=room + 1,  # one more than fits says whether there were more
            kinds=(RefKind.CALLS.value, *hierarchy, RefKind.IMPORTS.value),
            directions=(d,),
            include_parent=d == "in" and both_ways,
        ).get(uid, [])
        for d in directions
    }
    # Each direction is walked alone and keeps at least half the room, so a function with 500
    # callers (tests, mostly) still shows what it calls.
    ins, outs = walked.get("in", []), walked.get("out", [])
    if "in" in directions and node is not None:
        ins += _callers_of_expected(view, snap, uid, depth, room + 1, {r.uid for r in ins})
    keep_in = max(room // 2, room - len(outs)) if outs else room
    out = ins[:keep_in] + outs[: room - min(len(ins), keep_in)]
    cut = len(out) < len(ins) + len(outs)
    # A member that also calls (or extends) its type is listed both ways: `Widget.clone` returning
    # `Widget()` is a caller and one of the members, and leaving either row out hides it there.
    listed = {(r.uid, r.edge, r.direction) for r in out}
    rest = [r for r in owned if (r.uid, r.edge, r.direction) not in listed]
    fits = cap - len(out)
    out += rest[:fits]
    return out, cut or len(rest) > fits


def _callers_of_expected(
    view: SnapshotGraph, snap: Snapshot, uid: int, depth: int, cap: int, listed: set[str]
) -> list[Related]:
    """The callers of what a Kotlin `actual` is the `actual` of (expected.py): common code calls the
    `expect` declaration, and the platform's body runs, so they are the `actual`'s callers too
    (`via` is the expected declaration's uid). None for any other node."""
    stored = snap.node(uid)
    found: list[Related] = []
    callers: tuple[Direction, ...] = ("in",)
    for e in expected.expected_of(snap, stored.node) if stored is not None else []:
        walked = expand(
            view,
            [e.uid],
            depth=depth,
            cap=cap,
            kinds=(RefKind.CALLS.value,),
            directions=callers,
            include_parent=False,
        ).get(e.uid, [])
        found += [r for r in walked if r.uid not in listed and r.uid != f"{uid:016x}"]
        listed.update(r.uid for r in walked)
    return found


__all__ = ["SnapshotGraph", "related_of", "to_graph_node"]
