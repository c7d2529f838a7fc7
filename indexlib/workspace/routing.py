"""Route a question to a workspace's repositories, and search only those (`qry search --route`).

Owns: building the router's pool from a workspace (one cached profile per index; an index that cannot
be read is left out with a note), the content evidence (one fan-out over the pool, whose best hits
route/content.py combines with the profile scores; `content=False` routes by the profiles alone; the query's repo filters narrow the pool first),
and the rule for which routed repositories a routed search keeps: those within ROUTE_KEEP of the best
confidence (ROUTE_KEEP_LEXICAL when the vote was lexical: `--mode lexical`, or indexes without
vectors), at most ROUTE_MAX. When nothing routes (no term tells the repositories apart), the search
runs over the whole workspace and says so.

The content fan-out is the search being routed, at CONTENT_HITS results: its mode, filters and model
(`probe_request`). It was a lexical search whatever the mode; in the default hybrid mode that routed
doc-less sentences by words alone, and `--route` lost 0.064 file MRR@10 to own-repository search on
the dev set's doc-less concept queries where the hybrid workspace it narrows lost 0.041. With the
hybrid fan-out voting, routed search loses 0.03 there (docs/benchmarks.md). A lexical search is
still routed by a lexical fan-out, so it loads no model. In a workspace of more than
CONTENT_CANDIDATES repositories the fan-out asks only the CONTENT_CANDIDATES whose vocabulary best
predicts the question (`content_candidates`, route/vocab.py: each index's term dictionary, no
search): routing is meant to save searching every repository, and a content vote over all of them
costs just that.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable, Sequence

import msgspec

from indexlib.errors import QryError
from indexlib.retrieval.bounds import DEFAULT_MODE
from indexlib.retrieval.query import FUNCTION_WORDS, parse_query
from indexlib.retrieval.request import SearchRequest
from indexlib.route import vocab
from indexlib.route.content import CONTENT_HITS, combine
from indexlib.route.profile import profile
from indexlib.route.score import ROUTE_DEFAULT_LIMIT, RepoText, RouteResult, query_terms, route
from indexlib.workspace import repofilter
from indexlib.workspace.collection import FIELD, collection_terms
from indexlib.workspace.federate import (
    DEFAULT_MERGE,
    Federation,
    IndexAnswer,
    RepoHit,
    WorkspaceResult,
    idf_stats_one,
)

# Keep repositories scoring at least this share of the best one. When the routed search's vote holds
# the dense stream, it spreads the confidence (the question's meaning is near several repositories'
# code), so the owner of a question the router is unsure of is often second at 0.3-0.5 of the best,
# and merging it costs little when the best owns the answer; a lexical vote is sharper, and keeping
# more there lets other repositories' word matches in.
ROUTE_KEEP = 0.3
ROUTE_KEEP_LEXICAL = 0.5
ROUTE_MAX = 3
# Past this many repositories, the content fan-out asks only the best this many by vocabulary
# (route/vocab.py): it is a search of every repository it asks, over thousands as costly as the global
# search it narrows. Among 16 repositories, asking the vocabulary's best 8 routed and searched as well
# as asking all 16 (`--route` file MRR@10 -0.053 against -0.058 on the dev set, router acc@1 0.857
# against 0.863) in 53% of the routing time; its best 4 as well overall in 26%, but 0.03 lower on doc
# sentences (docs/benchmarks.md). A developer's handful of repositories is asked in full.
CONTENT_CANDIDATES = 8
MAX_REASONS = 3  # distinct failure reasons a no-answer error spells out
# How a route says that only some repositories voted: information, not a warning (is_routing_info).
CANDIDATES_NOTE = "content evidence from the best"


def probe_request(opts: SearchRequest | None = None) -> SearchRequest:
    """The content fan-out of routing `opts`'s search: the same mode, filters and model, at
    CONTENT_HITS results, without the graph, a token budget or explanations (only repositories vote)."""
    return msgspec.structs.replace(
        opts or SearchRequest(), top_k=CONTENT_HITS, graph=False, budget_tokens=None, explain=False
    )


def route_members(
    fed: Federation,
    text: str,
    *,
    limit: int = ROUTE_DEFAULT_LIMIT,
    content: bool = True,
    opts: SearchRequest | None = None,
) -> RouteResult:
    """The best `limit` repositories for `text`, by profile and (unless `content` is off) content:
    the best hits of `opts`'s search over the pool (probe_request; default: a hybrid search)."""
    pool: list[RepoText] = []
    notes: list[str] = []
    members = repofilter.select_for(fed.name, fed.members, text, opts or SearchRequest())
    for m in members:
        try:
            pool.append(profile(fed.engine(m.name), m.name))
        except QryError as exc:
            notes.append(f"{m.name}: not routed: {exc.message}")
        except OSError as exc:
            notes.append(f"{m.name}: not routed: {exc}")
    if members and not pool:  # nothing to score: not "no route" (exit 1), the error a search gives
        raise QryError(
            f"no index of workspace {fed.name!r} answered: {notes[0].replace(': not routed:', ':', 1)}",
            hint=f"check them: qry workspace list {fed.name}",
            code="no_index_answered",
        )
    # The profiles are scored on the words searched for: not on filters (`repo:core` would route to
    # every repository with "repo" or "core" in its README) nor on the words a `-word` leaves out.
    words = parse_query(text).text
    if not content or not _has_content_terms(words):
        result = route(words, pool, limit=limit)
        result.query = text
        result.notes[:0] = notes
        return result
    by_profile = route(words, pool, limit=len(pool))
    by_profile.query = text
    probe_opts = probe_request(opts)
    probed = content_candidates(fed, text, by_profile, [p.repo for p in pool])
    probe = fed.search(text, probe_opts, only=probed)
    if probed is not None:
        notes.append(f"{CANDIDATES_NOTE} {len(probed)} of {len(pool)} repositories by vocabulary")
    notes += [f"{a.repo}: no content evidence: {a.error}" for a in probe.meta.indexes if not a.ok]
    # The line each hit is shown by (`qry search` prints it, JSON `line`), not its node's first line
    # (often the `/**` of its doc comment); start_line only for a hit that carries no line.
    hits = [(h.repo, f"{h.path}:{h.line or h.start_line}") for h in probe.results]
    if not any(_holds_a_word(h) for h in probe.results):
        # Vectors always have nearest neighbours: when no hit holds a word of the question (`xqzvbn`,
        # every word a typo), they are no evidence of a repository (one routed at 0.77 by them).
        hits = []
    result = combine(by_profile, hits, limit=limit, considered=len(members))
    result.notes[:0] = notes
    if not result.routes and not result.notes:
        result.notes.append("no repository matched the question: no profile term and no search hit")
    result.content_mode = voted_mode(probe_opts.mode, probe.meta.indexes)
    return result


