"""Entry points the CLI and the MCP server call: open an engine, search, resolve symbols, walk the graph.

Owns: the thin functions over Engine / Snapshot that every surface shares, so the CLI and the MCP
server cannot drift apart. Each takes plain values and returns msgspec Structs.
"""

import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import msgspec

from indexlib.declaration import declaration_line
from indexlib.errors import UsageError
from indexlib.records import Node, Related, SearchResult
from indexlib.retrieval import definitions, streams
from indexlib.retrieval.bounds import SEARCH_BOUNDS
from indexlib.retrieval.filters import matching
from indexlib.retrieval.names import dotted
from indexlib.retrieval.notes import member_line
from indexlib.retrieval.query import parse_query, regex_syntax
from indexlib.retrieval.request import SearchRequest
from indexlib.retrieval.search import TOLD_NOTES, Engine
from indexlib.rootpaths import root_relative_globs
from indexlib.snapshot import Snapshot
from indexlib.store.locate import resolve_index_dir
from indexlib.store.manifest import FileRecord


def open_engine(index_dir: Path | None = None, *, start: Path | None = None) -> Engine:
    """An Engine over the index at `index_dir`, `$QRY_INDEX_DIR`, or the nearest `.qry` above `start`."""
    return Engine(resolve_index_dir(index_dir, start=start))


def search(text: str, index_dir: Path | None = None, **options: Any) -> SearchResult:
    """One-shot search: `search("ParseConfig", top_k=5)`."""
    return open_engine(index_dir).search(text, SearchRequest(**options))


def query_notes(
    engine: Engine, text: str, opts: SearchRequest, *, found: bool, search_notes: Sequence[str] = ()
) -> list[str]:
    """What a person should be told about how `text` was read, whatever the output format.

    Regular-expression syntax is taken as words (there is no regex mode yet); and when nothing was
    found, each path filter that matches no indexed file at all is named (a typo in a glob otherwise
    looks exactly like a query without matches); and when each filter matches files but together
    they match none (`path:src/** lang:go` where src holds no Go), that is said too. Checked only
    after an empty answer: it walks the manifest's file list.
    """
    notes: list[str] = []
    q = parse_query(text, langs=opts.langs, paths=opts.paths, excludes=opts.excludes, kinds=opts.kinds)
    q.paths[:], q.excludes[:] = (root_relative_globs(g, engine.source_root) for g in (q.paths, q.excludes))
    if q.open_quote:
        notes.append(
            "a quote is never closed: the words after it were read as one phrase (close it, or drop it)"
        )
    piece = regex_syntax(text)
    if piece:
        notes.append(
            f"{piece!r} looks like a regular expression: qry search takes it as words; "
            "for every match of a regex use qry grep"
        )
    # What `-word` exclusions left out, and why the search itself found nothing (only function words
    # matched, nothing above the dense floor).
    notes.extend(n for n in search_notes if n.startswith(TOLD_NOTES))
    if found:
        return notes
    if q.is_blank and not opts.lists(q):
        notes.append(q.nothing_to_search()[0])
    snap = engine.snapshot(opts.root)
    files = snap.manifest.files
    alone = len(notes)
    for glob in dict.fromkeys(q.paths):
        if not matching(files, [glob]):
            notes.append(f"the path filter {glob!r} matches no indexed file")
    present = {rec.language for rec in files.values()}
    for lang in dict.fromkeys(q.langs):
        if lang not in present:
            here = ", ".join(sorted(x for x in present if x)) or "none"
            notes.append(f"no indexed file is lang:{lang} (the index holds: {here})")
    named = [
        *(f"path:{g}" for g in dict.fromkeys(q.paths)),
        *(f"-path:{g}" for g in dict.fromkeys(q.excludes)),
    ]
    if q.kinds:  # read only when a kind was asked for: every segment's `kind` terms
        kinds = {k for seg in snap.segments for k in seg.lexical().terms_with_prefix("kind", "", 64)}
        for kind in dict.fromkeys(q.kinds):
            if kind not in kinds:
                here = ", ".join(sorted(kinds)) or "none"
                typed = q.kind_spellings.get(kind, kind)
                read = f", as kind:{typed} is read" if typed.lower() != kind else ""
                notes.append(f"no indexed node is kind:{kind}{read} (the index holds: {here})")
    named += [f"lang:{lang}" for lang in dict.fromkeys(q.langs)]
    if len(notes) == alone and named:
        kept = matching(files, q.paths) if q.paths else set(files)
        kept -= matching(kept, q.excludes)
        if q.langs:
            kept = {f for f in kept if files[f].language in q.langs}
        if not kept and len(named) > 1:
            notes.append(f"the filters {' '.join(named)} together match no indexed file")
        elif not kept:  # `-path:**`: an exclusion that leaves nothing
            notes.append(f"the filter {named[0]} leaves no indexed file to search")
    window_note = _window_note(engine, opts, files)
    if window_note:
        notes.append(window_note)
    return notes


