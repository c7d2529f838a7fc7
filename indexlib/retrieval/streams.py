"""The retrieval streams: lexical (BM25), symbol (names), dense (cosine). One small contract each:
(snapshot, query, filters, cap) -> ranked StreamHits with raw scores, live nodes only.

Owns: turning a parsed Query into engine queries per stream, through the snapshot's methods (never an
engine's internals). Does not own: which streams run (plan.py), the filters (filters.py: the lexical
streams get them compiled as Tantivy clauses, the dense stream tests the spec per node), fusion or
ranking signals (fusion.py), the pipeline around them (search.py), or engines (engines/).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

import msgspec

import indexlib.engines.lexical as lexical
from indexlib.analyzer import code_terms, name_similarity, query_terms, split_identifier
from indexlib.engines.lexterms import trigram_terms
from indexlib.records import NAME_LOCATED_SCORE, NAME_SPELLED_SCORE, Node, StreamHit
from indexlib.retrieval.declared import declared_name
from indexlib.retrieval.definitions import LOOKUP_CAP, located
from indexlib.retrieval.names import dotted
from indexlib.retrieval.query import FUNCTION_WORDS, Query, Route, classify, identifier_of, term_prefix
from indexlib.snapshot import Snapshot

if TYPE_CHECKING:
    import numpy

    from indexlib.retrieval.filters import FilterSpec

Filters = list[tuple[str, lexical.Query]]

# Function words carry no code meaning: in a natural-language query they would match every comment
# and Markdown paragraph. Identifier and signature queries keep every word.
STOPWORDS = FUNCTION_WORDS


def lexical_clauses(spec: FilterSpec) -> Filters:
    """The filter spec compiled into Tantivy clauses (lang, kind, path, then the time window)."""
    clauses: Filters = []
    if spec.langs:
        clauses.append(("must", lexical.term_set("lang", list(spec.langs))))
    if spec.kinds:
        clauses.append(("must", lexical.term_set("kind", list(spec.kinds))))
    if spec.paths is None and spec.excluded:
        clauses.append(("must_not", lexical.term_set("path", sorted(spec.excluded))))
    if spec.paths is not None:
        clauses.append(("must", lexical.term_set("path", sorted(spec.paths))))
    since, until, as_of = spec.window
    if since is not None or until is not None:
        clauses.append(("must", lexical.int_range("changed_at", since, until)))
    if as_of is not None:
        clauses.append(("must", lexical.int_range("created_at", None, as_of)))
    return clauses


def _quote(term: str) -> str | None:
    if not term or '"' in term or "\\" in term:
        return None
    return f'"{term}"'


def _weighted(term: str, boosts: Mapping[str, float]) -> str | None:
    """A quoted term, with its BM25 multiplier (`"term"^1.25`) when `boosts` gives it one."""
    quoted = _quote(term)
    factor = boosts.get(term)
    if quoted is None or factor is None or factor == 1.0:
        return quoted
    return f"{quoted}^{factor:.6f}"


def bm25_query(
    snap: Snapshot, q: Query, route: Route, term_boosts: Mapping[str, float] | None = None
) -> lexical.Query | None:
    """The lexical query: analysed terms over the boosted fields (each term times its `term_boosts`
    factor, if any); phrases' words required; prefixes expanded from the term dictionary; negated words excluded."""
    words = list(q.terms)
    if route is Route.NATURAL:
        kept = [w for w in words if w.lower() not in STOPWORDS]
        words = kept or words
    terms = query_terms(" ".join(words))
    boosts = lexical.PROSE_FIELD_BOOSTS if route is Route.NATURAL else lexical.FIELD_BOOSTS
    should: list[tuple[str, lexical.Query]] = []
    if terms:
        text = " ".join(t for t in (_weighted(x, term_boosts or {}) for x in dict.fromkeys(terms)) if t)
        parsed = snap.parse_terms(text, list(boosts), boosts) if text else None
        if parsed is not None:
            should.append(("should", parsed))
    must: list[tuple[str, lexical.Query]] = []
    for phrase in q.phrases:
        for t in dict.fromkeys(code_terms(phrase)):
            qt = _quote(t)
            parsed = snap.parse_terms(qt, lexical.TEXT_FIELDS, lexical.FIELD_BOOSTS) if qt else None
            if parsed is not None:
                must.append(("must", parsed))
    for prefix in q.prefixes:
        expanded = snap.terms_with_prefix(("name_terms", "body_terms"), term_prefix(prefix), 32)
        if expanded:
            exp = sorted(expanded)[:64]
            sub = lexical.boolean(
                [
                    ("should", lexical.boost(lexical.term_set("name_terms", exp), 3.0)),
                    ("should", lexical.term_set("body_terms", exp)),
                ]
            )
            (must if not terms else should).append(("must" if not terms else "should", sub))
        elif not terms:  # the prefix is the whole query: nothing holds it, nothing is found
            must.append(("must", lexical.term("uid", "\x00no-such-term")))
        # Beside words, a prefix no term starts with adds nothing, as a word no node holds: it does
        # not empty the answer (`override required_*` found nothing before `required` was read).
    must_not: list[tuple[str, lexical.Query]] = []
    for neg in q.negated:
        negs = [t for t in query_terms(neg) if _quote(t)]
        if negs:
            must_not.append(("must_not", lexical.term_set("body_terms", negs)))
            must_not.append(("must_not", lexical.term_set("name_terms", negs)))
    if not should and not must:
        return None
    clauses = must + should + must_not
    if not must and len(should) == 1 and not must_not:
        return should[0][1]
    return lexical.boolean(clauses)


