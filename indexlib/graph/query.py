"""The bounded openCypher profile (seed 000): grammar, validation, and execution over a `GraphView`.

Owns: the only way into the graph by query text. `parse_graph_query` turns text into a `GraphQuery`
with a lark LALR grammar (never regular expressions over the text), `validate` checks it against the
profile's rules and the parameters, and `run_graph_query` executes it within a row cap and a wall-clock
budget. This module is the only importer of lark.

Does not own: the graph itself (a `GraphView`, see graph.py; the snapshot implements it), turning errors
into tool results (the caller calls `GraphQueryError.to_dict()`), or ranking.

The profile, each rule enforced here and not left as advice:
- read-only: only `MATCH` / `OPTIONAL MATCH` ... `WHERE` ... `RETURN` [`ORDER BY`] [`SKIP`] [`LIMIT`].
  The grammar has no write, procedure, schema or I/O clause at all; when parsing fails on one of their
  keywords the error names it (`read_only`) instead of saying "syntax".
- closed vocabularies: node labels are NodeKind values or `node` (any kind); relationship types are
  RefKind values (`calls`, `imports`, `contains`, `inherits`, `implements`); properties are a fixed list.
  Labels and types match case-insensitively (`:Function`, `:CALLS`), since agents trained on Neo4j
  examples capitalise them.
- bounded traversal: variable length needs an upper bound (`*1..3`, `*..2`, `*2`), at most 4.
- bounded answers: LIMIT defaults to 100 and is capped at 1000; `truncated` says more rows existed.
- bounded time: a wall-clock budget (250 ms) checked inside every matcher loop.
- parameters bind by name (`$name`) as values; their text is never put into the query.

Semantics follow openCypher where the profile overlaps it: one row per matched path, relationship
uniqueness within a MATCH clause, three-valued logic for null in WHERE, OPTIONAL MATCH yielding nulls,
implicit grouping by the non-aggregate RETURN items, nulls last in ascending order.
"""

from __future__ import annotations

import functools
import time
from collections import deque
from collections.abc import Iterator, Mapping
from typing import Any, Literal, NoReturn

import msgspec
from lark import Lark, Token, Transformer, UnexpectedCharacters, UnexpectedInput, UnexpectedToken, v_args
from lark.exceptions import VisitError
from lark.tree import Meta, Tree

from indexlib.errors import GraphQueryError
from indexlib.graph.expand import GraphNode, GraphView, uid_hex
from indexlib.records import Edge, NodeKind, RefKind

MAX_QUERY_CHARS = 10_000
# Most levels of the parse tree (a plain query has ~10; each NOT, [ or AND/OR term adds one). The AST
# builder, validation and execution recurse once per level, so without this bound a few hundred `NOT`s
# (well under MAX_QUERY_CHARS) would exhaust Python's stack; a fixed bound answers the same wherever
# the caller's stack is (the CLI, the MCP server's threads).
MAX_NESTING = 200
SCAN_CAP = 100_000  # most nodes one node pattern may start from; beyond it the answer is `truncated`
ANY_LABEL = "node"
NODE_LABELS = frozenset(k.value for k in NodeKind) | {ANY_LABEL}
REL_TYPES = tuple(k.value for k in RefKind)
NODE_PROPS = (
    "uid",
    "name",
    "qualified_name",
    "kind",
    "path",
    "language",
    "start_line",
    "end_line",
    "signature",
)
REL_PROPS = ("kind", "line", "ambiguous")
_FIND_PROPS = frozenset({"name", "qualified_name", "path", "language", "kind"})

_EXAMPLE = "MATCH (f:function {name: $name})<-[:calls*1..2]-(g) RETURN g.qualified_name, g.path LIMIT 20"
_SHAPE = "MATCH / OPTIONAL MATCH <pattern> [WHERE ...] RETURN ... [ORDER BY ...] [SKIP n] [LIMIT n]"


# --------------------------------------------------------------------------------------------------
# AST


class Literal_(msgspec.Struct, frozen=True):
    value: Any


class Param(msgspec.Struct, frozen=True):
    name: str


class Var(msgspec.Struct, frozen=True):
    name: str


class Prop(msgspec.Struct, frozen=True):
    var: str
    key: str


class ListExpr(msgspec.Struct, frozen=True):
    items: tuple[Any, ...]


class Not(msgspec.Struct, frozen=True):
    operand: Any


class BoolOp(msgspec.Struct, frozen=True):
    op: Literal["AND", "OR"]
    left: Any
    right: Any


CompareOp = Literal["=", "<>", "<", "<=", ">", ">=", "STARTS WITH", "ENDS WITH", "CONTAINS", "IN"]


class Compare(msgspec.Struct, frozen=True):
    op: CompareOp
    left: Any
    right: Any


class IsNull(msgspec.Struct, frozen=True):
    operand: Any
    negated: bool = False


class Call(msgspec.Struct, frozen=True):
    """A function call; `star` for count(*). Only count() and type() are in the profile."""

    name: str
    args: tuple[Any, ...] = ()
    distinct: bool = False
    star: bool = False


Expr = Literal_ | Param | Var | Prop | ListExpr | Not | BoolOp | Compare | IsNull | Call


class NodePattern(msgspec.Struct, frozen=True):
    var: str | None
    label: str | None  # as written; validate() checks it, matching lower-cases it
    props: tuple[tuple[str, Any], ...] = ()  # key -> Literal_ | Param | ListExpr


class RelPattern(msgspec.Struct, frozen=True):
    var: str | None
    types: tuple[str, ...]  # as written; empty: any type
    direction: Literal["out", "in", "any"]  # as written left to right
    variable: bool = False  # a `*` range was given
    min_hops: int = 1
    max_hops: int | None = 1  # None: unbounded (rejected by validate)
    props: tuple[tuple[str, Any], ...] = ()


