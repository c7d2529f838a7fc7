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
from indexlib.retrieval.request import SearchRequest
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


def make_server(service: Any, host: str, port: int) -> ThreadingHTTPServer:
    """An HTTP server answering searches from `service` (ClusterWorkspace or Federation)."""

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:  # quiet: qry serve prints its own line
            pass

        def _send(self, status: int, body: bytes) -> None:
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def do_GET(self) -> None:
            if self.path.rstrip("/") == "/health":
                body = {"workspace": service.name, "repos": [m.name for m in service.members]}
                self._send(200, json.dumps(body).encode())
            else:
                self._send(
                    404, json.dumps(UsageError("no such path", hint="POST /search").to_dict()).encode()
                )

        def do_POST(self) -> None:
            try:
                if self.path.rstrip("/") != "/search":
                    raise UsageError(f"no such path {self.path!r}", hint="POST /search")
                length = int(self.headers.get("Content-Length") or 0)
                if not 0 < length <= MAX_BODY:
                    raise UsageError(
                        "the request needs a JSON body of at most 1 MiB", hint='{"query": "..."}'
                    )
                req = json.loads(self.rfile.read(length))
                if not isinstance(req, dict) or not isinstance(req.get("query"), str):
                    raise UsageError("the body needs a 'query' string", hint='{"query": "..."}')
                opts = options_from(dict(req.get("options") or {}))
                only = None
                if req.get("route"):
                    from indexlib.workspace.federate import Federation
                    from indexlib.workspace.routing import choose

                    only = choose(Federation(service.name, service.members), req["query"], opts)[0] or None
                result = service.search(req["query"], opts, only=only)
                result.meta.routed = only
                self._send(200, msgspec.json.encode(result))
            except QryError as exc:
                self._send(400 if isinstance(exc, UsageError) else 500, json.dumps(exc.to_dict()).encode())
            except (ValueError, TypeError) as exc:
                self._send(
                    400,
                    json.dumps(UsageError(f"bad request: {exc}", hint='{"query": "..."}').to_dict()).encode(),
                )

    return ThreadingHTTPServer((host, port), Handler)


def serve_in_thread(server: ThreadingHTTPServer) -> threading.Thread:
    t = threading.Thread(target=server.serve_forever, name="qry-http", daemon=True)
    t.start()
    return t


def remote_search(url: str, query: str, opts: SearchRequest, *, route: bool = False) -> WorkspaceResult:
    """`qry search --server URL`: the same WorkspaceResult a local workspace search returns."""
    import urllib.error
    import urllib.request

    options = {f: getattr(opts, f) for f in sorted(WIRE_OPTIONS)}
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
