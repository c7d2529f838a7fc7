"""The bounded openCypher profile: grammar, validation, and execution over a `GraphView`.

Owns: the only way into the graph by query text. `parse_graph_query` turns text into a `GraphQuery`
with a lark LALR grammar (never regular expressions over the text), `validate` checks it against the
profile's rules and the parameters, and `run_graph_query` executes it within a row cap and a wall-clock
budget. The modules, in the order a query passes through them:

- profile.py: the vocabularies and bounds, and the error every rule raises;
- grammar.py: the grammar text and its parse errors (the only importer of lark);
- ast.py: the typed syntax tree; transform.py: parse tree -> AST (`parse_graph_query`);
- validate.py: the profile's rules (`validate`); plan.py: patterns -> match specs and order;
- values.py: openCypher value semantics; execute.py: matching and projection (`run_graph_query`).

Does not own: the graph itself (a `GraphView`, see expand.py; the snapshot implements it), turning
errors into tool results (the caller calls `GraphQueryError.to_dict()`), or ranking.

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
- bounded time: a wall-clock budget (`TIME_BUDGET_MS`, 2 s) checked inside every matcher loop.
- parameters bind by name (`$name`) as values; their text is never put into the query.

Semantics follow openCypher where the profile overlaps it: one row per matched path, relationship
uniqueness within a MATCH clause, three-valued logic for null in WHERE, OPTIONAL MATCH yielding nulls,
implicit grouping by the non-aggregate RETURN items, nulls last in ascending order.
"""

from __future__ import annotations

from indexlib.graph.query.ast import (
    BoolOp,
    Call,
    Compare,
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
    RelPattern,
    ReturnItem,
    SortItem,
    Var,
)
from indexlib.graph.query.execute import GraphQueryResult, run_graph_query
from indexlib.graph.query.profile import (
    ANY_LABEL,
    MAX_NESTING,
    MAX_QUERY_CHARS,
    NODE_LABELS,
    NODE_PROPS,
    REL_PROPS,
    REL_TYPES,
    SCAN_CAP,
    TIME_BUDGET_MS,
)
from indexlib.graph.query.transform import parse_graph_query
from indexlib.graph.query.validate import validate

__all__ = [
    "ANY_LABEL",
    "MAX_NESTING",
    "MAX_QUERY_CHARS",
    "NODE_LABELS",
    "NODE_PROPS",
    "REL_PROPS",
    "REL_TYPES",
    "SCAN_CAP",
    "TIME_BUDGET_MS",
    "BoolOp",
    "Call",
    "Compare",
    "Expr",
    "GraphQuery",
    "GraphQueryResult",
    "IsNull",
    "ListExpr",
    "Literal_",
    "MatchClause",
    "NodePattern",
    "Not",
    "Param",
    "PathPattern",
    "Prop",
    "RelPattern",
    "ReturnItem",
    "SortItem",
    "Var",
    "parse_graph_query",
    "run_graph_query",
    "validate",
]
