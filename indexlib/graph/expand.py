"""Call-graph expansion over a `GraphView`, and the view itself. Pure.

Owns: the `GraphView` protocol every graph consumer reads through (the snapshot implements it over the
on-disk segments, view.py; tests implement it in memory), `GraphNode`, and `expand` (callers, callees
and the parent container of the top hits, breadth-first, capped, the budget shared fairly).

Does not own: diffusion and on-path context (diffuse.py), resolving references into edges or reading
segments (resolve.py, view.py), ranking hits (retrieval/fusion.py, retrieval/search.py), the graph query
language (graph/query/), or the benchmark's hub measures (bench/graphmetrics.py). Nothing here imports
an engine.
"""

from collections.abc import Collection, Mapping, Sequence
from typing import Literal, Protocol

import msgspec

from indexlib.errors import UsageError
from indexlib.records import Edge, RefKind, Related

Direction = Literal["out", "in"]

MAX_EXPAND_DEPTH = 4
EXPAND_CAP = 20  # callers, callees and parent, capped at 20 nodes over the whole answer


def uid_hex(uid: int) -> str:
    """The uid as the API prints it: 16 lower-case hex digits, as `Hit.uid` and the lexical index do."""
    return f"{uid:016x}"


class GraphNode(msgspec.Struct, frozen=True, kw_only=True):
    """What the graph layer needs to know about a node: identity, place and name, not its text."""

    uid: int
    kind: str  # a NodeKind value
    name: str
    qualified_name: str
    path: str
    language: str
    start_line: int
    end_line: int
    signature: str = ""
    parent_uid: int = 0
    decl_line: int = 0  # the line it declares itself on, below a doc comment its span holds (0: start_line)


class GraphView(Protocol):
    """Read access to the resolved graph of one snapshot.

    Only live nodes exist; an edge never points at a tombstone. `contains` edges are derived from
    `parent_uid` (container -> member). Implementations should return edges in a stable order; the
    functions here sort anyway so their answers never depend on it.
    """

    def node(self, uid: int) -> GraphNode | None:
        """The node, or None if no live node has this uid."""
        ...

    def edges(self, uid: int, kinds: Collection[str], direction: Direction) -> list[Edge]:
        """Edges of these kinds with `src == uid` ("out") or `dst == uid` ("in")."""
        ...

    def find(self, *, kind: str | None, props: Mapping[str, object], limit: int) -> list[int]:
        """Uids of nodes of `kind` (None: any) whose properties (name, qualified_name, path, language,
        kind) equal `props`; at most `limit`."""
        ...

    def degree(self, uid: int, kinds: Collection[str]) -> int:
        """Number of in plus out edges of these kinds (the hub guard's measure)."""
        ...


# --------------------------------------------------------------------------------------------------
# Expansion


def _edge_order(edge: Edge, other: int) -> tuple[int, int, int]:
    return (edge.line, other, 0 if edge.ambiguous else 1)


