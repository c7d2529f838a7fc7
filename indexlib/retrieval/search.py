"""Run a query over one snapshot: streams -> RRF -> code-aware signals -> graph -> snippets.

Owns: the read pipeline and its options. The same function backs the CLI, the MCP server and the
evaluation, so every surface gets one ranking (seed 000). A stream that fails is logged in the result's
notes and contributes nothing; the others still answer (seed 001: partial results beat no results).
The model is loaded only when the dense stream runs, so lexical and symbol queries never import ONNX.
"""

import time
from collections.abc import Callable
from itertools import pairwise
from pathlib import Path
from typing import Any

import msgspec

from indexlib.analyzer import code_terms, query_terms
from indexlib.errors import QryError, UsageError
from indexlib.records import Hit, SearchMeta, SearchResult, StreamHit
from indexlib.retrieval import streams
from indexlib.retrieval.fusion import (
    CANDIDATE_CAP,
    ROUTE_WEIGHTS,
    RRF_K,
    Candidate,
    Signals,
    apply_signals,
    collapse_parts,
    quote_pairs,
    rrf,
)
from indexlib.retrieval.query import Query, Route, classify, identifier_of, parse_query, well_formed
from indexlib.retrieval.snapshot import Snapshot
from indexlib.retrieval.snippets import DEFAULT_CHARS, MAX_CHARS, MIN_CHARS, make_snippet
from indexlib.store.store import Store

MODES = ("hybrid", "lexical", "semantic", "symbol")
SEARCH_MODES = MODES  # the public name (indexlib.SEARCH_MODES)
MAX_TOP_K = 1000


class SearchOptions(msgspec.Struct, kw_only=True):
    """Everything a search may be asked for; defaults match the CLI's."""

    top_k: int = 10
    mode: str = "hybrid"
    snippet_chars: int = DEFAULT_CHARS
    rrf_k: int = RRF_K
    cap: int = CANDIDATE_CAP
    explain: bool = False
    graph: bool = False
    graph_depth: int = 1
    diffuse: bool = False
    langs: list[str] = msgspec.field(default_factory=list)
    paths: list[str] = msgspec.field(default_factory=list)
    excludes: list[str] = msgspec.field(default_factory=list)
    kinds: list[str] = msgspec.field(default_factory=list)
    root: str | None = None
    model_dir: str | None = None
    signals: Signals = msgspec.field(default_factory=Signals)
    budget_tokens: int | None = None
    since: int | None = None  # unix seconds
    until: int | None = None
    as_of: int | None = None
    recency: bool = False
    skip_dense_on_exact: bool = True
    reranker: Any = None  # an indexlib.retrieval.rerank.Reranker; None (the default) = no rerank pass

    def validate(self) -> None:
        if self.mode not in MODES:
            raise UsageError(f"unknown mode {self.mode!r}", hint=f"use one of: {', '.join(MODES)}")
        if not 1 <= self.top_k <= MAX_TOP_K:
            raise UsageError(
                f"--top-k must be between 1 and {MAX_TOP_K}, not {self.top_k}", hint="e.g. --top-k 10"
            )
        if not MIN_CHARS <= self.snippet_chars <= MAX_CHARS:
            raise UsageError(
                f"--snippet-chars must be between {MIN_CHARS} and {MAX_CHARS}, not {self.snippet_chars}",
                hint="the default is 600",
            )
        if self.rrf_k < 1:
            raise UsageError("--rrf-k must be at least 1", hint="the default is 60")
        if not 0 <= self.graph_depth <= 4:
            raise UsageError("--graph-depth must be between 0 and 4", hint="the default is 1")


