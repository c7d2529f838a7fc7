"""Rendering search results: a Rich table on a terminal, rg-style plain lines when piped, JSON, JSONL.

Owns: how results look. JSON encodes the library's own Structs (one schema for API and CLI). Rich is
imported only here and only when a table is drawn, so piped and JSON output never pay for it.

Text from the repository (file names, symbols, file contents) is untrusted: in table and plain output
every C0 control, DEL and C1 control is shown as a visible `\\xNN` escape (ESC as `\\x1b`), so a hostile
file cannot retitle the window (`ESC ]0;`), clear the screen (`ESC [2J`) or fake lines. Snippets keep
their tabs and line breaks (a CR before LF is dropped); single-line fields (paths, symbols) escape tab
and newline too, so a path never splits a plain line. A backslash is not escaped: a name that spells
`\\x1b` literally reads the same as one that holds ESC; JSON output keeps the exact text (the encoder
escapes controls).
"""

from __future__ import annotations

import re
from typing import Any

import msgspec

from cli.console import Env
from indexlib import Hit, Related, SearchResult, as_written, shown_line, text_lines

_JSON = msgspec.json.Encoder()
ROOT_ID_CHARS = 12  # a root id in text output (git's short ids are as long); JSON carries the full id
# What each route (SearchMeta.route) means for the ranking, in the table's footer (docs/cli.md has more).
ROUTE_MEANING = {
    "identifier": "one name: its definitions first",
    "signature": "code: exact terms first",
    "keywords": "a few words: names and terms first",
    "natural": "a sentence: words and meaning",
}

# C0, DEL, C1, and the Unicode line and paragraph separators (which some terminals and editors
# break lines at, while qry, git and grep count lines by LF only).
_LINE_CONTROLS = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029]")
# Group 1: the CR of CR LF, also at the text's end: a snippet line is split at LF (text_lines), so a
# CR LF file's lines end in the CR, which is part of the line ending, not of the line.
_TEXT_CONTROLS = re.compile("(\r(?=\n|\\Z))|[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029]")


def related_at(r: Related) -> int:
    """The line a related row points at: for a caller, the call (where to read how it calls); for
    anything else, the related definition's declaration (where a search hit of it points)."""
    return r.line if r.direction == "in" and r.edge == "calls" and r.line else (r.decl_line or r.start_line)


def _escape_control(m: re.Match[str]) -> str:
    c = ord(m.group())
    return f"\\x{c:02x}" if c < 0x100 else f"\\u{c:04x}"


def _escape_text_control(m: re.Match[str]) -> str:
    return "" if m.group(1) else _escape_control(m)


def safe_line(text: str) -> str:
    r"""`text` for one line of a terminal: every control character (tab and newline too) as `\xNN`.

    >>> safe_line("n\x1b[31mred.py\n")
    'n\\x1b[31mred.py\\x0a'
    """
    return _LINE_CONTROLS.sub(_escape_control, text)


def safe_text(text: str) -> str:
    r"""Multi-line `text` for a terminal: controls as `\xNN`, tabs and line breaks kept (CR LF as LF;
    a CR ending `text` is what is left of a CR LF after the split at LF, and is dropped too).

    >>> safe_text("a\r\n\tb\rc\x1b[2J")
    'a\n\tb\\x0dc\\x1b[2J'
    >>> safe_text("int f() {\r")
    'int f() {'
    """
    return _TEXT_CONTROLS.sub(_escape_text_control, text)


def to_json(obj: object) -> str:
    return _JSON.encode(obj).decode()


def render_json(env: Env, result: SearchResult) -> None:
    env.out(to_json(result) + "\n")


def render_jsonl(env: Env, result: SearchResult) -> None:
    for hit in result.results:
        env.out(to_json(hit) + "\n")


def _location(h: Hit) -> str:
    return f"{safe_line(h.path)}:{h.start_line}-{h.end_line}"


def _printed_at(h: Hit, count: int) -> int:
    """Index of the snippet line `h` is printed by: the search's `line` (placed so no two hits of a
    file share one, as the JSON says it), or the hit's own choice when its line is not in the
    snippet (a hit built by hand, or by a server too old to place it)."""
    at = h.snippet.index_of(h.line) if h.line else None
    return at if at is not None and at < count else shown_line(h)


# After a line the snippet shows only part of (`Snippet.cut`: longer than the snippet's width), as
# rg's `--max-columns-preview` marks what it leaves out: a program reading `path:line:text` can tell
# the text is not the whole line.
CUT_MARK = " [... line cut]"


