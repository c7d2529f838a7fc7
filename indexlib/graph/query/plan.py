"""Planning: a validated query's MATCH clauses turned into the specs and step orders matching follows.

Owns: binding pattern property values (parameters resolved, `{uid: ...}` parsed from hex, the
properties `GraphView.find` can narrow by), naming anonymous nodes, and the greedy order of paths and
of the steps within a path (start at the most selective node, given what earlier paths bound).

Does not own: matching itself or the budget (execute.py); the rules a query must meet (validate.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal, cast

import msgspec

from indexlib.graph.query.ast import Expr, GraphQuery, ListExpr, Literal_, NodePattern, Param, RelPattern
from indexlib.graph.query.profile import ANY_LABEL, FIND_PROPS, REL_TYPES


class NodeSpec(msgspec.Struct):
    """A node pattern with its property values bound: what a candidate node must match."""

    var: str
    kind: str | None  # lower-cased label; None for any
    props: dict[str, object]
    uid: int | None  # from a {uid: ...} property
    find_props: dict[str, str]
    no_match: bool = False  # a property can never match (e.g. a malformed uid)


class RelSpec(msgspec.Struct):
    """A relationship pattern with its kinds lower-cased (all kinds if none) and values bound."""

    var: str | None
    kinds: tuple[str, ...]
    direction: Literal["out", "in", "any"]
    variable: bool
    min_hops: int
    max_hops: int
    props: dict[str, object]


class PathPlan(msgspec.Struct):
    """One path pattern: where matching starts and the steps outward from it, forward then back."""

    nodes: list[NodeSpec]
    rels: list[RelSpec]
    start: int
    steps: list[tuple[int, int, int, bool]]  # (rel index, from node, to node, forward)


class ClausePlan(msgspec.Struct):
    """One MATCH clause, its paths in the order they are matched."""

    optional: bool
    paths: list[PathPlan]
    where: Expr | None
    new_vars: list[str]  # the variables this clause binds first: null in an unmatched OPTIONAL MATCH


def _value(expr: Expr, params: Mapping[str, object]) -> object:
    """A pattern property's value: a literal, a bound parameter, or a list of those."""
    if isinstance(expr, Param):
        return params[expr.name]
    if isinstance(expr, ListExpr):
        return [_value(x, params) for x in expr.items]
    return cast(Literal_, expr).value  # the grammar allows nothing else in a property map


def plan_clauses(query: GraphQuery, params: Mapping[str, object]) -> list[ClausePlan]:
    """Each MATCH clause's paths, ordered greedily so the most selective start node is matched first."""
    bound: set[str] = set()
    clauses: list[ClausePlan] = []
    anon = 0
    for clause in query.matches:
        before = set(bound)
        paths: list[tuple[list[NodeSpec], list[RelSpec]]] = []
        for path in clause.paths:
            nodes: list[NodeSpec] = []
            for n in path.nodes:
                var = n.var
                if var is None:
                    anon += 1
                    var = f" n{anon}"  # a space: no user variable can collide with it
                nodes.append(_node_spec(var, n, params))
            rels = [_rel_spec(r, params) for r in path.rels]
            paths.append((nodes, rels))
        # Greedy: the path whose best start node is most selective goes first, given what is bound.
        planned: list[PathPlan] = []
        remaining = list(range(len(paths)))
        while remaining:
            best = max(
                remaining,
                key=lambda i: (max(_selectivity(s, bound) for s in paths[i][0]), -i),
            )
            remaining.remove(best)
            nodes, rels = paths[best]
            scores = [_selectivity(s, bound) for s in nodes]
            start = scores.index(max(scores))
            steps = [(j, j, j + 1, True) for j in range(start, len(rels))]
            steps += [(j, j + 1, j, False) for j in range(start - 1, -1, -1)]
            planned.append(PathPlan(nodes=nodes, rels=rels, start=start, steps=steps))
            bound.update(s.var for s in nodes)
            bound.update(r.var for r in rels if r.var is not None)
        clauses.append(
            ClausePlan(
                optional=clause.optional,
                paths=planned,
                where=clause.where,
                new_vars=sorted(bound - before),
            )
        )
    return clauses


def _selectivity(spec: NodeSpec, bound: set[str]) -> int:
    if spec.var in bound:
        return 5
    if spec.uid is not None or spec.no_match:
        return 4
    if spec.find_props:
        return 3
    if spec.props:
        return 2
    if spec.kind is not None:
        return 1
    return 0


def _node_spec(var: str, pattern: NodePattern, params: Mapping[str, object]) -> NodeSpec:
    props = {key: _value(v, params) for key, v in pattern.props}
    label = pattern.label.lower() if pattern.label is not None else None
    kind = None if label in (None, ANY_LABEL) else label
    uid: int | None = None
    no_match = False
    if "uid" in props:
        raw = props.pop("uid")
        try:
            uid = int(raw, 16) if isinstance(raw, str) else None
        except ValueError:
            uid = None
        if uid is None:
            no_match = True
    find_props = {k: v for k, v in props.items() if k in FIND_PROPS and isinstance(v, str)}
    return NodeSpec(var=var, kind=kind, props=props, uid=uid, find_props=find_props, no_match=no_match)


def _rel_spec(pattern: RelPattern, params: Mapping[str, object]) -> RelSpec:
    kinds = tuple(dict.fromkeys(t.lower() for t in pattern.types)) or REL_TYPES
    return RelSpec(
        var=pattern.var,
        kinds=kinds,
        direction=pattern.direction,
        variable=pattern.variable,
        min_hops=pattern.min_hops,
        max_hops=pattern.max_hops if pattern.max_hops is not None else 1,
        props={key: _value(v, params) for key, v in pattern.props},
    )