class Engine:
    """A search engine over one index directory, reusable across queries (the MCP server keeps one).

    Every call re-reads HEAD, so a long-lived engine always answers from the newest published root;
    the opened snapshot and the loaded model are reused while they still apply.
    """

    def __init__(self, index_dir: Path) -> None:
        self.store = Store.open(index_dir)
        self._snap: Snapshot | None = None
        self._embedder: Any = None
        self._embedder_key: tuple[str | None, str] | None = None

    def snapshot(self, root: str | None = None) -> Snapshot:
        want = root if root is not None else self.store.head()
        if self._snap is not None and want is not None and self._snap.root_id.startswith(want):
            return self._snap
        snap = Snapshot.open(self.store, root)
        if root is None:
            self._snap = snap
        return snap

    def source_root(self) -> Path:
        """The folder the current root indexed (for git refs in dates and staleness checks)."""
        return Path(self.snapshot().manifest.source_root)

    def embedder(self, model_dir: str | None, manifest_model_id: str) -> Any:
        key = (model_dir, manifest_model_id)
        if self._embedder is None or self._embedder_key != key:
            self._embedder = load_query_embedder(model_dir, manifest_model_id)
            self._embedder_key = key
        return self._embedder

    def cached_query_vector(self, text: str, model_dir: str | None, model_id: str) -> Any:
        """The vector of a query asked before with this model, or None. The model is not loaded, but a
        `--model` other than the index's is still refused, as it would be without the cache."""
        from indexlib.engines.embedders import caches_query_vectors

        if not caches_query_vectors(model_id) or self._embedder is not None:
            return None  # the test embedder is instant; a loaded model needs no cache
        from indexlib.engines.embed import resolve_model
        from indexlib.index.embedcache import QueryVectorCache

        spec = resolve_model(model_dir)
        if spec.model_id != model_id:
            return None  # load_query_embedder raises the clear error
        return QueryVectorCache(self.store.cache_dir, model_id).get(text)

    def remember_query_vector(self, text: str, model_id: str, vec: Any) -> None:
        from indexlib.engines.embedders import caches_query_vectors

        if not caches_query_vectors(model_id):
            return
        from indexlib.index.embedcache import QueryVectorCache

        QueryVectorCache(self.store.cache_dir, model_id).put(text, vec)

    def search(self, text: str, opts: SearchOptions | None = None) -> SearchResult:
        return run_search(self, text, opts or SearchOptions())


def load_query_embedder(model_dir: str | None, manifest_model_id: str) -> Any:
    """Load the embedder that matches the index, or fail with a hint."""
    from indexlib.engines.embedders import query_embedder

    return query_embedder(model_dir, manifest_model_id)