class PathPattern(msgspec.Struct, frozen=True):
    nodes: tuple[NodePattern, ...]
    rels: tuple[RelPattern, ...]


class MatchClause(msgspec.Struct, frozen=True):
    optional: bool
    paths: tuple[PathPattern, ...]
    where: Any = None


class ReturnItem(msgspec.Struct, frozen=True):
    expr: Any
    column: str  # the alias, or the expression's text


class SortItem(msgspec.Struct, frozen=True):
    expr: Any
    descending: bool = False


class GraphQuery(msgspec.Struct, frozen=True):
    matches: tuple[MatchClause, ...]
    items: tuple[ReturnItem, ...]
    distinct: bool = False
    order: tuple[SortItem, ...] = ()
    skip: Any = None  # Literal_(int) | Param | None
    limit: Any = None


class GraphQueryResult(msgspec.Struct, kw_only=True):
    """Rows of plain JSON values: nodes are dicts of their properties, uids are 16-digit hex strings."""

    columns: list[str]
    rows: list[list[object]]
    truncated: bool
    elapsed_ms: float


# --------------------------------------------------------------------------------------------------
# Errors


def _fail(code: str, message: str, hint: str) -> NoReturn:
    raise GraphQueryError(f"{code}: {message}", hint=hint, code=code)


def _too_deep(detail: str) -> GraphQueryError:
    """The `too_deep` error; returned, so callers can `raise ... from None` out of a RecursionError."""
    return GraphQueryError(
        f"too_deep: the query nests {detail}",
        hint=f"nest NOT, [ ] and AND/OR chains at most {MAX_NESTING} levels deep; "
        "e.g. write n.name IN ['a', 'b'] instead of a long OR of equalities",
        code="too_deep",
    )


_READ_ONLY_WORDS = {
    "create": "CREATE writes to the graph",
    "merge": "MERGE writes to the graph",
    "set": "SET writes properties",
    "delete": "DELETE removes nodes or relationships",
    "detach": "DETACH DELETE removes nodes",
    "remove": "REMOVE deletes properties or labels",
    "insert": "INSERT writes to the graph",
    "foreach": "FOREACH runs write clauses",
    "drop": "DROP is a schema operation",
    "call": "CALL runs a procedure",
    "load": "LOAD CSV reads external files",
}
_UNSUPPORTED_WORDS = frozenset(
    {"unwind", "with", "union", "xor", "case", "exists", "shortestpath", "allshortestpaths", "use", "yield"}
)


# --------------------------------------------------------------------------------------------------
# Grammar

_KEYWORDS = [
    "match",
    "optional",
    "where",
    "return",
    "distinct",
    "as",
    "order",
    "by",
    "skip",
    "limit",
    "asc",
    "desc",
    "ascending",
    "descending",
    "and",
    "or",
    "not",
    "starts",
    "ends",
    "with",
    "contains",
    "in",
    "is",
    "null",
    "true",
    "false",
]

_GRAMMAR = (
    r"""
start: reading+ return_clause order_clause? skip_clause? limit_clause?

reading: MATCH pattern [where_clause]             -> match_clause
       | OPTIONAL MATCH pattern [where_clause]    -> optional_match_clause
where_clause: WHERE expr

pattern: path ("," path)*
path: node_pattern (rel_pattern node_pattern)*

node_pattern: "(" [NAME] [label] [prop_map] ")"
label: ":" NAME
prop_map: "{" [prop_entry ("," prop_entry)*] "}"
prop_entry: NAME ":" value
?value: literal | param | list_value
list_value: "[" [value ("," value)*] "]"

rel_pattern: "<" "-" [rel_detail] "-"        -> rel_in
           | "-" [rel_detail] "-" ">"        -> rel_out
           | "-" [rel_detail] "-"            -> rel_any
rel_detail: "[" [NAME] [rel_types] [range] [prop_map] "]"
rel_types: ":" NAME ("|" ":"? NAME)*
range: "*" [range_bounds]
range_bounds: INT                  -> range_exact
            | [INT] ".." [INT]     -> range_between

?expr: or_expr
?or_expr: and_expr | or_expr OR and_expr              -> or_op
?and_expr: not_expr | and_expr AND not_expr           -> and_op
?not_expr: comparison | NOT not_expr                  -> not_op
?comparison: operand
    | operand "=" operand                 -> eq
    | operand "<>" operand                -> ne
    | operand "<" operand                 -> lt
    | operand "<=" operand                -> le
    | operand ">" operand                 -> gt
    | operand ">=" operand                -> ge
    | operand STARTS WITH operand         -> starts_with
    | operand ENDS WITH operand           -> ends_with
    | operand CONTAINS operand            -> contains
    | operand IN operand                  -> in_op
    | operand IS NULL                     -> is_null
    | operand IS NOT NULL                 -> is_not_null
?operand: literal | param | list_expr | prop | var | call | "(" expr ")"
prop: NAME "." NAME
var: NAME
call: NAME "(" "*" ")"                         -> call_star
    | NAME "(" [DISTINCT] [expr ("," expr)*] ")" -> call_args
list_expr: "[" [expr ("," expr)*] "]"
param: PARAM
literal: STRING           -> string
       | number
       | "-" number       -> negative
       | TRUE             -> true
       | FALSE            -> false
       | NULL             -> null
number: INT | FLOAT

return_clause: RETURN [DISTINCT] return_item ("," return_item)*
return_item: expr [AS NAME]
order_clause: ORDER BY sort_item ("," sort_item)*
sort_item: expr [sort_dir]
sort_dir: ASC | DESC | ASCENDING | DESCENDING
skip_clause: SKIP count_value
limit_clause: LIMIT count_value
count_value: INT | PARAM

PARAM: /\$[A-Za-z_][A-Za-z0-9_]*/
NAME: /[A-Za-z_][A-Za-z0-9_]*/
INT: /[0-9]+/
FLOAT: /[0-9]+\.[0-9]+([eE][-+]?[0-9]+)?/
STRING: /'(?:[^'\\]|\\.)*'/s | /"(?:[^"\\]|\\.)*"/s
COMMENT: /\/\/[^\n]*/ | /\/\*(.|\n)*?\*\//
%ignore /\s+/
%ignore COMMENT
"""
    + "\n".join(f"{kw.upper()}.2: /{kw}\\b/i" for kw in _KEYWORDS)
    + "\n"
)


