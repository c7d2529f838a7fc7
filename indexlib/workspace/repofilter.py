"""Which of a workspace's repositories a search asks: `repo:` / `-repo:` in the query and `--repo`.

Owns: matching those filters against the members' names. A filter is a regular expression searched
in the name, case-insensitively, as Sourcegraph's `repo:` is: `repo:core` keeps every name holding
"core", `repo:^core$` that name alone. A repository is kept when any include filter matches it (or
there is none) and no exclude filter does. The filters pick indexes before any is asked, so two
repositories of ten cost two searches; they never reach an index's own search, which has no name to
match (`SearchRequest.member` tells it the workspace applied them).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from indexlib.errors import UsageError
from indexlib.retrieval.query import parse_query
from indexlib.retrieval.request import SearchRequest
from indexlib.workspace.config import Member


def repo_filters(text: str, opts: SearchRequest) -> tuple[list[str], list[str]]:
    """(include, exclude) patterns of the query text and the request's `--repo` values.

    >>> repo_filters("retry repo:^api -repo:legacy", SearchRequest(repos=["web"]))
    (['^api', 'web'], ['legacy'])
    """
    q = parse_query(text, repos=opts.repos)
    return q.repos, q.exclude_repos


def matches(name: str, include: Sequence[str], exclude: Sequence[str]) -> bool:
    """Whether a repository named `name` is kept.

    >>> matches("vue-core", ["core"], []), matches("vue-core", [], ["^vue"]), matches("black", ["^b", "x"], [])
    (True, False, True)
    """

    def found(pattern: str) -> bool:
        return re.search(pattern, name, re.IGNORECASE) is not None

    return (not include or any(found(p) for p in include)) and not any(found(p) for p in exclude)


def select_for(workspace: str, members: Sequence[Member], text: str, opts: SearchRequest) -> list[Member]:
    """The members a search's repo filters keep (`select` over `repo_filters`)."""
    return select(workspace, members, *repo_filters(text, opts))


def select(
    workspace: str, members: Sequence[Member], include: Sequence[str], exclude: Sequence[str] = ()
) -> list[Member]:
    """The members the filters keep (all of them without filters); a UsageError naming the
    repositories when the filters keep none, since an empty answer would read as "no match"."""
    if not include and not exclude:
        return list(members)
    kept = [m for m in members if matches(m.name, include, exclude)]
    if not kept:
        said = " ".join([*(f"repo:{p}" for p in include), *(f"-repo:{p}" for p in exclude)])
        names = ", ".join(m.name for m in members)
        raise UsageError(
            f"no repository of workspace {workspace!r} matches {said}",
            hint=f"its repositories: {names} (repo: is a regular expression searched in the name)",
        )
    return kept