def run_search(engine: Engine, text: str, opts: SearchOptions) -> SearchResult:
    t0 = time.perf_counter()
    text = well_formed(text)  # echoed as SearchResult.query: lone surrogates would break --json
    opts.validate()
    q = parse_query(text, langs=opts.langs, paths=opts.paths, excludes=opts.excludes, kinds=opts.kinds)
    snap = engine.snapshot(opts.root)
    route = classify(q)
    meta = SearchMeta(
        root=snap.root_id,
        published_at=int(snap.manifest.created_at),
        indexed_commit=snap.manifest.git_commit,
        elapsed_ms=0.0,
        mode=opts.mode,
        route=route.value,
    )
    if q.is_blank:
        meta.notes.append("blank query: nothing to search for")
        meta.elapsed_ms = (time.perf_counter() - t0) * 1000
        return SearchResult(query=text, results=[], meta=meta)
    try:
        filters = streams.build_filters(snap, q) + streams.time_filters(opts.since, opts.until, opts.as_of)
    except streams.NoMatchingPaths:
        meta.notes.append("no indexed file matches the path and time filters")
        meta.elapsed_ms = (time.perf_counter() - t0) * 1000
        return SearchResult(query=text, results=[], meta=meta)

    ranked: dict[str, list[StreamHit]] = {}

    def run(name: str, fn: Callable[[], list[StreamHit]]) -> None:
        try:
            ranked[name] = fn()
        except QryError:
            raise
        except Exception as exc:  # a failing stream must not take the answer down (seed 001)
            meta.notes.append(f"{name} stream failed: {type(exc).__name__}: {exc}")
            ranked[name] = []

    mode = opts.mode
    if mode in ("hybrid", "lexical"):
        run("bm25", lambda: streams.bm25_stream(snap, q, route, filters, opts.cap))
    if mode in ("hybrid", "symbol", "lexical"):
        run("symbol", lambda: streams.symbol_stream(snap, q, route, filters, opts.cap))
        symbol_top = ranked["symbol"][0].score if ranked.get("symbol") else 0.0
        if route in (Route.NATURAL, Route.SIGNATURE) and symbol_top >= streams.JOINED:
            # The words spell a definition's name (`do open` = do_open, `from ast` = from_ast): route
            # as keywords, whatever function words or keywords the name happens to contain.
            route = Route.KEYWORDS
            meta.route = route.value
            meta.notes.append("routed as keywords: the words spell a definition's name")
    if mode in ("hybrid", "semantic"):
        # A definition whose name the query spells (exactly, or as separate words: `parse config`)
        # leads the symbol stream: the dense stream would only blur it, so the model is not loaded.
        exact_lead = bool(ranked.get("symbol")) and ranked["symbol"][0].score >= streams.JOINED
        if not streams.has_vectors(snap):
            from indexlib.index.embedprogress import read_progress

            coming = read_progress(engine.store.cache_dir)
            if coming is not None and coming.root != snap.root_id:
                coming = None
            if mode == "semantic":
                if coming is not None:
                    raise UsageError(
                        f"this index has no vectors yet ({coming.describe()})",
                        hint="search again when they are done (qry status shows progress), or use --mode lexical",
                    )
                raise UsageError(
                    "this index has no vectors", hint="index with embeddings: qry index PATH --embed onnx"
                )
            if coming is not None:
                meta.notes.append(f"dense stream skipped: {coming.describe()}")
            else:
                meta.notes.append("dense stream skipped: the index has no vectors (qry index --embed onnx)")
        elif (
            mode == "hybrid"
            and route in (Route.IDENTIFIER, Route.KEYWORDS)
            and exact_lead
            and opts.skip_dense_on_exact
        ):
            meta.notes.append("dense stream skipped: an exact definition leads (model not loaded)")
        elif q.text.strip():
            model = snap.manifest.model
            model_id = model.model_id if model else ""
            qvec = engine.cached_query_vector(q.text, opts.model_dir, model_id)
            if qvec is None:
                embedder = engine.embedder(opts.model_dir, model_id)
                meta.model_loaded = True
                qvec = embedder.embed_query(q.text)
                engine.remember_query_vector(q.text, model_id, qvec)
            else:
                meta.notes.append("query vector from the cache (model not loaded)")
            window = (opts.since, opts.until, opts.as_of)
            run("vector", lambda: streams.dense_stream(snap, qvec, model_id, q, opts.cap, window))
    meta.streams = {k: len(v) for k, v in ranked.items()}
    weights = ROUTE_WEIGHTS[route.value] if mode == "hybrid" else None
    cands = rrf(ranked, k=opts.rrf_k, cap=opts.cap, weights=weights)
    meta.total_candidates = len(cands)
    # Signals need each candidate's node; fetch a bounded head of the ranking (they only reorder it).
    head = cands[: max(40, opts.top_k * 4)]
    for c in head:
        stored = snap.node(c.uid)
        if stored is not None:
            n = stored.node
            c.path, c.kind, c.name, c.qualified_name, c.part = (
                n.path,
                n.kind,
                n.name,
                n.qualified_name,
                n.part,
            )
    head = [c for c in head if c.path]
    _read_evidence(snap, q, route, head)
    if opts.recency:
        _apply_recency(snap, head)
    ranked_cands = apply_signals(
        head, identifier=identifier_of(q, route), query_words=q.words, signals=opts.signals, scope=q.scope
    )
    ranked_cands = collapse_parts(ranked_cands)
    if head and not ranked_cands:
        meta.notes.append(
            "no result: the candidates matched only function words of the query or fell below the dense floor"
        )
    if opts.reranker is not None:
        ranked_cands = _rerank(snap, q, ranked_cands, ranked, opts, meta)
    top = ranked_cands[: opts.top_k]
    hits = [_to_hit(snap, c, q, opts) for c in top]
    if opts.graph or opts.diffuse:
        from indexlib.graph.view import attach_graph

        try:
            hits = attach_graph(
                snap, hits, depth=opts.graph_depth, expand_related=opts.graph, diffuse=opts.diffuse
            )
        except QryError:
            raise
        except Exception as exc:
            meta.notes.append(f"graph expansion failed: {type(exc).__name__}: {exc}")
    _mark_stale(snap, hits)
    if opts.budget_tokens is not None:
        from indexlib.retrieval.budget import pack

        hits, left_out = pack(hits, opts.budget_tokens)
        meta.truncated_by_budget = left_out
    meta.elapsed_ms = round((time.perf_counter() - t0) * 1000, 2)
    return SearchResult(query=text, results=hits, meta=meta)