@functools.cache
def _parser() -> Lark:
    """Built on first use: LALR analysis costs tens of milliseconds, which `qry --help` should not pay."""
    return Lark(
        _GRAMMAR, parser="lalr", lexer="contextual", propagate_positions=True, maybe_placeholders=True
    )


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
                _fail(
                    "syntax", f"bad escape {body[i : i + 6]!r} in a string", "write \\uXXXX with 4 hex digits"
                )
            i += 6
        else:
            _fail(
                "syntax",
                f"unknown escape \\{nxt} in a string",
                "escape only \\\\, \\', \\\", \\n, \\t, \\uXXXX",
            )
    return "".join(out)


class _ToAst(Transformer[Token, Any]):
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

    def where_clause(self, c: list[Any]) -> Any:
        return c[1]

    def pattern(self, c: list[Any]) -> tuple[PathPattern, ...]:
        return tuple(c)

    def path(self, c: list[Any]) -> PathPattern:
        return PathPattern(nodes=tuple(c[0::2]), rels=tuple(c[1::2]))

    def node_pattern(self, c: list[Any]) -> NodePattern:
        name, label, props = c
        return NodePattern(var=str(name) if name is not None else None, label=label, props=props or ())

    def label(self, c: list[Any]) -> str:
        return str(c[0])

    def prop_map(self, c: list[Any]) -> tuple[tuple[str, Any], ...]:
        return tuple(x for x in c if x is not None)

    def prop_entry(self, c: list[Any]) -> tuple[str, Any]:
        return (str(c[0]), c[1])

    def list_value(self, c: list[Any]) -> ListExpr:
        return ListExpr(tuple(x for x in c if x is not None))

    def _rel(self, detail: Any, direction: Literal["out", "in", "any"]) -> RelPattern:
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

    def literal(self, c: list[Any]) -> Any:
        return c[0]

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

    def count_value(self, c: list[Any]) -> Literal_ | Param:
        tok = c[0]
        return Param(str(tok)[1:]) if tok.type == "PARAM" else Literal_(int(tok))

    def skip_clause(self, c: list[Any]) -> tuple[str, Any]:
        return ("skip", c[1])

    def limit_clause(self, c: list[Any]) -> tuple[str, Any]:
        return ("limit", c[1])


def _describe_expected(expected: set[str]) -> str:
    parser = _parser()
    shown: list[str] = []
    for name in sorted(expected):
        try:
            term = parser.get_terminal(name)
        except KeyError:
            continue
        if name in ("NAME",):
            shown.append("a name")
        elif name == "PARAM":
            shown.append("a $parameter")
        elif name in ("INT", "FLOAT"):
            shown.append("a number")
        elif name == "STRING":
            shown.append("a string")
        elif name.upper() in (k.upper() for k in _KEYWORDS):
            shown.append(name.upper())
        elif term.pattern.type == "str":
            shown.append(repr(term.pattern.value))
        else:
            shown.append(name)
    shown = list(dict.fromkeys(shown))
    return ", ".join(shown[:12]) + (", ..." if len(shown) > 12 else "")


def parse_graph_query(text: str) -> GraphQuery:
    """Parse query text into a `GraphQuery`, or raise GraphQueryError (`syntax`, `read_only`,
    `unsupported`, `too_long`, `too_deep`). Parameters are kept as names; no value ever enters the text."""
    if len(text) > MAX_QUERY_CHARS:
        _fail(
            "too_long",
            f"the query is {len(text)} characters, over {MAX_QUERY_CHARS}",
            "write a shorter query",
        )
    try:
        tree = _parser().parse(text)  # LALR: iterative, any nesting parses
    except UnexpectedInput as exc:
        _raise_parse_error(text, exc)
    depth = _tree_depth(tree)
    if depth > MAX_NESTING:
        raise _too_deep(f"{depth} levels deep, over {MAX_NESTING}")
    try:
        query: GraphQuery = _ToAst(text).transform(tree)
    except VisitError as exc:
        if isinstance(exc.orig_exc, GraphQueryError):
            raise exc.orig_exc from None
        if isinstance(exc.orig_exc, RecursionError):
            raise _too_deep("too deeply for the stack") from None
        raise
    except RecursionError:  # a caller already deep in its own stack: the bound above did not suffice
        raise _too_deep("too deeply for the stack") from None
    return query


def _tree_depth(tree: Tree[Token]) -> int:
    """Levels of a lark tree, counted without recursion (the tree may be too deep to recurse over)."""
    best = 0
    stack: list[tuple[Tree[Token] | Token, int]] = [(tree, 1)]
    while stack:
        node, level = stack.pop()
        if level > best:
            best = level
        if isinstance(node, Tree):
            stack.extend((child, level + 1) for child in node.children if child is not None)
    return best


