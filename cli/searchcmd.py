"""The body of `qry search`, shared by the Typer command and the argparse fast path.

Owns: translating option values into `indexlib.SearchOptions`, choosing the output format, and the
exit status (0 hits, 1 none, 2 error). Knows nothing about how the options were parsed.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from cli.console import Env, Exit, guarded

MAX_CONTEXT = 1000  # lines of -C/--context; a snippet holds at most snippet_chars anyway


def _int(v: dict[str, Any], key: str, default: int) -> int:
    """An int option, with the default only when it was not given (0 must reach validation)."""
    value = v.get(key)
    return default if value is None else int(value)


def search_command(env: Env, query: str, values: dict[str, Any]) -> int:
    json_out = bool(values.get("json"))
    return guarded(env, lambda: _run(env, query, values), json_out=json_out)


def _run(env: Env, query: str, v: dict[str, Any]) -> int:
    from cli.render import render, safe_line
    from indexlib import SearchOptions, UsageError, open_engine, parse_when, query_notes

    if not query.strip():
        raise UsageError("the query is empty", hint="say what to look for, e.g. qry search parse_config")
    if v.get("json") and v.get("jsonl"):
        raise UsageError("--json and --jsonl exclude each other", hint="pick one output format")
    files_only = bool(v.get("files_with_matches"))
    if files_only and (v.get("json") or v.get("jsonl")):
        raise UsageError(
            "-l/--files-with-matches prints paths: it excludes --json and --jsonl",
            hint="pick one output format",
        )
    context = v.get("context")
    if context is not None and not 0 <= int(context) <= MAX_CONTEXT:
        raise UsageError(f"--context must be between 0 and {MAX_CONTEXT}, not {context}", hint="e.g. -C 3")
    fmt = "json" if v.get("json") else "jsonl" if v.get("jsonl") else ("table" if env.stdout_tty else "plain")
    if files_only:
        fmt = "files"
    if v.get("no_color"):
        env.color = False
    graph = v.get("graph")
    if graph is None:
        graph = fmt in ("json", "jsonl")  # on by default for programs, off for people (noise)
    engine = open_engine(Path(v["index_dir"]) if v.get("index_dir") else None)
    source_root = engine.source_root()
    opts = SearchOptions(
        top_k=_int(v, "top_k", 10),  # `or` would turn an explicit 0 into the default instead of an error
        mode=str(v.get("mode") or "hybrid"),
        snippet_chars=_int(v, "snippet_chars", 600),
        rrf_k=_int(v, "rrf_k", 60),
        explain=bool(v.get("explain")),
        graph=bool(graph),
        graph_depth=int(v["graph_depth"]) if v.get("graph_depth") is not None else 1,
        diffuse=bool(v.get("diffuse")),
        langs=list(v.get("lang") or []),
        paths=list(v.get("path") or []),
        excludes=list(v.get("exclude") or []),
        kinds=list(v.get("kind") or []),
        root=v.get("root"),
        model_dir=v.get("model"),
        budget_tokens=v.get("budget_tokens"),
        since=parse_when(v["since"], source_root) if v.get("since") else None,
        until=parse_when(v["until"], source_root, end_of_day=True) if v.get("until") else None,
        as_of=parse_when(v["as_of"], source_root) if v.get("as_of") else None,
        recency=bool(v.get("recency")),
    )
    result = engine.search(query, opts)
    # Said on stderr in every format: how the query was read, and why nothing may have matched.
    for note in query_notes(engine, query, opts, found=bool(result.results)):
        env.err(f"qry: note: {safe_line(note)}\n")
    render(env, result, fmt=fmt, explain=opts.explain, context=None if context is None else int(context))
    return Exit.OK if result.results else Exit.NO_MATCH
