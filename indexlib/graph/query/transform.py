"""Query text -> the typed AST: `parse_graph_query`, the transformer over lark's parse tree.

Owns: the query-size and nesting bounds applied before and after parsing, string-literal escapes, and
the mapping of each grammar rule onto an AST Struct (return columns take their source text, as
openCypher names them).

Does not own: the grammar and its parse errors (grammar.py), the rules a parsed query must also meet
(validate.py). The transformer's callbacks take lark's untyped child lists, hence `list[Any]` there.
"""

from __future__ import annotations

from typing import Any, Literal

from indexlib.graph.query.ast import (
    BoolOp,
    Call,
    Compare,
    CountValue,
    Expr,
    GraphQuery,
    IsNull,
    ListExpr,
    Literal_,
    MatchClause,
    NodePattern,
    Not,
    Param,
    PathPattern,
    Prop,
    PropValue,
    RelPattern,
    ReturnItem,
    SortItem,
    Var,
)
from indexlib.graph.query.grammar import Meta, Token, Transformer, parse_tree, transform, tree_depth, v_args
from indexlib.graph.query.profile import MAX_NESTING, MAX_QUERY_CHARS, fail, too_deep


def parse_graph_query(text: str) -> GraphQuery:
    """Parse query text into a `GraphQuery`, or raise GraphQueryError (`syntax`, `read_only`,
    `unsupported`, `too_long`, `too_deep`). Parameters are kept as names; no value ever enters the text."""
    if len(text) > MAX_QUERY_CHARS:
        fail(
            "too_long",
            f"the query is {len(text)} characters, over {MAX_QUERY_CHARS}",
            "write a shorter query",
        )
    tree = parse_tree(text)
    depth = tree_depth(tree)
    if depth > MAX_NESTING:
        raise too_deep(f"{depth} levels deep, over {MAX_NESTING}")
    try:
        query: GraphQuery = transform(_ToAst(text), tree)
    except RecursionError:  # a caller already deep in its own stack: the bound above did not suffice
        raise too_deep("too deeply for the stack") from None
    return query