# Between a phrase's words: white space, or the joint of one name made of them (`max_connections`,
# `max-connections`, `maxConnections`, `RemoteIPHeaders`, `rebuild404Handlers`): a phrase is words
# together, and code writes words together so (the joints `analyzer.split_identifier` splits at).
_PHRASE_JOINT = r"(?:[\s_\-]+|(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])|(?<=[A-Za-z])(?=[0-9])|(?<=[0-9])(?=[A-Za-z]))"


def phrase_patterns(q: Query) -> list[re.Pattern[str]]:
    """Each quoted phrase of `q` as a pattern over a node's text: its words in order, each in any case.

    >>> [bool(phrase_patterns(Query(raw="", text="", phrases=["max connections"]))[0].search(s))
    ...  for s in ("max  connections", "self.max_connections", "maxConnections", "connections max")]
    [True, True, True, False]
    >>> [bool(phrase_patterns(Query(raw="", text="", phrases=[p]))[0].search(s)) for p, s in (
    ...     ("ip headers", "RemoteIPHeaders"), ("rebuild 404 handlers", "rebuild404Handlers"),
    ...     ("asgi 2 protocol", "ASGI2Protocol"), ("html render", "type HTMLRender interface"))]
    [True, True, True, True]
    """
    return [
        re.compile(_PHRASE_JOINT.join(f"(?i:{re.escape(w)})" for w in p.split()))
        for p in q.phrases
        if p.split()
    ]


def holds_phrases(node: Node, patterns: Sequence[re.Pattern[str]]) -> bool:
    hay = f"{node.name}\n{node.signature}\n{node.doc}\n{node.text}"
    return all(r.search(hay) for r in patterns)


def apply_phrases(snap: Snapshot, q: Query, ranked: dict[str, list[StreamHit]]) -> None:
    """Keep, in the streams other than BM25 (which keeps only them already), the hits holding every
    quoted phrase of `q`: a phrase is a requirement, and the symbol and dense streams match names and
    meaning, so a near name or a close vector would otherwise come back without the words."""
    patterns = phrase_patterns(q)
    if not patterns:
        return
    seen: dict[int, bool] = {}

    def holds(uid: int) -> bool:
        if uid not in seen:
            stored = snap.node(uid)
            seen[uid] = stored is not None and holds_phrases(stored.node, patterns)
        return seen[uid]

    for name, hits in ranked.items():
        if name != "bm25":
            ranked[name] = [h for h in hits if holds(h.uid)]