def _cut_mark(h: Hit, at: int) -> str:
    return CUT_MARK if h.snippet.line_of(at) in h.snippet.cut else ""


def _context_rows(count: int, at: int, context: int) -> list[int]:
    """Indexes of the snippet lines a -C block prints: the line `at` and up to `context` lines either
    side. The snippet's text holds none of the lines whose text is not the file's (`Snippet.elided`:
    the body of a definition nested in the hit), so every printed `path:line:text` is line `line`
    of the file, as rg -C prints it, and a program reading it (an editor's quickfix list, a grep)
    never meets text the file does not hold; the gap in line numbers, like rg's, and the header's
    START-END say what was left out. An outline's -C N shows N members' lines either side."""
    return list(range(max(0, at - context), min(count, at + context + 1)))


def render_plain(
    env: Env, result: SearchResult, *, explain: bool = False, context: int | None = None
) -> None:
    """Piped output, like `rg -n`: one `path:line: symbol<TAB>text` line per hit, where text is the
    hit's matching line as the file has it (the symbol says what the hit is when that line does not:
    a window of a long function, a class matched in a member).

    With `context` (-C N), each hit is a block instead: a header `path:start-end<TAB>kind<TAB>symbol
    <TAB>score`, then up to N snippet lines either side of the matching line as `path:line:text`,
    blocks separated by `--`. Related nodes (`--graph`) and `--explain` lines follow their hit,
    indented, so `grep -v '^ '` drops them.
    """
    out: list[str] = []
    stale = 0
    for i, h in enumerate(result.results):
        path = safe_line(h.path)
        lines = text_lines(h.snippet.text)
        at = _printed_at(h, len(lines))
        stale += h.stale
        if context is None:
            text = safe_text(as_written(lines[at])) + _cut_mark(h, at)
            out.append(f"{path}:{h.snippet.line_of(at)}: {safe_line(h.symbol)}\t{text}")
        else:
            if i:
                out.append("--")
            tag = " [context]" if h.context else ""
            mark = (" [stale]" if h.stale else "") + (" [generated]" if h.generated else "")
            out.append(
                f"{_location(h)}\t{safe_line(h.kind)}\t{safe_line(h.symbol)}\t{h.score:.4f}{tag}{mark}"
            )
            # Every line is `PATH:LINE:TEXT`, as a program splitting on `:` expects; the header's
            # START-END says how much of the node the lines leave out.
            out.extend(
                f"{path}:{h.snippet.line_of(j)}:{safe_text(as_written(lines[j]))}{_cut_mark(h, j)}"
                for j in _context_rows(len(lines), at, context)
            )
        for r in h.related:
            arrow = "<-" if r.direction == "in" else "->"
            out.append(f"  {arrow} {r.edge} {safe_line(r.symbol)} {safe_line(r.path)}:{related_at(r)}")
        if explain:
            out.extend(f"  # {safe_line(e)}" for e in h.explain)
    _warn_failed(env, result)
    if stale and context is None:
        env.err(
            f"qry: note: {plural(stale, 'result')} from files changed since the index (qry index refreshes it)\n"
        )
    if out:
        env.out("\n".join(out) + "\n")


def render_files(env: Env, result: SearchResult) -> None:
    """`-l`: the paths of the files with hits, best first, each once (ripgrep's --files-with-matches)."""
    _warn_failed(env, result)
    paths = dict.fromkeys(h.path for h in result.results if not h.context)
    if paths:
        env.out("".join(safe_line(p) + "\n" for p in paths))


def _warn_failed(env: Env, result: SearchResult) -> None:
    for note in result.meta.notes:
        if "failed" in note:  # routine notes (a skipped stream) stay in --json's meta, not on stderr
            env.err(f"qry: warning: {safe_line(note)}\n")


def timestamp(ts: float) -> str:
    """Unix seconds as local time, to the second: when a root was published."""
    import time

    return time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(ts))


def plural(n: int, word: str, many: str = "") -> str:
    """`1 result`, `2 results` (`many` for irregular plurals: entry, entries)."""
    return f"{n:,} {word if n == 1 else many or word + 's'}"


