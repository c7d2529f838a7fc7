"""The bounds and defaults of a search request: the one table every surface reads. Pure, imports nothing.

Owns: how many results, how wide a snippet, how deep the graph, which retrieval modes exist, and the
tighter bounds a server sets for agents (`SERVED_BOUNDS`). The CLI's option table, the MCP server's
tool schemas and the library's validation all read these numbers, so they cannot drift apart.
Does not own: checking a request against them and the error texts (request.py).

Why a module with no imports: `cli/options.py` reads the defaults on the fast path of `qry search`,
which must not load msgspec before it strips `typing_extensions` (see cli/fastpath.py).
"""

from typing import NamedTuple

DEFAULT_MODE = "hybrid"
SEARCH_MODES = (DEFAULT_MODE, "lexical", "semantic", "symbol")
RRF_K = 60  # Reciprocal Rank Fusion's k: why 60 is in fusion.py


class Bound(NamedTuple):
    """An inclusive integer range and the value used when none is given (None: off unless asked)."""

    lo: int
    hi: int | None  # None: no upper bound
    default: int | None = None


class SearchBounds(NamedTuple):
    """One set of bounds; `None` for a value a surface does not bound."""

    top_k: Bound
    snippet_chars: Bound
    graph_depth: Bound  # graph expansion around each hit (0: only parents)
    related_depth: Bound  # call steps `qry related` / `get_related` walk
    rrf_k: Bound
    budget_tokens: Bound | None = None
    query_chars: Bound | None = None
    related_limit: Bound = Bound(1, 1000, 50)  # rows `qry related` / `get_related` list


SEARCH_BOUNDS = SearchBounds(
    top_k=Bound(1, 1000, 10),
    snippet_chars=Bound(80, 4000, 600),
    graph_depth=Bound(0, 4, 1),
    related_depth=Bound(1, 4, 1),
    rrf_k=Bound(1, None, RRF_K),
    # --budget-tokens: any positive budget (the best hit is always kept, so 1 means "just the best");
    # 0 or less has no meaning, and once passed silently as "one hit".
    budget_tokens=Bound(1, None),
)

# An agent over the MCP server: a smaller answer (its context is the cost), a bounded budget and query.
SERVED_BOUNDS = SEARCH_BOUNDS._replace(
    top_k=Bound(1, 100, 10),
    budget_tokens=Bound(100, 100_000),
    query_chars=Bound(1, 2000),
    related_limit=Bound(1, 200, 50),
)
