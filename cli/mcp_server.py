"""`qry mcp`: a stdio Model Context Protocol server over qry's library, with hard bounds.

Owns: registering the eight tools coding agents call (`search`, `grep`, `resolve_symbol`,
`get_related`, `query_graph`, `index_status`, `reindex`, `route`) with the official `mcp` SDK's
`MCPServer`, their input schemas (each bound advertised as the server enforces it), and `serve`,
which finds the index and runs the server until the client closes the connection. Every failure, a
broken bound included, comes back as a tool result with `isError: true` whose text is the QryError
JSON (`error`, `hint`, `code`), so the calling model reads why and corrects its call, and the
connection stays up (a tool execution error, not a protocol error).

Does not own: the tool bodies and the server's bounds (`cli.mcp_tools`), what the model is told
(`cli.mcp_docs`), the stdio wire and its guards (`cli.mcp_wire`, `cli.mcp_guard`), nor the protocol
(the SDK). Imports `mcp` (and its `pydantic`) only inside `serve()` / `build_server()`, so qry without
the `mcp` extra imports this module fine and `qry mcp` says what to install.

Why blocking calls run in worker threads: the event loop must keep reading stdin, answering pings and
cancellations, and timing out slow calls while the library works.
"""

# No `from __future__ import annotations` here: the SDK builds each tool's JSON input schema from its
# signature at runtime, and the tool functions are defined inside `build_server` (after the lazy
# import of pydantic), where string annotations could not be resolved.

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from cli.install import extra_install_command
from cli.mcp_docs import (
    GRAPH_DOC,
    GREP_DOC,
    INSTRUCTIONS,
    REINDEX_DOC,
    RELATED_DOC,
    RESOLVE_DOC,
    ROUTE_DOC,
    SEARCH_DOC,
    STATUS_DOC,
)
from cli.mcp_tools import _BUDGET, _DEPTH, _ROWS, _SNIPPET, _TOP_K, NODE_KINDS, SEARCH_MODES, QryTools
from cli.render import plural
from indexlib import ROUTE_DEFAULT_LIMIT, ROUTE_SERVED_LIMIT_MAX, QryError, UsageError

__all__ = ["build_server", "serve"]