def excluded_by(neg: str) -> lexical.Query | None:
    """What a `-word` leaves out, as an engine query: the nodes whose name or body holds any of its
    terms (a search's exclusions and a listing's alike); None for a word with no term."""
    negs = [t for t in query_terms(neg) if _quote(t)]
    if not negs:
        return None
    return lexical.boolean([("should", lexical.term_set(f, negs)) for f in ("body_terms", "name_terms")])


def apply_exclusions(
    snap: Snapshot,
    q: Query,
    route: Route,
    filters: Filters,
    ranked: dict[str, list[StreamHit]],
    term_boosts: Mapping[str, float] | None = None,
) -> list[str]:
    """Drop the hits of every stream that hold a `-word` of `q`; return the exclusions that left
    something out (a hit dropped here, or a lexical match the BM25 query's own `must_not` removed).

    Why here: BM25 excludes inside Tantivy, but the symbol and dense streams match names and meaning,
    so without this `-word` would leave their hits in, against the documented "leave out results
    containing the word"; and an exclusion that drops results must be said (a word typed with a dash
    by habit otherwise looks exactly like a query nothing matches). Two capped searches per exclusion,
    only when the query has exclusions."""
    if not q.negated:
        return []
    positive = bm25_query(snap, msgspec.structs.replace(q, negated=[]), route, term_boosts)
    uids = sorted({h.uid for hits in ranked.values() for h in hits})
    removed: list[str] = []
    dropped: set[int] = set()
    for neg in dict.fromkeys(q.negated):
        holding = excluded_by(neg)
        if holding is None:
            continue
        here: set[int] = set()
        if uids:
            among = lexical.term_set("uid", [f"{u:016x}" for u in uids])
            query = lexical.boolean([("must", among), ("must", holding)])
            here = {u for _s, u, _seg in snap.search_uids(query, len(uids))}
        lexical_hit = positive is not None and bool(
            snap.search_uids(lexical.boolean([("must", positive), ("must", holding)]), 1, filters=filters)
        )
        if here or lexical_hit:
            removed.append(neg)
        dropped |= here
    if dropped:
        for name, hits in ranked.items():
            ranked[name] = [h for h in hits if h.uid not in dropped]
    return removed


def code_span_boosts(q: Query, base: Mapping[str, float], factor: float) -> Mapping[str, float]:
    """`base` (term -> BM25 multiplier) with each analysed term of `q`'s backticked spans times
    `factor`; `base` itself when there are none."""
    if not q.code_spans or factor == 1.0:
        return base
    out = dict(base)
    for span in q.code_spans:
        for t in dict.fromkeys(query_terms(span)):
            out[t] = out.get(t, 1.0) * factor
    return out


def bm25_stream(
    snap: Snapshot,
    q: Query,
    route: Route,
    filters: Filters,
    cap: int,
    term_boosts: Mapping[str, float] | None = None,
    *,
    scoped_paths: Sequence[str] = (),
    scope_boost: float = 0.0,
) -> list[StreamHit]:
    """BM25 hits, best first; a node of `scoped_paths` (the files the query's commit-style scope
    names) scores x(1 + scope_boost), so a scope's files compete for the stream's cap."""
    query = bm25_query(snap, q, route, term_boosts)
    if query is None:
        return []
    if scoped_paths and scope_boost > 0:
        inside = lexical.boolean([("must", query), ("must", lexical.term_set("path", list(scoped_paths)))])
        query = lexical.boolean([("should", query), ("should", lexical.boost(inside, scope_boost))])
    if not q.phrases:
        return [
            StreamHit(uid=u, score=sc, segment=seg)
            for sc, u, seg in snap.search_uids(query, cap, filters=filters)
        ]
    # Exact phrases: Tantivy narrowed to nodes holding every word; keep those holding the phrase itself.
    phrase_res = phrase_patterns(q)
    out: list[StreamHit] = []
    for score, seg, hit in snap.search(query, cap * 3, filters=filters):
        stored = snap.stored(seg, hit).node
        if holds_phrases(stored, phrase_res):
            out.append(StreamHit(uid=stored.uid, score=score, segment=seg.id))
            if len(out) >= cap:
                break
    return out


