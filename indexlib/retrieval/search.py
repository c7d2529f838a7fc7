"""Run a query over one snapshot: plan -> streams -> RRF -> code-aware signals -> graph -> snippets.

Owns: executing a search: the Engine (one index directory, its newest snapshot and loaded model) and
`run_search`, which checks the request, parses the query, asks `plan()` what to run, runs the streams,
settles the plan on the symbol stream's outcome, fuses and ranks. The same function backs the CLI,
the MCP server and the evaluation, so every surface gets one ranking. A stream that fails is logged in
the result's notes and contributes nothing; the others still answer (partial results beat no results).
The model is loaded only when the dense stream runs, so lexical and symbol queries never import ONNX.

Does not own: the request and its bounds (request.py, bounds.py), the decisions of the plan (plan.py),
filters (filters.py), the streams (streams.py), fusion and signals (fusion.py), hits and their
snippets (hits.py, snippets.py).
"""

import re
import time
from collections.abc import Callable
from itertools import pairwise
from pathlib import Path
from typing import Any

from indexlib.analyzer import code_terms, query_terms, split_identifier
from indexlib.declaration import declared_standing
from indexlib.errors import QryError, UsageError
from indexlib.records import (
    NAME_LOCATED_SCORE,
    ROUTINE_KINDS,
    Hit,
    Node,
    NodeKind,
    SearchMeta,
    SearchResult,
    StreamHit,
    is_deprecated,
    is_prototype,
)
from indexlib.retrieval import streams
from indexlib.retrieval.bodies import fold_declarations
from indexlib.retrieval.bounds import SEARCH_MODES
from indexlib.retrieval.filters import FilterSpec, NoMatchingPaths, filter_spec
from indexlib.retrieval.fusion import (
    Candidate,
    apply_signals,
    boost_paths,
    collapse_parts,
    quote_pairs,
    ranked_scores,
    rrf,
)
from indexlib.retrieval.hits import hit_of, mark_stale, place_lines, set_lines
from indexlib.retrieval.listing import LISTING_NOTE, Listing, listed
from indexlib.retrieval.names import last_name_part, literal_pattern, spelling_pattern
from indexlib.retrieval.notes import answer_notes, exclusion_note, named_files
from indexlib.retrieval.plan import Plan, VectorState, plan, settle
from indexlib.retrieval.query import Query, Route, identifier_of, parse_query, well_formed
from indexlib.retrieval.request import SearchOptions, SearchRequest, top_of
from indexlib.retrieval.scope import module_files, scope_paths
from indexlib.retrieval.termweights import bm25_boosts, whole_name
from indexlib.rootpaths import root_relative_globs
from indexlib.snapshot import Snapshot
from indexlib.store.store import Store

__all__ = ["SEARCH_MODES", "Engine", "SearchOptions", "SearchRequest", "load_query_embedder", "run_search"]


class Engine:
    """A search engine over one index directory, reusable across queries (the MCP server keeps one).

    Every call re-reads HEAD, so a long-lived engine always answers from the newest published root;
    the opened snapshot and the loaded model are reused while they still apply.
    """

    def __init__(self, index_dir: Path) -> None:
        self.store = Store.open(index_dir)
        self._snap: Snapshot | None = None
        self._embedder: Any = None  # set once this engine embedded a question (see cached_query_vector)

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
        """The process's query model for this index (loaded once, shared with every other engine)."""
        self._embedder = load_query_embedder(model_dir, manifest_model_id)
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
    """The embedder that matches the index, or a failure with a hint; loaded once per process and
    shared by every engine (retrieval/querymodel.py: a workspace's indexes ask for it at once)."""
    from indexlib.retrieval.querymodel import query_model

    return query_model(model_dir, manifest_model_id)


