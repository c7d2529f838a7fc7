"""Validation: a parsed query checked against the profile's rules and its parameters.

Owns: the rules that are not syntax (closed vocabularies, bounded and non-empty ranges, bound
variables, the functions in the profile, unique RETURN columns, parameters given and of plain types,
SKIP/LIMIT non-negative integers) and `Analysis`, what execution learns from them (variable roles,
whether RETURN aggregates, which column each ORDER BY item reads).

Does not own: parsing (transform.py) or the wall-clock budget and row caps (execute.py).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

import msgspec

from indexlib.graph.query.ast import (
    BoolOp,
    Call,
    Compare,
    Expr,
    GraphQuery,
    IsNull,
    ListExpr,
    NodePattern,
    Not,
    Param,
    Prop,
    RelPattern,
    Var,
)
from indexlib.graph.query.profile import (
    MAX_PATH_DEPTH,
    NODE_LABELS,
    NODE_PROPS,
    REL_PROPS,
    REL_TYPES,
    fail,
    too_deep,
)


class Analysis(msgspec.Struct):
    """What validation learned and execution uses: variable roles and how ORDER BY is evaluated."""

    var_kinds: dict[str, str]  # name -> "node" | "rel" | "rel_list"
    aggregate: bool
    sort_columns: list[int | None]  # per sort item: the RETURN column it reads, or None (evaluate)


def _walk(expr: Expr) -> Iterator[Expr]:
    yield expr
    if isinstance(expr, ListExpr):
        for item in expr.items:
            yield from _walk(item)
    elif isinstance(expr, Not):
        yield from _walk(expr.operand)
    elif isinstance(expr, BoolOp | Compare):
        yield from _walk(expr.left)
        yield from _walk(expr.right)
    elif isinstance(expr, IsNull):
        yield from _walk(expr.operand)
    elif isinstance(expr, Call):
        for arg in expr.args:
            yield from _walk(arg)


def _params_in(query: GraphQuery) -> Iterator[str]:
    exprs: list[Expr] = []
    for clause in query.matches:
        for path in clause.paths:
            for node in path.nodes:
                exprs.extend(v for _, v in node.props)
            for rel in path.rels:
                exprs.extend(v for _, v in rel.props)
        if clause.where is not None:
            exprs.append(clause.where)
    exprs.extend(item.expr for item in query.items)
    exprs.extend(s.expr for s in query.order)
    exprs.extend(x for x in (query.skip, query.limit) if x is not None)
    for e in exprs:
        for sub in _walk(e):
            if isinstance(sub, Param):
                yield sub.name


def validate(query: GraphQuery, params: Mapping[str, object], *, max_depth: int = MAX_PATH_DEPTH) -> None:
    """Check a parsed query against the profile and the parameters; raise GraphQueryError if it breaks
    a rule (`unknown_label`, `unknown_relationship`, `unbounded_length`, `depth_cap`, `invalid_range`,
    `unknown_property`, `unknown_variable`, `variable_conflict`, `param_missing`, `param_type`,
    `unsupported`, `duplicate_column`, `invalid_limit`, `too_deep`)."""
    try:
        analyse(query, params, max_depth=max_depth)
    except RecursionError:  # a GraphQuery built by hand, not by parse_graph_query's bounded parse
        raise too_deep("too deeply for the stack") from None


def analyse(query: GraphQuery, params: Mapping[str, object], *, max_depth: int) -> Analysis:
    """Check every rule, in the query's order: parameters, patterns, RETURN, ORDER BY, SKIP/LIMIT."""
    _check_params(query, params)
    var_kinds: dict[str, str] = {}
    for clause in query.matches:
        for path in clause.paths:
            for node in path.nodes:
                _check_node_pattern(node, var_kinds)
            for rel in path.rels:
                _check_rel_pattern(rel, var_kinds, max_depth)
        if clause.where is not None:
            _check_expr(clause.where, var_kinds, allow_aggregate=False, context="WHERE")
    aggregate, columns = _check_return(query, var_kinds)
    sort_columns = _sort_columns(query, var_kinds, columns, aggregate)
    for label, value in (("SKIP", query.skip), ("LIMIT", query.limit)):
        if value is None:
            continue
        n = params.get(value.name) if isinstance(value, Param) else value.value
        if not isinstance(n, int) or isinstance(n, bool) or n < 0:
            fail("invalid_limit", f"{label} must be a non-negative integer, not {n!r}", f"write {label} 20")
    return Analysis(var_kinds=var_kinds, aggregate=aggregate, sort_columns=sort_columns)