# Nodes spelling an identifier whole read beside BM25's ranking: a long class declaring a field is
# ranked low for its length, below short nodes holding the name's words apart.
SPELLED_CAP = 50


def spelled_whole(snap: Snapshot, whole: str, filters: Filters | None = None) -> list[StreamHit]:
    """The nodes whose text spells an identifier query's multi-word name whole (`whole`, its joined
    term: `servicemethodcache`), best first, at most SPELLED_CAP; none for no such name."""
    if not whole:
        return []
    query = lexical.term_set("body_terms", [whole])
    return [
        StreamHit(uid=u, score=sc, segment=seg)
        for sc, u, seg in snap.search_uids(query, SPELLED_CAP, filters=filters or [])
    ]


def with_spelled(hits: list[StreamHit], spelled: Sequence[StreamHit], cap: int) -> list[StreamHit]:
    """The BM25 stream with the nodes spelling the name whole that its ranking left out in its last
    places (`cap` hits at most), so they are candidates and their text is read: on retrofit the
    class declaring `serviceMethodCache` ranked below 300 nodes holding `service` and `method`
    (BM25's length normalisation of a 700-line class), and a search for the field never showed it."""
    have = {h.uid for h in hits}
    extra = [h for h in spelled if h.uid not in have][:cap]
    return hits[: cap - len(extra)] + extra if extra else hits


# Symbol-stream scores by tier: exact name beats a dotted name located as typed (`_as_typed`) beats a
# qualified suffix beats the separator-free form beats a fuzzy match (trigrams, or a typo), whose score
# is its similarity in [0.3, 1).
EXACT, LOCATED, QUALIFIED, JOINED = 4.0, NAME_LOCATED_SCORE, 3.5, NAME_SPELLED_SCORE
MEMBER_UNNAMED = 3.25  # a module qualifier matched, the member's own type left unnamed: below QUALIFIED
FUZZY_THRESHOLD = 0.3
MAX_NAME_WORDS = 6  # `write local non persistent flag` still spells writeLocalNonPersistentFlag
FUZZY_WHEN_FEWER_THAN = 5
FUZZY_CANDIDATES = 60  # best trigram-overlap candidates scored for similarity
MIN_PREFIX_CHARS = 3  # `ab*` names too many definitions to mean one
PREFIX_NAMES = 20  # completions of a `name*` query the symbol stream looks up
MODULE_QUALIFIED_CANDIDATES = 50  # same-named definitions checked against a module qualifier


def symbol_candidates(q: Query) -> list[str]:
    """The name forms a query may be asking for: the name a definition's first line declares
    (`func (s *Server) Handle(` -> `Server.Handle`), the name an identifier query names (`@ToJson`,
    `request(_:method:)`: `ToJson`, `request`), else the whole text if short, else nothing."""
    route = classify(q)
    if route is Route.SIGNATURE:
        declared = declared_name(q.text)
        if declared:
            return [declared]
    if route is Route.IDENTIFIER and not q.prefixes:
        return [identifier_of(q, route) or q.text]
    words = q.text.split()
    if not words or len(words) > MAX_NAME_WORDS or q.prefixes:
        return []
    return [q.text]