def with_query_notes(engine: Engine, text: str, opts: SearchRequest, result: SearchResult) -> SearchResult:
    """`result` with `query_notes` added to `meta.notes` (each once): for a front end whose only channel
    is the result itself (MCP), which would otherwise say "no result" without the reason the CLI gives
    on stderr (`--since 2 weeks ago keeps 7 of 164 indexed files`)."""
    notes = query_notes(engine, text, opts, found=bool(result.results), search_notes=result.meta.notes)
    result.meta.notes.extend(n for n in notes if n not in result.meta.notes)
    return result


def _window_note(engine: Engine, opts: SearchRequest, files: Mapping[str, FileRecord]) -> str | None:
    """How much of the index the time filters leave, when any is given (read after an empty answer:
    "nothing matched" reads very differently when the window holds no change at all)."""
    asked = [opts.given(f) for f in ("since", "until", "as_of") if getattr(opts, f)]
    if not asked:
        return None
    since, until, as_of = opts.window(engine.source_root)
    kept = 0
    for rec in files.values():
        changed = rec.changed_at or 0
        created = rec.created_at if rec.created_at is not None else changed
        if since is not None and changed < since:  # its newest change is before the window
            continue
        if until is not None and created > until:  # its oldest node came after it
            continue
        if as_of is not None and created > as_of:
            continue
        kept += 1
    said = " ".join(asked)
    if not kept:
        return f"no indexed file changed within {said}"
    return f"{said} keeps {kept:,} of {len(files):,} indexed files"


class SymbolMatch(msgspec.Struct, kw_only=True):
    """A definition a name resolves to."""

    uid: str
    symbol: str
    name: str
    kind: str
    path: str
    start_line: int
    end_line: int
    language: str
    signature: str = ""
    doc: str = ""
    match: str  # exact | qualified | joined | fuzzy
    score: float
    decl_line: int = 0  # the line it declares itself on, past its doc comment and annotations


_TIER = {
    streams.EXACT: "exact",
    streams.LOCATED: "qualified",
    streams.QUALIFIED: "qualified",
    streams.MEMBER_UNNAMED: "qualified",
    streams.JOINED: "joined",
}


def _match(snap: Snapshot, n: Node, match: str, score: float) -> SymbolMatch:
    """`n` as a definition an agent is pointed at: its whole span, every window of a definition too
    long for one node included (`definitions.whole`), as `related` and search give it."""
    n = definitions.whole(snap, n)
    return SymbolMatch(
        uid=f"{n.uid:016x}",
        symbol=n.qualified_name,
        name=n.name,
        kind=n.kind,
        path=n.path,
        start_line=n.start_line,
        end_line=n.end_line,
        language=n.language,
        signature=n.signature,
        doc=n.doc[:500],
        match=match,
        score=round(score, 4),
        decl_line=declaration_line(n.text, n.start_line, n.signature),
    )