def build_server(tools: QryTools) -> Any:
    """The MCPServer with qry's eight tools registered on it (needs the `mcp` SDK, 2.x)."""
    from typing import Annotated, Literal

    from mcp.types import CallToolResult, TextContent, ToolAnnotations
    from pydantic import Field

    try:
        from mcp.server.mcpserver import MCPServer
    except ImportError as exc:  # mcp 1.x names it FastMCP and differs in ways we do not bridge
        from importlib.metadata import version

        raise QryError(
            f"qry mcp needs the mcp SDK 2.x, found {version('mcp')}",
            hint=extra_install_command("mcp").replace("pip install", "pip install -U", 1),
            code="dependency",
        ) from exc

    from indexlib import __version__

    lim = tools.limits
    mode_names: Any = Literal.__getitem__(SEARCH_MODES)
    server: Any = MCPServer(
        "qry",
        title="qry code search",
        instructions=INSTRUCTIONS,
        version=__version__,
        log_level="WARNING",
    )
    read_only = ToolAnnotations(
        read_only_hint=True, destructive_hint=False, idempotent_hint=True, open_world_hint=False
    )

    async def run(tool: str, fn: Callable[[], Any]) -> CallToolResult:
        is_error, text = await tools.call(tool, fn)
        return CallToolResult(content=[TextContent(type="text", text=text)], is_error=is_error)

    def bounded(description: str, lo: int, hi: int | None) -> Any:
        """An integer parameter's field: its range `lo..hi` said in its description and advertised in
        the schema so a model sees it; QryTools checks it, so a violation gets our message (rule +
        fix) instead of a generic validation error."""
        top = lo if hi is None else hi
        return Field(
            description=f"{description}, {lo}..{top}.", json_schema_extra={"minimum": lo, "maximum": top}
        )

    Filter = str | list[str] | None
    RepoFilter = Annotated[
        Filter,
        Field(
            description='Over a workspace: only repositories whose name matches these regular expressions, e.g. ["^api$"].'
        ),
    ]
    RepoLabel = Annotated[
        str | None, Field(description="Over a workspace: the repository (its label, as search hits name it).")
    ]

    @server.tool(name="search", title="Search code", description=SEARCH_DOC, annotations=read_only)
    async def search(
        query: Annotated[
            str, Field(description="What to look for: an identifier, a signature or a question.")
        ],
        top_k: Annotated[int, bounded("How many results", _TOP_K.lo, _TOP_K.hi)] = _TOP_K.default
        or _TOP_K.lo,
        mode: Annotated[
            mode_names,
            Field(
                description="hybrid (default: all streams fused), lexical (BM25 + symbols), semantic (vectors "
                "only; needs an index with vectors), symbol (definition names only)."
            ),
        ] = SEARCH_MODES[0],
        lang: Annotated[Filter, Field(description='Only these languages, e.g. ["python", "go"].')] = None,
        path: Annotated[
            Filter, Field(description='Only paths matching these globs, e.g. ["src/**"].')
        ] = None,
        kind: Annotated[
            Filter, Field(description="Only these node kinds: " + ", ".join(NODE_KINDS) + ".")
        ] = None,
        snippet_chars: Annotated[
            int, bounded("Characters of source per result", _SNIPPET.lo, _SNIPPET.hi)
        ] = _SNIPPET.default or _SNIPPET.lo,
        budget_tokens: Annotated[
            int | None,
            Field(
                description=f"Fit the answer into about this many tokens ({_BUDGET.lo}..{_BUDGET.hi}): "
                "whole results are kept in rank order; meta.truncated_by_budget counts those left out.",
                json_schema_extra={"minimum": _BUDGET.lo, "maximum": _BUDGET.hi},
            ),
        ] = None,
        since: Annotated[
            str | None,
            Field(
                description="Only code changed since: 2026-01-31, '2 weeks ago', yesterday, or a git ref (v1.2.0)."
            ),
        ] = None,
        repo: RepoFilter = None,
        route: Annotated[
            bool, Field(description="Over a workspace: search only the repositories `route` picks.")
        ] = False,
    ) -> CallToolResult:
        return await run(
            "search",
            lambda: tools.search(
                query,
                top_k=top_k,
                mode=mode,
                lang=lang,
                path=path,
                kind=kind,
                snippet_chars=snippet_chars,
                budget_tokens=budget_tokens,
                since=since,
                repo=repo,
                route=route,
            ),
        )

    @server.tool(name="grep", title="Exhaustive regex search", description=GREP_DOC, annotations=read_only)
    async def grep(
        pattern: Annotated[
            str, Field(description="A Python regular expression, or a literal with fixed=true.")
        ],
        fixed: Annotated[bool, Field(description="Treat the pattern as a literal string.")] = False,
        ignore_case: Annotated[bool, Field(description="Match case-insensitively.")] = False,
        word: Annotated[bool, Field(description="Only matches not touching a word character.")] = False,
        path: Annotated[Filter, Field(description="Only paths matching this glob, e.g. 'src/**'.")] = None,
        lang: Annotated[Filter, Field(description="Only this language, e.g. python.")] = None,
        glob: Annotated[Filter, Field(description="ripgrep globs: '*.py', '!tests/'.")] = None,
        max_lines: Annotated[
            int, bounded("At most this many matching lines", 1, lim.grep_lines_max)
        ] = lim.grep_lines_default,
        max_bytes: Annotated[
            int, bounded("At most this many bytes of line text", 1, lim.grep_bytes_max)
        ] = lim.grep_bytes_default,
        repo: RepoFilter = None,
    ) -> CallToolResult:
        return await run(
            "grep",
            lambda: tools.grep(
                pattern,
                fixed=fixed,
                ignore_case=ignore_case,
                word=word,
                path=path,
                lang=lang,
                glob=glob,
                max_lines=max_lines,
                max_bytes=max_bytes,
                repo=repo,
            ),
        )

    @server.tool(
        name="resolve_symbol", title="Go to definition", description=RESOLVE_DOC, annotations=read_only
    )
    async def resolve_symbol(
        name: Annotated[str, Field(description="A name (parse_config) or qualified name (Server.handle).")],
        limit: Annotated[int, bounded("At most this many definitions", 1, lim.symbols_max)] = 10,
        repo: Annotated[
            str | None,
            Field(description="Over a workspace: only this repository (default: every one)."),
        ] = None,
    ) -> CallToolResult:
        return await run("resolve_symbol", lambda: tools.resolve_symbol(name, limit=limit, repo=repo))

    @server.tool(
        name="get_related", title="Callers and callees", description=RELATED_DOC, annotations=read_only
    )
    async def get_related(
        symbol: Annotated[str, Field(description="A name, a qualified name, or a 16-hex uid.")],
        callers: Annotated[bool, Field(description="Include callers (who calls it).")] = True,
        callees: Annotated[bool, Field(description="Include callees (what it calls).")] = True,
        depth: Annotated[int, bounded("How many call steps to walk", _DEPTH.lo, _DEPTH.hi)] = _DEPTH.default
        or _DEPTH.lo,
        repo: RepoLabel = None,
        limit: Annotated[
            int, bounded("List at most this many related nodes", _ROWS.lo, _ROWS.hi)
        ] = _ROWS.default or _ROWS.lo,
    ) -> CallToolResult:
        return await run(
            "get_related",
            lambda: tools.get_related(
                symbol, callers=callers, callees=callees, depth=depth, repo=repo, limit=limit
            ),
        )

    @server.tool(name="query_graph", title="Graph query", description=GRAPH_DOC, annotations=read_only)
    async def query_graph(
        query: Annotated[str, Field(description="MATCH ... RETURN ... in the bounded profile.")],
        params: Annotated[
            dict[str, Any] | None,
            Field(description='Values for $names in the query, e.g. {"name": "parse_config"}.'),
        ] = None,
        repo: RepoLabel = None,
    ) -> CallToolResult:
        return await run("query_graph", lambda: tools.query_graph(query, params, repo=repo))

    @server.tool(name="index_status", title="Index status", description=STATUS_DOC, annotations=read_only)
    async def index_status(
        repo: RepoLabel = None,
    ) -> CallToolResult:
        return await run("index_status", lambda: tools.index_status(repo=repo))

    @server.tool(name="route", title="Route a question", description=ROUTE_DOC, annotations=read_only)
    async def route(
        question: Annotated[str, Field(description="The question, in words or identifiers.")],
        limit: Annotated[
            int, bounded("At most this many repositories", 1, ROUTE_SERVED_LIMIT_MAX)
        ] = ROUTE_DEFAULT_LIMIT,
        mode: Annotated[
            mode_names,
            Field(description="The search whose best hits vote (as the search tool's mode; default hybrid)."),
        ] = SEARCH_MODES[0],
    ) -> CallToolResult:
        return await run("route", lambda: tools.route(question, limit=limit, mode=mode))

    @server.tool(
        name="reindex",
        title="Update the index",
        description=REINDEX_DOC,
        annotations=ToolAnnotations(
            read_only_hint=False, destructive_hint=False, idempotent_hint=True, open_world_hint=False
        ),
    )
    async def reindex(
        repo: RepoLabel = None,
    ) -> CallToolResult:
        return await run("reindex", lambda: tools.reindex(repo=repo))

    return server