def expand(
    view: GraphView,
    hit_uids: Sequence[int],
    *,
    depth: int = 1,
    cap: int = EXPAND_CAP,
    kinds: Sequence[str] = (RefKind.CALLS.value,),
    include_parent: bool = True,
    directions: Collection[Direction] = ("in", "out"),
) -> dict[int, list[Related]]:
    """Callers, callees and the parent container of each hit, breadth-first, at most `cap` in all.

    Level 1 of a hit is its parent container (`contains`, direction "in"), then its callers (edges of
    `kinds` pointing at it, "in"), then its callees ("out"); each group ordered by edge line, then uid.
    Level d+1 continues from level d in the same direction (callers of callers, callees of callees);
    parents are taken at level 1 only, since a grandparent container says little about a hit.
    `directions` restricts the walk to callers ("in") or callees ("out") before the cap is spent.

    The budget is shared fairly: levels are filled one at a time (all hits' level 1 before any level
    2), and within a level the hits take turns in rank order, one node each, so one hub hit with 500
    callers cannot spend the whole cap while the next hit gets nothing.

    Deliberate choices:
    - A node that is itself a hit is not listed (it is already in the answer); the walk still goes
      through it to the next level. A hit's own recursive call is, once per direction at level 1.
    - Each related node is listed once per direction over the whole result, under the best-ranked hit
      that reaches it at its smallest depth, so the cap counts distinct nodes; a function that both
      calls the hit and is called by it (mutual recursion, `res.json` <-> `res.send`) is listed both
      ways, since either edge alone would misstate the code.
    - Edges to nodes the view cannot return (tombstones) are skipped.
    - Work is bounded: a hit collects at most 2 * cap + len(hits) candidates per level (more could
      never be listed: at most len(hits) + cap of them are skipped), so a hub among the callers does
      not make the walk read the whole graph.

    Returns a dict with one entry per distinct hit (possibly empty), in hit order. `via` is the hit
    the node was reached from; `depth` is the number of edges walked.
    """
    if not 1 <= depth <= MAX_EXPAND_DEPTH:
        raise UsageError(
            f"graph expansion depth must be between 1 and {MAX_EXPAND_DEPTH}, not {depth}",
            hint=f"pass a depth from 1 to {MAX_EXPAND_DEPTH}",
        )
    hits: list[int] = list(dict.fromkeys(hit_uids))
    hit_set = set(hits)
    result: dict[int, list[Related]] = {h: [] for h in hits}
    if cap <= 0 or not hits:
        return result
    # Containment is the parent step, not a level-by-level walk (members of members are noise).
    kinds = tuple(k for k in kinds if k != RefKind.CONTAINS.value)
    listed: set[tuple[int, Direction]] = set()
    total = 0
    # Per hit: the frontier of (node uid, direction) reached at the previous level, and every node seen.
    frontier: dict[int, list[tuple[int, Direction]]] = {h: [(h, "in"), (h, "out")] for h in hits}
    seen: dict[int, set[tuple[int, Direction]]] = {h: {(h, "in"), (h, "out")} for h in hits}
    room = 2 * cap + len(hits)

    for level in range(1, depth + 1):
        per_hit: dict[int, list[tuple[Related, int, Direction]]] = {}
        for h in hits:
            candidates = _level_candidates(
                view,
                h,
                level,
                frontier[h],
                seen[h],
                kinds,
                room,
                include_parent=include_parent,
                directions=directions,
            )
            per_hit[h] = candidates
            frontier[h] = _next_frontier(h, candidates)
        total = _list_round_robin(hits, hit_set, per_hit, listed, result, total, cap)
        if total >= cap:
            break
    return result


# Kinds whose members (`contains`, out) `qry related` lists: a type is called through its members, and
# so is an object a constant holds (a JS object literal's methods, the members a module assigns to
# `var res = ...`). A function's nested definitions are its code, not an API: not listed.
MEMBER_KINDS = frozenset({"class", "struct", "interface", "enum", "trait", "type", "constant", "field"})


def members(view: GraphView, uid: int, *, skip: Collection[str], room: int) -> list[Related]:
    """The members of container `uid` (`contains`, out) in source order, at most `room`, leaving out
    the uids (hex) in `skip` (already listed)."""
    container = view.node(uid)
    home = container.path if container is not None else ""
    found: list[tuple[bool, str, int, int, Related]] = []
    for e in view.edges(uid, (RefKind.CONTAINS.value,), "out"):
        rel = _related(view, e.dst, e, "out", uid, 1)
        if rel is not None and rel.uid not in skip:
            # The container's own file first; members defined in other files after, by file.
            found.append((rel.path != home, rel.path, rel.start_line, e.dst, rel))
    found.sort(key=lambda t: t[:4])
    return [t[-1] for t in found[: max(room, 0)]]


def _next_frontier(h: int, candidates: list[tuple[Related, int, Direction]]) -> list[tuple[int, Direction]]:
    """Where hit `h`'s walk goes on from: only caller/callee edges continue to the next level (the
    parent container does not), and not through `h`'s own recursive call, whose edges are walked."""
    return [(other, d) for rel, other, d in candidates if rel.edge != RefKind.CONTAINS.value and other != h]


