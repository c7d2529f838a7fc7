"""Rendering search results: a Rich table on a terminal, rg-style plain lines when piped, JSON, JSONL.

Owns: how results look. JSON encodes the library's own Structs (one schema for API and CLI). Rich is
imported only here and only when a table is drawn, so piped and JSON output never pay for it.
"""

from __future__ import annotations

from typing import Any

import msgspec

from cli.console import Env
from indexlib.records import Hit, SearchResult

_JSON = msgspec.json.Encoder()


def to_json(obj: object) -> str:
    return _JSON.encode(obj).decode()


def render_json(env: Env, result: SearchResult) -> None:
    env.out(to_json(result) + "\n")


def render_jsonl(env: Env, result: SearchResult) -> None:
    for hit in result.results:
        env.out(to_json(hit) + "\n")


def _location(h: Hit) -> str:
    return f"{h.path}:{h.start_line}-{h.end_line}"


def render_plain(env: Env, result: SearchResult, *, explain: bool = False) -> None:
    """One header line per hit, then its snippet as `path:line:text` lines, hits separated by `--`.

    Grep-friendly: `qry search x | grep -c ^--` counts hits; `cut -d: -f1` lists paths.
    """
    out: list[str] = []
    for i, h in enumerate(result.results):
        if i:
            out.append("--")
        tag = " [context]" if h.context else ""
        stale = " [stale]" if h.stale else ""
        out.append(f"{_location(h)}\t{h.kind}\t{h.symbol}\t{h.score:.4f}{tag}{stale}")
        for j, line in enumerate(h.snippet.text.splitlines()):
            out.append(f"{h.path}:{h.snippet.start_line + j}:{line}")
        if h.snippet.truncated:
            out.append(f"{h.path}:…")
        for r in h.related:
            arrow = "<-" if r.direction == "in" else "->"
            out.append(f"  {arrow} {r.edge} {r.symbol} {r.path}:{r.start_line}")
        if explain:
            out.extend(f"  # {e}" for e in h.explain)
    for note in result.meta.notes:
        if "failed" in note:  # routine notes (a skipped stream) stay in --json's meta, not on stderr
            env.err(f"qry: warning: {note}\n")
    if out:
        env.out("\n".join(out) + "\n")


def render_table(env: Env, result: SearchResult, *, explain: bool = False) -> None:
    """A Rich table with highlighted matches, for people at a terminal."""
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    console = Console(file=env.stdout, no_color=not env.color, width=env.width, highlight=False,
                      force_terminal=env.stdout_tty and env.color)
    table = Table(show_header=True, header_style="bold", expand=True, show_lines=True)
    table.add_column("#", justify="right", style="dim", width=3)
    table.add_column("Result", ratio=1, overflow="fold")
    table.add_column("Score", justify="right", width=8)
    for i, h in enumerate(result.results, 1):
        cell = Text()
        cell.append(f"{h.path}", style="bold cyan")
        cell.append(f":{h.start_line}-{h.end_line}", style="cyan")
        cell.append(f"  {h.kind} ", style="dim")
        cell.append(h.symbol, style="bold")
        if h.context:
            cell.append("  [on-path context]", style="magenta")
        if h.stale:
            cell.append("  [stale]", style="yellow")
        cell.append("\n")
        snippet = Text(h.snippet.text)
        for a, b in h.snippet.highlights:
            snippet.stylize("bold yellow", a, b)
        cell.append_text(snippet)
        if h.snippet.truncated:
            cell.append("\n…", style="dim")
        for r in h.related[:6]:
            arrow = "←" if r.direction == "in" else "→"
            cell.append(f"\n  {arrow} {r.edge} {r.symbol} ", style="green")
            cell.append(f"{r.path}:{r.start_line}", style="dim")
        if len(h.related) > 6:
            cell.append(f"\n  … {len(h.related) - 6} more related", style="dim")
        if explain and h.explain:
            cell.append("\n" + "\n".join(f"  # {e}" for e in h.explain), style="dim")
        table.add_row(str(i), cell, f"{h.score:.4f}")
    console.print(table)
    meta = result.meta
    notes = "; ".join(meta.notes)
    console.print(
        Text(
            f"{len(result.results)} results in {meta.elapsed_ms:.0f} ms · root {meta.root[:12]} · "
            f"route {meta.route}" + (f" · {notes}" if notes else ""),
            style="dim",
        )
    )


def render(env: Env, result: SearchResult, *, fmt: str, explain: bool = False) -> None:
    if fmt == "json":
        render_json(env, result)
    elif fmt == "jsonl":
        render_jsonl(env, result)
    elif fmt == "table":
        render_table(env, result, explain=explain)
    else:
        render_plain(env, result, explain=explain)


def print_table(env: Env, title: str, columns: list[str], rows: list[list[Any]]) -> None:
    """A simple table for status-like commands: Rich on a terminal, tab-separated when piped."""
    if not env.stdout_tty:
        env.out("\t".join(columns) + "\n")
        for r in rows:
            env.out("\t".join("" if v is None else str(v) for v in r) + "\n")
        return
    from rich.console import Console
    from rich.table import Table

    console = Console(file=env.stdout, no_color=not env.color, width=env.width, highlight=False)
    table = Table(title=title, show_header=True, header_style="bold")
    for c in columns:
        table.add_column(c)
    for r in rows:
        table.add_row(*("" if v is None else str(v) for v in r))
    console.print(table)
