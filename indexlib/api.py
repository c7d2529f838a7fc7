"""Entry points the CLI and the MCP server call: open an engine, search, resolve symbols, walk the graph.

Owns: the thin functions over Engine / Snapshot that every surface shares, so the CLI and the MCP
server cannot drift apart. Each takes plain values and returns msgspec Structs.
"""

from pathlib import Path
from typing import Any

import msgspec

from indexlib.errors import UsageError
from indexlib.query import Route, parse_query
from indexlib.records import Related, SearchResult
from indexlib.search import Engine, SearchOptions
from indexlib.store.locate import resolve_index_dir


def open_engine(index_dir: Path | None = None, *, start: Path | None = None) -> Engine:
    """An Engine over the index at `index_dir`, `$QRY_INDEX_DIR`, or the nearest `.qry` above `start`."""
    return Engine(resolve_index_dir(index_dir, start=start))


def search(text: str, index_dir: Path | None = None, **options: Any) -> SearchResult:
    """One-shot search: `search("ParseConfig", top_k=5)`."""
    return open_engine(index_dir).search(text, SearchOptions(**options))


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


_TIER = {4.0: "exact", 3.5: "qualified", 3.0: "joined"}


def resolve_symbol(
    engine: Engine, name: str, *, limit: int = 10, root: str | None = None
) -> list[SymbolMatch]:
    """Definitions named `name` (exact, case-insensitive), `Type.member` suffixes, or fuzzy matches."""
    from indexlib.streams import symbol_stream

    if not name.strip():
        raise UsageError("no symbol name given", hint="e.g. qry related parse_config")
    snap = engine.snapshot(root)
    q = parse_query(name)
    hits = symbol_stream(snap, q, Route.IDENTIFIER, [], max(limit, 1) * 4)
    out: list[SymbolMatch] = []
    for h in hits:
        stored = snap.node(h.uid)
        if stored is None:
            continue
        n = stored.node
        if n.part != 0:
            continue
        out.append(
            SymbolMatch(
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
                match=_TIER.get(h.score, "fuzzy"),
                score=round(h.score, 4),
            )
        )
        if len(out) >= limit:
            break
    return out


class RelatedResult(msgspec.Struct, kw_only=True):
    """`qry related`: the node a symbol resolved to and its neighbourhood, or the candidates."""

    query: str
    node: SymbolMatch | None
    related: list[Related] = []
    candidates: list[SymbolMatch] = []
    ambiguous: bool = False


def related(
    engine: Engine,
    symbol: str,
    *,
    callers: bool = True,
    callees: bool = True,
    depth: int = 1,
    cap: int = 50,
    root: str | None = None,
) -> RelatedResult:
    """Resolve `symbol` and return its callers/callees (up to `depth` <= 4) and parent container.

    When several definitions match equally well, nothing is guessed: the candidates come back with
    `ambiguous=True` so the caller can qualify the name (`Server.handle`) or pass a uid.
    """
    from indexlib.graphview import related_of

    if not 1 <= depth <= 4:
        raise UsageError(f"--depth must be between 1 and 4, not {depth}", hint="e.g. --depth 2")
    snap = engine.snapshot(root)
    matches: list[SymbolMatch]
    if len(symbol) == 16 and all(c in "0123456789abcdef" for c in symbol.lower()):
        stored = snap.node(int(symbol, 16))
        matches = resolve_symbol(engine, stored.node.qualified_name, root=root) if stored else []
        matches = [m for m in matches if m.uid == symbol.lower()] or matches
    else:
        matches = resolve_symbol(engine, symbol, root=root)
    if not matches:
        return RelatedResult(query=symbol, node=None)
    best = [m for m in matches if m.score == matches[0].score]
    if len(best) > 1:
        return RelatedResult(query=symbol, node=None, candidates=best, ambiguous=True)
    node = best[0]
    rel = related_of(snap, int(node.uid, 16), callers=callers, callees=callees, depth=depth, cap=cap)
    return RelatedResult(query=symbol, node=node, related=rel, candidates=matches[1:])


def graph_query(engine: Engine, text: str, params: dict[str, object], *, root: str | None = None) -> Any:
    """Run a bounded graph query (see graphquery.py for the profile and its rules)."""
    from indexlib.graphquery import run_graph_query
    from indexlib.graphview import SnapshotGraph

    snap = engine.snapshot(root)
    return run_graph_query(SnapshotGraph(snap), text, params)