def run_search(engine: Engine, text: str, opts: SearchRequest) -> SearchResult:
    """Answer `text` on the root `opts.root` names (HEAD by default): the plan, its streams, fusion,
    ranking signals, graph and snippets, in that order."""
    t0 = time.perf_counter()
    text = well_formed(text)  # echoed as SearchResult.query: lone surrogates would break --json
    window = opts.window(engine.source_root)
    opts.validate(text)
    q = parse_query(
        text, langs=opts.langs, paths=opts.paths, excludes=opts.excludes, kinds=opts.kinds, repos=opts.repos
    )
    q.paths[:], q.excludes[:] = (root_relative_globs(g, engine.source_root) for g in (q.paths, q.excludes))
    if (q.repos or q.exclude_repos) and opts.member is None:
        raise UsageError(
            "repo: and --repo choose among a workspace's repositories; this searches one index",
            hint="search a workspace: qry search --workspace W 'QUERY repo:NAME' (qry workspace list names them)",
        )
    opts.check_words(q)
    snap = engine.snapshot(opts.root)
    p = plan(q, opts)
    p.modules = _module_files(snap, q, opts, p.route)
    meta = SearchMeta(
        root=snap.root_id,
        published_at=int(snap.manifest.created_at),
        indexed_commit=snap.manifest.git_commit,
        elapsed_ms=0.0,
        mode=opts.mode,
        route=p.route.value,
    )
    if q.is_blank and not opts.lists(q):
        return _empty(text, meta, t0, "blank query: nothing to search for")
    try:
        spec = filter_spec(snap.manifest.files, q, window)
    except NoMatchingPaths:
        return _empty(text, meta, t0, "no indexed file matches the path and time filters")
    listing: Listing | None = None  # a query of filters alone lists what they admit (listing.py)
    if q.is_blank:
        hits, listing = listed(snap, q, opts, spec)
    else:
        ranked, p = _run_streams(engine, snap, q, opts, p, spec, meta)
        hits = _rank(snap, q, opts, p, ranked, meta)
    if opts.wants_graph or opts.diffuse:
        from indexlib.retrieval.context import attach_graph

        try:
            hits = attach_graph(
                snap, hits, depth=opts.graph_depth, expand_related=opts.wants_graph, diffuse=opts.diffuse
            )
        except QryError:
            raise
        except Exception as exc:
            meta.notes.append(f"graph expansion failed: {type(exc).__name__}: {exc}")
    mark_stale(snap, hits)
    set_lines(snap, q, opts, hits)
    if opts.budget_tokens is not None:
        from indexlib.retrieval.budget import pack

        hits, left_out = pack(hits, opts.budget_tokens)
        meta.truncated_by_budget = left_out
        if left_out:
            place_lines(hits)
    if listing is not None:
        meta.notes.append(listing.note(len(hits), packed_out=bool(meta.truncated_by_budget)))
    meta.elapsed_ms = round((time.perf_counter() - t0) * 1000, 2)
    return SearchResult(query=text, results=hits, meta=meta)


# The search notes a person is told on stderr in every format (the others stay in --json's meta): also
# that a question ran without its dense stream because the vectors are still coming or stopped part
# way (the answer is lexical only, and a `qry index` finishes them), not a routine skip.
TOLD_NOTES = (
    "no result",
    "left out results",
    "no definition named",
    "dense stream skipped: vectors",
    LISTING_NOTE,
)
# A definition inside one is local to its body; a Rust one without `pub` is private.
PER_FILE_HEAD = 12  # with one hit per file, the head holds this many candidates per hit asked for


def _empty(text: str, meta: SearchMeta, t0: float, note: str) -> SearchResult:
    meta.notes.append(note)
    meta.elapsed_ms = round((time.perf_counter() - t0) * 1000, 2)
    return SearchResult(query=text, results=[], meta=meta)