def symbol_stream(snap: Snapshot, q: Query, filters: Filters, cap: int) -> list[StreamHit]:
    """Names: exact (case-insensitive), qualified suffix (`Server.Handle`), split-identifier
    (`parse config` = `parseConfig` = `parse_config`) and fuzzy by trigram similarity >= 0.3."""
    if len(q.prefixes) == 1 and not q.terms and not q.phrases:
        return _prefix_names(snap, q.prefixes[0], filters, cap)
    forms = symbol_candidates(q)
    if not forms:
        return []
    text = forms[0].strip().rstrip("()")
    lowered = dotted(text).lower()
    best: dict[int, tuple[float, str]] = {}

    def collect(query: lexical.Query, score_of: float, limit: int) -> None:
        for _s, uid, seg_id in snap.search_uids(query, limit, filters=filters):
            if uid not in best or best[uid][0] < score_of:
                best[uid] = (score_of, seg_id)

    def collect_fuzzy(query: lexical.Query, limit: int) -> None:
        for _s, seg, hit in snap.search(query, limit, filters=filters):
            stored = snap.stored(seg, hit).node
            score = name_similarity(text, stored.name)
            if score >= FUZZY_THRESHOLD and (stored.uid not in best or best[stored.uid][0] < score):
                best[stored.uid] = (score, seg.id)

    def collect_module_qualified(dotted: str) -> None:
        # `experiments.List`, `helpers.url_for`: packages and modules are where a file is, not part of
        # its qualified names, so the qualifier is matched against the folders and stem of the path.
        # A member is reached through its type, so one whose containers the qualifiers leave out
        # (`QueryParams.get` for `httpx.get`) ranks below the module's own definitions.
        *qualifier, last = dotted.split(".")
        wanted = ["".join(split_identifier(q)) for q in qualifier if q]
        for _s, seg, hit in snap.search(
            lexical.term("name_exact", last), MODULE_QUALIFIED_CANDIDATES, filters=filters
        ):
            stored = snap.stored(seg, hit).node
            parts = ["".join(split_identifier(p.rsplit(".", 1)[0])) for p in stored.path.split("/")]
            containers = ["".join(split_identifier(p)) for p in stored.qualified_name.split(".")[:-1]]
            if wanted and all(w in parts + containers for w in wanted) and stored.uid not in best:
                named = all(c in wanted for c in containers)
                best[stored.uid] = (QUALIFIED if named else MEMBER_UNNAMED, seg.id)

    single = " " not in lowered
    if single:
        collect(lexical.term("name_exact", lowered), EXACT, cap)
        if "." in lowered:
            collect(lexical.term("qsuffix", lowered), QUALIFIED, cap)
            if not any(score == QUALIFIED for score, _seg in best.values()):
                collect_module_qualified(lowered)
            _as_typed(snap, text, filters, best)
    parts = split_identifier(text)
    joined = "".join(parts)
    if joined and len(joined) >= 3:
        collect(lexical.term("name_joined", joined), JOINED, cap)
    # Fuzzy names (typos, near-misses) only when the exact tiers found little: the trigram candidates
    # must be fetched to compute their similarity, the one costly part of this stream.
    if single and len(lowered) >= 3 and len(best) < FUZZY_WHEN_FEWER_THAN:
        last = re.split(r"\.", lowered)[-1]
        grams = trigram_terms(last)
        if grams:
            # Scored OR of the trigrams (a term set would score every candidate alike): names sharing
            # the most trigrams come first, and only those are fetched.
            overlap = lexical.boolean([("should", lexical.term("name_tri", g)) for g in grams])
            collect_fuzzy(overlap, FUZZY_CANDIDATES)
    ranked = sorted(best.items(), key=lambda kv: (-kv[1][0], kv[0]))[:cap]
    return [StreamHit(uid=uid, score=score, segment=seg) for uid, (score, seg) in ranked]


def _as_typed(snap: Snapshot, text: str, filters: Filters, best: dict[int, tuple[float, str]]) -> None:
    """The definitions a dotted name (`flask.url_for`, `flask.json.dumps`) names as typed, through
    module paths and what a package passes on (definitions.located, as `qry related` reads it), move
    up to the LOCATED tier, above the qualified suffixes and module words it matches only in another
    case or by a folder (`Flask.url_for`, `flask/json/provider.py`'s `DefaultJSONProvider.dumps`).
    Why: the package `flask` and the class `Flask` lower-case alike, and the method ranked above the
    function `flask/__init__.py` passes on."""
    precise = {n.uid for n in located(snap, text)}
    if not precise:
        return
    last = dotted(text).rsplit(".", 1)[-1].lower()
    for _s, uid, seg_id in snap.search_uids(lexical.term("name_exact", last), LOOKUP_CAP, filters=filters):
        if uid in precise:
            best[uid] = (LOCATED, seg_id)