def _raise_parse_error(text: str, exc: UnexpectedInput) -> NoReturn:
    where = f"line {exc.line}, column {exc.column}"
    if isinstance(exc, UnexpectedToken):
        tok = exc.token
        word = str(tok).lower()
        if word in _READ_ONLY_WORDS:
            what = _READ_ONLY_WORDS[word]
            end = tok.end_pos
            rest = text[end:].split() if end is not None else []
            if word == "create" and rest and rest[0].lower() in ("index", "constraint"):
                what = f"CREATE {rest[0].upper()} is a schema operation"
            _fail(
                "read_only",
                f"{what} ({where}); the graph query profile is read-only",
                f"use only {_SHAPE}; for example {_EXAMPLE}",
            )
        if word in _UNSUPPORTED_WORDS:
            _fail(
                "unsupported",
                f"{str(tok).upper()} is not part of the bounded query profile ({where})",
                f"write the query as {_SHAPE}; chain patterns with commas or several MATCH clauses",
            )
        if tok.type == "$END":
            _fail(
                "syntax",
                f"the query ends early; expected {_describe_expected(exc.expected)}",
                f"complete the query; its shape is {_SHAPE}",
            )
        _fail(
            "syntax",
            f"unexpected {str(tok)!r} at {where}; expected {_describe_expected(exc.expected)}",
            f"the profile's shape is {_SHAPE}; for example {_EXAMPLE}",
        )
    if isinstance(exc, UnexpectedCharacters):
        pos = exc.pos_in_stream
        ch = text[pos] if pos is not None and pos < len(text) else ""
        _fail(
            "syntax",
            f"unexpected character {ch!r} at {where}",
            f"the profile's shape is {_SHAPE}; strings are quoted with ' or \", parameters are $name",
        )
    _fail("syntax", f"cannot parse the query at {where}", f"the profile's shape is {_SHAPE}")


# --------------------------------------------------------------------------------------------------
# Validation


class _Analysis(msgspec.Struct):
    """What validation learned and execution uses: variable roles and how ORDER BY is evaluated."""

    var_kinds: dict[str, str]  # name -> "node" | "rel" | "rel_list"
    aggregate: bool
    sort_columns: list[int | None]  # per sort item: the RETURN column it reads, or None (evaluate)


def _walk(expr: Any) -> Iterator[Any]:
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
    exprs: list[Any] = []
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


def validate(query: GraphQuery, params: Mapping[str, object], *, max_depth: int = 4) -> None:
    """Check a parsed query against the profile and the parameters; raise GraphQueryError if it breaks
    a rule (`unknown_label`, `unknown_relationship`, `unbounded_length`, `depth_cap`, `invalid_range`,
    `unknown_property`, `unknown_variable`, `variable_conflict`, `param_missing`, `param_type`,
    `unsupported`, `duplicate_column`, `invalid_limit`, `too_deep`)."""
    try:
        _analyse(query, params, max_depth=max_depth)
    except RecursionError:  # a GraphQuery built by hand, not by parse_graph_query's bounded parse
        raise _too_deep("too deeply for the stack") from None


def _analyse(query: GraphQuery, params: Mapping[str, object], *, max_depth: int) -> _Analysis:
    for name in dict.fromkeys(_params_in(query)):
        if name not in params:
            _fail(
                "param_missing",
                f"parameter ${name} is used but not given",
                f'pass it by name in params, e.g. {{"{name}": ...}}; values are bound, never spliced into the text',
            )
    for name, value in params.items():
        if not _param_value_ok(value):
            _fail(
                "param_type",
                f"parameter ${name} is a {type(value).__name__}",
                "parameters are strings, numbers, booleans, null, or lists of those",
            )

    var_kinds: dict[str, str] = {}
    for clause in query.matches:
        for path in clause.paths:
            for node in path.nodes:
                _check_node_pattern(node, var_kinds)
            for rel in path.rels:
                _check_rel_pattern(rel, var_kinds, max_depth)
        if clause.where is not None:
            _check_expr(clause.where, var_kinds, allow_aggregate=False, context="WHERE")

    aggregate = False
    columns: list[str] = []
    for item in query.items:
        if isinstance(item.expr, Call) and item.expr.name == "count":
            aggregate = True
            _check_count(item.expr, var_kinds)
        else:
            _check_expr(item.expr, var_kinds, allow_aggregate=False, context="RETURN")
        if item.column in columns:
            _fail(
                "duplicate_column",
                f"two RETURN items are both named {item.column!r}",
                "give one of them another name with AS",
            )
        columns.append(item.column)

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
                _fail(
                    "unsupported",
                    "with DISTINCT or count(), ORDER BY can only use returned columns",
                    "order by a RETURN item's alias (RETURN g.name AS name ... ORDER BY name) or repeat its expression",
                )
            _check_expr(sort.expr, var_kinds, allow_aggregate=False, context="ORDER BY")
        sort_columns.append(col)

    for label, value in (("SKIP", query.skip), ("LIMIT", query.limit)):
        if value is None:
            continue
        n = params.get(value.name) if isinstance(value, Param) else value.value
        if not isinstance(n, int) or isinstance(n, bool) or n < 0:
            _fail("invalid_limit", f"{label} must be a non-negative integer, not {n!r}", f"write {label} 20")
    return _Analysis(var_kinds=var_kinds, aggregate=aggregate, sort_columns=sort_columns)


def _param_value_ok(value: object) -> bool:
    if value is None or isinstance(value, str | int | float | bool):
        return True
    if isinstance(value, list | tuple):
        return all(v is None or isinstance(v, str | int | float | bool) for v in value)
    return False


