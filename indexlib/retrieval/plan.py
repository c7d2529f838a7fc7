"""The plan of one search: its route, which streams run and their fusion weights, decided before the
streams run. Pure: no engine, no I/O.

Owns: reading the request's mode and the query's route into a `Plan` (`plan`), and the one decision
that waits for an outcome, taken as a step of the plan rather than inside the execution (`settle`):
whether the symbol stream found a definition the words spell, which re-routes prose as keywords and
lets the dense stream (and the model) be skipped; and whether the dense stream can run at all on an
index without vectors. Does not own: running the streams, fusing or ranking (search.py, fusion.py).
"""

from __future__ import annotations

from typing import NamedTuple

import msgspec

from indexlib.errors import UsageError
from indexlib.records import StreamHit
from indexlib.retrieval.declared import declared_name
from indexlib.retrieval.fusion import ROUTE_WEIGHTS
from indexlib.retrieval.query import Query, Route, classify
from indexlib.retrieval.request import SearchRequest

# The streams each mode runs; the lexical ones (bm25, symbol) run first, in this order.
LEXICAL_STREAMS: dict[str, tuple[str, ...]] = {
    "hybrid": ("bm25", "symbol"),
    "lexical": ("bm25", "symbol"),
    "symbol": ("symbol",),
    "semantic": (),
}
DENSE_MODES = ("hybrid", "semantic")


class VectorState(NamedTuple):
    """What the root holds for the dense stream: vectors, or a description of those being built."""

    present: bool
    coming: str | None = None  # e.g. `vectors being built: 40% (...)`, for this root only


class Plan(msgspec.Struct, kw_only=True):
    """What a search will do. `dense` is what the mode allows until `settle` decides it."""

    mode: str
    route: Route
    lexical: tuple[str, ...]
    dense: bool
    weights: dict[str, float] | None  # per stream, for RRF; None: all streams weigh the same
    notes: list[str] = msgspec.field(default_factory=list)  # what `settle` decided, for SearchMeta
    # The files a prose query's backticked modules name (scope.module_files): BM25 and fusion weigh
    # them as a scope's, read once per query.
    modules: list[str] = msgspec.field(default_factory=list)
    # The nodes spelling an identifier query's multi-word name whole (streams.spelled_whole): BM25
    # takes them in as candidates and fusion into its head, read once per query.
    spelled: list[StreamHit] = msgspec.field(default_factory=list)


def plan(q: Query, request: SearchRequest) -> Plan:
    """The plan as far as the query and the request decide it."""
    route = classify(q)
    return Plan(
        mode=request.mode,
        route=route,
        lexical=LEXICAL_STREAMS[request.mode],
        dense=request.mode in DENSE_MODES,
        weights=_weights(request.mode, route),
    )


def settle(p: Plan, q: Query, request: SearchRequest, *, name_lead: bool, vectors: VectorState) -> Plan:
    """The plan once the lexical streams ran; `name_lead`: the symbol stream's best match spells a
    definition's name (a joined, qualified or exact name match).

    Raises UsageError for a semantic search of an index without vectors.
    """
    route, notes = p.route, []
    declares = route is Route.SIGNATURE and declared_name(q.text) is not None
    if "symbol" in p.lexical and route in (Route.NATURAL, Route.SIGNATURE) and name_lead and not declares:
        # The words spell a definition's name (`do open` = do_open, `from ast` = from_ast): route
        # as keywords, whatever function words or keywords the name happens to contain. A signature
        # (`def parse(path: str)`) found the name it declares: it stays a signature, its other words
        # choosing among same-named definitions.
        route = Route.KEYWORDS
        notes.append("routed as keywords: the words spell a definition's name")
    dense = p.dense and _dense_runs(p.mode, route, q, request, name_lead, vectors, notes)
    return msgspec.structs.replace(p, route=route, dense=dense, weights=_weights(p.mode, route), notes=notes)


def _dense_runs(
    mode: str,
    route: Route,
    q: Query,
    request: SearchRequest,
    name_lead: bool,
    vectors: VectorState,
    notes: list[str],
) -> bool:
    """Whether the dense stream runs; a reason it does not goes to `notes`."""
    if not vectors.present:
        if mode == "semantic":
            if vectors.coming is not None:
                raise UsageError(
                    f"this index has no vectors yet ({vectors.coming})",
                    hint="search again when they are done (qry status shows progress), or use --mode lexical",
                )
            raise UsageError(
                "this index has no vectors", hint="index with embeddings: qry index PATH --embed onnx"
            )
        if vectors.coming is not None:
            notes.append(f"dense stream skipped: {vectors.coming}")
        else:
            notes.append("dense stream skipped: the index has no vectors (qry index --embed onnx)")
        return False
    # A definition whose name the query spells (exactly, or as separate words: `parse config`)
    # leads the symbol stream: the dense stream would only blur it, so the model is not loaded.
    if (
        mode == "hybrid"
        and route in (Route.IDENTIFIER, Route.KEYWORDS)
        and name_lead
        and request.skip_dense_on_exact
    ):
        notes.append("dense stream skipped: the query names a definition (model not loaded)")
        return False
    return bool(q.text.strip())


def _weights(mode: str, route: Route) -> dict[str, float] | None:
    return ROUTE_WEIGHTS[route.value] if mode == "hybrid" else None
