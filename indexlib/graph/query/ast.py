"""The typed syntax tree of a graph query: what the transformer builds and validation and execution read.

Owns: the frozen msgspec Structs of a parsed query (expressions, patterns, clauses, `GraphQuery`).
Expressions form one closed union (`Expr`), so every stage can match on it exhaustively.

Does not own: building the tree from text (transform.py), checking it against the profile
(validate.py), or evaluating it (execute.py).
"""

from __future__ import annotations

from typing import Literal, TypeAlias

import msgspec

# A literal's value as the grammar writes it: a string, a number, true/false or null.
Scalar: TypeAlias = str | int | float | bool | None


class Literal_(msgspec.Struct, frozen=True):
    value: Scalar


class Param(msgspec.Struct, frozen=True):
    name: str


class Var(msgspec.Struct, frozen=True):
    name: str


class Prop(msgspec.Struct, frozen=True):
    var: str
    key: str


class ListExpr(msgspec.Struct, frozen=True):
    items: tuple[Expr, ...]


class Not(msgspec.Struct, frozen=True):
    operand: Expr


class BoolOp(msgspec.Struct, frozen=True):
    op: Literal["AND", "OR"]
    left: Expr
    right: Expr


CompareOp = Literal["=", "<>", "<", "<=", ">", ">=", "STARTS WITH", "ENDS WITH", "CONTAINS", "IN"]


class Compare(msgspec.Struct, frozen=True):
    op: CompareOp
    left: Expr
    right: Expr


class IsNull(msgspec.Struct, frozen=True):
    operand: Expr
    negated: bool = False


class Call(msgspec.Struct, frozen=True):
    """A function call; `star` for count(*). Only count() and type() are in the profile."""

    name: str
    args: tuple[Expr, ...] = ()
    distinct: bool = False
    star: bool = False


Expr: TypeAlias = Literal_ | Param | Var | Prop | ListExpr | Not | BoolOp | Compare | IsNull | Call
# A pattern's property value: bound before matching starts, so never a variable or an operator.
PropValue: TypeAlias = Literal_ | Param | ListExpr
# SKIP / LIMIT: an integer literal or a parameter (validate() checks it is a non-negative int).
CountValue: TypeAlias = Literal_ | Param


class NodePattern(msgspec.Struct, frozen=True):
    var: str | None
    label: str | None  # as written; validate() checks it, matching lower-cases it
    props: tuple[tuple[str, PropValue], ...] = ()


class RelPattern(msgspec.Struct, frozen=True):
    var: str | None
    types: tuple[str, ...]  # as written; empty: any type
    direction: Literal["out", "in", "any"]  # as written left to right
    variable: bool = False  # a `*` range was given
    min_hops: int = 1
    max_hops: int | None = 1  # None: unbounded (rejected by validate)
    props: tuple[tuple[str, PropValue], ...] = ()


class PathPattern(msgspec.Struct, frozen=True):
    nodes: tuple[NodePattern, ...]
    rels: tuple[RelPattern, ...]


class MatchClause(msgspec.Struct, frozen=True):
    optional: bool
    paths: tuple[PathPattern, ...]
    where: Expr | None = None


class ReturnItem(msgspec.Struct, frozen=True):
    expr: Expr
    column: str  # the alias, or the expression's text


class SortItem(msgspec.Struct, frozen=True):
    expr: Expr
    descending: bool = False


class GraphQuery(msgspec.Struct, frozen=True):
    matches: tuple[MatchClause, ...]
    items: tuple[ReturnItem, ...]
    distinct: bool = False
    order: tuple[SortItem, ...] = ()
    skip: CountValue | None = None
    limit: CountValue | None = None