def _prefix_names(snap: Snapshot, prefix: str, filters: Filters, cap: int) -> list[StreamHit]:
    """`setPrettyPrin*`: definitions whose name starts with the prefix, in the joined-name tier (a
    name the query spells, shown by its declaration), the shortest completions first."""
    lowered = prefix.lower()
    if len(lowered) < MIN_PREFIX_CHARS:
        return []
    names = sorted(snap.terms_with_prefix(("name_exact",), lowered, PREFIX_NAMES), key=lambda t: (len(t), t))
    names = names[:PREFIX_NAMES]
    best: dict[int, tuple[float, str]] = {}
    for rank, name in enumerate(names):
        score = JOINED + (len(names) - rank) / (10 * len(names))  # in [3.0, 3.1): below a qualified match
        for _s, uid, seg_id in snap.search_uids(lexical.term("name_exact", name), cap, filters=filters):
            best.setdefault(uid, (score, seg_id))
    ranked = sorted(best.items(), key=lambda kv: (-kv[1][0], kv[0]))[:cap]
    return [StreamHit(uid=uid, score=score, segment=seg) for uid, (score, seg) in ranked]


def spells_a_name(symbol: Sequence[StreamHit]) -> bool:
    """Whether the symbol stream's best match spells a definition's name (joined, qualified or exact):
    what the plan's `settle` step needs to know of its outcome."""
    return bool(symbol) and symbol[0].score >= JOINED


def dense_stream(
    snap: Snapshot, qvec: numpy.ndarray, model_id: str, spec: FilterSpec, cap: int
) -> list[StreamHit]:
    """Cosine nearest neighbours per segment, filtered to live nodes that the filter spec admits."""
    merged: list[tuple[float, int, str]] = []
    for seg in snap.segments:
        vec = seg.vectors(model_id)
        if vec is None:
            continue
        for uid, score in vec.search(qvec, cap * 2):
            merged.append((score, uid, seg.id))
    merged.sort(key=lambda t: (-t[0], t[1]))
    out: list[StreamHit] = []
    seen: set[int] = set()
    for score, uid, seg_id in merged:
        if uid in seen:
            continue
        stored = snap.node(uid)
        if stored is None:
            continue
        n = stored.node
        if not snap.is_live(seg_id, n.path) or not spec.admits(n):
            continue
        seen.add(uid)
        out.append(StreamHit(uid=uid, score=float(score), segment=seg_id))
        if len(out) >= cap:
            break
    return out


def has_vectors(snap: Snapshot) -> bool:
    return any(s.entry.vectors is not None for s in snap.segments)


def words_for_snippets(q: Query) -> Sequence[str]:
    words = [w for w in q.words if w.lower() not in STOPWORDS] or q.words
    return words


def stems_for_snippets(q: Query) -> list[str]:
    """The stems the stemmed `content` field matched for the query's words, where they differ from
    the words themselves (so a snippet can show where "registered" met `register`)."""
    out: list[str] = []
    for w in words_for_snippets(q):
        low = w.lower()
        stem = lexical.field_term("content", low)
        if stem != low and stem not in out:
            out.append(stem)
    return out


def content_stems(words: set[str]) -> frozenset[str]:
    """The stems the stemmed `content` field matches `words` by (`faqs` and `faq` meet at `faq`)."""
    return frozenset(lexical.field_term("content", w) for w in words)


def holds_a_word(words: set[str], stems: frozenset[str], terms: Sequence[str]) -> bool:
    """Whether a node's `terms` hold one of `words`, as written or as BM25's stemmed field met it:
    a node BM25 found by `faqs` for the query `FAQ` holds its word. Only a term sharing a stem's
    first two letters is stemmed (a node's text has hundreds of terms; Porter stems keep them)."""
    if not words.isdisjoint(terms):
        return True
    starts = {s[:2] for s in stems}
    return any(t[:2] in starts and lexical.field_term("content", t) in stems for t in set(terms))
