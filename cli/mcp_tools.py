"""The bodies of `qry mcp`'s eight tools, with the server's own bounds: plain synchronous calls into
`indexlib`, each argument checked first.

Owns: `Limits` (the server's bounds beyond a search request's: list sizes, grep's lines and bytes, a
wall-clock limit per call, a cap on calls in flight) and `QryTools`, whose `call` runs a body in a
worker thread under those limits and turns every failure into the QryError JSON (`error`, `hint`,
`code`) a tool result carries. Knows nothing of MCP, so tests call it directly.

Does not own: ranking, graph rules or index building (each tool is one call into the library's
public API, so the agent gets the same ranking as `qry search --json`); a search's bounds and their
checks (`indexlib.SearchRequest` with `indexlib.SERVED_BOUNDS`); the protocol (`cli.mcp_server`).

Why one Engine for the server's life: it re-reads HEAD on every call, so answers come from the newest
published root (one that `reindex`, or a `qry index` run in a shell, just wrote), while the opened
snapshot and the loaded embedding model are reused between calls.
"""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import msgspec

import indexlib
from cli.render import plural
from indexlib import (
    ROUTE_DEFAULT_LIMIT,
    ROUTE_SERVED_LIMIT_MAX,
    SERVED_BOUNDS,
    Bound,
    QryError,
    QueryTimeout,
    UsageError,
    bound_error,
    served_check,
)

if TYPE_CHECKING:
    from indexlib import Engine

SEARCH_MODES = indexlib.SEARCH_MODES
NODE_KINDS = tuple(k.value for k in indexlib.NodeKind)
_TOP_K, _SNIPPET, _DEPTH = SERVED_BOUNDS.top_k, SERVED_BOUNDS.snippet_chars, SERVED_BOUNDS.related_depth
_ROWS = SERVED_BOUNDS.related_limit
assert SERVED_BOUNDS.budget_tokens is not None and SERVED_BOUNDS.query_chars is not None
_BUDGET, _QUERY_CHARS = SERVED_BOUNDS.budget_tokens, SERVED_BOUNDS.query_chars


@dataclass(frozen=True, slots=True)
class Limits:
    """The server's own bounds, beyond a search request's (`indexlib.SERVED_BOUNDS`, checked by the
    library). Enforced on every call, never advisory; docs/mcp.md lists them."""

    symbols_max: int = 50
    status_list_max: int = 50  # file names per list (modified / added / deleted) in index_status
    grep_lines_default: int = 200  # matching lines a grep returns before `truncated`
    grep_lines_max: int = 2000
    grep_bytes_default: int = 100_000  # bytes of matching line text a grep returns before `truncated`
    grep_bytes_max: int = 1_000_000
    grep_seconds: float = 10.0  # a grep stops here with `truncated` (before the call's wall-clock limit)
    in_flight: int = 4  # calls running at once; more wait up to `admission_wait` seconds for a slot
    admission_wait: float = 5.0
    # Wall-clock seconds per call. Search may load the embedding model on its first dense query
    # (about a second here); status walks the source tree; reindex parses and embeds changed files.
    timeouts: dict[str, float] = field(
        default_factory=lambda: {
            "search": 15.0,
            "resolve_symbol": 10.0,
            "get_related": 10.0,
            "query_graph": 10.0,
            "index_status": 30.0,
            "grep": 15.0,
            "reindex": 300.0,
            "route": 30.0,  # the first call per root builds each repository's profile
        }
    )


__all__ = ["Limits", "QryTools", "bound_error"]


def _check(name: str, value: int, lo: int, hi: int, hint: str) -> int:
    return served_check(name, value, Bound(lo, hi), hint)


def _as_list(value: str | list[str] | None) -> list[str]:
    """Filters may come as one string or a list (models send both); empty strings are dropped."""
    if value is None:
        return []
    items = [value] if isinstance(value, str) else list(value)
    return [s.strip() for s in items if s and s.strip()]


def _to_builtins(obj: object) -> Any:
    return msgspec.to_builtins(obj)