def _run_streams(
    engine: Engine, snap: Snapshot, q: Query, opts: SearchRequest, p: Plan, spec: FilterSpec, meta: SearchMeta
) -> tuple[dict[str, list[StreamHit]], Plan]:
    """Run the plan's streams; the plan is settled between the lexical streams and the dense one."""
    ranked: dict[str, list[StreamHit]] = {}

    def run(name: str, fn: Callable[[], list[StreamHit]]) -> None:
        try:
            ranked[name] = fn()
        except QryError:
            raise
        except Exception as exc:  # a failing stream must not take the answer down
            meta.notes.append(f"{name} stream failed: {type(exc).__name__}: {exc}")
            ranked[name] = []

    clauses = streams.lexical_clauses(spec)
    p.spelled = streams.spelled_whole(snap, whole_name(q, p.route), clauses)
    if "bm25" in p.lexical:
        run("bm25", lambda: _bm25(snap, q, opts, p, clauses, meta))
    if "symbol" in p.lexical:
        run("symbol", lambda: streams.symbol_stream(snap, q, clauses, opts.cap))
    vectors = _vector_state(engine, snap) if p.dense else VectorState(present=True)
    meta.unavailable = ["vector"] if p.dense and not vectors.present else []
    p = settle(p, q, opts, name_lead=streams.spells_a_name(ranked.get("symbol", [])), vectors=vectors)
    # The streams fused, and one the index could not run; not one the plan chose to skip.
    fused = (*p.lexical, "vector") if p.dense or meta.unavailable else p.lexical
    meta.weights = {s: (p.weights or {}).get(s, 1.0) for s in fused}
    meta.route = p.route.value
    meta.notes.extend(p.notes)
    if p.dense:
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
        run("vector", lambda: streams.dense_stream(snap, qvec, model_id, spec, opts.cap))
    streams.apply_phrases(snap, q, ranked)
    removed = streams.apply_exclusions(snap, q, p.route, clauses, ranked, opts.term_boosts)
    if removed:
        meta.notes.append(exclusion_note(removed))
    meta.streams = {k: len(v) for k, v in ranked.items()}
    if opts.stream_scores:
        meta.stream_scores = ranked_scores(ranked, opts.cap)
    return ranked, p


def _bm25(
    snap: Snapshot, q: Query, opts: SearchRequest, p: Plan, clauses: streams.Filters, meta: SearchMeta
) -> list[StreamHit]:
    """The BM25 stream with the query's own weights (termweights.py), and the files a
    commit-style scope names (said in a note, since it reorders what a plain BM25 would rank)."""
    sig = opts.signals
    scoped = scope_paths(snap.manifest.files, q.scope) if "scope" in sig.enabled else []
    for named, what in ((scoped, f"scope {q.scope!r}"), (p.modules, "a module in backticks")):
        if named and sig.scope_bm25_boost > 0:
            n = len(named)
            meta.notes.append(
                f"{what} names {n} file{'' if n == 1 else 's'}: BM25 x{1 + sig.scope_bm25_boost:g} there"
            )
    scoped = sorted({*scoped, *p.modules})
    boosts = bm25_boosts(snap, q, p.route, opts)
    hits = streams.bm25_stream(
        snap, q, p.route, clauses, opts.cap, boosts, scoped_paths=scoped, scope_boost=sig.scope_bm25_boost
    )
    return streams.with_spelled(hits, p.spelled, opts.cap)


def _module_files(snap: Snapshot, q: Query, opts: SearchRequest, route: Route) -> list[str]:
    """The files a prose query's backticked modules name (scope.module_files), weighed as a scope's."""
    if "scope" not in opts.signals.enabled or not q.code_spans or route is Route.IDENTIFIER:
        return []  # `md_docs.go` alone: named_files
    return module_files(snap.manifest.files, q.code_spans)


def _vector_state(engine: Engine, snap: Snapshot) -> VectorState:
    """Whether `snap` has vectors, or which are being built for it (read only when it has none)."""
    if streams.has_vectors(snap):
        return VectorState(present=True)
    from indexlib.index.embedprogress import read_progress

    coming = read_progress(engine.store.cache_dir)
    if coming is not None and coming.root != snap.root_id:
        coming = None
    return VectorState(present=False, coming=None if coming is None else coming.describe())


def _joining(p: Plan, cands: list[Candidate]) -> set[int]:
    """The candidates joining the head wherever fusion put them: what an identifier names as typed
    (`serde_json::Value`: the symbol stream's located tier) and the nodes spelling it whole."""
    located = {c.uid for c in cands if c.provenance.symbol_score == NAME_LOCATED_SCORE}
    return located | {h.uid for h in p.spelled}