def _check_node_pattern(node: NodePattern, var_kinds: dict[str, str]) -> None:
    if node.label is not None and node.label.lower() not in NODE_LABELS:
        _fail(
            "unknown_label",
            f"node label :{node.label} is not in the vocabulary",
            f"use one of {', '.join(sorted(NODE_LABELS))} (`node` means any kind)",
        )
    for key, _ in node.props:
        _check_prop_key(key, "node")
    if node.var is not None:
        seen = var_kinds.setdefault(node.var, "node")
        if seen != "node":
            _fail(
                "variable_conflict", f"{node.var} names a relationship and a node", "use two different names"
            )


def _check_rel_pattern(rel: RelPattern, var_kinds: dict[str, str], max_depth: int) -> None:
    for t in rel.types:
        if t.lower() not in REL_TYPES:
            _fail(
                "unknown_relationship",
                f"relationship type :{t} is not in the vocabulary",
                f"use one of {', '.join(REL_TYPES)}, or alternatives like [:calls|imports]",
            )
    if rel.variable:
        if rel.max_hops is None:
            _fail(
                "unbounded_length",
                "a variable-length relationship needs an upper bound",
                f"write *1..{max_depth} (or *..2, *2) instead of * or *{rel.min_hops}..",
            )
        if rel.max_hops > max_depth:
            _fail(
                "depth_cap",
                f"variable length *..{rel.max_hops} is deeper than the cap of {max_depth}",
                f"use an upper bound of at most {max_depth}, e.g. *1..{max_depth}",
            )
        if rel.min_hops > rel.max_hops:
            _fail(
                "invalid_range",
                f"the range *{rel.min_hops}..{rel.max_hops} is empty",
                "write the smaller bound first, e.g. *1..3",
            )
    for key, _ in rel.props:
        _check_prop_key(key, "rel")
    if rel.var is not None:
        if rel.var in var_kinds:
            _fail(
                "variable_conflict",
                f"{rel.var} is already bound; a relationship variable can be used in one pattern only",
                "give each relationship its own name",
            )
        var_kinds[rel.var] = "rel_list" if rel.variable else "rel"


def _check_prop_key(key: str, role: str) -> None:
    allowed = NODE_PROPS if role == "node" else REL_PROPS
    if key not in allowed:
        what = "nodes" if role == "node" else "relationships"
        _fail("unknown_property", f"{what} have no property {key!r}", f"{what} have: {', '.join(allowed)}")


def _check_count(call: Call, var_kinds: dict[str, str]) -> None:
    if call.star:
        return
    if len(call.args) != 1:
        _fail("unsupported", "count() takes one argument", "write count(*), count(v) or count(DISTINCT v)")
    _check_expr(call.args[0], var_kinds, allow_aggregate=False, context="count()")


def _check_expr(expr: Any, var_kinds: dict[str, str], *, allow_aggregate: bool, context: str) -> None:
    for sub in _walk(expr):
        if isinstance(sub, Var | Prop):
            name = sub.name if isinstance(sub, Var) else sub.var
            if name not in var_kinds:
                _fail(
                    "unknown_variable",
                    f"{name} is not bound by any pattern (in {context})",
                    f"bind it in a MATCH pattern first, e.g. MATCH ({name}) ...",
                )
            if isinstance(sub, Prop):
                role = var_kinds[name]
                if role == "rel_list":
                    _fail(
                        "unsupported",
                        f"{name} is a variable-length relationship (a list); it has no property {sub.key!r}",
                        "return the variable itself, or drop the * range",
                    )
                _check_prop_key(sub.key, "node" if role == "node" else "rel")
        elif isinstance(sub, Call):
            if sub.name == "count":
                _fail(
                    "unsupported",
                    f"count() can only be a whole RETURN item, not part of {context}",
                    "write RETURN v.name, count(*) AS n ... ORDER BY n",
                )
            if sub.name != "type":
                _fail(
                    "unsupported",
                    f"function {sub.name}() is not in the profile",
                    "only count(*), count(v), count(DISTINCT v) and type(r) are available",
                )
            if sub.star or len(sub.args) != 1 or not isinstance(sub.args[0], Var):
                _fail("unsupported", "type() takes one relationship variable", "write type(r)")
            arg = sub.args[0].name
            if var_kinds.get(arg) != "rel":
                _fail(
                    "unsupported",
                    f"type() needs a single-hop relationship variable; {arg} is not one",
                    "bind it with -[r:calls]-> (no * range)",
                )


# --------------------------------------------------------------------------------------------------
# Execution


class _Budget:
    """The wall-clock budget, checked in every matcher loop (a perf_counter read costs ~50 ns)."""

    __slots__ = ("budget_ms", "deadline")

    def __init__(self, budget_ms: float) -> None:
        self.budget_ms = budget_ms
        self.deadline = time.perf_counter() + budget_ms / 1000.0

    def check(self) -> None:
        if time.perf_counter() > self.deadline:
            _fail(
                "timeout",
                f"the query ran past its {self.budget_ms:g} ms budget",
                "narrow the start node with properties ({name: $name}), lower the * range, or add a LIMIT",
            )


class _NodeSpec(msgspec.Struct):
    var: str
    kind: str | None  # lower-cased label; None for any
    props: dict[str, object]
    uid: int | None  # from a {uid: ...} property
    find_props: dict[str, str]
    no_match: bool = False  # a property can never match (e.g. a malformed uid)


class _RelSpec(msgspec.Struct):
    var: str | None
    kinds: tuple[str, ...]
    direction: Literal["out", "in", "any"]
    variable: bool
    min_hops: int
    max_hops: int
    props: dict[str, object]


