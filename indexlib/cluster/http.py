"""The HTTP face of `qry serve` and its client (`qry search --server URL`), standard library only.

Owns: the wire format. `POST /search` takes `{"query": "...", "options": {...}, "route": false}` where
options are SearchRequest fields (the plain ones: see WIRE_OPTIONS) and returns the WorkspaceResult
JSON; `GET /health` returns the workspace and its repositories. Errors come back as the QryError JSON
with status 400 (bad request) or 500, so the client re-raises them as the same QryError.
"""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import msgspec

from indexlib.errors import QryError, UsageError
from indexlib.retrieval.bounds import SERVED_BOUNDS
from indexlib.retrieval.query import well_formed
from indexlib.retrieval.request import SearchRequest, served_check
from indexlib.workspace.federate import WorkspaceResult

WIRE_OPTIONS = frozenset(
    {
        "top_k",
        "mode",
        "snippet_chars",
        "rrf_k",
        "explain",
        "graph",
        "graph_depth",
        "diffuse",
        "langs",
        "paths",
        "excludes",
        "kinds",
        "repos",
        "budget_tokens",
        "since",
        "until",
        "as_of",
        "recency",
        "caller",
        "for_program",
        "per_file",
    }
)
CALLERS = ("library", "cli", "agent")
MAX_BODY = 1 << 20
CLIENT_TIMEOUT_S = 60.0


def options_from(raw: dict[str, Any]) -> SearchRequest:
    unknown = sorted(set(raw) - WIRE_OPTIONS)
    if unknown:
        raise UsageError(
            f"unknown search options: {', '.join(unknown)}", hint=f"use: {', '.join(sorted(WIRE_OPTIONS))}"
        )
    try:
        request = msgspec.convert(raw, SearchRequest)
    except msgspec.ValidationError as exc:
        raise UsageError(f"bad search options: {exc}", hint="see qry search --help") from exc
    if request.caller not in CALLERS:
        raise UsageError(f"unknown caller {request.caller!r}", hint=f"use one of: {', '.join(CALLERS)}")
    return request


def parse_body(body: bytes) -> tuple[str, SearchRequest, bool]:
    """(query, request, route) of a POST /search body, or a UsageError naming what is wrong.

    The query is bounded as the MCP server bounds an agent's (SERVED_BOUNDS.query_chars): a served
    search costs every index of the workspace, and a 400 kB question kept three actors busy for
    minutes. Lone surrogates are replaced, as on every other surface, so the answer can be encoded."""
    try:
        req = json.loads(body)
    except (ValueError, RecursionError) as exc:
        raise UsageError(f"the body is not JSON ({type(exc).__name__})", hint='{"query": "..."}') from None
    if not isinstance(req, dict) or not isinstance(req.get("query"), str):
        raise UsageError("the body needs a 'query' string", hint='{"query": "..."}')
    query = well_formed(req["query"])
    if not query.strip():
        raise UsageError("query is empty", hint='pass what to look for: {"query": "retry_failed_charge"}')
    limit = SERVED_BOUNDS.query_chars
    assert limit is not None and limit.hi is not None
    served_check("query length", len(query), limit, "shorten the query to its key terms")
    options = req.get("options")
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise UsageError("'options' must be an object of search options", hint='{"options": {"top_k": 5}}')
    route = req.get("route", False)
    if not isinstance(route, bool):
        raise UsageError("'route' must be true or false", hint='{"route": true}')
    return query, options_from(options), route


