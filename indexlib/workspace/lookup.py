"""`qry related --workspace W`: a symbol looked up in every repository of a workspace.

Owns: deciding which repository a name (or a uid) belongs to and answering `related` from there.
One repository defining it: its answer, naming the repository. Several: nothing is guessed, as in
one index (`api.related`): the definitions of each come back as candidates, each naming its
repository, for the caller to pick with `--repo` or a uid. None: the closest names of all of them.

Why: a workspace search prints `repo:path:line: symbol`; following that symbol to its callers must not
first send the user to find the repository's index. A repository whose index cannot be read is
reported in `errors` and the others still answer, as in a workspace search.
Does not own: the graph walk (`api.related`, per index: calls across repositories are not edges).
"""

from __future__ import annotations

from collections.abc import Sequence

import msgspec

from indexlib.api import CLOSEST_NAMES, RelatedResult, SymbolMatch, related, resolve_symbol
from indexlib.errors import QryError, UsageError
from indexlib.retrieval.query import check_repo_pattern
from indexlib.workspace import repofilter
from indexlib.workspace.config import Member
from indexlib.workspace.federate import Federation

__all__ = ["RepoError", "RepoSymbolMatch", "WorkspaceRelated", "related_across", "resolve_across"]


class RepoSymbolMatch(SymbolMatch, kw_only=True):
    """A definition in one repository of a workspace."""

    repo: str


class RepoError(msgspec.Struct, frozen=True, kw_only=True):
    """A repository that could not be asked: the answer is not complete."""

    repo: str
    error: str


class WorkspaceRelated(RelatedResult, kw_only=True):
    """`related` over a workspace: the fields of one index's answer, plus the repository the node
    is in (`repo`, None when there is no single node) and those that could not be read."""

    repo: str | None = None
    errors: list[RepoError] = msgspec.field(default_factory=list)


def related_across(
    fed: Federation,
    symbol: str,
    *,
    callers: bool = True,
    callees: bool = True,
    depth: int = 1,
    repos: Sequence[str] = (),
    limit: int | None = None,
) -> WorkspaceRelated:
    """`related` in the repository that defines `symbol` among those `repos` (regular expressions
    over the names, as `--repo`) keeps; ambiguous when several define it."""
    kept = repofilter.select(fed.name, fed.members, [check_repo_pattern(r) for r in repos])
    kept, name = _labelled(kept, symbol)
    answers: list[tuple[Member, RelatedResult]] = []
    errors: list[RepoError] = []
    for m in kept:
        try:
            got = related(
                fed.engine(m.name), name, callers=callers, callees=callees, depth=depth, limit=limit
            )
        except UsageError:
            raise  # the symbol or the depth: the same answer from every repository
        except QryError as exc:  # this repository's index (missing, damaged): the others answer
            errors.append(RepoError(repo=m.name, error=exc.message))
            continue
        answers.append((m, got))
    if not answers and errors:
        raise _none_readable(fed, errors)
    defining = [(m, r) for m, r in answers if r.node is not None or r.ambiguous]
    if len(defining) == 1:
        m, r = defining[0]
        return WorkspaceRelated(
            query=symbol,
            node=r.node,
            related=r.related,
            candidates=[_tag(m.name, c) for c in r.candidates],
            ambiguous=r.ambiguous,
            truncated=r.truncated,
            overloads=r.overloads,
            repo=m.name,
            errors=errors,
        )
    if defining:
        candidates: list[SymbolMatch] = [
            _tag(m.name, c)
            for m, r in defining
            for c in ([r.node, *(o.node for o in r.overloads)] if r.node is not None else r.candidates)
        ]
        return WorkspaceRelated(query=symbol, node=None, candidates=candidates, ambiguous=True, errors=errors)
    closest = sorted(
        ((c.score, i, _tag(m.name, c)) for i, (m, r) in enumerate(answers) for c in r.closest),
        key=lambda t: (-t[0], t[1]),
    )
    return WorkspaceRelated(
        query=symbol, node=None, closest=[c for _s, _i, c in closest[:CLOSEST_NAMES]], errors=errors
    )


def resolve_across(
    fed: Federation, name: str, *, limit: int = 10
) -> tuple[list[RepoSymbolMatch], list[RepoError]]:
    """The definitions `name` names in every repository, best first (ties in workspace order), each
    with its `repo`, and the repositories whose index could not be read: a missing or damaged index
    leaves its definitions out, as it leaves its hits out of a workspace search, not the answer."""
    found: list[tuple[float, int, RepoSymbolMatch]] = []
    errors: list[RepoError] = []
    members, name = _labelled(fed.members, name)
    for i, m in enumerate(members):
        try:
            got = resolve_symbol(fed.engine(m.name), name, limit=limit)
        except UsageError:
            raise  # the name itself: the same answer from every repository
        except QryError as exc:
            errors.append(RepoError(repo=m.name, error=exc.message))
            continue
        found.extend((d.score, i, _tag(m.name, d)) for d in got)
    if len(errors) == len(members):
        raise _none_readable(fed, errors)
    found.sort(key=lambda t: (-t[0], t[1]))
    return [d for _s, _i, d in found[:limit]], errors


def _labelled(members: Sequence[Member], symbol: str) -> tuple[list[Member], str]:
    """The repository and the name a `repo:rest` spelling means, as a workspace search prints its
    locations (`api:src/billing.py:42`, `api:Gateway.charge`), so what it printed can be passed back;
    else `members` and `symbol` as given. Only a label of `members` counts (a filter that left the
    repository out leaves the text as typed), and `a::b` stays a Rust path."""
    label, colon, rest = symbol.strip().partition(":")
    named = [m for m in members if m.name == label]
    if colon and named and rest.strip() and not rest.startswith(":"):
        return named, rest
    return list(members), symbol


def _none_readable(fed: Federation, errors: list[RepoError]) -> QryError:
    """The error when no repository could be asked: an empty answer would read as "not defined"."""
    first = errors[0]
    return QryError(
        f"no repository of workspace {fed.name!r} could be read ({first.repo}: {first.error})",
        hint=f"qry workspace list {fed.name} shows each index's state",
    )


def _tag(repo: str, m: SymbolMatch) -> RepoSymbolMatch:
    return RepoSymbolMatch(**msgspec.structs.asdict(m), repo=repo)
