"""Route a question to a workspace's repositories, and search only those (`qry search --route`).

Owns: building the router's pool from a workspace (one cached profile per index; an index that cannot
be read is left out with a note), the content evidence (one lexical fan-out over the pool, whose best
hits route/content.py combines with the profile scores; `content=False` routes by the profiles
alone), and the rule for which routed repositories a routed search keeps:
those within ROUTE_KEEP of the best confidence, at most ROUTE_MAX. When nothing routes (no term tells
the repositories apart), the search runs over the whole workspace and says so.
"""

from __future__ import annotations

from indexlib.errors import QryError
from indexlib.retrieval.query import FUNCTION_WORDS
from indexlib.retrieval.request import SearchRequest
from indexlib.route.content import CONTENT_HITS, combine
from indexlib.route.profile import profile
from indexlib.route.score import ROUTE_DEFAULT_LIMIT, RepoText, RouteResult, query_terms, route
from indexlib.workspace.federate import DEFAULT_MERGE, Federation, WorkspaceResult

ROUTE_KEEP = 0.5  # keep repositories scoring at least this share of the best one
ROUTE_MAX = 3


def route_members(
    fed: Federation, text: str, *, limit: int = ROUTE_DEFAULT_LIMIT, content: bool = True
) -> RouteResult:
    """The best `limit` repositories for `text`, by profile and (unless `content` is off) content."""
    pool: list[RepoText] = []
    notes: list[str] = []
    for m in fed.members:
        try:
            pool.append(profile(fed.engine(m.name), m.name))
        except QryError as exc:
            notes.append(f"{m.name}: not routed: {exc.message}")
        except OSError as exc:
            notes.append(f"{m.name}: not routed: {exc}")
    if not content or not _has_content_terms(text):
        result = route(text, pool, limit=limit)
        result.notes[:0] = notes
        return result
    by_profile = route(text, pool, limit=len(pool))
    probe = fed.search(text, SearchRequest(top_k=CONTENT_HITS, mode="lexical", graph=False))
    notes += [f"{a.repo}: no content evidence: {a.error}" for a in probe.meta.indexes if not a.ok]
    hits = [(h.repo, f"{h.path}:{h.start_line}") for h in probe.results]
    result = combine(by_profile, hits, limit=limit, considered=len(fed.members))
    result.notes[:0] = notes
    return result


def _has_content_terms(text: str) -> bool:
    """A question of function words alone ("the") has nothing a hit could be evidence for."""
    return any(t not in FUNCTION_WORDS for t in query_terms(text))


def choose(fed: Federation, text: str, *, keep: float | None = None) -> tuple[list[str], list[str]]:
    """The repositories a routed search keeps (best first; empty when nothing routes) and the notes."""
    keep = ROUTE_KEEP if keep is None else keep
    routed = route_members(fed, text, limit=ROUTE_MAX)
    best = routed.routes[0].confidence if routed.routes else 0.0
    chosen = [r.repo for r in routed.routes if r.confidence >= keep * best and r.confidence > 0]
    return chosen, [f"route: {n}" for n in routed.notes]


def routed_search(
    fed: Federation, text: str, opts: SearchRequest, *, keep: float | None = None, merge: str = DEFAULT_MERGE
) -> WorkspaceResult:
    chosen, notes = choose(fed, text, keep=keep)
    result = fed.search(text, opts, merge=merge, only=chosen or None)
    if chosen:
        result.meta.routed = chosen
    else:
        result.meta.notes.append("route: no repository matched the question; searched the whole workspace")
    result.meta.notes.extend(notes)
    return result


route_workspace = route_members  # the name indexlib's public API exports
