"""A query of filters alone lists what they admit: `kind:interface`, `path:src/api/**`, `lang:go --since 1w`.

Why: a user of ripgrep, zoekt or Sourcegraph who types a filter with no pattern (`type:symbol lang:go`,
`file:api/`) gets every match; qry refused it as "nothing to search for", and people who wanted the
interfaces of a package, or the definitions of one file, went back to grep. With no words to rank
by, the order is the reader's: file order (path, then line), or the newest change first when a time
window is asked (`--since 1w`: what changed this week). A file's module-level remainder (its imports,
top-level statements) is listed only when `kind:module` asks for it: a listing is of definitions and
sections. A `-word` beside the filters leaves out the nodes that hold it, as in a search.

Owns: which nodes a listing holds and their order. Does not own: the filters (filters.py, the same
spec a search applies), hits and snippets (hits.py), the bound on how many (`top_k`, bounds.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from indexlib.engines import lexical
from indexlib.engines.lexterms import StoredNode
from indexlib.records import Hit, NodeKind, Provenance
from indexlib.retrieval import streams
from indexlib.retrieval.filters import FilterSpec
from indexlib.retrieval.fusion import Candidate
from indexlib.retrieval.hits import hit_of
from indexlib.retrieval.query import Query
from indexlib.retrieval.request import SearchRequest, top_of
from indexlib.snapshot import Snapshot

__all__ = ["LISTING_NOTE", "Listing", "listed", "merged_listing"]

LISTING_NOTE = "no words to search for: listing what"  # how the note starts (search.TOLD_NOTES)

NEWEST = "newest change first"
FIRST_BATCH, MAX_BATCH = 8, 256  # files per engine query while walking the index in path order (doubling)
NEWEST_SLACK = 4  # a newest-first listing reads this many times top_k: later windows of a definition drop


class Listing(NamedTuple):
    """What a listing is, for the note that says so: its order, and whether more nodes are
    admitted than it shows."""

    newest: bool
    more: bool

    def note(self, shown: int, *, packed_out: bool = False) -> str:
        """The note for `shown` hits (fewer when a token budget left some out: `packed_out`)."""
        order = NEWEST if self.newest else "in file order"
        bound = "--budget-tokens" if packed_out else "--top-k"
        more = f"; more match (raise {bound}, or narrow the filters)" if self.more or packed_out else ""
        return f"{LISTING_NOTE} the filters admit, {order}: {shown} shown{more}"


def listed(snap: Snapshot, q: Query, opts: SearchRequest, spec: FilterSpec) -> tuple[list[Hit], Listing]:
    """The listing's hits, each shown from its declaration, and what the listing is."""
    clauses = [*streams.lexical_clauses(spec), *_exclusions(q)]
    if not q.kinds:
        clauses.append(("must_not", lexical.term("kind", NodeKind.MODULE.value)))
    since, until, _as_of = spec.window
    newest = since is not None or until is not None
    want = opts.top_k + 1  # one past the cut says whether more are admitted
    if newest:
        nodes = _newest(snap, clauses, want * NEWEST_SLACK)
    else:
        nodes = _in_file_order(snap, spec, clauses, want, opts.per_file)
    firsts = [s for s in nodes if s.node.part == 0]
    shown = top_of(firsts, want, per_file=opts.per_file, key=lambda s: s.node.path)
    hits = [hit_of(snap, _candidate(s), q, opts, s.node.name) for s in shown[: opts.top_k]]
    return hits, Listing(newest=newest, more=len(shown) > opts.top_k)


def merged_listing(
    lists: Sequence[tuple[str, list[Hit]]], notes: Sequence[str]
) -> list[tuple[str, Hit]] | None:
    """A workspace's listing from its indexes' (`notes`: theirs): each repository's in workspace
    order, as a code host groups matches by repository, or newest first across them; None when
    the answers are not a listing."""
    said = [n for n in notes if n.startswith(LISTING_NOTE)]
    if not said:
        return None
    out = [(repo, h) for repo, hits in lists for h in hits]
    if any(NEWEST in n for n in said):
        out.sort(key=lambda t: -(t[1].last_changed or 0))  # stable: ties keep repository, then file order
    return out


def _candidate(s: StoredNode) -> Candidate:
    n = s.node
    return Candidate(uid=n.uid, score=0.0, provenance=Provenance(), path=n.path, kind=n.kind, name=n.name)


def _exclusions(q: Query) -> list[tuple[str, lexical.Query]]:
    """Each `-word` as a clause leaving out what it names (streams.excluded_by, as a search does)."""
    held = (streams.excluded_by(neg) for neg in dict.fromkeys(q.negated))
    return [("must_not", h) for h in held if h is not None]


def _newest(snap: Snapshot, clauses: Sequence[tuple[str, lexical.Query]], limit: int) -> list[StoredNode]:
    """The most recently changed admitted nodes, newest first (ties in file order)."""
    found = snap.search(lexical.all_docs(), limit, filters=clauses, newest=True)
    nodes = [snap.stored(seg, hit) for _t, seg, hit in found]
    nodes.sort(key=lambda s: (-(s.node.changed_at or 0), s.node.path, s.node.start_byte))
    return nodes


def _in_file_order(
    snap: Snapshot, spec: FilterSpec, clauses: Sequence[tuple[str, lexical.Query]], want: int, per_file: bool
) -> list[StoredNode]:
    """The first admitted nodes in path, then byte order: the index's files walked in path order, a
    batch of files per engine query (each batch twice the last), until `want` nodes (with
    `per_file`, files) are in hand. Nodes are fetched only from the files walked."""
    files = snap.manifest.files
    paths = sorted(
        p
        for p, rec in files.items()
        if (spec.paths is None or p in spec.paths)
        and p not in spec.excluded
        and (not spec.langs or rec.language in spec.langs)
    )
    out: list[StoredNode] = []
    start, size = 0, FIRST_BATCH
    while start < len(paths):
        batch = paths[start : start + size]
        start, size = start + size, min(size * 2, MAX_BATCH)
        where = [*clauses, ("must", lexical.term_set("path", batch))]
        room = sum(files[p].nodes for p in batch) + len(batch)  # every node of the batch, at most
        found = [
            snap.stored(seg, hit) for _s, seg, hit in snap.search(lexical.all_docs(), room, filters=where)
        ]
        found.sort(key=lambda s: (s.node.path, s.node.start_byte, s.node.part))
        out.extend(found)
        firsts = [s.node.path for s in out if s.node.part == 0]
        if len(set(firsts) if per_file else firsts) >= want:
            break
    return out
