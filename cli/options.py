"""The `qry search` options, declared once.

Owns: the single table both parsers of `qry search` read: the Typer command (for `--help` and every
other path) and the small argparse fast path (`cli/fastpath.py`) that keeps a one-shot query from paying
~35 ms to import Typer and Click. A test checks that the two expose exactly the same options.
"""

from __future__ import annotations

from typing import NamedTuple


class Opt(NamedTuple):
    dest: str
    flags: tuple[str, ...]
    type: type  # int, float, str, bool (bool = a flag), list (repeatable str)
    default: object
    help: str
    negatable: bool = False  # --x/--no-x


SEARCH_OPTIONS: tuple[Opt, ...] = (
    Opt("top_k", ("--top-k", "-k"), int, 10, "How many results to return (1-1000)."),
    Opt("mode", ("--mode", "-m"), str, "hybrid", "Retrieval: hybrid, lexical, semantic or symbol."),
    Opt("lang", ("--lang", "-l"), list, None, "Only this language (repeatable), e.g. --lang go."),
    Opt("path", ("--path", "-p"), list, None, "Only paths matching this glob (repeatable), e.g. 'src/**'."),
    Opt("exclude", ("--exclude", "-x"), list, None, "Leave out paths matching this glob (repeatable)."),
    Opt("kind", ("--kind",), list, None, "Only this node kind (repeatable): function, method, class, ..."),
    Opt("json", ("--json",), bool, False, "Print one JSON object: query, results, meta."),
    Opt("jsonl", ("--jsonl",), bool, False, "Print one JSON hit per line."),
    Opt("snippet_chars", ("--snippet-chars",), int, 600, "Snippet width in characters (80-4000)."),
    Opt("explain", ("--explain",), bool, False, "Show the RRF terms and every boost or penalty applied."),
    Opt(
        "graph", ("--graph",), bool, None, "Attach callers, callees and parents (default: on for JSON).", True
    ),
    Opt("graph_depth", ("--graph-depth",), int, 1, "How far graph expansion walks (0-4)."),
    Opt("diffuse", ("--diffuse",), bool, False, "Add on-path context nodes found by graph diffusion."),
    Opt("rrf_k", ("--rrf-k",), int, 60, "The RRF constant k."),
    Opt("budget_tokens", ("--budget-tokens",), int, None, "Pack whole results into about N tokens."),
    Opt(
        "since",
        ("--since",),
        str,
        None,
        "Only code last changed at or after DATE (ISO, '2 weeks ago', git ref).",
    ),
    Opt("until", ("--until",), str, None, "Only code last changed at or before DATE."),
    Opt("as_of", ("--as-of",), str, None, "Only code that existed at DATE."),
    Opt("recency", ("--recency",), bool, False, "Favour recently changed code a little."),
    Opt(
        "root",
        ("--root",),
        str,
        None,
        "Search an older publish root (an id or unique prefix; see qry roots).",
    ),
    Opt(
        "model", ("--model",), str, None, "Folder with model.onnx + tokenizer.json (default: bundled MiniLM)."
    ),
    Opt(
        "index_dir",
        ("--index-dir",),
        str,
        None,
        "The index directory (default: nearest .qry, or $QRY_INDEX_DIR).",
    ),
    Opt("no_color", ("--no-color",), bool, False, "Never colour the output."),
)

OPTION_BY_DEST = {o.dest: o for o in SEARCH_OPTIONS}
