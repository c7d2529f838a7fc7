"""`qry grep --workspace W`: every matching line of several indexed repositories, one after another.

Owns: running the one-tree grep (`grep/api.py: run_grep`) in each repository a workspace's repo
filters keep (workspace/repofilter.py), each in the folder its index describes
(members.source_folder) with that index, and summing the counts.
Repositories come in workspace order, the files of each in path order, as `rg` over several folders
prints them. Each repository's paths are relative to its root: the caller hears which repository is
next (`on_repo`) and prints it before the path (`repo:path:line:text`) or in the JSON record.

A repository whose index cannot be read, or whose indexed folder is gone, is reported through
`on_error` (as rg reports a folder it cannot read) and the others are still searched. PATH arguments
name places in one tree and are refused here; `path:GLOB`, `-path:GLOB` and `lang:` filters apply in
every repository.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence

import msgspec

from indexlib.errors import QryError, UsageError
from indexlib.grep.api import GrepRequest, OnError, OnFile, run_grep
from indexlib.grep.files import split_filters
from indexlib.grep.records import GrepSummary
from indexlib.retrieval.query import check_repo_pattern
from indexlib.workspace import repofilter
from indexlib.workspace.config import Member
from indexlib.workspace.members import source_folder

__all__ = ["grep_members", "repo_args"]

_REPO_KEYS = ("repo:", "-repo:")


def repo_args(args: Sequence[str]) -> tuple[list[str], list[str], list[str]]:
    """(the other arguments, include, exclude): `repo:X` / `-repo:X` taken out of grep's arguments.

    >>> repo_args(["repo:^api", "lang:go", "-repo:old"])
    (['lang:go'], ['^api'], ['old'])
    """
    rest: list[str] = []
    include: list[str] = []
    exclude: list[str] = []
    for arg in args:
        if arg.startswith(_REPO_KEYS) and arg.partition(":")[2]:
            value = arg.partition(":")[2]
            (exclude if arg.startswith("-") else include).append(check_repo_pattern(value))
        else:
            rest.append(arg)
    return rest, include, exclude


def grep_members(
    workspace: str,
    members: Sequence[Member],
    req: GrepRequest,
    on_file: OnFile,
    *,
    repos: Sequence[str] = (),
    on_repo: Callable[[str], None] = lambda _r: None,
    notice: Callable[[str], None] = lambda _m: None,
    on_error: OnError = lambda _p, _r: None,
) -> GrepSummary:
    """Grep each member the filters keep (`repo:` in `req.args`, and `repos`, as `--repo`)."""
    args, include, exclude = repo_args(req.args)
    include += [check_repo_pattern(r) for r in repos]
    paths = split_filters(args)[0]
    if paths:
        raise UsageError(
            f"a workspace grep takes no PATH ({paths[0]}): each repository is searched from its root",
            hint="narrow within each repository with path:GLOB or -path:GLOB, across them with repo:NAME",
        )
    kept = repofilter.select(workspace, members, include, exclude)
    totals = dict.fromkeys(("files_searched", "files_from_index", "files_read", "files_matched"), 0)
    lines = 0
    used = truncated = False
    for m in kept:
        root = _source_root(m, on_error)
        if root is None:
            continue
        on_repo(m.name)
        one = msgspec.structs.replace(req, args=args, index_dir=str(m.index), cwd=root)
        try:
            summary = run_grep(
                one, on_file, notice=_tagged(m.name, notice), on_error=_tagged_error(m.name, on_error)
            )
        except UsageError:
            raise  # the pattern or a filter: the same for every repository
        except QryError as exc:  # this repository's index (missing, damaged, locked): the others go on
            on_error(m.name, f"{exc.message} ({exc.hint})" if exc.hint else exc.message)
            continue
        for key in totals:
            totals[key] += getattr(summary, key)
        lines += summary.lines_matched
        used = used or summary.index_used
        if summary.truncated:
            truncated = True
            break
    return GrepSummary(**totals, lines_matched=lines, index_used=used, truncated=truncated)


def _tagged(repo: str, notice: Callable[[str], None]) -> Callable[[str], None]:
    return lambda msg: notice(f"{repo}: {msg}")


def _tagged_error(repo: str, on_error: OnError) -> OnError:
    return lambda path, why: on_error(f"{repo}:{path}", why)


def _source_root(member: Member, on_error: OnError) -> str | None:
    """The folder `member`'s index describes, or None (reported) when it cannot be searched."""
    try:
        root = str(source_folder(member))
    except QryError as exc:
        on_error(member.name, f"{exc.message} ({exc.hint})" if exc.hint else exc.message)
        return None
    if not os.path.isdir(root):
        on_error(member.name, f"the indexed folder {root} is gone")
        return None
    return root