def _unescape(body: str) -> str:
    out: list[str] = []
    i = 0
    simple = {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f", "\\": "\\", "'": "'", '"': '"'}
    while i < len(body):
        ch = body[i]
        if ch != "\\" or i + 1 >= len(body):
            out.append(ch)
            i += 1
            continue
        nxt = body[i + 1]
        if nxt in simple:
            out.append(simple[nxt])
            i += 2
        elif nxt == "u" and i + 6 <= len(body):
            try:
                out.append(chr(int(body[i + 2 : i + 6], 16)))
            except ValueError:
                fail(
                    "syntax", f"bad escape {body[i : i + 6]!r} in a string", "write \\uXXXX with 4 hex digits"
                )
            i += 6
        else:
            fail(
                "syntax",
                f"unknown escape \\{nxt} in a string",
                "escape only \\\\, \\', \\\", \\n, \\t, \\uXXXX",
            )
    return "".join(out)


class _ToAst(Transformer[Token, GraphQuery]):
    """Lark tree -> AST. Positions give return columns their source text, as openCypher names them."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self._text = text

    # patterns
    def start(self, children: list[Any]) -> GraphQuery:
        matches = tuple(c for c in children if isinstance(c, MatchClause))
        ret = next(c for c in children if isinstance(c, tuple) and c and c[0] == "return")
        order: tuple[SortItem, ...] = ()
        skip = limit = None
        for c in children:
            if isinstance(c, tuple) and c and c[0] == "order":
                order = c[1]
            elif isinstance(c, tuple) and c and c[0] == "skip":
                skip = c[1]
            elif isinstance(c, tuple) and c and c[0] == "limit":
                limit = c[1]
        return GraphQuery(matches=matches, items=ret[2], distinct=ret[1], order=order, skip=skip, limit=limit)

    def match_clause(self, c: list[Any]) -> MatchClause:
        return MatchClause(optional=False, paths=c[1], where=c[2])

    def optional_match_clause(self, c: list[Any]) -> MatchClause:
        return MatchClause(optional=True, paths=c[2], where=c[3])

    def where_clause(self, c: list[Any]) -> Expr:
        where: Expr = c[1]
        return where

    def pattern(self, c: list[Any]) -> tuple[PathPattern, ...]:
        return tuple(c)

    def path(self, c: list[Any]) -> PathPattern:
        return PathPattern(nodes=tuple(c[0::2]), rels=tuple(c[1::2]))

    def node_pattern(self, c: list[Any]) -> NodePattern:
        name, label, props = c
        return NodePattern(var=str(name) if name is not None else None, label=label, props=props or ())

    def label(self, c: list[Any]) -> str:
        return str(c[0])

    def prop_map(self, c: list[Any]) -> tuple[tuple[str, PropValue], ...]:
        return tuple(x for x in c if x is not None)

    def prop_entry(self, c: list[Any]) -> tuple[str, PropValue]:
        return (str(c[0]), c[1])

    def list_value(self, c: list[Any]) -> ListExpr:
        return ListExpr(tuple(x for x in c if x is not None))

    def _rel(self, detail: tuple[Any, ...] | None, direction: Literal["out", "in", "any"]) -> RelPattern:
        if detail is None:
            return RelPattern(var=None, types=(), direction=direction)
        name, types, rng, props = detail
        variable, lo, hi = rng if rng is not None else (False, 1, 1)
        return RelPattern(
            var=str(name) if name is not None else None,
            types=types or (),
            direction=direction,
            variable=variable,
            min_hops=lo,
            max_hops=hi,
            props=props or (),
        )

    def rel_in(self, c: list[Any]) -> RelPattern:
        return self._rel(c[0], "in")

    def rel_out(self, c: list[Any]) -> RelPattern:
        return self._rel(c[0], "out")

    def rel_any(self, c: list[Any]) -> RelPattern:
        return self._rel(c[0], "any")

    def rel_detail(self, c: list[Any]) -> tuple[Any, ...]:
        return tuple(c)

    def rel_types(self, c: list[Any]) -> tuple[str, ...]:
        return tuple(str(t) for t in c)

    def range(self, c: list[Any]) -> tuple[bool, int, int | None]:
        if c[0] is None:
            return (True, 1, None)
        lo, hi = c[0]
        return (True, lo, hi)

    def range_exact(self, c: list[Any]) -> tuple[int, int | None]:
        n = int(c[0])
        return (n, n)

    def range_between(self, c: list[Any]) -> tuple[int, int | None]:
        lo = int(c[0]) if c[0] is not None else 1
        hi = int(c[1]) if c[1] is not None else None
        return (lo, hi)

    # expressions
    def or_op(self, c: list[Any]) -> BoolOp:
        return BoolOp("OR", c[0], c[2])

    def and_op(self, c: list[Any]) -> BoolOp:
        return BoolOp("AND", c[0], c[2])

    def not_op(self, c: list[Any]) -> Not:
        return Not(c[1])

    def eq(self, c: list[Any]) -> Compare:
        return Compare("=", c[0], c[1])

    def ne(self, c: list[Any]) -> Compare:
        return Compare("<>", c[0], c[1])

    def lt(self, c: list[Any]) -> Compare:
        return Compare("<", c[0], c[1])

    def le(self, c: list[Any]) -> Compare:
        return Compare("<=", c[0], c[1])

    def gt(self, c: list[Any]) -> Compare:
        return Compare(">", c[0], c[1])

    def ge(self, c: list[Any]) -> Compare:
        return Compare(">=", c[0], c[1])

    def starts_with(self, c: list[Any]) -> Compare:
        return Compare("STARTS WITH", c[0], c[3])

    def ends_with(self, c: list[Any]) -> Compare:
        return Compare("ENDS WITH", c[0], c[3])

    def contains(self, c: list[Any]) -> Compare:
        return Compare("CONTAINS", c[0], c[2])

    def in_op(self, c: list[Any]) -> Compare:
        return Compare("IN", c[0], c[2])

    def is_null(self, c: list[Any]) -> IsNull:
        return IsNull(c[0])

    def is_not_null(self, c: list[Any]) -> IsNull:
        return IsNull(c[0], negated=True)

    def prop(self, c: list[Any]) -> Prop:
        return Prop(str(c[0]), str(c[1]))

    def var(self, c: list[Any]) -> Var:
        return Var(str(c[0]))

    def call_star(self, c: list[Any]) -> Call:
        return Call(str(c[0]).lower(), star=True)

    def call_args(self, c: list[Any]) -> Call:
        return Call(
            str(c[0]).lower(), args=tuple(x for x in c[2:] if x is not None), distinct=c[1] is not None
        )

    def list_expr(self, c: list[Any]) -> ListExpr:
        return ListExpr(tuple(x for x in c if x is not None))

    def param(self, c: list[Any]) -> Param:
        return Param(str(c[0])[1:])

    def string(self, c: list[Any]) -> Literal_:
        return Literal_(_unescape(str(c[0])[1:-1]))

    def number(self, c: list[Any]) -> Literal_:
        tok = c[0]
        return Literal_(float(tok) if tok.type == "FLOAT" else int(tok))

    def negative(self, c: list[Any]) -> Literal_:
        return Literal_(-c[0].value)

    def literal(self, c: list[Any]) -> Literal_:
        value: Literal_ = c[0]
        return value

    def true(self, c: list[Any]) -> Literal_:
        return Literal_(True)

    def false(self, c: list[Any]) -> Literal_:
        return Literal_(False)

    def null(self, c: list[Any]) -> Literal_:
        return Literal_(None)

    # projection
    def return_clause(self, c: list[Any]) -> tuple[str, bool, tuple[ReturnItem, ...]]:
        return ("return", c[1] is not None, tuple(c[2:]))

    @v_args(meta=True)
    def return_item(self, meta: Meta, c: list[Any]) -> ReturnItem:
        expr, alias = c[0], c[-1]  # c is [expr, AS, NAME] or [expr, None, None]
        if alias is not None:
            column = str(alias)
        else:
            # The item's own text, without the alias part (absent here) and with whitespace collapsed.
            column = " ".join(self._text[meta.start_pos : meta.end_pos].split())
        return ReturnItem(expr=expr, column=column)

    def order_clause(self, c: list[Any]) -> tuple[str, tuple[SortItem, ...]]:
        return ("order", tuple(c[2:]))

    def sort_item(self, c: list[Any]) -> SortItem:
        direction = c[1]
        return SortItem(expr=c[0], descending=direction is not None and direction.startswith("desc"))

    def sort_dir(self, c: list[Any]) -> str:
        return str(c[0]).lower()

    def count_value(self, c: list[Any]) -> CountValue:
        tok = c[0]
        return Param(str(tok)[1:]) if tok.type == "PARAM" else Literal_(int(tok))

    def skip_clause(self, c: list[Any]) -> tuple[str, CountValue]:
        return ("skip", c[1])

    def limit_clause(self, c: list[Any]) -> tuple[str, CountValue]:
        return ("limit", c[1])
