"""The bounded profile's vocabulary and bounds, and the one way its rules fail.

Owns: the closed vocabularies (node labels, relationship types, properties), the size and nesting
bounds every stage shares, and `fail` / `too_deep`, which build the `GraphQueryError` each rule raises
(its `code` names the rule, its hint says what to write instead).

Does not own: checking the rules (grammar.py for syntax, validate.py for the rest, execute.py for time).
"""

from __future__ import annotations

from typing import NoReturn

from indexlib.errors import GraphQueryError
from indexlib.records import NodeKind, RefKind

MAX_QUERY_CHARS = 10_000
# Most levels of the parse tree (a plain query has ~10; each NOT, [ or AND/OR term adds one). The AST
# builder, validation and execution recurse once per level, so without this bound a few hundred `NOT`s
# (well under MAX_QUERY_CHARS) would exhaust Python's stack; a fixed bound answers the same wherever
# the caller's stack is (the CLI, the MCP server's threads).
MAX_NESTING = 200
MAX_PATH_DEPTH = 4  # most hops a variable-length relationship (`*1..N`) may take
SCAN_CAP = 100_000  # most nodes one node pattern may start from; beyond it the answer is `truncated`
# Wall-clock budget of matching and projection (parsing not included), the CLI's and MCP's alike. A
# whole-graph `MATCH (n) RETURN count(n)` over 4k nodes takes ~50 ms (~120 ms cold); 2 s leaves room
# for a loaded 2-core machine and one- or two-hop patterns over such a graph, and still stops a
# runaway `*1..4` walk before an agent's tool call would time out.
TIME_BUDGET_MS = 2000.0
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
FIND_PROPS = frozenset({"name", "qualified_name", "path", "language", "kind"})

EXAMPLE = "MATCH (f:function {name: $name})<-[:calls*1..2]-(g) RETURN g.qualified_name, g.path LIMIT 20"
SHAPE = "MATCH / OPTIONAL MATCH <pattern> [WHERE ...] RETURN ... [ORDER BY ...] [SKIP n] [LIMIT n]"


def fail(code: str, message: str, hint: str) -> NoReturn:
    raise GraphQueryError(f"{code}: {message}", hint=hint, code=code)


def too_deep(detail: str) -> GraphQueryError:
    """The `too_deep` error; returned, so callers can `raise ... from None` out of a RecursionError."""
    return GraphQueryError(
        f"too_deep: the query nests {detail}",
        hint=f"nest NOT, [ ] and AND/OR chains at most {MAX_NESTING} levels deep; "
        "e.g. write n.name IN ['a', 'b'] instead of a long OR of equalities",
        code="too_deep",
    )