def _rank(
    snap: Snapshot,
    q: Query,
    opts: SearchRequest,
    p: Plan,
    ranked: dict[str, list[StreamHit]],
    meta: SearchMeta,
) -> list[Hit]:
    """Fuse the streams with the plan's weights, apply the ranking signals to a bounded head, rerank
    if asked, and cut the top-k into hits with snippets."""
    cands = rrf(ranked, k=opts.rrf_k, cap=opts.cap, weights=p.weights)
    meta.total_candidates = len(cands)
    # Signals need each candidate's node; fetch a bounded head of the ranking (they only reorder it).
    head = cands[: max(40, opts.top_k * (PER_FILE_HEAD if opts.per_file else 4))]
    literal = literal_pattern(q.text, q.terms, fragment=p.route is Route.SIGNATURE and not q.phrases)
    if literal is not None:  # a node holding the code as typed joins the head wherever BM25 put it
        head += [c for c in cands[len(head) :] if _holds(snap, c.uid, literal)]
    named = identifier_of(q, p.route)
    joining = _joining(p, cands)
    head += [c for c in cands[len(head) :] if c.uid in joining]
    # Whether a definition is local to a function, private or an override matters only for one named
    # as the query names: its parent and declaring line are read for those alone, not for every
    # candidate of a question.
    joined = "".join(split_identifier(last_name_part(named))) if named else ""
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
            c.prototype = is_prototype(n.language, n.kind, n.text, n.path)
            c.deprecated = is_deprecated(n.name, n.text, n.doc)
            if joined and "".join(split_identifier(n.name)) == joined:
                _read_standing(snap, c, n)  # only a definition named as the query yields to another
    head = [c for c in head if c.path]
    for c in head:
        c.generated = snap.is_generated(c.path)
    ident = p.route is Route.IDENTIFIER
    files = named_files(snap, q.text) if ident else p.modules
    _read_evidence(snap, q, p.route, head, names_a_file=bool(files), literal=literal)
    if opts.recency:
        _apply_recency(snap, head)
    ranked_cands = apply_signals(
        head, identifier=named, query_words=q.words, signals=opts.signals, scope=q.scope
    )
    ranked_cands = fold_declarations(
        collapse_parts(ranked_cands), lambda uid: s.node if (s := snap.node(uid)) is not None else None
    )
    name = identifier_of(q, p.route) if p.route is Route.IDENTIFIER and not q.prefixes else None
    if files and "scope" in opts.signals.enabled:
        # `md_docs.go` names a file: its nodes first, as a scope names the files under it.
        ranked_cands = boost_paths(
            ranked_cands, set(files), 1.0 + opts.signals.scope_boost, "in the file named"
        )
    # A kind filter leaves definitions of the name out: "no definition named" would be false.
    asked = None if q.kinds else name
    meta.notes.extend(
        answer_notes(
            snap,
            asked,
            ranked_cands,
            opts,
            head=bool(head),
            streams=ranked,
            files=files,
            query=q,
        )
    )
    if opts.reranker is not None:
        ranked_cands = _rerank(snap, q, ranked_cands, opts, meta)
    # A definition the query names (or misspells by a typo) is shown from its declaration.
    return [
        hit_of(snap, c, q, opts, name if c.defines else c.name if c.provenance.named else None)
        for c in top_of(ranked_cands, opts.top_k, per_file=opts.per_file, key=lambda c: c.path)
    ]


