"""Bodies of `qry related` and `qry graph`."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, NamedTuple

from cli.console import Env, Exit, guarded
from cli.render import print_table, related_at, safe_line, to_json
from indexlib import SEARCH_BOUNDS

RELATED_ROWS = SEARCH_BOUNDS.related_limit


class RelatedArgs(NamedTuple):
    """What `qry related` was given."""

    symbol: str
    callers: bool
    callees: bool
    depth: int
    index_dir: Path | None
    root: str | None
    workspace: str | None
    repos: list[str]
    json: bool
    limit: int | None = None


def related_command(env: Env, a: RelatedArgs) -> int:
    def run() -> int:
        both = not a.callers and not a.callees
        res = _related(a, callers=a.callers or both, callees=a.callees or both)
        repo: str | None = getattr(res, "repo", None)
        for e in getattr(res, "errors", []):
            env.err(f"qry: warning: {safe_line(e.repo)}: {safe_line(e.error)}\n")
        if a.json:
            env.out(to_json(res) + "\n")
            if res.ambiguous:
                return Exit.ERROR
            # As grep: a definition with nothing related (no callers of it, say) found nothing.
            found = res.related or any(o.related for o in res.overloads)
            return Exit.OK if res.node and found else Exit.NO_MATCH
        if res.ambiguous:
            _say_ambiguous(
                env, a.symbol, res.candidates, several_repos=repo is None and a.workspace is not None
            )
            return Exit.ERROR
        if res.node is None:
            env.err(f"qry: no definition named {a.symbol!r}\n")
            if res.member:
                env.err(f"  hint: {safe_line(res.member)} (a member, not a definition of its own)\n")
            elif res.closest:
                near = ", ".join(
                    f"{safe_line(c.symbol)} ({_where(c)}:{c.decl_line or c.start_line})" for c in res.closest
                )
                env.err(f"  hint: the closest names: {near}\n")
            elif re.fullmatch(r".+:\d+", a.symbol.strip()):  # `PATH:LINE`
                env.err(
                    "  hint: PATH:LINE names the definition holding that line of an indexed file; the line"
                    " is past the file's code, or the file is not indexed (qry status --skipped)\n"
                )
            else:
                env.err(f"  hint: qry search {safe_line(a.symbol)!r} finds where the words occur\n")
            return Exit.NO_MATCH
        at = f"{safe_line(repo)}:" if repo else ""
        answers = [(res.node, res.related, res.truncated)]
        answers += [(o.node, o.related, o.truncated) for o in res.overloads]
        if len(answers) > 1:
            env.err(f"qry: note: {safe_line(a.symbol)!r} names {len(answers)} overloads: each is listed\n")
        listed = sum(_related_table(env, a, at, *answer) for answer in answers)
        return Exit.OK if listed else Exit.NO_MATCH

    return guarded(env, run, json_out=a.json)


def _note(r: Any, n: Any) -> str:
    """A related row's note: an ambiguous edge, or a caller of the `expect` declaration the node is
    an `actual` of (reached through it, `via`)."""
    notes = ["ambiguous"] if r.ambiguous else []
    if r.via and r.via != n.uid:
        notes.append("calls its expect")
    return ", ".join(notes)


def _related_table(env: Env, a: RelatedArgs, at: str, n: Any, related: list[Any], truncated: bool) -> int:
    """One definition's header, its related rows as a table and what the table leaves out; the
    number of rows listed."""
    env.err(f"{safe_line(n.symbol)} ({n.kind}) {at}{safe_line(n.path)}:{n.start_line}-{n.end_line}\n")
    rows = [
        [
            ("<- " if r.direction == "in" else "-> ") + r.edge,
            r.symbol,
            r.kind,
            f"{at}{r.path}:{related_at(r)}",
            r.depth,
            _note(r, n),
        ]
        for r in related
    ]
    print_table(env, f"related to {n.symbol}", ["edge", "symbol", "kind", "location", "depth", "note"], rows)
    if truncated:
        env.err(
            f"qry: note: more related nodes than the {len(rows)} listed (hint: --limit N lists up to"
            f" {RELATED_ROWS.hi}; --callers, --callees or a member's own name narrows it)\n"
        )
    elif not rows:
        asked = "callers" if a.callers and not a.callees else "callees" if a.callees and not a.callers else ""
        env.err(f"qry: note: no {asked or 'related nodes'} of {safe_line(n.symbol)} in the index\n")
    return len(rows)


def _related(a: RelatedArgs, *, callers: bool, callees: bool) -> Any:
    """One index's `related`, or with --workspace the one of the repository defining the symbol."""
    from indexlib import UsageError

    if a.workspace is None:
        if a.repos:
            raise UsageError(
                "--repo chooses among a workspace's repositories",
                hint="add --workspace W, or leave --repo out",
            )
        from indexlib import open_engine, related

        return related(
            open_engine(a.index_dir),
            a.symbol,
            callers=callers,
            callees=callees,
            depth=a.depth,
            limit=a.limit,
            root=a.root,
        )
    from cli.wscmd import refuse_one_index_flags
    from indexlib import Federation, related_across, resolve_workspace

    refuse_one_index_flags(a.index_dir, a.root)

    ws = resolve_workspace(a.workspace)
    fed = Federation(ws.name, ws.members)
    return related_across(
        fed, a.symbol, callers=callers, callees=callees, depth=a.depth, repos=a.repos, limit=a.limit
    )