def _check_params(query: GraphQuery, params: Mapping[str, object]) -> None:
    for name in dict.fromkeys(_params_in(query)):
        if name not in params:
            fail(
                "param_missing",
                f"parameter ${name} is used but not given",
                f'pass it by name in params, e.g. {{"{name}": ...}}; values are bound, never spliced into the text',
            )
    for name, value in params.items():
        if not _param_value_ok(value):
            fail(
                "param_type",
                f"parameter ${name} is a {type(value).__name__}",
                "parameters are strings, numbers, booleans, null, or lists of those",
            )
    _check_list_equality(query, params)


def _is_list(expr: Expr, params: Mapping[str, object]) -> bool:
    return isinstance(expr, ListExpr) or (
        isinstance(expr, Param) and isinstance(params.get(expr.name), list | tuple)
    )


def _shown(value: Expr) -> str:
    return f"${value.name}" if isinstance(value, Param) else "[...]"


def _list_hint(target: str, value: Expr) -> str:
    return f"to match any of several values write WHERE {target} IN {_shown(value)}"


def _check_list_equality(query: GraphQuery, params: Mapping[str, object]) -> None:
    """Every property is one value, so a property equal to a list can never hold: such a query would
    answer no rows without saying why (a list parameter bound where `IN` was meant)."""
    for clause in query.matches:
        for path in clause.paths:
            patterns: list[NodePattern | RelPattern] = [*path.nodes, *path.rels]
            for pattern in patterns:
                for key, value in pattern.props:
                    if _is_list(value, params):
                        var = pattern.var or "n"
                        fail(
                            "param_type",
                            f"{{{key}: {_shown(value)}}} matches one value against a list, which never holds",
                            _list_hint(f"{var}.{key}", value),
                        )
        for sub in _walk(clause.where) if clause.where is not None else ():
            if isinstance(sub, Compare) and sub.op in ("=", "<>"):
                for prop, other in ((sub.left, sub.right), (sub.right, sub.left)):
                    if isinstance(prop, Prop) and _is_list(other, params):
                        target = f"{prop.var}.{prop.key}"
                        fail(
                            "param_type",
                            f"{target} {sub.op} {_shown(other)} compares one value with a list, which never holds",
                            _list_hint(target, other),
                        )


def _check_return(query: GraphQuery, var_kinds: dict[str, str]) -> tuple[bool, list[str]]:
    """Whether RETURN aggregates, and its column names (each checked to be unique)."""
    aggregate = False
    columns: list[str] = []
    for item in query.items:
        if isinstance(item.expr, Call) and item.expr.name == "count":
            aggregate = True
            _check_count(item.expr, var_kinds)
        else:
            _check_expr(item.expr, var_kinds, allow_aggregate=False, context="RETURN")
        if item.column in columns:
            fail(
                "duplicate_column",
                f"two RETURN items are both named {item.column!r}",
                "give one of them another name with AS",
            )
        columns.append(item.column)
    return aggregate, columns


def _sort_columns(
    query: GraphQuery, var_kinds: dict[str, str], columns: list[str], aggregate: bool
) -> list[int | None]:
    """Per ORDER BY item, the RETURN column it reads (an alias or the same expression), else None."""
    sort_columns: list[int | None] = []
    for sort in query.order:
        col: int | None = None
        if isinstance(sort.expr, Var) and sort.expr.name in columns:
            col = columns.index(sort.expr.name)
        else:
            for i, item in enumerate(query.items):
                if item.expr == sort.expr:
                    col = i
                    break
        if col is None:
            if aggregate or query.distinct:
                fail(
                    "unsupported",
                    "with DISTINCT or count(), ORDER BY can only use returned columns",
                    "order by a RETURN item's alias (RETURN g.name AS name ... ORDER BY name) or repeat its expression",
                )
            _check_expr(sort.expr, var_kinds, allow_aggregate=False, context="ORDER BY")
        sort_columns.append(col)
    return sort_columns


def _param_value_ok(value: object) -> bool:
    if value is None or isinstance(value, str | int | float | bool):
        return True
    if isinstance(value, list | tuple):
        return all(v is None or isinstance(v, str | int | float | bool) for v in value)
    return False