def _level_candidates(
    view: GraphView,
    h: int,
    level: int,
    frontier: list[tuple[int, Direction]],
    seen: set[tuple[int, Direction]],
    kinds: tuple[str, ...],
    room: int,
    *,
    include_parent: bool,
    directions: Collection[Direction],
) -> list[tuple[Related, int, Direction]]:
    """Hit `h`'s unseen neighbours one level on (its parent first at level 1), at most `room`; marks
    each as seen."""
    candidates: list[tuple[Related, int, Direction]] = []
    recursive: set[str] = set()  # the directions the hit's own recursive call is listed in (once)
    if level == 1 and include_parent:
        for e in sorted(view.edges(h, (RefKind.CONTAINS.value,), "in"), key=lambda e: e.src):
            rel = _related(view, e.src, e, "in", h, level)
            if rel is not None and (e.src, "in") not in seen:
                seen.add((e.src, "in"))
                candidates.append((rel, e.src, "in"))
    for direction in ("in", "out"):
        if direction not in directions:
            continue
        for node_uid, came in frontier:
            if came != direction or not kinds or len(candidates) >= room:
                continue
            edges = view.edges(node_uid, kinds, direction)
            pairs = [(e, e.src if direction == "in" else e.dst) for e in edges]
            pairs.sort(key=lambda p: _edge_order(p[0], p[1]))
            for e, other in pairs:
                if len(candidates) >= room:
                    break
                # A recursive call (`cJSON_Delete(item->child)` in `cJSON_Delete`) is the hit's own
                # caller and callee: listed once, or a recursive function would seem to call nothing.
                own = other == h and level == 1 and direction not in recursive
                if (other, direction) in seen and not own:
                    continue
                rel = _related(view, other, e, direction, h, level)
                if rel is None:
                    continue
                if own:
                    recursive.add(direction)
                seen.add((other, direction))
                candidates.append((rel, other, direction))
    return candidates


def _list_round_robin(
    hits: list[int],
    hit_set: set[int],
    per_hit: dict[int, list[tuple[Related, int, Direction]]],
    listed: set[tuple[int, Direction]],
    result: dict[int, list[Related]],
    total: int,
    cap: int,
) -> int:
    """List one level's candidates into `result`, hits taking turns; returns the new total listed."""
    # A node several hits reach at this level belongs to the best-ranked of them.
    owner: dict[tuple[int, Direction], int] = {}
    for h in hits:
        for _rel, other, d in per_hit[h]:
            if other == h:  # a recursive call is its own hit's, whichever other hit reaches it
                owner[(other, d)] = h
            owner.setdefault((other, d), h)
    # Round-robin over hits in rank order, one listed node each per turn.
    cursors = dict.fromkeys(hits, 0)
    progressed = True
    while total < cap and progressed:
        progressed = False
        for h in hits:
            cand = per_hit[h]
            while cursors[h] < len(cand):
                rel, other, d = cand[cursors[h]]
                cursors[h] += 1
                if (other in hit_set and other != h) or (other, d) in listed or owner[(other, d)] != h:
                    continue
                result[h].append(rel)
                listed.add((other, d))
                total += 1
                progressed = True
                break
            if total >= cap:
                break
    return total


def _related(
    view: GraphView, uid: int, edge: Edge, direction: Direction, via: int, level: int
) -> Related | None:
    node = view.node(uid)
    if node is None:
        return None
    return Related(
        uid=uid_hex(uid),
        edge=edge.kind,
        direction=direction,
        path=node.path,
        start_line=node.start_line,
        end_line=node.end_line,
        kind=node.kind,
        symbol=node.qualified_name,
        via=uid_hex(via),
        line=edge.line if edge.kind != RefKind.CONTAINS else 0,
        decl_line=node.decl_line or node.start_line,
        depth=level,
        ambiguous=edge.ambiguous,
    )