class _PathPlan(msgspec.Struct):
    nodes: list[_NodeSpec]
    rels: list[_RelSpec]
    start: int
    steps: list[tuple[int, int, int, bool]]  # (rel index, from node, to node, forward)


class _ClausePlan(msgspec.Struct):
    optional: bool
    paths: list[_PathPlan]
    where: Any
    new_vars: list[str]


Row = dict[str, Any]


def _cy_eq(a: object, b: object) -> bool | None:
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
            eq = _cy_eq(x, y)
            if eq is False:
                return False
            if eq is None:
                result = None
        return result
    if type(a) is not type(b):
        return False
    return a == b


def _cy_order(op: str, a: object, b: object) -> bool | None:
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


def _order_key(value: object) -> tuple[Any, ...]:
    """openCypher orderability, ascending: maps/nodes, relationships, lists, strings, booleans, numbers, null."""
    if value is None:
        return (9,)
    if isinstance(value, GraphNode):
        return (0, value.uid)
    if isinstance(value, Edge):
        return (1, value.src, value.dst, value.kind, value.line)
    if isinstance(value, list | tuple):
        return (3, tuple(_order_key(v) for v in value))
    if isinstance(value, str):
        return (5, value)
    if isinstance(value, bool):
        return (6, value)
    if isinstance(value, int | float):
        return (7, value)
    if isinstance(value, dict):
        return (0, tuple(sorted((k, _order_key(v)) for k, v in value.items())))
    return (8, repr(value))


def _freeze(value: object) -> object:
    """A hashable stand-in for grouping and DISTINCT (lists become tuples; 1 and 1.0 group, True does not)."""
    if isinstance(value, list | tuple):
        return ("list", tuple(_freeze(v) for v in value))
    if isinstance(value, bool):
        return ("bool", value)
    if isinstance(value, int | float):
        return ("num", float(value))
    return value


def _node_prop(node: GraphNode, key: str) -> object:
    if key == "uid":
        return uid_hex(node.uid)
    value: object = getattr(node, key)
    return value


def _edge_prop(edge: Edge, key: str) -> object:
    value: object = getattr(edge, key)
    return value


def _node_out(node: GraphNode) -> dict[str, object]:
    return {key: _node_prop(node, key) for key in NODE_PROPS}


def _edge_out(edge: Edge) -> dict[str, object]:
    return {
        "kind": edge.kind,
        "src": uid_hex(edge.src),
        "dst": uid_hex(edge.dst),
        "line": edge.line,
        "ambiguous": edge.ambiguous,
    }


def _to_output(value: object) -> object:
    if isinstance(value, GraphNode):
        return _node_out(value)
    if isinstance(value, Edge):
        return _edge_out(value)
    if isinstance(value, list | tuple):
        return [_to_output(v) for v in value]
    return value


