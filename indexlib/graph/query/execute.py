"""Execution: a validated, planned query matched over a `GraphView` within a row cap and a time budget.

Owns: `run_graph_query` (parse, validate, plan, match, project), the wall-clock budget checked in
every matcher loop, the matcher (start candidates, edge-unique steps and variable-length paths,
OPTIONAL MATCH's nulls, WHERE), the projection (DISTINCT, count() grouping, ORDER BY, SKIP/LIMIT,
`truncated`), and `GraphQueryResult`. Node and edge lookups are cached for the query's life.

Does not own: the graph (a `GraphView`, see expand.py; the snapshot implements it), the rules checked
before matching (validate.py), value semantics (values.py), turning errors into tool results.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Iterator, Mapping
from typing import Any, cast

import msgspec

from indexlib.graph.expand import GraphNode, GraphView
from indexlib.graph.query.ast import Call, GraphQuery, Literal_, Param, SortItem
from indexlib.graph.query.plan import ClausePlan, NodeSpec, PathPlan, RelSpec, plan_clauses
from indexlib.graph.query.profile import MAX_PATH_DEPTH, SCAN_CAP, TIME_BUDGET_MS, fail, too_deep
from indexlib.graph.query.transform import parse_graph_query
from indexlib.graph.query.validate import Analysis, analyse
from indexlib.graph.query.values import (
    Row,
    cy_eq,
    edge_prop,
    evaluate,
    freeze,
    node_prop,
    order_key,
    to_output,
)
from indexlib.records import Edge


class GraphQueryResult(msgspec.Struct, kw_only=True):
    """Rows of plain JSON values: nodes are dicts of their properties, uids are 16-digit hex strings."""

    columns: list[str]
    rows: list[list[object]]
    truncated: bool
    elapsed_ms: float


class _Budget:
    """The wall-clock budget, checked in every matcher loop (a perf_counter read costs ~50 ns)."""

    __slots__ = ("budget_ms", "deadline")

    def __init__(self, budget_ms: float) -> None:
        self.budget_ms = budget_ms
        self.deadline = time.perf_counter() + budget_ms / 1000.0

    def check(self) -> None:
        if time.perf_counter() > self.deadline:
            fail(
                "timeout",
                f"the query ran past its {self.budget_ms:g} ms budget",
                "narrow the start node with properties ({name: $name}), lower the * range, or add a LIMIT",
            )


class _Executor:
    def __init__(
        self,
        view: GraphView,
        query: GraphQuery,
        params: Mapping[str, object],
        analysis: Analysis,
        budget: _Budget,
    ) -> None:
        self.view = view
        self.query = query
        self.params = params
        self.analysis = analysis
        self.budget = budget
        self.scan_capped = False
        self._nodes: dict[int, GraphNode | None] = {}
        self._steps: dict[tuple[int, tuple[str, ...], str], list[tuple[Edge, int]]] = {}
        self._finds: dict[tuple[str | None, tuple[tuple[str, str], ...]], list[int]] = {}
        self.clauses = plan_clauses(query, params)

    # graph access ----------------------------------------------------------------------------------

    def _node(self, uid: int) -> GraphNode | None:
        if uid not in self._nodes:
            self._nodes[uid] = self.view.node(uid)
        return self._nodes[uid]

    def _node_ok(self, node: GraphNode, spec: NodeSpec) -> bool:
        if spec.no_match:
            return False
        if spec.uid is not None and node.uid != spec.uid:
            return False
        if spec.kind is not None and node.kind != spec.kind:
            return False
        return all(cy_eq(node_prop(node, k), v) is True for k, v in spec.props.items())

    def _edge_ok(self, edge: Edge, spec: RelSpec) -> bool:
        return all(cy_eq(edge_prop(edge, k), v) is True for k, v in spec.props.items())

    def _start_candidates(self, row: Row, spec: NodeSpec) -> list[int]:
        if spec.var in row:
            value = row[spec.var]
            return [value.uid] if isinstance(value, GraphNode) else []
        if spec.no_match:
            return []
        if spec.uid is not None:
            return [spec.uid]
        key = (spec.kind, tuple(sorted(spec.find_props.items())))
        found = self._finds.get(key)
        if found is None:
            found = sorted(self.view.find(kind=spec.kind, props=spec.find_props, limit=SCAN_CAP))
            if len(found) >= SCAN_CAP:
                self.scan_capped = True
            self._finds[key] = found
        return found

    def _step(self, uid: int, kinds: tuple[str, ...], direction: str) -> list[tuple[Edge, int]]:
        key = (uid, kinds, direction)
        cached = self._steps.get(key)
        if cached is not None:
            return cached
        pairs: list[tuple[Edge, int]] = []
        seen: set[Edge] = set()
        if direction in ("out", "any"):
            for e in self.view.edges(uid, kinds, "out"):
                seen.add(e)
                pairs.append((e, e.dst))
        if direction in ("in", "any"):
            for e in self.view.edges(uid, kinds, "in"):
                if e not in seen:  # a self-loop seen from both ends is one relationship
                    pairs.append((e, e.src))
        pairs.sort(key=lambda p: (p[1], p[0].kind, p[0].line, p[0].src, p[0].dst))
        self._steps[key] = pairs
        return pairs

    @staticmethod
    def _flip(direction: str, forward: bool) -> str:
        if forward or direction == "any":
            return direction
        return "in" if direction == "out" else "out"

    # matching --------------------------------------------------------------------------------------

    def bindings(self) -> Iterator[Row]:
        rows: Iterator[Row] = iter([{}])
        for clause in self.clauses:
            rows = self._apply_clause(rows, clause)
        return rows

    def _apply_clause(self, rows: Iterator[Row], clause: ClausePlan) -> Iterator[Row]:
        for row in rows:
            self.budget.check()
            matched = False
            for out in self._match_paths(row, clause.paths, 0, set()):
                if clause.where is None or evaluate(clause.where, out, self.params) is True:
                    matched = True
                    yield out
            if clause.optional and not matched:
                nulls = dict(row)
                for var in clause.new_vars:
                    nulls.setdefault(var, None)
                yield nulls

    def _match_paths(self, row: Row, paths: list[PathPlan], i: int, used: set[Edge]) -> Iterator[Row]:
        if i == len(paths):
            yield row
            return
        for out in self._match_path(row, paths[i], used):
            yield from self._match_paths(out, paths, i + 1, used)

    def _match_path(self, row: Row, plan: PathPlan, used: set[Edge]) -> Iterator[Row]:
        spec = plan.nodes[plan.start]
        for uid in self._start_candidates(row, spec):
            self.budget.check()
            node = self._node(uid)
            if node is None or not self._node_ok(node, spec):
                continue
            yield from self._walk(row if spec.var in row else {**row, spec.var: node}, plan, 0, used)

    def _bind_target(self, row: Row, spec: NodeSpec, uid: int) -> Row | None:
        if spec.var in row:
            current = row[spec.var]
            if not isinstance(current, GraphNode) or current.uid != uid or not self._node_ok(current, spec):
                return None
            return row
        node = self._node(uid)
        if node is None or not self._node_ok(node, spec):
            return None
        return {**row, spec.var: node}

    def _walk(self, row: Row, plan: PathPlan, k: int, used: set[Edge]) -> Iterator[Row]:
        if k == len(plan.steps):
            yield row
            return
        j, a, b, forward = plan.steps[k]
        rel = plan.rels[j]
        here = cast(GraphNode, row[plan.nodes[a].var])  # a step starts from a node already bound
        target = plan.nodes[b]
        direction = self._flip(rel.direction, forward)
        if rel.variable:
            for end, path in self._var_paths(here.uid, rel, direction, used):
                out = self._bind_target(row, target, end)
                if out is None:
                    continue
                if rel.var is not None:
                    out = {**out, rel.var: path if forward else tuple(reversed(path))}
                used.update(path)
                try:
                    yield from self._walk(out, plan, k + 1, used)
                finally:
                    used.difference_update(path)
            return
        for edge, other in self._step(here.uid, rel.kinds, direction):
            self.budget.check()
            if edge in used or not self._edge_ok(edge, rel):
                continue
            if rel.var is not None and rel.var in row and row[rel.var] != edge:
                continue
            out = self._bind_target(row, target, other)
            if out is None:
                continue
            if rel.var is not None:
                out = {**out, rel.var: edge}
            used.add(edge)
            try:
                yield from self._walk(out, plan, k + 1, used)
            finally:
                used.discard(edge)

    def _var_paths(
        self, start: int, rel: RelSpec, direction: str, used: set[Edge]
    ) -> Iterator[tuple[int, tuple[Edge, ...]]]:
        """Every edge-unique path of min..max hops from `start`, shortest first (one row per path)."""
        if rel.min_hops == 0:
            yield (start, ())
        queue: deque[tuple[int, tuple[Edge, ...]]] = deque([(start, ())])
        while queue:
            node, path = queue.popleft()
            for edge, other in self._step(node, rel.kinds, direction):
                self.budget.check()
                if edge in path or edge in used or not self._edge_ok(edge, rel):
                    continue
                extended = (*path, edge)
                if len(extended) >= rel.min_hops:
                    yield (other, extended)
                if len(extended) < rel.max_hops:
                    queue.append((other, extended))

    # projection ------------------------------------------------------------------------------------

    def rows(self, skip: int, limit: int) -> tuple[list[list[object]], bool]:
        items = self.query.items
        order = self.query.order
        if not self.analysis.aggregate and not order:
            projected: Iterator[tuple[list[object], Row]] = (
                ([evaluate(it.expr, b, self.params) for it in items], b) for b in self.bindings()
            )
            if self.query.distinct:
                projected = self._distinct(projected)
            taken: list[list[object]] = []
            for values, _ in projected:
                taken.append(values)
                if len(taken) > skip + limit:
                    break
            truncated = len(taken) > skip + limit
            return [[to_output(v) for v in r] for r in taken[skip : skip + limit]], truncated
        pairs: list[tuple[list[object], Row]]
        if self.analysis.aggregate:
            pairs = [(values, {}) for values in self._aggregate()]
        else:
            pairs = [([evaluate(it.expr, b, self.params) for it in items], b) for b in self.bindings()]
        if self.query.distinct:
            pairs = list(self._distinct(iter(pairs)))
        if order:
            pairs = self._sort(pairs)
        truncated = len(pairs) > skip + limit
        return [[to_output(v) for v in values] for values, _ in pairs[skip : skip + limit]], truncated

    def _distinct(self, pairs: Iterator[tuple[list[object], Row]]) -> Iterator[tuple[list[object], Row]]:
        seen: set[tuple[object, ...]] = set()
        for values, row in pairs:
            self.budget.check()
            key = tuple(freeze(v) for v in values)
            if key not in seen:
                seen.add(key)
                yield values, row

    def _aggregate(self) -> list[list[object]]:
        items = self.query.items
        is_agg = [isinstance(it.expr, Call) and it.expr.name == "count" for it in items]
        groups: dict[tuple[object, ...], tuple[list[object], list[Any]]] = {}
        for row in self.bindings():
            self.budget.check()
            keys = [
                None if agg else evaluate(it.expr, row, self.params)
                for it, agg in zip(items, is_agg, strict=True)
            ]
            gkey = tuple(freeze(v) for v, agg in zip(keys, is_agg, strict=True) if not agg)
            if gkey not in groups:
                states: list[Any] = [  # per item: a count, or the set of distinct values seen
                    set() if agg and cast(Call, it.expr).distinct else 0
                    for it, agg in zip(items, is_agg, strict=True)
                ]
                groups[gkey] = (keys, states)
            _, states = groups[gkey]
            for i, (it, agg) in enumerate(zip(items, is_agg, strict=True)):
                if not agg:
                    continue
                call = cast(Call, it.expr)
                if call.star:
                    states[i] += 1
                    continue
                value = evaluate(call.args[0], row, self.params)
                if value is None:
                    continue
                if call.distinct:
                    states[i].add(freeze(value))
                else:
                    states[i] += 1
        if not groups and all(is_agg):
            return [[0 for _ in items]]
        out: list[list[object]] = []
        for keys, states in groups.values():
            out.append(
                [
                    (len(s) if isinstance(s, set) else s) if agg else k
                    for k, s, agg in zip(keys, states, is_agg, strict=True)
                ]
            )
        return out

    def _sort(self, pairs: list[tuple[list[object], Row]]) -> list[tuple[list[object], Row]]:
        # Stable sorts from the last key to the first give a lexicographic order with mixed directions.
        result = list(pairs)
        for sort, col in reversed(list(zip(self.query.order, self.analysis.sort_columns, strict=True))):
            self.budget.check()

            def key(
                pair: tuple[list[object], Row], sort: SortItem = sort, col: int | None = col
            ) -> tuple[Any, ...]:
                value = pair[0][col] if col is not None else evaluate(sort.expr, pair[1], self.params)
                return order_key(value)

            result.sort(key=key, reverse=sort.descending)
        return result


def run_graph_query(
    view: GraphView,
    text: str,
    params: Mapping[str, object] | None = None,
    *,
    limit_default: int = 100,
    limit_cap: int = 1000,
    max_depth: int = MAX_PATH_DEPTH,
    budget_ms: float = TIME_BUDGET_MS,
) -> GraphQueryResult:
    """Parse, validate and run one bounded query; raise GraphQueryError naming the broken rule.

    LIMIT defaults to `limit_default`; one over `limit_cap` is refused (`limit_cap`). `truncated` is
    true whenever more rows existed than were returned (a LIMIT, or a start-node scan over SCAN_CAP
    nodes cut them). The budget covers matching and projection (not parsing), checked in every matcher loop;
    `elapsed_ms` covers everything.

    Example:
        run_graph_query(view, "MATCH (f:function {name: $name})<-[:calls*1..2]-(g) "
                              "RETURN DISTINCT g.qualified_name, g.path LIMIT 20", {"name": "charge"})
    """
    started = time.perf_counter()
    params = dict(params or {})
    query = parse_graph_query(text)
    try:
        analysis = analyse(query, params, max_depth=max_depth)
        skip = _count_value(query.skip, params, 0)
        asked = _count_value(query.limit, params, limit_default)
        if query.limit is not None and asked > limit_cap:
            # Said, not cut silently: the truncation note would blame the LIMIT asked for.
            fail(
                "limit_cap",
                f"LIMIT {asked} is over the cap of {limit_cap} rows",
                f"use LIMIT {limit_cap} or less, and SKIP to read the rows after them",
            )
        limit = min(asked, limit_cap)
        # The budget starts after parsing, so the one-off grammar build (~50 ms) never times a query out.
        executor = _Executor(view, query, params, analysis, _Budget(budget_ms))
        rows, truncated = executor.rows(skip, limit)
    except RecursionError:  # validation and evaluation recurse once per nesting level
        raise too_deep("too deeply for the stack") from None
    return GraphQueryResult(
        columns=[item.column for item in query.items],
        rows=rows,
        truncated=truncated or executor.scan_capped,
        elapsed_ms=round((time.perf_counter() - started) * 1000.0, 2),
    )


def _count_value(value: Literal_ | Param | None, params: Mapping[str, object], default: int) -> int:
    if value is None:
        return default
    n = params[value.name] if isinstance(value, Param) else value.value
    assert isinstance(n, int)  # validate() checked it
    return n