def _read_evidence(snap: Snapshot, q: Query, route: Route, cands: list[Candidate]) -> None:
    """Read each candidate's text for what the engines' scores do not say.

    - `quote_share` (prose queries): the share of the query's adjacent word pairs the text holds. A
      sentence quoted from a node's doc comment or body is the strongest evidence prose can give.
    - `weak` (lexical-only candidates): the node holds none of the query's content words, only function
      words (`url_for` matching the `for` of a comment), so it is no evidence at all.
    """
    pairs = quote_pairs(q.terms) if route is Route.NATURAL else set()
    # Prefixes (`comput*`) are matched by expansion, not as words: they are not content words here.
    words = " ".join([*q.terms, *q.phrases])
    content = {t for t in query_terms(words) if t not in streams.STOPWORDS and len(t) > 1}
    if len(pairs) < 2 and not content:
        return
    for c in cands:
        lexical_only = c.provenance.symbol_rank is None and c.provenance.vector_rank is None
        if len(pairs) < 2 and not lexical_only:
            continue
        stored = snap.node(c.uid)
        if stored is None:
            continue
        n = stored.node
        terms = code_terms(f"{n.path.replace('/', ' ')} {n.qualified_name} {n.doc}\n{n.text}")
        if len(pairs) >= 2:
            c.quote_share = len(pairs & set(pairwise(terms))) / len(pairs)
        if lexical_only and content and content.isdisjoint(terms):
            c.weak = True


def _rerank(
    snap: Snapshot,
    q: Query,
    cands: list[Candidate],
    ranked: dict[str, list[StreamHit]],
    opts: SearchOptions,
    meta: SearchMeta,
) -> list[Candidate]:
    """Reorder the fused head with the configured reranker, if the gate allows it."""
    from indexlib.retrieval.rerank import RERANK_DEPTH, apply_rerank, rerank_gate

    symbol = ranked.get("symbol") or []
    exact_lead = (
        bool(symbol) and symbol[0].score >= streams.EXACT and bool(cands) and cands[0].uid == symbol[0].uid
    )
    why_not = rerank_gate(query_blank=q.is_blank, candidates=meta.total_candidates, exact_lead=exact_lead)
    if why_not:
        meta.notes.append(why_not)
        return cands
    head = cands[:RERANK_DEPTH]
    texts = []
    for c in head:
        stored = snap.node(c.uid)
        texts.append("" if stored is None else f"{stored.node.qualified_name}\n{stored.node.text[:2000]}")
    order = apply_rerank(opts.reranker, q.text, texts)
    out = [head[i] for i in order]
    for rank, c in enumerate(out, 1):
        c.explain.append(f"reranked by {opts.reranker.name}: position {rank}")
    meta.notes.append(f"reranked the top {len(head)} with {opts.reranker.name}")
    return out + cands[RERANK_DEPTH:]


def _to_hit(snap: Snapshot, c: Candidate, q: Query, opts: SearchOptions) -> Hit:
    stored = snap.node(c.uid)
    assert stored is not None
    n = stored.node
    snippet = make_snippet(
        n.text,
        n.start_line,
        streams.words_for_snippets(q),
        opts.snippet_chars,
        indent=snap.first_line_indent(n),
        hidden_lines=snap.hidden_lines(n),
    )
    rec = snap.manifest.files.get(n.path)
    return Hit.of_node(
        n,
        score=c.score,
        snippet=snippet,
        provenance=c.provenance,
        explain=c.explain if opts.explain else [],
        last_changed=n.changed_at or (rec.changed_at if rec else None),
    )


def _apply_recency(snap: Snapshot, cands: list[Candidate]) -> None:
    """A mild prior for recently changed code: up to +20% for the newest, halving every 90 days."""
    now = time.time()
    for c in cands:
        stored = snap.node(c.uid)
        changed = stored.node.changed_at if stored else None
        if not changed:
            continue
        age_days = max(0.0, (now - changed) / 86400)
        f = 1.0 + 0.2 * 0.5 ** (age_days / 90)
        c.score *= f
        c.explain.append(f"recency ({age_days:.0f} days): x{f:.3f}")


def _mark_stale(snap: Snapshot, hits: list[Hit]) -> None:
    """Flag hits whose file changed on disk since the root was published (size or mtime differ)."""
    import os

    base = Path(snap.manifest.source_root)
    for h in hits:
        rec = snap.manifest.files.get(h.path)
        if rec is None:
            continue
        try:
            st = os.stat(base / h.path)
        except OSError:
            h.stale = True
            continue
        h.stale = st.st_size != rec.size or st.st_mtime_ns != rec.mtime_ns