class _Executor:
    def __init__(
        self,
        view: GraphView,
        query: GraphQuery,
        params: Mapping[str, object],
        analysis: _Analysis,
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
        self.clauses = self._plan()

    # planning ---------------------------------------------------------------------------------------

    def _value(self, expr: Any) -> object:
        if isinstance(expr, Param):
            return self.params[expr.name]
        if isinstance(expr, ListExpr):
            return [self._value(x) for x in expr.items]
        return expr.value

    def _plan(self) -> list[_ClausePlan]:
        bound: set[str] = set()
        clauses: list[_ClausePlan] = []
        anon = 0
        for clause in self.query.matches:
            before = set(bound)
            paths: list[tuple[list[_NodeSpec], list[_RelSpec]]] = []
            for path in clause.paths:
                nodes: list[_NodeSpec] = []
                for n in path.nodes:
                    var = n.var
                    if var is None:
                        anon += 1
                        var = f" n{anon}"  # a space: no user variable can collide with it
                    nodes.append(self._node_spec(var, n))
                rels = [self._rel_spec(r) for r in path.rels]
                paths.append((nodes, rels))
            # Greedy: the path whose best start node is most selective goes first, given what is bound.
            planned: list[_PathPlan] = []
            remaining = list(range(len(paths)))
            while remaining:
                best = max(
                    remaining,
                    key=lambda i: (max(self._selectivity(s, bound) for s in paths[i][0]), -i),
                )
                remaining.remove(best)
                nodes, rels = paths[best]
                scores = [self._selectivity(s, bound) for s in nodes]
                start = scores.index(max(scores))
                steps = [(j, j, j + 1, True) for j in range(start, len(rels))]
                steps += [(j, j + 1, j, False) for j in range(start - 1, -1, -1)]
                planned.append(_PathPlan(nodes=nodes, rels=rels, start=start, steps=steps))
                bound.update(s.var for s in nodes)
                bound.update(r.var for r in rels if r.var is not None)
            clauses.append(
                _ClausePlan(
                    optional=clause.optional,
                    paths=planned,
                    where=clause.where,
                    new_vars=sorted(bound - before),
                )
            )
        return clauses

    @staticmethod
    def _selectivity(spec: _NodeSpec, bound: set[str]) -> int:
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

    def _node_spec(self, var: str, pattern: NodePattern) -> _NodeSpec:
        props = {key: self._value(v) for key, v in pattern.props}
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
        find_props = {k: v for k, v in props.items() if k in _FIND_PROPS and isinstance(v, str)}
        return _NodeSpec(var=var, kind=kind, props=props, uid=uid, find_props=find_props, no_match=no_match)

    def _rel_spec(self, pattern: RelPattern) -> _RelSpec:
        kinds = tuple(dict.fromkeys(t.lower() for t in pattern.types)) or REL_TYPES
        return _RelSpec(
            var=pattern.var,
            kinds=kinds,
            direction=pattern.direction,
            variable=pattern.variable,
            min_hops=pattern.min_hops,
            max_hops=pattern.max_hops if pattern.max_hops is not None else 1,
            props={key: self._value(v) for key, v in pattern.props},
        )

    # graph access ----------------------------------------------------------------------------------

    def _node(self, uid: int) -> GraphNode | None:
        if uid not in self._nodes:
            self._nodes[uid] = self.view.node(uid)
        return self._nodes[uid]

    def _node_ok(self, node: GraphNode, spec: _NodeSpec) -> bool:
        if spec.no_match:
            return False
        if spec.uid is not None and node.uid != spec.uid:
            return False
        if spec.kind is not None and node.kind != spec.kind:
            return False
        return all(_cy_eq(_node_prop(node, k), v) is True for k, v in spec.props.items())

    def _edge_ok(self, edge: Edge, spec: _RelSpec) -> bool:
        return all(_cy_eq(_edge_prop(edge, k), v) is True for k, v in spec.props.items())

    def _start_candidates(self, row: Row, spec: _NodeSpec) -> list[int]:
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

    def _apply_clause(self, rows: Iterator[Row], clause: _ClausePlan) -> Iterator[Row]:
        for row in rows:
            self.budget.check()
            matched = False
            for out in self._match_paths(row, clause.paths, 0, set()):
                if clause.where is None or self._eval(clause.where, out) is True:
                    matched = True
                    yield out
            if clause.optional and not matched:
                nulls = dict(row)
                for var in clause.new_vars:
                    nulls.setdefault(var, None)
                yield nulls

    def _match_paths(self, row: Row, paths: list[_PathPlan], i: int, used: set[Edge]) -> Iterator[Row]:
        if i == len(paths):
            yield row
            return
        for out in self._match_path(row, paths[i], used):
            yield from self._match_paths(out, paths, i + 1, used)

    def _match_path(self, row: Row, plan: _PathPlan, used: set[Edge]) -> Iterator[Row]:
        spec = plan.nodes[plan.start]
        for uid in self._start_candidates(row, spec):
            self.budget.check()
            node = self._node(uid)
            if node is None or not self._node_ok(node, spec):
                continue
            yield from self._walk(row if spec.var in row else {**row, spec.var: node}, plan, 0, used)

    def _bind_target(self, row: Row, spec: _NodeSpec, uid: int) -> Row | None:
        if spec.var in row:
            current = row[spec.var]
            if not isinstance(current, GraphNode) or current.uid != uid or not self._node_ok(current, spec):
                return None
            return row
        node = self._node(uid)
        if node is None or not self._node_ok(node, spec):
            return None
        return {**row, spec.var: node}

    def _walk(self, row: Row, plan: _PathPlan, k: int, used: set[Edge]) -> Iterator[Row]:
        if k == len(plan.steps):
            yield row
            return
        j, a, b, forward = plan.steps[k]
        rel = plan.rels[j]
        here = row[plan.nodes[a].var]
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
        self, start: int, rel: _RelSpec, direction: str, used: set[Edge]
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

    # expressions -----------------------------------------------------------------------------------

    def _eval(self, expr: Any, row: Row) -> Any:
        if isinstance(expr, Literal_):
            return expr.value
        if isinstance(expr, Param):
            return self.params[expr.name]
        if isinstance(expr, Var):
            return row.get(expr.name)
        if isinstance(expr, Prop):
            value = row.get(expr.var)
            if isinstance(value, GraphNode):
                return _node_prop(value, expr.key)
            if isinstance(value, Edge):
                return _edge_prop(value, expr.key)
            return None
        if isinstance(expr, ListExpr):
            return [self._eval(x, row) for x in expr.items]
        if isinstance(expr, Not):
            v = self._eval(expr.operand, row)
            return (not v) if isinstance(v, bool) else None
        if isinstance(expr, BoolOp):
            left = self._truth(self._eval(expr.left, row))
            if expr.op == "AND":
                if left is False:
                    return False
                right = self._truth(self._eval(expr.right, row))
                if right is False:
                    return False
                return True if left is True and right is True else None
            if left is True:
                return True
            right = self._truth(self._eval(expr.right, row))
            if right is True:
                return True
            return False if left is False and right is False else None
        if isinstance(expr, IsNull):
            is_null = self._eval(expr.operand, row) is None
            return not is_null if expr.negated else is_null
        if isinstance(expr, Compare):
            return self._compare(expr.op, self._eval(expr.left, row), self._eval(expr.right, row))
        if isinstance(expr, Call) and expr.name == "type":
            value = row.get(expr.args[0].name)
            return value.kind if isinstance(value, Edge) else None
        raise AssertionError(f"unexpected expression {expr!r}")  # validate() rules the rest out

    @staticmethod
    def _truth(value: object) -> bool | None:
        return value if isinstance(value, bool) else None

    @staticmethod
    def _compare(op: str, left: object, right: object) -> bool | None:
        if op == "=":
            return _cy_eq(left, right)
        if op == "<>":
            eq = _cy_eq(left, right)
            return None if eq is None else not eq
        if op in ("<", "<=", ">", ">="):
            return _cy_order(op, left, right)
        if op == "IN":
            if left is None or not isinstance(right, list | tuple):
                return None
            saw_null = False
            for item in right:
                eq = _cy_eq(left, item)
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

    # projection ------------------------------------------------------------------------------------

    def rows(self, skip: int, limit: int) -> tuple[list[list[object]], bool]:
        items = self.query.items
        order = self.query.order
        if not self.analysis.aggregate and not order:
            projected: Iterator[tuple[list[Any], Row]] = (
                ([self._eval(it.expr, b) for it in items], b) for b in self.bindings()
            )
            if self.query.distinct:
                projected = self._distinct(projected)
            taken: list[list[object]] = []
            for values, _ in projected:
                taken.append(values)
                if len(taken) > skip + limit:
                    break
            truncated = len(taken) > skip + limit
            return [[_to_output(v) for v in r] for r in taken[skip : skip + limit]], truncated
        pairs: list[tuple[list[Any], Row]]
        if self.analysis.aggregate:
            pairs = [(values, {}) for values in self._aggregate()]
        else:
            pairs = [([self._eval(it.expr, b) for it in items], b) for b in self.bindings()]
        if self.query.distinct:
            pairs = list(self._distinct(iter(pairs)))
        if order:
            pairs = self._sort(pairs)
        truncated = len(pairs) > skip + limit
        return [[_to_output(v) for v in values] for values, _ in pairs[skip : skip + limit]], truncated

    def _distinct(self, pairs: Iterator[tuple[list[Any], Row]]) -> Iterator[tuple[list[Any], Row]]:
        seen: set[tuple[object, ...]] = set()
        for values, row in pairs:
            self.budget.check()
            key = tuple(_freeze(v) for v in values)
            if key not in seen:
                seen.add(key)
                yield values, row

    def _aggregate(self) -> list[list[Any]]:
        items = self.query.items
        is_agg = [isinstance(it.expr, Call) and it.expr.name == "count" for it in items]
        groups: dict[tuple[object, ...], tuple[list[Any], list[Any]]] = {}
        for row in self.bindings():
            self.budget.check()
            keys = [None if agg else self._eval(it.expr, row) for it, agg in zip(items, is_agg, strict=True)]
            gkey = tuple(_freeze(v) for v, agg in zip(keys, is_agg, strict=True) if not agg)
            if gkey not in groups:
                states: list[Any] = [
                    set() if agg and it.expr.distinct else 0 for it, agg in zip(items, is_agg, strict=True)
                ]
                groups[gkey] = (keys, states)
            _, states = groups[gkey]
            for i, (it, agg) in enumerate(zip(items, is_agg, strict=True)):
                if not agg:
                    continue
                call: Call = it.expr
                if call.star:
                    states[i] += 1
                    continue
                value = self._eval(call.args[0], row)
                if value is None:
                    continue
                if call.distinct:
                    states[i].add(_freeze(value))
                else:
                    states[i] += 1
        if not groups and all(is_agg):
            return [[0 for _ in items]]
        out: list[list[Any]] = []
        for keys, states in groups.values():
            out.append(
                [
                    (len(s) if isinstance(s, set) else s) if agg else k
                    for k, s, agg in zip(keys, states, is_agg, strict=True)
                ]
            )
        return out

    def _sort(self, pairs: list[tuple[list[Any], Row]]) -> list[tuple[list[Any], Row]]:
        # Stable sorts from the last key to the first give a lexicographic order with mixed directions.
        result = list(pairs)
        for sort, col in reversed(list(zip(self.query.order, self.analysis.sort_columns, strict=True))):
            self.budget.check()

            def key(
                pair: tuple[list[Any], Row], sort: SortItem = sort, col: int | None = col
            ) -> tuple[Any, ...]:
                value = pair[0][col] if col is not None else self._eval(sort.expr, pair[1])
                return _order_key(value)

            result.sort(key=key, reverse=sort.descending)
        return result


def run_graph_query(
    view: GraphView,
    text: str,
    params: Mapping[str, object] | None = None,
    *,
    limit_default: int = 100,
    limit_cap: int = 1000,
    max_depth: int = 4,
    budget_ms: float = 250.0,
) -> GraphQueryResult:
    """Parse, validate and run one bounded query; raise GraphQueryError naming the broken rule.

    LIMIT defaults to `limit_default` and is capped at `limit_cap`. `truncated` is true whenever more
    rows existed than were returned (a LIMIT, the cap, or a start-node scan over SCAN_CAP nodes cut
    them). The budget covers matching and projection (not parsing), checked in every matcher loop;
    `elapsed_ms` covers everything.

    Example:
        run_graph_query(view, "MATCH (f:function {name: $name})<-[:calls*1..2]-(g) "
                              "RETURN DISTINCT g.qualified_name, g.path LIMIT 20", {"name": "charge"})
    """
    started = time.perf_counter()
    params = dict(params or {})
    query = parse_graph_query(text)
    try:
        analysis = _analyse(query, params, max_depth=max_depth)
        skip = _count_value(query.skip, params, 0)
        limit = min(_count_value(query.limit, params, limit_default), limit_cap)
        # The budget starts after parsing, so the one-off grammar build (~50 ms) never times a query out.
        executor = _Executor(view, query, params, analysis, _Budget(budget_ms))
        rows, truncated = executor.rows(skip, limit)
    except RecursionError:  # validation and evaluation recurse once per nesting level
        raise _too_deep("too deeply for the stack") from None
    return GraphQueryResult(
        columns=[item.column for item in query.items],
        rows=rows,
        truncated=truncated or executor.scan_capped,
        elapsed_ms=(time.perf_counter() - started) * 1000.0,
    )


def _count_value(value: Literal_ | Param | None, params: Mapping[str, object], default: int) -> int:
    if value is None:
        return default
    n = params[value.name] if isinstance(value, Param) else value.value
    assert isinstance(n, int)  # validate() checked it
    return n


__all__ = [
    "GraphQuery",
    "GraphQueryResult",
    "parse_graph_query",
    "run_graph_query",
    "validate",
]
