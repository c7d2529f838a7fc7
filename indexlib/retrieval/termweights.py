"""The BM25 multipliers a query's own words get: what it writes as code up, its project's name down.

Owns: composing the per-term factors the BM25 stream scores a query with, beside the workspace's
(`SearchRequest.term_boosts`): backticked words (`code_span`), an identifier's whole joined name
(`mention`), and a sentence's word naming the searched project (`project`, projectname.py). Each is
a signal `Signals.without(name)` switches off for an ablation.
"""

from __future__ import annotations

from collections.abc import Mapping

from indexlib.analyzer import split_identifier
from indexlib.retrieval import streams
from indexlib.retrieval.names import last_name_part
from indexlib.retrieval.projectname import project_name_boosts
from indexlib.retrieval.query import Query, Route, identifier_of
from indexlib.retrieval.request import SearchRequest
from indexlib.snapshot import Snapshot


def bm25_boosts(snap: Snapshot, q: Query, route: Route, opts: SearchRequest) -> Mapping[str, float]:
    """term -> BM25 multiplier for `q` searched by `opts` over `snap`."""
    sig = opts.signals
    code = 1.0 + sig.code_span_boost if "code_span" in sig.enabled else 1.0
    boosts = streams.code_span_boosts(q, opts.term_boosts, code)
    whole = whole_name(q, route)
    if whole and "mention" in sig.enabled:
        # The name typed whole weighs more than its words: `max_connections` is not `max` and `connections`.
        boosts = {**boosts, whole: boosts.get(whole, 1.0) * (1.0 + sig.mention_bm25_boost)}
    if route is Route.NATURAL and "project" in sig.enabled:
        boosts = project_name_boosts(snap, q, boosts, sig.project_name_weight)
    return boosts


def whole_name(q: Query, route: Route) -> str:
    """The term an identifier query's multi-word name is indexed as when spelled whole (`max_connections`
    and `maxConnections` -> `maxconnections`), or "" (one word is matched by BM25 alone)."""
    name = identifier_of(q, route) if route is Route.IDENTIFIER else None
    if not name:
        return ""
    parts = split_identifier(last_name_part(name))
    return "".join(parts).lower() if len(parts) > 1 else ""
