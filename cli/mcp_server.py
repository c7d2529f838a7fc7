"""`qry mcp`: a stdio Model Context Protocol server over qry's library, with hard bounds.

Owns: the eight tools coding agents call (`search`, `grep`, `resolve_symbol`, `get_related`,
`query_graph`, `index_status`, `reindex`, `route`), their input schemas and descriptions, and the bounds the server enforces
on every call: the other tools' argument ranges, a wall-clock limit per call, and a cap on calls in flight. Every
failure, a broken bound included, comes back as a tool result with `isError: true` whose text is the
QryError JSON (`error`, `hint`, `code`), so the calling model reads why and corrects its call, and the
connection stays up (a tool execution error, not a protocol error).

Does not own: ranking, graph rules or index building (each tool is one call into `indexlib`'s public
API, so the agent gets the same ranking as `qry search --json`); a search's bounds, defaults and
their checks (`search` only translates its arguments into `indexlib.SearchRequest`, whose agent
bounds are `indexlib.SERVED_BOUNDS`); nor the protocol (the official `mcp`
SDK's `MCPServer`). This is the only module that imports `mcp` (and its `anyio` and `pydantic`), and
only inside `serve()` / `QryTools.call()`, so qry without the `mcp` extra imports this module fine and
`qry mcp` says what to install.

Why one Engine for the server's life: it re-reads HEAD on every call, so answers come from the newest
published root (one that `reindex`, or a `qry index` run in a shell, just wrote), while the opened
snapshot and the loaded embedding model are reused between calls.

Why blocking calls run in worker threads: the event loop must keep reading stdin, answering pings and
cancellations, and timing out slow calls while the library works.
"""

# No `from __future__ import annotations` here: the SDK builds each tool's JSON input schema from its
# signature at runtime, and the tool functions are defined inside `build_server` (after the lazy
# import of pydantic), where string annotations could not be resolved.

import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import msgspec

import indexlib
from cli.console import Exit
from cli.install import extra_install_command
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