def resolve_symbol(
    engine: Engine, name: str, *, limit: int = 10, root: str | None = None
) -> list[SymbolMatch]:
    """Definitions `name` means: `path:name` (`src/flask/helpers.py:url_for`, any path suffix),
    a module-qualified name (`flask.helpers.url_for`, `helpers.url_for`, `app.Flask.url_for`), else
    exact names (case-insensitive), `Type.member` suffixes, or fuzzy matches."""
    if not name.strip():
        raise UsageError("no symbol name given", hint="e.g. qry related parse_config")
    snap = engine.snapshot(root)
    located = definitions.located(snap, name.strip())
    if located:
        return [_match(snap, n, "qualified", QUALIFIED_SCORE) for n in located[: max(limit, 1)]]
    q = parse_query(name)
    hits = streams.symbol_stream(snap, q, [], max(limit, 1) * 4)
    found: list[tuple[float, tuple[bool, ...], int, Node]] = []
    for i, h in enumerate(hits):
        stored = snap.node(h.uid)
        if stored is None or stored.node.part != 0:
            continue
        # Within a tier, as `related` picks: code that does the work before tests, examples and docs.
        found.append((h.score, definitions.preference(stored.node, snap.is_generated), i, stored.node))
    found.sort(key=lambda t: (-t[0], t[1], t[2]))
    # Matched last, for the kept ones only: a long definition's span reads the windows after it.
    return [_match(snap, n, _TIER.get(score, "fuzzy"), score) for score, _p, _i, n in found[:limit]]


def _member_elsewhere(snap: Snapshot, symbol: str) -> list[SymbolMatch]:
    """For a `Type.member` no type declares (`ResiliencePipelineBuilder.AddRetry`), the definitions
    named `member` anywhere: an extension method, a base type's member, a mixin's method. Those
    whose signature names the type (`AddRetry(this ResiliencePipelineBuilder builder, ...)`) first.
    A near spelling of the whole qualified name rarely is what was meant; the member's own name is."""
    head, _, last = dotted(symbol.strip()).strip(".").rpartition(".")
    if not head or not last or ":" in symbol:
        return []
    owner = re.compile(rf"\b{re.escape(head.rsplit('.', 1)[-1])}\b")
    found = definitions.exact_definitions(snap, last)
    found.sort(key=lambda n: (not owner.search(n.signature), definitions.preference(n, snap.is_generated)))
    return [_match(snap, n, "exact", streams.EXACT) for n in found[:CLOSEST_NAMES]]


QUALIFIED_SCORE = streams.QUALIFIED  # a located name is at least as sure as a qualified-name match
CLOSEST_NAMES = 5  # definitions named as a hint when `related` finds no definition of the name


class Overload(msgspec.Struct, kw_only=True):
    """Another overload of the name `qry related` was given (`text(String)` beside `text()`), with its
    own neighbourhood: which overload a call reaches is the graph's to say, not the name's."""

    node: SymbolMatch
    related: list[Related] = []
    truncated: bool = False


class RelatedResult(msgspec.Struct, kw_only=True):
    """`qry related`: the node a symbol resolved to and its neighbourhood, or the candidates; with no
    definition of the name, `closest` names the nearest spellings (fuzzy, as a hint only)."""

    query: str
    node: SymbolMatch | None
    related: list[Related] = []
    candidates: list[SymbolMatch] = []
    ambiguous: bool = False
    closest: list[SymbolMatch] = []
    truncated: bool = False  # more related nodes exist than the limit (50 unless asked) lists
    # For a `Type.member` no definition has (a Python class attribute, a Java field): the type's line
    # declaring it, `its class Response declares it at starlette/responses.py:32`.
    member: str = ""
    # The name's other overloads, each answered as `node` is (the rows `limit` allows are shared).
    overloads: list[Overload] = []


