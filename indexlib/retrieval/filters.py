"""What a search keeps, stated once: the filter spec that each engine compiles for itself. Pure.

Owns: turning a Query's filters (lang:, kind:, path: globs and exclusions) and the time window into one
`FilterSpec` over node fields, with path globs resolved against the root's file list (a glob is run
once per file, not once per candidate), and the node predicate that applies it. Tantivy gets the same
spec as clauses (`streams.lexical_clauses`); the dense stream, whose engine cannot filter, tests each
neighbour with `FilterSpec.admits`. Does not own: the engines, or what a filter's syntax is (query.py).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable

import msgspec

from indexlib.pathglob import compile_glob
from indexlib.records import Node
from indexlib.retrieval.query import Query
from indexlib.retrieval.request import TimeWindow


class NoMatchingPaths(Exception):
    """A path filter matched no indexed file: every stream is empty, no engine needs to run."""


class FilterSpec(msgspec.Struct, frozen=True, kw_only=True):
    """The filters of one search, in terms of node fields; an empty spec keeps everything."""

    langs: tuple[str, ...] = ()  # sorted, distinct
    kinds: tuple[str, ...] = ()
    paths: frozenset[str] | None = None  # the only paths kept; None: any path
    excluded: frozenset[str] = frozenset()  # paths left out, when `paths` does not already say it
    window: TimeWindow = TimeWindow()

    def admits(self, n: Node) -> bool:
        """Whether node `n` passes every filter (the dense stream's check of each neighbour)."""
        if self.langs and n.language not in self.langs:
            return False
        if self.kinds and n.kind not in self.kinds:
            return False
        if self.paths is not None and n.path not in self.paths:
            return False
        if self.excluded and n.path in self.excluded:
            return False
        since, until, as_of = self.window
        changed, created = n.changed_at or 0, n.created_at or 0
        if (since is not None and changed < since) or (until is not None and changed > until):
            return False
        return not (as_of is not None and created > as_of)


def filter_spec(
    files: Collection[str], q: Query, window: TimeWindow = TimeWindow(), allowed: set[str] | None = None
) -> FilterSpec:
    """The spec of `q`'s filters over the root's `files` (plus an optional allowed path set).

    Raises NoMatchingPaths when the path filters leave no file: nothing needs to run.
    """
    paths: set[str] | None = allowed
    if q.paths:
        matched = matching(files, q.paths)
        paths = matched if paths is None else paths & matched
    excluded: set[str] = set()
    if q.excludes:
        gone = matching(files, q.excludes)
        if paths is not None:
            paths -= gone
        else:
            excluded = gone
    if paths is not None and not paths:
        raise NoMatchingPaths()
    return FilterSpec(
        langs=tuple(sorted(set(q.langs))),
        kinds=tuple(sorted(set(q.kinds))),
        paths=None if paths is None else frozenset(paths),
        excluded=frozenset(excluded),
        window=window,
    )


def matching(files: Iterable[str], globs: Iterable[str]) -> set[str]:
    """The files any of `globs` matches."""
    pats = [compile_glob(g) for g in globs]
    return {p for p in files if any(r.search(p) for r in pats)}