def serve(index_dir: Path | None, workspace: str | None = None, server: str | None = None) -> int:
    """Serve qry over MCP on stdin/stdout until the client closes the connection; returns the exit status.

    The index directory is found as every command finds it (`--index-dir` > `$QRY_INDEX_DIR` > the
    nearest `.qry` above the working directory). It need not hold an index yet: tools then answer
    with an error naming `reindex` or `qry index`, and `reindex` builds `REPO/.qry` for `REPO`.
    """
    try:
        import mcp  # noqa: F401  (only to tell a missing extra apart from other import errors)
    except ImportError as exc:
        raise QryError(
            "qry mcp needs the Model Context Protocol SDK, which is not installed",
            hint=extra_install_command("mcp"),
            code="dependency",
        ) from exc
    from indexlib import IndexNotFound, default_index_dir, resolve_index_dir, resolve_workspace

    if workspace is not None:
        ws = resolve_workspace(workspace)  # a bad name fails now, not at the first call
        if index_dir is None and ws.members:
            index_dir = ws.members[0].index  # the other tools answer from the workspace's first index
    try:
        where = resolve_index_dir(index_dir)
    except IndexNotFound:
        # No index here or above: serve anyway (a client shows a server that exits at start-up only as
        # "connection closed"); tools answer index_not_found, and reindex builds ./.qry for this folder.
        where = default_index_dir(Path.cwd())
    if workspace is not None and server is not None:
        raise UsageError(
            "--server answers from the server's workspace", hint="pass only one of --workspace and --server"
        )
    if server is not None:
        from indexlib import check_server_url

        server = check_server_url(server)
    tools = QryTools(where, workspace=workspace, server=server)
    try:
        tools.engine()  # open early so the first call is fast; a missing index is reported per call
    except QryError:
        pass
    server = build_server(tools)
    import anyio

    from cli.mcp_wire import exit_on_ctrl_c, serve_stdio

    with exit_on_ctrl_c():
        anyio.run(serve_stdio, server)
    if tools.running:
        # A timed-out call (e.g. a long reindex) still runs in a worker thread; the client has gone,
        # so do not wait for it. The store is crash-safe: an unfinished build leaves only staging files.
        import os

        sys.stderr.write(f"qry mcp: exiting with {plural(tools.running, 'call')} still running\n")
        sys.stderr.flush()
        os._exit(0)
    return 0