def related(
    engine: Engine,
    symbol: str,
    *,
    callers: bool = True,
    callees: bool = True,
    depth: int = 1,
    limit: int | None = None,
    root: str | None = None,
) -> RelatedResult:
    """Resolve `symbol` exactly (see definitions.py) and return its callers/callees (up to `depth`
    steps, see the bounds table) and parent container.

    When several definitions of the best preference class match, nothing is guessed: the candidates
    come back with `ambiguous=True` so the caller can qualify the name (`Server.handle`) or pass a uid.
    Overloads of one routine (definitions.overloads) are not ambiguous: the first answers in `node`,
    each other in `overloads`, sharing `limit`'s rows.
    A name defined nowhere answers for nothing (`node` None), with the closest names in `closest`.
    """
    from indexlib.graph.view import related_of

    bound = SEARCH_BOUNDS.related_depth
    if not bound.lo <= depth <= (bound.hi or depth):
        raise UsageError(
            f"--depth must be between {bound.lo} and {bound.hi}, not {depth}", hint="e.g. --depth 2"
        )
    rows = SEARCH_BOUNDS.related_limit
    cap = rows.default or rows.lo if limit is None else limit
    if not rows.lo <= cap <= (rows.hi or cap):
        raise UsageError(
            f"--limit must be between {rows.lo} and {rows.hi}, not {cap}", hint=f"e.g. --limit {rows.hi}"
        )
    if not symbol.strip():
        raise UsageError("no symbol name given", hint="e.g. qry related parse_config")
    snap = engine.snapshot(root)
    found: list[Node]
    if len(symbol) == 16 and all(c in "0123456789abcdef" for c in symbol.lower()):
        stored = snap.node(int(symbol, 16))
        found = [stored.node] if stored is not None else []
    else:
        found = definitions.exact_definitions(snap, symbol) or definitions.modules_named(snap, symbol)
    if not found:
        named = _member_elsewhere(snap, symbol)  # `Builder.AddRetry`: an extension method `AddRetry`
        near = resolve_symbol(engine, symbol, limit=CLOSEST_NAMES, root=root)  # labelled, e.g. fuzzy
        closest = (named + [c for c in near if c.uid not in {m.uid for m in named}])[:CLOSEST_NAMES]
        member = member_line(snap, symbol) or ""
        return RelatedResult(query=symbol, node=None, closest=[] if member else closest, member=member)
    best = definitions.ruby_side(snap, definitions.best_class(found, snap.is_generated), symbol)
    # Labelled as resolve_symbol labels them: a located name is "qualified", a bare one "exact".
    tier = (
        ("qualified", QUALIFIED_SCORE)
        if definitions.is_qualified(symbol.strip())
        else ("exact", streams.EXACT)
    )
    if len(best) > 1 and not definitions.overloads(best):
        return RelatedResult(
            query=symbol, node=None, candidates=[_match(snap, n, *tier) for n in best], ambiguous=True
        )
    ordered = sorted(best, key=lambda n: n.start_line)
    share = max(1, cap // len(ordered))
    answers = [
        related_of(snap, n.uid, callers=callers, callees=callees, depth=depth, cap=share) for n in ordered
    ]
    (rel, truncated), node = answers[0], _match(snap, ordered[0], *tier)
    more = [
        Overload(node=_match(snap, n, *tier), related=r, truncated=cut)
        for n, (r, cut) in zip(ordered[1:], answers[1:], strict=True)
    ]
    others = [_match(snap, n, *tier) for n in found if all(n is not b for b in ordered)]
    return RelatedResult(
        query=symbol, node=node, related=rel, candidates=others, truncated=truncated, overloads=more
    )


def graph_query(engine: Engine, text: str, params: dict[str, object], *, root: str | None = None) -> Any:
    """Run a bounded graph query (see graphquery.py for the profile and its rules)."""
    from indexlib.graph.query import run_graph_query
    from indexlib.graph.view import SnapshotGraph

    snap = engine.snapshot(root)
    return run_graph_query(SnapshotGraph(snap), text, params)