def content_candidates(
    fed: Federation, text: str, by_profile: RouteResult, pool: Sequence[str]
) -> list[str] | None:
    """The repositories the content fan-out asks: every one (None) in a pool of at most
    CONTENT_CANDIDATES, else the CONTENT_CANDIDATES whose vocabulary best predicts the question's
    terms (route/vocab.py: read off each index's term dictionary, no search), so that routing over
    thousands of repositories costs a search of a few, not of all. Where no repository holds a term
    of the question, the profile's best; where the profile matched none either, every one (then the
    content is the only evidence). An index that cannot report its statistics is asked too, so
    that its failure is said (`no content evidence: ...`) rather than its repository dropped unseen."""
    if len(pool) <= CONTENT_CANDIDATES:
        return None
    terms = collection_terms(text)
    stats: dict[str, tuple[int, dict[str, int]]] = {}
    for repo in pool:
        got = idf_stats_one(functools.partial(fed.engine, repo), terms, FIELD)
        if got is not None:
            stats[repo] = got
    chosen = vocab.best(stats, CONTENT_CANDIDATES)
    if chosen:
        return chosen + [repo for repo in pool if repo not in stats]
    if not by_profile.routes:
        return None
    return [r.repo for r in by_profile.routes[:CONTENT_CANDIDATES]]


def is_routing_info(note: str) -> bool:
    """Whether a route's note (or a routed search's, `route: ...`) only informs, as how many
    repositories the content vote asked does, rather than warns of an index that failed."""
    return note.removeprefix("route: ").startswith(CANDIDATES_NOTE)