def _where(c: Any) -> str:
    """A definition's path, after its repository's name when it has one (`repo:path`)."""
    repo = getattr(c, "repo", None)
    return f"{safe_line(repo)}:{safe_line(c.path)}" if repo else safe_line(c.path)


def _say_ambiguous(env: Env, symbol: str, candidates: list[Any], *, several_repos: bool) -> None:
    env.err(f"qry: error: {symbol!r} names {len(candidates)} definitions\n")
    for c in candidates:
        env.err(
            f"  {safe_line(c.symbol)}  {c.kind}  {_where(c)}:{c.decl_line or c.start_line}  (uid {c.uid})\n"
        )
    first = candidates[0]
    if several_repos:
        env.err(
            f"  hint: they are in several repositories: pick one with --repo (--repo '^{safe_line(first.repo)}$'), "
            "or pass one of the uids\n"
        )
        return
    # The example must name one of them: `path:name` unless another candidate has that name in a
    # file that path names too (`def self.call` and `def call` in one class), then `path:line`.
    clash = any(
        c is not first
        and c.symbol == first.symbol
        and (c.path == first.path or c.path.endswith("/" + first.path))
        for c in candidates
    )
    example = (
        f"{first.path}:{first.decl_line or first.start_line}" if clash else f"{first.path}:{first.symbol}"
    )
    if first.kind == "module":  # a module is named by its file's path
        example = first.path
    env.err(
        f"  hint: qualify the name (module.name, Class.method, path:name or path:line such as "
        f"{safe_line(example)}) or pass one of the uids\n"
    )


def _parse_params(items: list[str]) -> dict[str, object]:
    from indexlib import UsageError

    out: dict[str, object] = {}
    for item in items:
        name, sep, value = item.partition("=")
        if not sep or not name.strip():
            raise UsageError(f"--param {item!r} is not NAME=VALUE", hint="e.g. --param name=parse_config")
        v: object = value
        if value.lstrip("-").isdigit():
            v = int(value)
        out[name.strip()] = v
    return out


def graph_command(
    env: Env, query: str, params: list[str], index_dir: Path | None, root: str | None, json: bool
) -> int:
    def run() -> int:
        from indexlib import QryError, graph_query, open_engine

        try:
            res = graph_query(open_engine(index_dir), query, _parse_params(params), root=root)
        except QryError as exc:
            if exc.code != "param_missing":
                raise
            name = re.search(r"\$(\w+)", exc.message)
            exc.hint = (  # the library's hint speaks of MCP's params object; here it is an option
                f"pass it with --param {name.group(1) if name else 'NAME'}=VALUE; "
                "values are bound, never spliced into the text"
            )
            raise
        if json:
            env.out(to_json(res) + "\n")
        else:
            # A node or a list (RETURN f, collect(...)) is shown as JSON, never as a Python repr.
            rows = [
                [v if isinstance(v, str | int | float) or v is None else to_json(v) for v in r]
                for r in res.rows
            ]
            print_table(env, "graph query", list(res.columns), rows)
            if res.truncated:
                env.err("qry: note: more rows matched than LIMIT returned (truncated)\n")
        return Exit.OK if res.rows else Exit.NO_MATCH

    return guarded(env, run, json_out=json)
