"""`qry search --workspace W` / several `--index-dir` / `--server URL`, `qry workspace add|remove|list`,
`qry route` and `qry serve`.

Owns: turning those command lines into calls of indexlib's workspace and cluster API, and showing
workspace results: JSON and JSONL print the library's records (each hit with its `repo`); table and plain
output put the repository before the path (`repo:path:line:text`), through the one-index renderer.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import msgspec

from cli.console import Env, Exit
from cli.render import plural, render, safe_line, to_json


def refuse_one_index_flags(index_dir: object, root: str | None = None) -> None:
    """With --workspace, the flags naming one index (`--index-dir`, `--root`) are a usage error."""
    from indexlib import UsageError

    if index_dir:
        raise UsageError("--workspace and --index-dir exclude each other", hint="pick one")
    if root is not None:
        raise UsageError(
            "--root names a root of one index, not of a workspace",
            hint="pass --index-dir DIR with --root, or leave --root out",
        )


# The commands whose --index-dir names the one index they read (search, route and grep take several).
ONE_INDEX_COMMANDS = frozenset({"related", "status", "roots", "gc", "verify", "graph", "mcp"})


def refuse_repeated_index_dir(args: list[str]) -> None:
    """A UsageError when a command that reads one index is given `--index-dir` more than once:
    Click keeps the last value, so `qry related X --index-dir A --index-dir B` answered from B alone,
    silently, where `qry search` takes the same line as two indexes."""
    from indexlib import UsageError

    words = args[: args.index("--")] if "--" in args else args
    sub = next((a for a in words if not a.startswith("-")), "")
    given = sum(a == "--index-dir" or a.startswith("--index-dir=") for a in words)
    if sub in ONE_INDEX_COMMANDS and given > 1:
        raise UsageError(
            f"qry {sub} reads one index: --index-dir was given {given} times",
            hint="pass one; several indexes are a workspace: qry workspace add W DIR..., then -w W "
            "(search, route and grep also take --index-dir repeated)",
        )


def _federation(v: dict[str, Any]) -> Any:
    from cli.searchcmd import index_dirs
    from indexlib import Federation, members_of_dirs, resolve_workspace

    dirs = index_dirs(v)
    if v.get("workspace") is not None:
        refuse_one_index_flags(dirs)
        ws = resolve_workspace(str(v["workspace"]))
        return Federation(ws.name, ws.members)
    return Federation("index-dirs", members_of_dirs(dirs))


def several_search(
    env: Env, query: str, v: dict[str, Any], request: Any, fmt: str, context: int | None
) -> int:
    """`qry search` over several indexes: a workspace, `--index-dir` repeated, or a `qry serve` (--server)."""
    from indexlib import UsageError, remote_search, require_an_answer, search_workspace

    if v.get("server") is not None:
        if v.get("workspace") is not None or v.get("index_dir"):
            raise UsageError(
                "--server answers from the server's workspace", hint="leave out --workspace and --index-dir"
            )
        result = require_an_answer(
            remote_search(str(v["server"]), query, request, route=bool(v.get("route")))
        )
    else:
        result = search_workspace(_federation(v), query, request, route=bool(v.get("route")))
    render_workspace(env, result, fmt=fmt, explain=request.explain, context=context)
    return Exit.OK if result.results else Exit.NO_MATCH


def render_workspace(
    env: Env, result: Any, *, fmt: str, explain: bool = False, context: int | None = None
) -> None:
    """JSON and JSONL print the library's records (each hit with its `repo`); the other formats put the
    repository before the path (`repo:path:line:text`) through the one-index renderer.

    The notes go to stderr as a one-index search's do: those it tells in every format (what a `-word`
    left out, no result) as `qry: note:` whatever the format; the rest (an index that failed or is
    stale) as `qry: warning:`, except beside --json, whose `meta` holds them: JSONL has no `meta`,
    and a program reading it must still learn that an index did not answer."""
    from indexlib import SearchMeta, SearchResult, is_routing_info, is_told_note

    meta = result.meta
    for note in meta.notes:
        if is_told_note(note):
            env.err(f"qry: note: {safe_line(note)}\n")
        elif fmt != "json":
            env.err(f"qry: {'note' if is_routing_info(note) else 'warning'}: {safe_line(note)}\n")
    if meta.routed and fmt not in ("json", "table"):  # those say it: meta.routed, the footer
        env.err(f"qry: note: routed to {safe_line(', '.join(meta.routed))}\n")
    if fmt == "json":
        env.out(to_json(result) + "\n")
        return
    if fmt == "jsonl":
        for hit in result.results:
            env.out(to_json(hit) + "\n")
        return
    # the related nodes too: calls do not cross repositories, so they are in the hit's
    hits = [
        msgspec.structs.replace(
            h,
            path=f"{h.repo}:{h.path}",
            related=[msgspec.structs.replace(r, path=f"{h.repo}:{r.path}") for r in h.related],
        )
        for h in result.results
    ]
    flat = SearchMeta(
        root=f"workspace {meta.workspace}",
        published_at=0,
        indexed_commit=None,
        elapsed_ms=meta.elapsed_ms,
        mode="workspace",
        route=", ".join(meta.routed) if meta.routed else "",
    )
    page = SearchResult(query=result.query, results=hits, meta=flat)
    asked = meta.indexes
    answered = sum(a.ok for a in asked)
    footer = f"workspace {meta.workspace} · {answered} of {plural(len(asked), 'repository', 'repositories')} answered"
    if meta.routed:
        footer += f" · routed to {', '.join(meta.routed)}"
    render(env, page, fmt=fmt, explain=explain, context=context, footer=safe_line(footer))


def workspace_add_command(env: Env, name: str, paths: list[Path], label: str | None, json: bool) -> int:
    from indexlib import workspace_add, workspace_config_file

    ws = workspace_add(name, paths, label)
    if json:
        env.out(to_json(_ws_record(ws)) + "\n")
    else:
        env.out(
            f"workspace {ws.name}: {plural(len(ws.members), 'index', 'indexes')} ({workspace_config_file()})\n"
        )
    return Exit.OK


def workspace_remove_command(env: Env, name: str, repos: list[str], json: bool) -> int:
    from indexlib import workspace_remove

    ws = workspace_remove(name, repos)
    if json:
        env.out(to_json(_ws_record(ws) if ws else {"name": name, "removed": True}) + "\n")
    elif ws is None:
        env.out(f"removed workspace {name}\n")
    else:
        env.out(f"workspace {ws.name}: {plural(len(ws.members), 'index', 'indexes')} left\n")
    return Exit.OK


def workspace_list_command(env: Env, name: str | None, json: bool) -> int:
    from cli.render import print_table, timestamp
    from indexlib import load_workspaces, member_state, resolve_workspace, workspace_config_file

    # A workspace with no indexes is listed (as `(no indexes)`), not refused: it is what the user's
    # file holds, and the "known workspaces" hint of other commands names it.
    found = [resolve_workspace(name, empty_ok=True)] if name else list(load_workspaces().values())
    states = {(w.name, m.name): member_state(m) for w in found for m in w.members}
    if json:
        records = [
            _ws_record(w) | {"repos": [msgspec.to_builtins(states[(w.name, m.name)]) for m in w.members]}
            for w in found
        ]
        env.out(to_json(records) + "\n")
        return Exit.OK
    rows = []
    for w in found:
        if not w.members:
            rows.append([w.name, "", "", "(no indexes)", "", ""])
        for m in w.members:
            st = states[(w.name, m.name)]
            state = _state_word(st)
            when = timestamp(st.published_at) if st.published_at else ""
            rows.append([w.name, m.name, str(m.index), state, when, f"{st.files:,}" if st.root else ""])
    print_table(env, "workspaces", ["workspace", "repo", "index", "state", "published", "files"], rows)
    if not found:  # the header alone tells a new user nothing
        env.err(f"qry: note: no workspaces yet in {workspace_config_file()}: qry workspace add W PATH...\n")
    return Exit.OK


def _state_word(st: Any) -> str:
    """One word for `qry workspace list`: what a search or grep of this index will meet (BROKEN when
    its root or a file the root lists is missing or of the wrong size, as a search's open finds it;
    damage that keeps a file's size is found by its checksum, by `qry verify`)."""
    if not st.present:
        return "MISSING"
    if st.error:
        return f"BROKEN: {st.error}"
    if st.folder_gone:
        return "FOLDER GONE"
    return "stale" if st.stale else "ok"


def _ws_record(ws: Any) -> dict[str, Any]:
    return {
        "name": ws.name,
        "file": str(ws.source) if ws.source else None,
        "repos": [
            {"name": m.name, "index": str(m.index), "present": (m.index / "HEAD").is_file()}
            for m in ws.members
        ],
    }


def route_command(env: Env, question: str, v: dict[str, Any], limit: int, json: bool) -> int:
    from indexlib import (
        ROUTE_DEFAULT_LIMIT,
        ROUTE_LIMIT_MAX,
        SearchRequest,
        UsageError,
        is_routing_info,
        route_workspace,
    )

    if not 1 <= limit <= ROUTE_LIMIT_MAX:
        raise UsageError(
            f"--limit must be between 1 and {ROUTE_LIMIT_MAX}, not {limit}",
            hint=f"e.g. --limit {ROUTE_DEFAULT_LIMIT}",
        )
    if not question.strip():  # said here: the request's own check would hint at `qry search`
        raise UsageError(
            "the question is empty",
            hint='say what to route, e.g. qry route "where is the token refreshed" -w W',
        )
    if v.get("workspace") is None and not v.get("index_dir"):
        raise UsageError("no repositories to route between", hint="pass --workspace W or --index-dir DIR ...")
    fed = _federation(v)
    # The content evidence is the search `qry search --route` would run: the same mode and model.
    opts = SearchRequest(caller="cli", mode=v["mode"], model_dir=v["model"], repos=list(v.get("repo") or []))
    opts.validate(question)  # a bad --mode is named even with --profile-only
    result = route_workspace(fed, question, limit=limit, content=not v.get("profile_only"), opts=opts)
    if json:
        env.out(to_json(result) + "\n")
    else:
        for note in result.notes:
            env.err(f"qry: {'note' if is_routing_info(note) else 'warning'}: {safe_line(note)}\n")
        for r in result.routes:
            env.out(f"{safe_line(r.repo)}\t{r.confidence:.3f}\t{safe_line(r.rationale)}\n")
    return Exit.OK if result.routes else Exit.NO_MATCH


def serve_command(env: Env, workspace: str, cluster: str, host: str, port: int) -> int:
    from indexlib import ClusterWorkspace, check_listen, make_server, resolve_workspace

    ws = resolve_workspace(workspace)
    check_listen(host, port)  # a port in use is said now, not after seconds of starting Ray
    service = ClusterWorkspace(cluster, ws.name, ws.members)
    server = make_server(service, host, port)
    env.err(
        f"qry serve: workspace {ws.name} ({plural(len(ws.members), 'index', 'indexes')} on Ray actors) at "
        f"http://{host}:{server.server_address[1]}\n"
    )
    env.stderr.flush()
    try:
        server.serve_forever()
    finally:
        server.server_close()
    return Exit.OK