def voted_mode(mode: str, answers: Sequence[IndexAnswer]) -> str:
    """The mode whose hits voted: `mode`, except a hybrid search that no index ran vectors for
    (every index built with `--embed none`) voted as a lexical one, and is kept as one (`choose`)."""
    dense = any(a.ok and a.weights.get("vector", 0.0) > 0 and "vector" not in a.unavailable for a in answers)
    return "lexical" if mode == DEFAULT_MODE and not dense else mode


def _holds_a_word(h: RepoHit) -> bool:
    """Whether a hit was found by its words (BM25) or its name, not by its vector alone."""
    return h.provenance.bm25_rank is not None or h.provenance.symbol_rank is not None


def _has_content_terms(text: str) -> bool:
    """A question of function words alone ("the") has nothing a hit could be evidence for."""
    return any(t not in FUNCTION_WORDS for t in query_terms(text))


def choose(
    fed: Federation, text: str, opts: SearchRequest | None = None, *, keep: float | None = None
) -> tuple[list[str], list[str]]:
    """The repositories a routed search of `opts` keeps (best first; empty when nothing routes) and
    the notes."""
    routed = route_members(fed, text, limit=ROUTE_MAX, opts=opts)
    if keep is None:
        mode = routed.content_mode or (opts or SearchRequest()).mode
        keep = ROUTE_KEEP_LEXICAL if mode == "lexical" else ROUTE_KEEP
    best = routed.routes[0].confidence if routed.routes else 0.0
    chosen = [r.repo for r in routed.routes if r.confidence >= keep * best and r.confidence > 0]
    return chosen, [f"route: {n}" for n in routed.notes]


def routed_search(
    fed: Federation,
    text: str,
    opts: SearchRequest,
    *,
    keep: float | None = None,
    merge: str = DEFAULT_MERGE,
    search: Callable[..., WorkspaceResult] | None = None,
) -> WorkspaceResult:
    """`qry search --route`: route over `fed`, then search the repositories kept with `search`
    (`fed.search` by default; `qry serve` routes locally and searches on its actors)."""
    t0 = time.perf_counter()
    chosen, notes = choose(fed, text, opts, keep=keep)
    result = (search or fed.search)(text, opts, merge=merge, only=chosen or None)
    # the whole of it: the routing (itself a search of every repository) and the routed search
    result.meta.elapsed_ms = round((time.perf_counter() - t0) * 1000, 2)
    if chosen:
        result.meta.routed = chosen
    else:
        where = (
            "every repository its repo filters keep"
            if any(repofilter.repo_filters(text, opts))
            else "the whole workspace"
        )
        result.meta.notes.append(f"route: no repository matched the question; searched {where}")
    result.meta.notes.extend(notes)
    return result


def search_workspace(
    fed: Federation, text: str, opts: SearchRequest, *, route: bool = False
) -> WorkspaceResult:
    """A workspace search as every surface runs it (`qry search -w`, the MCP `search` tool): routed
    or over every repository the query's filters keep; a QryError when no index answered at all,
    since an empty merge of failures would read as "no match"."""
    return require_an_answer(routed_search(fed, text, opts) if route else fed.search(text, opts))


def require_an_answer(result: WorkspaceResult) -> WorkspaceResult:
    """`result`, unless every index asked failed: then a QryError giving each one's reason (alike
    reasons once), since an empty merge of failures would read as "no match" and an error prints no
    `meta`. When every index refused the request itself (`usage`: `-m semantic` where none has
    vectors, a `--since` ref none holds), the hint says so: the indexes are fine."""
    failed = result.meta.indexes
    if not failed or any(a.ok for a in failed):
        return result
    by_reason: dict[str, list[str]] = {}
    for a in failed:
        by_reason.setdefault(a.error or "failed", []).append(a.repo)
    reasons = [f"{', '.join(repos)}: {why}" for why, repos in by_reason.items()]
    shown = "; ".join(reasons[:MAX_REASONS]) + (
        f"; and {len(reasons) - MAX_REASONS} more" if len(reasons) > MAX_REASONS else ""
    )
    name = result.meta.workspace
    refused = all(a.error_code == "usage" for a in failed)
    raise QryError(
        f"no index of workspace {name!r} answered: {shown}",
        hint="every index refused the request itself, as said: change it (the indexes are readable)"
        if refused
        else f"check them: qry workspace list {name}",
        code="no_index_answered",
    )


route_workspace = route_members  # the name indexlib's public API exports