def _check_node_pattern(node: NodePattern, var_kinds: dict[str, str]) -> None:
    if node.label is not None and node.label.lower() not in NODE_LABELS:
        fail(
            "unknown_label",
            f"node label :{node.label} is not in the vocabulary",
            f"use one of {', '.join(sorted(NODE_LABELS))} (`node` means any kind)",
        )
    for key, _ in node.props:
        _check_prop_key(key, "node")
    if node.var is not None:
        seen = var_kinds.setdefault(node.var, "node")
        if seen != "node":
            fail(
                "variable_conflict", f"{node.var} names a relationship and a node", "use two different names"
            )


def _check_rel_pattern(rel: RelPattern, var_kinds: dict[str, str], max_depth: int) -> None:
    for t in rel.types:
        if t.lower() not in REL_TYPES:
            fail(
                "unknown_relationship",
                f"relationship type :{t} is not in the vocabulary",
                f"use one of {', '.join(REL_TYPES)}, or alternatives like [:calls|imports]",
            )
    if rel.variable:
        if rel.max_hops is None:
            fail(
                "unbounded_length",
                "a variable-length relationship needs an upper bound",
                f"write *1..{max_depth} (or *..2, *2) instead of * or *{rel.min_hops}..",
            )
        if rel.max_hops > max_depth:
            fail(
                "depth_cap",
                f"variable length *..{rel.max_hops} is deeper than the cap of {max_depth}",
                f"use an upper bound of at most {max_depth}, e.g. *1..{max_depth}",
            )
        if rel.min_hops > rel.max_hops:
            fail(
                "invalid_range",
                f"the range *{rel.min_hops}..{rel.max_hops} is empty",
                "write the smaller bound first, e.g. *1..3",
            )
    for key, _ in rel.props:
        _check_prop_key(key, "rel")
    if rel.var is not None:
        if rel.var in var_kinds:
            fail(
                "variable_conflict",
                f"{rel.var} is already bound; a relationship variable can be used in one pattern only",
                "give each relationship its own name",
            )
        var_kinds[rel.var] = "rel_list" if rel.variable else "rel"


def _check_prop_key(key: str, role: str) -> None:
    allowed = NODE_PROPS if role == "node" else REL_PROPS
    if key not in allowed:
        what = "nodes" if role == "node" else "relationships"
        fail("unknown_property", f"{what} have no property {key!r}", f"{what} have: {', '.join(allowed)}")


def _check_count(call: Call, var_kinds: dict[str, str]) -> None:
    if call.star:
        return
    if len(call.args) != 1:
        fail("unsupported", "count() takes one argument", "write count(*), count(v) or count(DISTINCT v)")
    _check_expr(call.args[0], var_kinds, allow_aggregate=False, context="count()")


def _check_expr(expr: Expr, var_kinds: dict[str, str], *, allow_aggregate: bool, context: str) -> None:
    for sub in _walk(expr):
        if isinstance(sub, Var | Prop):
            name = sub.name if isinstance(sub, Var) else sub.var
            if name not in var_kinds:
                fail(
                    "unknown_variable",
                    f"{name} is not bound by any pattern (in {context})",
                    f"bind it in a MATCH pattern first, e.g. MATCH ({name}) ...",
                )
            if isinstance(sub, Prop):
                role = var_kinds[name]
                if role == "rel_list":
                    fail(
                        "unsupported",
                        f"{name} is a variable-length relationship (a list); it has no property {sub.key!r}",
                        "return the variable itself, or drop the * range",
                    )
                _check_prop_key(sub.key, "node" if role == "node" else "rel")
        elif isinstance(sub, Call):
            if sub.name == "count":
                fail(
                    "unsupported",
                    f"count() can only be a whole RETURN item, not part of {context}",
                    "write RETURN v.name, count(*) AS n ... ORDER BY n",
                )
            if sub.name != "type":
                fail(
                    "unsupported",
                    f"function {sub.name}() is not in the profile",
                    "only count(*), count(v), count(DISTINCT v) and type(r) are available",
                )
            if sub.star or len(sub.args) != 1 or not isinstance(sub.args[0], Var):
                fail("unsupported", "type() takes one relationship variable", "write type(r)")
            arg = sub.args[0].name
            if var_kinds.get(arg) != "rel":
                fail(
                    "unsupported",
                    f"type() needs a single-hop relationship variable; {arg} is not one",
                    "bind it with -[r:calls]-> (no * range)",
                )