def make_server(service: Any, host: str, port: int) -> ThreadingHTTPServer:
    """An HTTP server answering searches from `service` (ClusterWorkspace or Federation)."""

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:  # quiet: qry serve prints its own line
            pass

        def _send(self, status: int, body: bytes) -> None:
            try:
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)
            except OSError:  # the client went away (a timeout, a closed socket): nothing to tell it
                self.close_connection = True

        def _error(self, exc: QryError, status: int = 400) -> None:
            self._send(status, json.dumps(exc.to_dict()).encode())

        def _method_not_allowed(self) -> None:
            allowed = "GET" if self.path.rstrip("/") == "/health" else "POST"
            self._error(UsageError(f"{self.command} is not allowed here", hint=f"{allowed} {self.path}"), 405)

        def do_GET(self) -> None:
            if self.path.rstrip("/") == "/health":
                body = {"workspace": service.name, "repos": [m.name for m in service.members]}
                self._send(200, json.dumps(body).encode())
            elif self.path.rstrip("/") == "/search":
                self._method_not_allowed()
            else:
                self._error(UsageError(f"no such path {self.path!r}", hint="POST /search, GET /health"), 404)

        do_PUT = do_DELETE = do_PATCH = _method_not_allowed

        def do_POST(self) -> None:
            try:
                if self.path.rstrip("/") == "/health":
                    return self._method_not_allowed()
                if self.path.rstrip("/") != "/search":
                    return self._error(UsageError(f"no such path {self.path!r}", hint="POST /search"), 404)
                try:
                    length = int(self.headers.get("Content-Length") or 0)
                except ValueError:
                    raise UsageError(
                        "Content-Length is not a number", hint="send the body's length"
                    ) from None
                if not 0 < length <= MAX_BODY:
                    raise UsageError(
                        "the request needs a JSON body of at most 1 MiB, with its Content-Length",
                        hint='{"query": "..."}',
                    )
                query, opts, route = parse_body(self.rfile.read(length))
                if route:
                    from indexlib.workspace.federate import Federation
                    from indexlib.workspace.routing import routed_search

                    # the router reads each index's profile locally; the routed search runs on the actors
                    local = Federation(service.name, service.members)
                    result = routed_search(local, query, opts, search=service.search)
                else:
                    result = service.search(query, opts)
                self._send(200, msgspec.json.encode(result))
            except QryError as exc:
                self._error(exc, 400 if isinstance(exc, UsageError) else 500)
            except Exception as exc:  # never a traceback on the server's stderr, nor a dropped connection
                self._error(
                    QryError(f"the server failed: {type(exc).__name__}: {exc}", hint="see its log"), 500
                )
            return None

    try:
        return ThreadingHTTPServer((host, port), Handler)
    except (OSError, OverflowError) as exc:
        raise UsageError(
            f"cannot listen on {host}:{port}: {getattr(exc, 'strerror', None) or exc}",
            hint="pick a free port (--port 0 takes any) or another --host",
        ) from None


def check_listen(host: str, port: int) -> None:
    """Refuse a port or host `qry serve` could not listen on, before it starts a cluster (seconds)."""
    if not 0 <= port <= 65535:
        raise UsageError(
            f"--port must be between 0 and 65535, not {port}", hint="--port 0 takes any free port"
        )
    make_server(None, host, port).server_close()


def check_server_url(url: str) -> str:
    """The base URL of a `qry serve` (a trailing `/search` dropped), or a UsageError."""
    from urllib.parse import urlsplit

    parts = urlsplit(url.strip())
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise UsageError(
            f"--server takes the http(s) URL of a qry serve, not {url!r}",
            hint="e.g. --server http://127.0.0.1:8765",
        )
    base = url.strip().rstrip("/")
    return base[: -len("/search")] if base.endswith("/search") else base


def serve_in_thread(server: ThreadingHTTPServer) -> threading.Thread:
    t = threading.Thread(target=server.serve_forever, name="qry-http", daemon=True)
    t.start()
    return t


def remote_search(url: str, query: str, opts: SearchRequest, *, route: bool = False) -> WorkspaceResult:
    """`qry search --server URL`: the same WorkspaceResult a local workspace search returns."""
    import urllib.error
    import urllib.request

    url = check_server_url(url)
    if opts.root is not None:
        raise UsageError(
            "--root names a publish root of one index, not of a served workspace", hint="leave out --root"
        )
    options = {f: getattr(opts, f) for f in sorted(WIRE_OPTIONS)}
    if not opts.per_file:  # sent only for -l, so a server from before it knew the field still answers
        del options["per_file"]
    body = json.dumps({"query": query, "options": options, "route": route}).encode()
    req = urllib.request.Request(
        url.rstrip("/") + "/search", data=body, headers={"Content-Type": "application/json"}
    )
    try:
        with urllib.request.urlopen(req, timeout=CLIENT_TIMEOUT_S) as resp:
            return msgspec.json.decode(resp.read(), type=WorkspaceResult)
    except urllib.error.HTTPError as exc:
        try:
            err = json.loads(exc.read())
            raise (UsageError if exc.code == 400 else QryError)(
                str(err["error"]), hint=str(err.get("hint", ""))
            ) from exc
        except (ValueError, KeyError):
            raise QryError(f"the server at {url} answered HTTP {exc.code}", hint="check the URL") from exc
    except (urllib.error.URLError, OSError) as exc:
        raise QryError(
            f"cannot reach the qry server at {url}: {exc}", hint="start it: qry serve --cluster local -w W"
        ) from exc