def render_table(env: Env, result: SearchResult, *, explain: bool = False, footer: str | None = None) -> None:
    """A Rich table with highlighted matches, for people at a terminal; `footer` replaces the line
    under it that names the root and the route (a workspace has neither)."""
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    console = Console(
        file=env.stdout,
        no_color=not env.color,
        width=env.width,
        highlight=False,
        force_terminal=env.stdout_tty and env.color,
    )
    table = Table(show_header=True, header_style="bold", expand=True, show_lines=True)
    table.add_column("#", justify="right", style="dim", width=3)
    table.add_column("Result", ratio=1, overflow="fold")
    table.add_column("Score", justify="right", width=8)
    for i, h in enumerate(result.results, 1):
        cell = Text()
        cell.append(safe_line(h.path), style="bold cyan")
        cell.append(f":{h.start_line}-{h.end_line}", style="cyan")
        cell.append(f"  {safe_line(h.kind)} ", style="dim")
        cell.append(safe_line(h.symbol), style="bold")
        if h.context:
            cell.append("  [on-path context]", style="magenta")
        if h.stale:
            cell.append("  [stale]", style="yellow")
        if h.generated:
            cell.append("  [generated]", style="dim")
        cell.append("\n")
        for piece, highlighted in _pieces(h.snippet.text, h.snippet.highlights):
            # Blank lines the file holds in a row are one blank line on a terminal.
            shown = piece if highlighted else _BLANK_RUN.sub("\n\n", piece)
            cell.append(safe_text(shown), style="bold yellow" if highlighted else "")
        if h.snippet.truncated:
            cell.append("\n…", style="dim")
        for r in h.related[:6]:
            arrow = "←" if r.direction == "in" else "→"
            cell.append(f"\n  {arrow} {r.edge} {safe_line(r.symbol)} ", style="green")
            cell.append(f"{safe_line(r.path)}:{related_at(r)}", style="dim")
        if len(h.related) > 6:
            cell.append(f"\n  … {len(h.related) - 6} more related", style="dim")
        if explain and h.explain:
            cell.append("\n" + "\n".join(f"  # {safe_line(e)}" for e in h.explain), style="dim")
        table.add_row(str(i), cell, f"{h.score:.4f}")
    console.print(table)
    meta = result.meta
    notes = safe_line("; ".join(meta.notes))
    if footer is None:
        footer = f"root {meta.root[:ROOT_ID_CHARS]} · route {meta.route}{_meaning(meta.route)}"
    console.print(
        Text(
            f"{plural(len(result.results), 'result')} in {meta.elapsed_ms:.0f} ms · {footer}"
            + (f" · {notes}" if notes else ""),
            style="dim",
        )
    )


def _meaning(route: str) -> str:
    meaning = ROUTE_MEANING.get(route)
    return f" ({meaning})" if meaning else ""


_BLANK_RUN = re.compile(r"\n(?:[ \t]*\n){2,}")


def _pieces(text: str, highlights: list[tuple[int, int]]) -> list[tuple[str, bool]]:
    """`text` cut at the highlight spans (merged, clipped): (piece, highlighted) in order.

    Highlights are offsets into the raw text; cutting before escaping keeps them on the right
    characters once a control character has become a four-character escape.
    """
    spans: list[tuple[int, int]] = []
    for a, b in sorted((max(0, a), min(len(text), b)) for a, b in highlights):
        if a >= b:
            continue
        if spans and a <= spans[-1][1]:
            spans[-1] = (spans[-1][0], max(spans[-1][1], b))
        else:
            spans.append((a, b))
    out: list[tuple[str, bool]] = []
    pos = 0
    for a, b in spans:
        if a > pos:
            out.append((text[pos:a], False))
        out.append((text[a:b], True))
        pos = b
    if pos < len(text):
        out.append((text[pos:], False))
    return out


def render(
    env: Env,
    result: SearchResult,
    *,
    fmt: str,
    explain: bool = False,
    context: int | None = None,
    footer: str | None = None,
) -> None:
    if fmt == "files":
        render_files(env, result)
    elif fmt == "json":
        render_json(env, result)
    elif fmt == "jsonl":
        render_jsonl(env, result)
    elif fmt == "table":
        render_table(env, result, explain=explain, footer=footer)
    else:
        render_plain(env, result, explain=explain, context=context)


def print_table(env: Env, title: str, columns: list[str], rows: list[list[Any]]) -> None:
    """A simple table for status-like commands: Rich on a terminal, tab-separated when piped."""
    if not env.stdout_tty:
        env.out("\t".join(columns) + "\n")
        for r in rows:
            env.out("\t".join("" if v is None else safe_line(str(v)) for v in r) + "\n")
        return
    from rich.console import Console
    from rich.table import Table

    console = Console(file=env.stdout, no_color=not env.color, width=env.width, highlight=False)
    table = Table(title=title, show_header=True, header_style="bold")
    for c in columns:
        table.add_column(c)
    for r in rows:
        table.add_row(*("" if v is None else safe_text(str(v)) for v in r))
    console.print(table)