__all__ = ["Limits", "QryTools", "bound_error", "build_server", "serve"]


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

    def engine(self) -> "Engine":
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

    def target(self, repo: str | None) -> tuple[str | None, "Engine", Path]:
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
        from indexlib import GrepRequest, Store, bounded_grep, grep_members

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
        each with its `repo`."""
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
        if self.workspace and repo is None:
            found = [
                (d.score, i, {**_to_builtins(d), "repo": m.name})
                for i, m in enumerate(self.federation().members)
                for d in resolve_symbol(self.federation().engine(m.name), name.strip(), limit=limit)
            ]
            found.sort(key=lambda t: (-t[0], t[1]))
            matches: Any = [d for _s, _i, d in found[:limit]]
            out: dict[str, Any] = {"query": name, "definitions": matches}
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


# --------------------------------------------------------------------------------------------------
# The MCP face


INSTRUCTIONS = f"""\
qry searches one indexed code repository (BM25 over code-aware terms, symbol names, optional dense
vectors, and the call graph). Start with `search` (identifiers, signatures or plain questions), use
`resolve_symbol` to jump to a definition by name, `get_related` for callers/callees of one symbol,
and `query_graph` for structural questions. Results are JSON; paths are relative to the indexed root.
Started over a workspace (--workspace or --server), `search` spans its repositories (each hit names
its `repo`; `route` says which repositories a question is about), and so do `grep` and
`resolve_symbol` with --workspace; `get_related` asks the repository defining the name (or holding
the uid); pass a hit's `repo` to `get_related`, `query_graph`, `index_status` and `reindex` (for the
last three the default is the first repository).
Every call is bounded (top_k <= {_TOP_K.hi}, snippet_chars {_SNIPPET.lo}..{_SNIPPET.hi}, depth <= {_DEPTH.hi}, a time limit per call);
a broken bound or any failure returns isError with `error`, `hint` and `code`: read the hint and retry.
If hits are marked `stale` or `index_status` shows changed files, call `reindex`."""

SEARCH_DOC = """\
Search the indexed repository for code and docs; the same ranking as `qry search --json`.
Good queries: an identifier (`retry_failed_charge`, `ParseConfig`), a signature, or a question
("where are failed charges retried?"). Inline syntax also works in `query`: "exact phrase", prefix*,
lang:go, path:'src/**', kind:function, -path:tests/**.
Over a workspace (the server started with --workspace or --server): every hit also has `repo`,
`repo` (or repo:REGEX / -repo:REGEX in `query`) narrows the repositories searched, `route` true
searches only those the route tool would pick, and meta says which indexes answered.
Returns {query, results: [{uid, path, line (the line to open: the declaration or the line holding
the query's words, as `qry search` prints path:line), start_line, end_line, kind, symbol, language,
score, signature, snippet: {text, start_line, end_line, truncated, elided (lines whose text is an elided nested body,
not the file's), cut (lines longer than the snippet, shown only in part)}, related: [callers/callees of the hit], stale,
generated (the file is generated code: change its generator)}],
meta: {root, mode, route, notes, truncated_by_budget, ...}}. Use budget_tokens to fit the answer
into your context: whole results are packed in rank order and meta.truncated_by_budget counts the
ones left out."""

GREP_DOC = """\
Every line matching a regular expression (Python `re` syntax), exactly as ripgrep would find it, in
path order: all call sites before a rename, every use of a config key. Uses the index's trigrams and
reads files changed since the index directly, so the answer is the tree as it is now. Returns
{pattern, lines: [{path, line, text, submatches: [[start, end]], match}], summary: {files_searched,
files_read, files_matched, lines_matched, index_used, truncated}}. Bounded: max_lines (default 200,
at most 2000), max_bytes of line text (default 100000), and 10 s; past any bound `truncated` is true,
the lines are a prefix of the full answer and lines_matched/files_matched count that prefix: narrow
with path, lang or glob, or a more specific pattern. For ranked, fuzzy or natural-language questions use search instead.
Over a workspace (the server started with --workspace): every repository in workspace order, each
line with its `repo`; `repo` (regular expressions over repository names) narrows them."""

RESOLVE_DOC = """\
Find the definitions a name refers to: exact names (case-insensitive), qualified suffixes
(`Server.handle`), then close spellings. Returns {query, definitions: [{uid, symbol, name, kind, path,
start_line, end_line, language, signature, doc, match, score}]}; `match` is exact, qualified, joined
(retry_failed_charge ~ retryFailedCharge) or fuzzy. Use a returned uid with get_related."""

RELATED_DOC = """\
Who calls a symbol, what it calls, and its parent container, walking the call graph up to `depth`
steps; for a class, struct, interface, enum or trait also its members (edge contains, direction
out). `symbol` is a name, a qualified name (`BillingService.retryFailedCharge`) or a 16-hex uid from
search/resolve_symbol. Returns {query, node, related: [{edge, direction ("in" = caller, "out" =
callee), symbol, kind, path, start_line, end_line, line (the call site, import or base list; 0 for
contains), decl_line (the line it declares itself on), depth, ambiguous}], candidates, ambiguous}.
When several definitions match equally, nothing is guessed: `ambiguous` is true and `candidates`
lists them; call again with one candidate's uid."""

# The labels are the node kinds, listed from NodeKind so a new kind is named here too.
GRAPH_DOC = f"""\
Run a read-only, bounded openCypher-style query over the code graph.
Shape: MATCH / OPTIONAL MATCH <pattern> [WHERE ...] RETURN ... [ORDER BY ...] [SKIP n] [LIMIT n].
Node labels: {", ".join(NODE_KINDS)}, node (any).
Relationship types: calls, imports, contains, inherits, implements. Node properties: uid, name, qualified_name, kind, path, language, start_line, end_line, signature; relationship properties: kind,
line, ambiguous. Variable length needs a bound of at most 4 (*1..3). LIMIT defaults to 100, at most
1000; 2 s budget. Pass values as $parameters in `params`, never spliced into the text.
Example: MATCH (f:function {{name: $name}})<-[:calls*1..2]-(g) RETURN g.qualified_name, g.path LIMIT 20
with params {{"name": "parse_config"}}. Returns {{columns, rows, truncated, elapsed_ms}}. Writes
(CREATE, MERGE, SET, DELETE, ...), unknown labels and unbounded * are rejected with the rule's name."""

STATUS_DOC = """\
Describe the index: the root (snapshot) answering queries, when it was published and from which git
commit, counts of files and nodes by language and kind, skipped files, vectors and model, and files
changed on disk since (modified/added/deleted, each list capped at 50 names with a total count).
If files changed, call reindex."""

REINDEX_DOC = """\
Bring the index up to date with the files on disk: re-parse only files that changed, embed as the
index was built (vectors only if it has them), and publish a new root. Later calls answer from the new
root at once. Returns the build report: files, added, changed, removed, nodes_written, segments,
skipped, timings, published (false when nothing changed). Takes seconds to minutes on a large repo."""


ROUTE_DOC = """\
Which repositories a question is about, before searching: scores each repository of the server's
workspace (`qry mcp --workspace W`; else the one index) by idf-weighted coverage of the question's terms
over its slug, branch, README head and module-level names and paths, combined with which repositories
hold the best hits of one search over all of them (in `mode`). repo:REGEX / -repo:REGEX in the
question narrow the repositories scored. Returns {query, terms, routes: [{repo,
confidence (0..1), rationale, matched, label_matched, profile_confidence, content_share}], considered,
notes}; repositories with neither evidence are left out, so an empty `routes` means none matched."""


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

    with _exit_on_ctrl_c():
        anyio.run(_serve_stdio, server)
    if tools.running:
        # A timed-out call (e.g. a long reindex) still runs in a worker thread; the client has gone,
        # so do not wait for it. The store is crash-safe: an unfinished build leaves only staging files.
        import os

        sys.stderr.write(f"qry mcp: exiting with {plural(tools.running, 'call')} still running\n")
        sys.stderr.flush()
        os._exit(0)
    return 0


@contextmanager
def _exit_on_ctrl_c() -> Iterator[None]:
    """Make the first Ctrl-C end the server at once: `qry: interrupted` on stderr, exit status 130.

    Why not a KeyboardInterrupt: the stdio transport reads stdin in a worker thread that no
    cancellation can stop, so asyncio's own SIGINT handling waits for it (the first Ctrl-C seemed
    ignored) and interpreter shutdown then joins it (a threading traceback). Exiting from the handler
    is safe for the index: a reindex cut short leaves only staging files, as after a kill.
    """
    import os
    import signal

    def on_sigint(_signum: int, _frame: object) -> None:
        try:
            sys.stderr.write("qry: interrupted\n")
            sys.stderr.flush()
        finally:
            os._exit(Exit.INTERRUPTED)

    if threading.current_thread() is not threading.main_thread():
        yield  # signal handlers can only be set from the main thread (an in-process test)
        return
    previous = signal.signal(signal.SIGINT, on_sigint)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


class _Wire:
    """The stdio wire with the guards of `cli.mcp_guard` in front of the SDK.

    The SDK's own stdio transport drops a line it cannot parse without a reply (the client waits
    forever) and writes whatever it parses to the session; so we own the wire: lines are read here
    (bounded: a line over the size limit is discarded in chunks, never held whole), each is guarded,
    good ones go on to the SDK, and the guard's error replies are written back under the same lock as
    the SDK's messages, so frames never interleave. As the SDK does, the real descriptors 0 and 1 are
    kept private and the process's stdin/stdout are pointed at /dev/null and stderr, so stray output
    of a library cannot corrupt the wire.
    """

    def __init__(self, known: dict[str, frozenset[str]]) -> None:
        import os

        import anyio

        self._known = known  # each tool's arguments, which the guard checks a call's against
        sys.stdout.flush()
        self._in = os.fdopen(os.dup(0), "rb", buffering=0)
        self._out = os.fdopen(os.dup(1), "wb", buffering=0)
        devnull = os.open(os.devnull, os.O_RDONLY)
        os.dup2(devnull, 0)
        os.close(devnull)
        os.dup2(2, 1)
        self._reader = __import__("io").BufferedReader(self._in, buffer_size=1 << 16)
        self._lock = anyio.Lock()

    # -- what the SDK's transport reads (async iteration) and writes (write + flush) --------------

    def __aiter__(self) -> "_Wire":
        return self

    async def __anext__(self) -> str:
        import anyio.to_thread

        from cli.mcp_guard import guard_line

        while True:
            line = await anyio.to_thread.run_sync(self._read_line, abandon_on_cancel=True)
            if line is None:
                raise StopAsyncIteration
            forward, reply = guard_line(line, self._known)
            if reply is not None:
                await self.write(reply + "\n")
            if forward is not None:
                return forward + "\n"

    async def write(self, text: str) -> None:
        import anyio.to_thread

        async with self._lock:
            await anyio.to_thread.run_sync(self._write, text.encode("utf-8", "replace"))

    async def flush(self) -> None:
        return None  # every write is written through

    def _write(self, data: bytes) -> None:
        view = memoryview(data)
        while view:
            view = view[self._out.write(view) or 0 :]

    def _read_line(self) -> str | None:
        """One line (without its newline), or None at EOF. A line over the size limit comes back as
        its first MAX_MESSAGE_BYTES + 1 bytes (the guard refuses it); the rest is read and dropped."""
        from cli.mcp_guard import MAX_MESSAGE_BYTES

        data = self._reader.readline(MAX_MESSAGE_BYTES + 1)
        if not data:
            return None
        if not data.endswith(b"\n") and len(data) > MAX_MESSAGE_BYTES:
            while True:
                rest = self._reader.readline(1 << 16)
                if not rest or rest.endswith(b"\n"):
                    break
        return data.decode("utf-8", "replace").rstrip("\r\n")


async def _serve_stdio(server: Any) -> None:
    """Serve `server` (an MCPServer) on the guarded wire; ends when the client closes stdin."""
    from mcp.server.stdio import stdio_server

    known = {
        t.name: frozenset((t.input_schema or {}).get("properties", {})) for t in await server.list_tools()
    }
    wire: Any = _Wire(known)
    async with stdio_server(stdin=wire, stdout=wire) as (read_stream, write_stream):
        low = server._lowlevel_server  # the SDK's MCPServer.run_stdio_async does exactly this
        await low.run(read_stream, write_stream, low.create_initialization_options())
