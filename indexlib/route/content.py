"""Add what the indexes themselves answer to the profile router's score (pure: no I/O).

Owns: the combination of the profile score (route/score.py: idf-weighted coverage of slug, README head
and module-level names) with content evidence: the repositories of the best hits of one cheap lexical
fan-out over the pool (BM25 with the workspace-wide idf, and the symbol stream; no vectors, no graph).

A profile sees at most 2,000 README characters and 1,500 top-level names, so a question about what a
method body does, or a commit title in a repository's own words, often matches no profile or the
wrong one: on the dev set's 900 queries over its five repositories, the profile alone routes the
query's own repository first for 63% of them and into the top three for 81%. The repositories of the
lexical fan-out's best hits do that for 89% and 97%, and the two together, the profile weighted
PROFILE_WEIGHT, for 90% and 98% (docs/benchmarks.md). So:

    vote(r)    = sum over the fan-out's top CONTENT_HITS hits from r of 1 / rank   (rank from 1)
    share(r)   = vote(r) / sum of all votes
    confidence = (share(r) + PROFILE_WEIGHT * profile(r)) / (1 + PROFILE_WEIGHT)    in [0, 1]

A repository with neither evidence is dropped, as the profile router drops one that matches nothing.
"""

from __future__ import annotations

from collections.abc import Sequence

from indexlib.route.score import Route, RouteResult

CONTENT_HITS = 10  # the fan-out's best hits that vote
PROFILE_WEIGHT = 0.3  # the profile score's weight against the content share (measured: 0.1-1.0)


def votes(hit_repos: Sequence[str]) -> dict[str, float]:
    """repo -> sum of 1/rank over the first CONTENT_HITS entries of `hit_repos` (best first)."""
    out: dict[str, float] = {}
    for rank, repo in enumerate(hit_repos[:CONTENT_HITS], start=1):
        out[repo] = out.get(repo, 0.0) + 1.0 / rank
    return out


def combine(
    profile: RouteResult, hits: Sequence[tuple[str, str]], *, limit: int, considered: int | None = None
) -> RouteResult:
    """`profile` re-scored with the content share of `hits` ((repo, "path:line") best first), cut to `limit`.

    `profile.routes` must hold every repository the profile matched (not cut to a limit), so that a
    repository the content favours keeps its profile score."""
    vote = votes([repo for repo, _where in hits])
    total = sum(vote.values())
    by_repo = {r.repo: r for r in profile.routes}
    out = RouteResult(
        query=profile.query,
        terms=profile.terms,
        routes=[],
        considered=profile.considered if considered is None else considered,
        notes=list(profile.notes),
    )
    for repo in sorted(set(by_repo) | set(vote)):
        share = vote.get(repo, 0.0) / total if total > 0 else 0.0
        prof = by_repo.get(repo)
        p = prof.confidence if prof else 0.0
        conf = (share + PROFILE_WEIGHT * p) / (1 + PROFILE_WEIGHT)
        if conf <= 0:
            continue
        mine = [where for r, where in hits[:CONTENT_HITS] if r == repo]
        said = (
            f"{len(mine)} of the top {min(len(hits), CONTENT_HITS)} hits (first: {mine[0]}); share {share:.2f}"
            if mine
            else "no top hit"
        )
        rationale = f"{said}; profile: {prof.rationale if prof else 'no term matched'}"
        out.routes.append(
            Route(
                repo=repo,
                confidence=round(conf, 4),
                rationale=rationale,
                matched=prof.matched if prof else [],
                label_matched=prof.label_matched if prof else [],
                profile_confidence=p,
                content_share=round(share, 4),
            )
        )
    out.routes.sort(key=lambda r: (-r.confidence, r.repo))
    del out.routes[limit:]
    return out