class QryTools:
    """The tool bodies: plain synchronous calls into `indexlib`, with the argument bounds checked first.

    Knows nothing about MCP (so tests can call it directly); `call` adds the per-call limits (slots,
    wall clock) and turns any failure into the error JSON a tool result carries.
    """

    def __init__(
        self,
        index_dir: Path,
        limits: Limits | None = None,
        workspace: str | None = None,
        server: str | None = None,
    ) -> None:
        self.index_dir = Path(index_dir)
        # `qry mcp --workspace W`: what the search tool searches and the route tool scores
        self.workspace = workspace
        self.server = server  # `qry mcp --server URL`: the search tool asks that `qry serve`
        self.limits = limits or Limits()
        self._engine: Engine | None = None
        self._engine_lock = threading.Lock()
        self._federation: Any = None
        self._slots = threading.BoundedSemaphore(self.limits.in_flight)
        self._running = 0
        self._running_lock = threading.Lock()

    # -- state ------------------------------------------------------------------------------------

    def engine(self) -> Engine:
        """The server's one Engine, opened on first use (so the server can start before the index exists)."""
        with self._engine_lock:
            if self._engine is None:
                from indexlib import open_engine

                self._engine = open_engine(self.index_dir)
            return self._engine

    def federation(self) -> Any:
        """The workspace's Federation, opened on first use and kept, so its engines stay open."""
        from indexlib import Federation, resolve_workspace

        with self._engine_lock:
            if self._federation is None:
                assert self.workspace is not None
                ws = resolve_workspace(self.workspace)
                self._federation = Federation(ws.name, ws.members)
            return self._federation

    def target(self, repo: str | None) -> tuple[str | None, Engine, Path]:
        """(label, engine, index dir) the one-index tools answer from: the server's index, or in a
        workspace the repository named `repo` (its first one when none is named)."""
        if not self.workspace:
            if repo:
                raise UsageError(
                    "repo chooses among a workspace's repositories; this server reads one index",
                    hint="start it with qry mcp --workspace W, or leave repo out",
                )
            return None, self.engine(), self.index_dir
        fed = self.federation()
        names = [m.name for m in fed.members]
        if repo is not None and repo not in names:
            raise UsageError(
                f"no repository {repo!r} in this workspace", hint=f"pass one of: {', '.join(names)}"
            )
        member = next(m for m in fed.members if m.name == (repo or names[0]))
        return member.name, fed.engine(member.name), member.index

    def _said(self, out: dict[str, Any], label: str | None, repo: str | None) -> dict[str, Any]:
        """The answer naming its repository in a workspace, and saying so when it was not chosen."""
        if label is not None:
            out["repo"] = label
            if repo is None:
                names = ", ".join(m.name for m in self.federation().members)
                out["repo_note"] = (
                    f"answered from {label}, the workspace's first repository; pass repo to pick one of: {names}"
                )
        return out

    @property
    def running(self) -> int:
        """Library calls still running in worker threads (timed-out ones included until they end)."""
        with self._running_lock:
            return self._running

    # -- tools ------------------------------------------------------------------------------------

    def search(
        self,
        query: str,
        top_k: int | None = None,
        mode: str | None = None,
        lang: str | list[str] | None = None,
        path: str | list[str] | None = None,
        kind: str | list[str] | None = None,
        snippet_chars: int | None = None,
        budget_tokens: int | None = None,
        since: str | None = None,
        repo: str | list[str] | None = None,
        route: bool = False,
    ) -> Any:
        """One search, translated into the library's request (which checks the server's bounds); its
        notes say what the CLI says on stderr (a time window that keeps few files, a path filter that
        matches none). With a workspace or a server, the workspace search `qry search -w` runs."""
        from indexlib import SearchRequest, with_query_notes

        given: dict[str, Any] = {
            "top_k": top_k,
            "mode": mode,
            "snippet_chars": snippet_chars,
            "budget_tokens": budget_tokens,
        }
        request = SearchRequest(
            caller="agent",
            for_program=True,  # agents get each hit's callers and callees, as `qry search --json` does
            langs=_as_list(lang),
            paths=_as_list(path),
            kinds=_as_list(kind),
            repos=_as_list(repo),
            since=since if since and since.strip() else None,
            **{k: v for k, v in given.items() if v is not None},
        )
        request.validate(query)  # before the index is opened: a broken bound is named first
        if request.repos and not (self.server or self.workspace):
            raise UsageError(
                "repo chooses among a workspace's repositories; this server searches one index",
                hint="start it with qry mcp --workspace W, or leave repo out",
            )
        if self.server:
            from indexlib import remote_search, require_an_answer

            return _to_builtins(require_an_answer(remote_search(self.server, query, request, route=route)))
        if self.workspace:
            from indexlib import search_workspace

            return _to_builtins(search_workspace(self.federation(), query, request, route=route))
        if route:
            raise UsageError(
                "route chooses among a workspace's repositories; this server searches one index",
                hint="start it with qry mcp --workspace W, or leave route out",
            )
        engine = self.engine()
        return _to_builtins(with_query_notes(engine, query, request, engine.search(query, request)))

    def grep(
        self,
        pattern: str,
        fixed: bool = False,
        ignore_case: bool = False,
        word: bool = False,
        path: str | list[str] | None = None,
        lang: str | list[str] | None = None,
        glob: str | list[str] | None = None,
        max_lines: int | None = None,
        max_bytes: int | None = None,
        repo: str | list[str] | None = None,
    ) -> Any:
        """Every matching line (exact, like rg), within the line, byte and time bounds; over the
        workspace's repositories when the server was started with one."""
        from indexlib import GrepRequest

        lim = self.limits
        if not pattern:
            raise UsageError(
                "pattern is empty", hint="pass a regular expression, or a literal with fixed=true"
            )
        _check("pattern length", len(pattern), 1, _QUERY_CHARS.hi or 1, "shorten the pattern")
        max_lines = _check(
            "max_lines",
            lim.grep_lines_default if max_lines is None else max_lines,
            1,
            lim.grep_lines_max,
            f"call grep again with max_lines between 1 and {lim.grep_lines_max}; narrow with path, lang or glob",
        )
        max_bytes = _check(
            "max_bytes",
            lim.grep_bytes_default if max_bytes is None else max_bytes,
            1,
            lim.grep_bytes_max,
            f"call grep again with max_bytes between 1 and {lim.grep_bytes_max}",
        )
        args = [f"path:{p}" for p in _as_list(path)] + [f"lang:{x}" for x in _as_list(lang)]
        req = GrepRequest(
            pattern=pattern, args=args, fixed=fixed, ignore_case=ignore_case, word=word, globs=_as_list(glob)
        )
        try:
            return self._grep(req, repo, max_lines, max_bytes)
        except UsageError as exc:  # the pattern's error speaks of qry grep's -F: an agent passes fixed
            if exc.hint and "use -F" in exc.hint:
                raise UsageError(
                    exc.message, hint="grep takes Python `re` syntax; pass fixed=true for a literal string"
                ) from None
            raise

    def _grep(self, req: Any, repo: str | list[str] | None, max_lines: int, max_bytes: int) -> Any:
        """The grep tool's search, its arguments checked: the workspace's repositories or the one index."""
        from indexlib import Store, bounded_grep, grep_members

        lim = self.limits
        bounds: dict[str, Any] = {"max_lines": max_lines, "max_bytes": max_bytes, "seconds": lim.grep_seconds}
        if self.workspace:
            fed = self.federation()  # the workspace the server resolved once, as search uses it

            def run(on_file: Any, on_repo: Any, on_error: Any) -> Any:
                return grep_members(
                    fed.name,
                    fed.members,
                    req,
                    on_file,
                    repos=_as_list(repo),
                    on_repo=on_repo,
                    on_error=on_error,
                )

            return _to_builtins(bounded_grep(req, run=run, **bounds))
        if repo:
            raise UsageError(
                "repo chooses among a workspace's repositories; this server greps one index",
                hint="start it with qry mcp --workspace W, or leave repo out",
            )
        source_root = Store.open(self.index_dir).load()[1].source_root
        req = msgspec.structs.replace(req, index_dir=str(self.index_dir), cwd=source_root)
        return _to_builtins(bounded_grep(req, **bounds))

    def resolve_symbol(self, name: str, limit: int = 10, repo: str | None = None) -> Any:
        """Definitions by name; in a workspace without `repo`, those of every repository, best first,
        each with its `repo`, and in `errors` the repositories whose index could not be read."""
        from indexlib import resolve_symbol

        if not name or not name.strip():
            raise UsageError(
                "name is empty", hint="pass a name (parse_config) or a qualified name (Server.handle)"
            )
        _check("name length", len(name), 1, 512, "pass a symbol name, not source text")
        lim = self.limits
        limit = _check(
            "limit", limit, 1, lim.symbols_max, f"pass limit between 1 and {lim.symbols_max} (default 10)"
        )
        if self.workspace and repo is None:  # an index that cannot be read is named in `errors`
            from indexlib import resolve_across

            found, errors = resolve_across(self.federation(), name.strip(), limit=limit)
            matches: Any = found
            out: dict[str, Any] = {
                "query": name,
                "definitions": _to_builtins(matches),
                "errors": _to_builtins(errors),
            }
        else:
            label, engine, _dir = self.target(repo)
            matches = resolve_symbol(engine, name.strip(), limit=limit)
            out = {"query": name, "definitions": _to_builtins(matches)}
            if label is not None:
                out["repo"] = label
        if not matches:
            out["note"] = f"no definition named {name!r}; try the search tool with the name or a description"
        return out

    def get_related(
        self,
        symbol: str,
        callers: bool = True,
        callees: bool = True,
        depth: int = 1,
        repo: str | None = None,
        limit: int = _ROWS.default or _ROWS.lo,
    ) -> Any:
        """Callers, callees and parent of one symbol; in a workspace without `repo`, the repository
        that defines the name (or holds the uid: search hits carry uids of any of them) answers."""
        from indexlib import related

        if not symbol or not symbol.strip():
            raise UsageError(
                "symbol is empty", hint="pass a name, a qualified name (Server.handle) or a 16-hex uid"
            )
        depth = served_check(
            "depth",
            depth,
            _DEPTH,
            f"call get_related again with depth between {_DEPTH.lo} and {_DEPTH.hi}; to go further, call "
            "get_related on a node it returned",
        )
        limit = served_check(
            "limit", limit, _ROWS, f"call get_related again with limit between {_ROWS.lo} and {_ROWS.hi}"
        )
        if self.workspace and repo is None:  # the repository defining it answers (uid or name)
            from indexlib import related_across

            res: Any = related_across(
                self.federation(), symbol.strip(), callers=callers, callees=callees, depth=depth, limit=limit
            )
            out: dict[str, Any] = _to_builtins(res)
        else:
            label, engine, _dir = self.target(repo)
            res = related(engine, symbol.strip(), callers=callers, callees=callees, depth=depth, limit=limit)
            out = self._said(_to_builtins(res), label, repo)
        if res.ambiguous:
            out["hint"] = (
                f"{symbol!r} names {len(res.candidates)} definitions equally well: call get_related again "
                "with one candidate's uid or a qualified name (Class.method)"
                + (", or its repo" if self.workspace and repo is None else "")
            )
        elif res.node is None:
            near = ", ".join(c.symbol for c in res.closest)
            out["note"] = f"no definition named {symbol!r}" + (
                f"; the closest names (see closest): {near}" if near else "; try resolve_symbol or search"
            )
        return out

    def query_graph(self, query: str, params: dict[str, Any] | None = None, repo: str | None = None) -> Any:
        from indexlib import graph_query

        if not query or not query.strip():
            raise UsageError(
                "query is empty",
                hint="e.g. MATCH (f:function {name: $name})<-[:calls]-(g) RETURN g.qualified_name, g.path LIMIT 20",
            )
        label, engine, _dir = self.target(repo)
        return self._said(_to_builtins(graph_query(engine, query, dict(params or {}))), label, repo)

    def index_status(self, repo: str | None = None) -> Any:
        from indexlib import index_status

        label, engine, _dir = self.target(repo)
        st = self._said(_to_builtins(index_status(engine.store.path, check_disk=True)), label, repo)
        # A large tree can have thousands of changed files: keep the answer small, keep the counts.
        changes = st.get("changes", {})
        for key in ("modified", "added", "deleted"):
            names = changes.get(key, [])
            changes[f"{key}_count"] = len(names)
            if len(names) > self.limits.status_list_max:
                changes[key] = names[: self.limits.status_list_max]
                changes[f"{key}_truncated"] = True
        return st

    def route(self, question: str, limit: int = ROUTE_DEFAULT_LIMIT, mode: str | None = None) -> Any:
        """Which repositories of the workspace (or the one index) a question is about; the content
        evidence is a search in `mode` (the search tool's default when not given)."""
        from indexlib import Federation, Member, SearchRequest, route_workspace

        if not question or not question.strip():
            raise UsageError(
                "question is empty", hint="pass the question to route, e.g. 'retry a failed charge'"
            )
        _check("question length", len(question), 1, _QUERY_CHARS.hi or 1, "shorten the question")
        limit = _check(
            "limit",
            limit,
            1,
            ROUTE_SERVED_LIMIT_MAX,
            f"pass limit between 1 and {ROUTE_SERVED_LIMIT_MAX} (default {ROUTE_DEFAULT_LIMIT})",
        )
        opts = SearchRequest(caller="agent", mode=mode or SEARCH_MODES[0])
        opts.validate(question)  # an unknown mode is named before the workspace is read
        if self.server and not self.workspace:
            raise UsageError(
                "route reads the workspace's indexes, which this server reaches only through qry serve",
                hint="call search with route=true: it routes on the server, then searches",
            )
        if self.workspace:
            fed = self.federation()
        else:
            self.engine()  # a missing or broken index is the error the other tools give, not a note
            label = self.index_dir.parent.name if self.index_dir.name == ".qry" else self.index_dir.name
            fed = Federation(label, [Member(label, self.index_dir)])
        return _to_builtins(route_workspace(fed, question, limit=limit, opts=opts))

    def reindex(self, repo: str | None = None) -> Any:
        """Re-index the folder the index describes, embedding as it was built (in a workspace,
        the repository `repo`, or the first)."""
        from indexlib import BuildOptions, IndexNotFound, build_index

        index_dir = self.index_dir
        label: str | None = None
        try:
            label, engine, index_dir = self.target(repo)
        except IndexNotFound:
            if index_dir.name != ".qry" or self.workspace:
                raise
            # No index yet: build REPO/.qry for REPO as `qry index REPO` would, vectors included.
            source, embed = index_dir.parent, "onnx"
        else:
            manifest = engine.snapshot().manifest
            source = Path(manifest.source_root)  # the folder holding a `.qry`, wherever it was built
            embed = BuildOptions.embed_for(manifest.model.model_id if manifest.model else None)
        report = build_index(source, BuildOptions(index_dir=index_dir, embed=embed))
        out: dict[str, Any] = self._said(report.to_builtins(), label, repo)
        out["elapsed"] = round(report.elapsed, 3)
        out["source_root"] = str(source)
        out["embed"] = embed
        if not report.published:
            out["note"] = "nothing changed since the last build: no new root was published"
        return out

    # -- limits around one call -------------------------------------------------------------------

    async def call(self, tool: str, fn: Callable[[], Any]) -> tuple[bool, str]:
        """Run one tool body in a worker thread within the limits; returns (is_error, JSON text).

        A call waits up to `admission_wait` seconds for one of `in_flight` slots. A call past its
        wall-clock limit gets an error now; its thread cannot be killed, so it keeps its slot until it
        ends, which keeps runaway work bounded too.
        """
        import anyio
        import anyio.to_thread

        lim = self.limits
        deadline = time.monotonic() + lim.admission_wait
        while not self._slots.acquire(blocking=False):
            if time.monotonic() >= deadline:
                return _error(
                    QryError(
                        f"server busy: {plural(lim.in_flight, 'call')} already in flight (server bound: "
                        f"at most {lim.in_flight} at once)",
                        hint="wait for earlier calls to finish, then retry; send calls one after another",
                        code="busy",
                    )
                )
            await anyio.sleep(0.02)
        with self._running_lock:
            self._running += 1

        def work() -> Any:
            try:
                return fn()
            finally:
                with self._running_lock:
                    self._running -= 1
                self._slots.release()

        limit = lim.timeouts.get(tool, 30.0)
        try:
            with anyio.fail_after(limit):
                value = await anyio.to_thread.run_sync(work, abandon_on_cancel=True)
        except TimeoutError:
            hint = (
                "the build goes on in the background and publishes when done; call index_status later"
                if tool == "reindex"
                else "narrow the call (a smaller top_k or depth, lang/path/kind filters, a LIMIT) and retry"
            )
            return _error(
                QueryTimeout(f"{tool} ran past its wall-clock limit of {limit:g} s (server bound)", hint=hint)
            )
        except QryError as exc:
            return _error(exc)
        except Exception as exc:  # a bug must not take the connection down: report it, keep serving
            import traceback

            traceback.print_exc(file=sys.stderr)
            return _error(
                QryError(
                    f"internal error in {tool}: {type(exc).__name__}: {exc}",
                    hint="this is a bug in qry; the server is still up: retry differently or report it",
                    code="internal",
                )
            )
        return False, msgspec.json.encode(value).decode()


def _error(exc: QryError) -> tuple[bool, str]:
    return True, msgspec.json.encode(exc.to_dict()).decode()
