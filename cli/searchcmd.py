"""The body of `qry search`, shared by the Typer command and the argparse fast path.

Owns: translating option values into an `indexlib.SearchRequest` (which holds the bounds, the
defaults and their checks), choosing the output format, and the exit status (0 hits, 1 none, 2
error). Knows nothing about how the options were parsed.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cli.console import Env, Exit, guarded

if TYPE_CHECKING:
    from indexlib import SearchRequest, SearchResult

MAX_CONTEXT = 1000  # lines of -C/--context; a snippet holds at most snippet_chars anyway

# Option values that map one to one onto fields of indexlib.SearchRequest (option name -> field).
_REQUEST_FIELDS = {
    "top_k": "top_k",
    "mode": "mode",
    "snippet_chars": "snippet_chars",
    "rrf_k": "rrf_k",
    "graph": "graph",
    "graph_depth": "graph_depth",
    "lang": "langs",
    "path": "paths",
    "exclude": "excludes",
    "kind": "kinds",
    "repo": "repos",
    "root": "root",
    "model": "model_dir",
    "budget_tokens": "budget_tokens",
    "since": "since",
    "until": "until",
    "as_of": "as_of",
}
_FLAGS = ("explain", "diffuse", "recency")


def search_command(env: Env, query: str, values: dict[str, Any]) -> int:
    json_out = bool(values.get("json") or values.get("jsonl"))  # a program reads the error as a record
    return guarded(env, lambda: _run(env, query, values), json_out=json_out)


def request_of(v: dict[str, Any], *, for_program: bool) -> SearchRequest:
    """The option values as a SearchRequest: a value not given (None) keeps the request's default,
    so 0 still reaches validation and the bounds live in one place."""
    from indexlib import SearchRequest

    given: dict[str, Any] = {}
    for key, field in _REQUEST_FIELDS.items():
        value = v.get(key)
        if value is None or (key == "mode" and not value):  # `--mode ''` is the default mode, as it was
            continue
        given[field] = list(value) if isinstance(value, list | tuple) else value
    given.update((f, bool(v.get(f))) for f in _FLAGS)
    return SearchRequest(caller="cli", for_program=for_program, **given)


def _run(env: Env, query: str, v: dict[str, Any]) -> int:
    from cli.render import render, safe_line
    from indexlib import UsageError, open_engine, query_notes

    files_only = bool(v.get("files_with_matches"))
    fmt = "json" if v.get("json") else "jsonl" if v.get("jsonl") else ("table" if env.stdout_tty else "plain")
    if files_only:
        fmt = "files"
    request = request_of(v, for_program=fmt in ("json", "jsonl"))
    request.per_file = files_only
    request.check_query(query)
    if v.get("json") and v.get("jsonl"):
        raise UsageError("--json and --jsonl exclude each other", hint="pick one output format")
    if files_only and (v.get("json") or v.get("jsonl")):
        raise UsageError(
            "-l/--files-with-matches prints paths: it excludes --json and --jsonl",
            hint="pick one output format",
        )
    context = v.get("context")
    if context is not None and not 0 <= int(context) <= MAX_CONTEXT:
        raise UsageError(f"--context must be between 0 and {MAX_CONTEXT}, not {context}", hint="e.g. -C 3")
    if v.get("no_color"):
        env.color = False
    dirs = index_dirs(v)
    if v.get("server") is not None or v.get("workspace") is not None or len(dirs) > 1:
        from cli.wscmd import several_search

        return several_search(env, query, v, request, fmt, None if context is None else int(context))
    if v.get("route"):
        raise UsageError("--route chooses among a workspace's repositories", hint="add --workspace W")
    engine = open_engine(Path(dirs[0]) if dirs else None)
    result = engine.search(query, request)
    # Said on stderr in every format: how the query was read, and why nothing may have matched.
    for note in query_notes(
        engine, query, request, found=bool(result.results), search_notes=result.meta.notes
    ):
        env.err(f"qry: note: {safe_line(note)}\n")
    if fmt != "json" and fmt != "jsonl":
        result = from_cwd(result, engine.snapshot(request.root).manifest.source_root)
    render(env, result, fmt=fmt, explain=request.explain, context=None if context is None else int(context))
    return Exit.OK if result.results else Exit.NO_MATCH


def from_cwd(result: SearchResult, source_root: str) -> SearchResult:
    """The result with its paths as seen from the working directory when that lies inside the indexed
    tree (`lib/x` run there prints `base.rb`, as rg does, so `cat $(qry search x -l)` works); paths
    outside it get `../`. JSON keeps the index's paths: programs read them against the root."""
    import msgspec

    root = os.path.realpath(source_root)
    cwd = os.path.realpath(os.getcwd())
    if cwd == root or not cwd.startswith(root + os.sep):
        return result

    def seen(path: str) -> str:
        return os.path.relpath(os.path.join(root, path), cwd)

    hits = [
        msgspec.structs.replace(
            h, path=seen(h.path), related=[msgspec.structs.replace(r, path=seen(r.path)) for r in h.related]
        )
        for h in result.results
    ]
    return msgspec.structs.replace(result, results=hits)


def index_dirs(v: dict[str, Any]) -> list[str]:
    """`--index-dir` values: none, one (a string, as callers in tests and benches pass it), or several."""
    raw = v.get("index_dir") or []
    return [str(raw)] if isinstance(raw, str | Path) else [str(d) for d in raw]