def _read_evidence(
    snap: Snapshot,
    q: Query,
    route: Route,
    cands: list[Candidate],
    *,
    names_a_file: bool = False,
    literal: re.Pattern[str] | None = None,
) -> None:
    """Read each candidate's text for what the engines' scores do not say.

    - `quote_share` (prose queries): the share of the query's adjacent word pairs the text holds. A
      sentence quoted from a node's doc comment or body is the strongest evidence prose can give.
    - `weak` (lexical-only candidates): the node holds none of the query's content words, only function
      words (`url_for` matching the `for` of a comment), so it is no evidence at all.
    - `literal` (code-fragment and flag queries): the text holds the fragment as typed, spacing
      aside, or names the flag (`literal`: the query's `names.literal_pattern`).
    """
    pairs = quote_pairs(q.terms) if route is Route.NATURAL else set()
    # Prefixes (`comput*`) are matched by expansion, not as words: they are not content words here.
    words = " ".join([*q.terms, *q.phrases])
    content = {t for t in query_terms(words) if t not in streams.STOPWORDS and len(t) > 1}
    stems = streams.content_stems(content)
    mention = whole_name(q, route)
    name = identifier_of(q, route) if route is Route.IDENTIFIER else None
    # `module.exports`: its parts in a row (not `md_docs.go`, a file name, spelled in prose about it)
    spelled = spelling_pattern(name) if name and not names_a_file else None
    if len(pairs) < 2 and not content and not mention and spelled is None and literal is None:
        return
    for c in cands:
        lexical_only = c.provenance.symbol_rank is None and c.provenance.vector_rank is None
        if len(pairs) < 2 and not lexical_only and not mention and spelled is None and literal is None:
            continue
        stored = snap.node(c.uid)
        if stored is None:
            continue
        n = stored.node
        terms = code_terms(f"{n.path.replace('/', ' ')} {n.qualified_name} {n.doc}\n{n.text}")
        if len(pairs) >= 2:
            c.quote_share = len(pairs & set(pairwise(terms))) / len(pairs)
        c.weak = lexical_only and bool(content) and not streams.holds_a_word(content, stems, terms)
        if mention:
            c.mentions = mention in terms
        if spelled is not None and not c.mentions:
            c.mentions = spelled.search(n.text) is not None
        if literal is not None:
            c.literal = literal.search(n.text) is not None


def _read_standing(snap: Snapshot, c: Candidate, n: Node) -> None:
    """Whether the definition `n` of candidate `c` is local to a function body, private or an
    override: what decides its place among the same name's other definitions."""
    parent = snap.node(n.parent_uid) if n.parent_uid else None
    c.local = parent is not None and parent.node.kind in ROUTINE_KINDS
    # A Rust item is private unless `pub`, but a trait's own methods have no `pub` to write.
    in_trait = parent is not None and parent.node.kind == NodeKind.TRAIT.value
    rust_fn = n.language == "rust" and n.kind in ROUTINE_KINDS and not in_trait
    c.private, c.overrides = declared_standing(n.name, n.text, private_by_default=rust_fn)
    if in_trait and parent is not None and not _inside(snap, parent.node, n):
        c.overrides = True  # a trait's method written outside it implements the declared one


def _inside(snap: Snapshot, container: Node, n: Node) -> bool:
    """Whether `n` is written within `container`'s lines (all of its windows, when it is split):
    a Rust blanket implementation's methods (`impl<M: Matcher> Matcher for &M`) are the trait's
    members but implement what the trait declares."""
    later = snap.later_parts(container)
    end = later[-1].node.end_line if later else container.end_line
    return n.path == container.path and container.start_line <= n.start_line <= end


def _holds(snap: Snapshot, uid: int, pattern: re.Pattern[str]) -> bool:
    stored = snap.node(uid)
    return stored is not None and pattern.search(stored.node.text) is not None


def _rerank(
    snap: Snapshot,
    q: Query,
    cands: list[Candidate],
    opts: SearchRequest,
    meta: SearchMeta,
) -> list[Candidate]:
    """Reorder the fused head with the configured reranker, if the gate allows it."""
    from indexlib.retrieval.rerank import RERANK_DEPTH, apply_rerank, rerank_gate

    # The fused leader is an exact name match (whatever its rank in the symbol stream: a top-level
    # definition leads its same-named members after the definition signal).
    exact_lead = bool(cands) and (cands[0].provenance.symbol_score or 0.0) >= streams.EXACT
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
