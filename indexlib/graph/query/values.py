"""openCypher's values: equality, ordering, grouping keys, expression evaluation and JSON output.

Owns: the semantics a query's values follow where the profile overlaps openCypher (null propagation
and three-valued logic, numbers equal across int/float but never bool, the orderability of mixed
types, 1 and 1.0 grouping together), a node's and an edge's properties, and how bound values become
plain JSON values in the rows (nodes as property dicts, uids as 16-digit hex).

Does not own: matching patterns or projecting rows (execute.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeAlias, cast

from indexlib.graph.expand import GraphNode, uid_hex
from indexlib.graph.query.ast import (
    BoolOp,
    Call,
    Compare,
    Expr,
    IsNull,
    ListExpr,
    Literal_,
    Not,
    Param,
    Prop,
    Var,
)
from indexlib.graph.query.profile import NODE_PROPS
from indexlib.records import Edge

# What a variable is bound to: a node, a relationship, a variable-length path, or null (OPTIONAL MATCH).
Bound: TypeAlias = GraphNode | Edge | tuple[Edge, ...] | None
Row: TypeAlias = dict[str, Bound]


def cy_eq(a: object, b: object) -> bool | None:
    """openCypher equality: null if either side is null; numbers compare across int/float, never bool."""
    if a is None or b is None:
        return None
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if isinstance(a, int | float) and isinstance(b, int | float):
        return a == b
    if isinstance(a, list | tuple) and isinstance(b, list | tuple):
        if len(a) != len(b):
            return False
        result: bool | None = True
        for x, y in zip(a, b, strict=True):
            eq = cy_eq(x, y)
            if eq is False:
                return False
            if eq is None:
                result = None
        return result
    if type(a) is not type(b):
        return False
    return a == b


def cy_order(op: str, a: object, b: object) -> bool | None:
    if a is None or b is None or isinstance(a, bool) != isinstance(b, bool):
        return None
    if isinstance(a, int | float) and isinstance(b, int | float):
        pass
    elif not (isinstance(a, str) and isinstance(b, str)) and not (
        isinstance(a, bool) and isinstance(b, bool)
    ):
        return None
    x: Any = a
    y: Any = b
    if op == "<":
        return bool(x < y)
    if op == "<=":
        return bool(x <= y)
    if op == ">":
        return bool(x > y)
    return bool(x >= y)


def order_key(value: object) -> tuple[Any, ...]:
    """openCypher orderability, ascending: maps/nodes, relationships, lists, strings, booleans, numbers, null."""
    if value is None:
        return (9,)
    if isinstance(value, GraphNode):
        return (0, value.uid)
    if isinstance(value, Edge):
        return (1, value.src, value.dst, value.kind, value.line)
    if isinstance(value, list | tuple):
        return (3, tuple(order_key(v) for v in value))
    if isinstance(value, str):
        return (5, value)
    if isinstance(value, bool):
        return (6, value)
    if isinstance(value, int | float):
        return (7, value)
    if isinstance(value, dict):
        return (0, tuple(sorted((k, order_key(v)) for k, v in value.items())))
    return (8, repr(value))


def freeze(value: object) -> object:
    """A hashable stand-in for grouping and DISTINCT (lists become tuples; 1 and 1.0 group, True does not)."""
    if isinstance(value, list | tuple):
        return ("list", tuple(freeze(v) for v in value))
    if isinstance(value, bool):
        return ("bool", value)
    if isinstance(value, int | float):
        return ("num", float(value))
    return value


def node_prop(node: GraphNode, key: str) -> object:
    if key == "uid":
        return uid_hex(node.uid)
    value: object = getattr(node, key)
    return value


def edge_prop(edge: Edge, key: str) -> object:
    value: object = getattr(edge, key)
    return value


def _node_out(node: GraphNode) -> dict[str, object]:
    return {key: node_prop(node, key) for key in NODE_PROPS}


def _edge_out(edge: Edge) -> dict[str, object]:
    return {
        "kind": edge.kind,
        "src": uid_hex(edge.src),
        "dst": uid_hex(edge.dst),
        "line": edge.line,
        "ambiguous": edge.ambiguous,
    }


def to_output(value: object) -> object:
    if isinstance(value, GraphNode):
        return _node_out(value)
    if isinstance(value, Edge):
        return _edge_out(value)
    if isinstance(value, list | tuple):
        return [to_output(v) for v in value]
    return value


def evaluate(expr: Expr, row: Row, params: Mapping[str, object]) -> object:
    """An expression's value in one row, with openCypher's three-valued logic (None is null)."""
    if isinstance(expr, Literal_):
        return expr.value
    if isinstance(expr, Param):
        return params[expr.name]
    if isinstance(expr, Var):
        return row.get(expr.name)
    if isinstance(expr, Prop):
        value = row.get(expr.var)
        if isinstance(value, GraphNode):
            return node_prop(value, expr.key)
        if isinstance(value, Edge):
            return edge_prop(value, expr.key)
        return None
    if isinstance(expr, ListExpr):
        return [evaluate(x, row, params) for x in expr.items]
    if isinstance(expr, Not):
        v = evaluate(expr.operand, row, params)
        return (not v) if isinstance(v, bool) else None
    if isinstance(expr, BoolOp):
        left = truth(evaluate(expr.left, row, params))
        if expr.op == "AND":
            if left is False:
                return False
            right = truth(evaluate(expr.right, row, params))
            if right is False:
                return False
            return True if left is True and right is True else None
        if left is True:
            return True
        right = truth(evaluate(expr.right, row, params))
        if right is True:
            return True
        return False if left is False and right is False else None
    if isinstance(expr, IsNull):
        is_null = evaluate(expr.operand, row, params) is None
        return not is_null if expr.negated else is_null
    if isinstance(expr, Compare):
        return compare(expr.op, evaluate(expr.left, row, params), evaluate(expr.right, row, params))
    if isinstance(expr, Call) and expr.name == "type":
        value = row.get(cast(Var, expr.args[0]).name)  # validate(): type() takes one variable
        return value.kind if isinstance(value, Edge) else None
    raise AssertionError(f"unexpected expression {expr!r}")  # validate() rules the rest out


def truth(value: object) -> bool | None:
    """A value as a WHERE truth value: booleans are themselves, anything else is null."""
    return value if isinstance(value, bool) else None


def compare(op: str, left: object, right: object) -> bool | None:
    """A comparison operator over two values; null where openCypher says the answer is unknown."""
    if op == "=":
        return cy_eq(left, right)
    if op == "<>":
        eq = cy_eq(left, right)
        return None if eq is None else not eq
    if op in ("<", "<=", ">", ">="):
        return cy_order(op, left, right)
    if op == "IN":
        if left is None or not isinstance(right, list | tuple):
            return None
        saw_null = False
        for item in right:
            eq = cy_eq(left, item)
            if eq is True:
                return True
            if eq is None:
                saw_null = True
        return None if saw_null else False
    if not isinstance(left, str) or not isinstance(right, str):
        return None
    if op == "STARTS WITH":
        return left.startswith(right)
    if op == "ENDS WITH":
        return left.endswith(right)
    return right in left  # CONTAINS
