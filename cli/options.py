"""The `qry search` options, declared once.

Owns: the single table both parsers of `qry search` read: the Typer command (for `--help` and every
other path) and the small argparse fast path (`cli/fastpath.py`) that keeps a one-shot query from paying
~35 ms to import Typer and Click. A test checks that the two expose exactly the same options. Defaults
and ranges come from the library's bounds table, never written here.
"""

from __future__ import annotations

from cli.optspec import Opt, repo_option
from indexlib import SEARCH_BOUNDS, SEARCH_MODES

_B = SEARCH_BOUNDS
assert _B.budget_tokens is not None  # the CLI bounds every number it takes
_BUDGET = _B.budget_tokens


SEARCH_OPTIONS: tuple[Opt, ...] = (
    Opt(
        "top_k",
        ("--top-k", "-k"),
        int,
        _B.top_k.default,
        f"How many results to return ({_B.top_k.lo}-{_B.top_k.hi}).",
        metavar="N",
    ),
    Opt(
        "mode",
        ("--mode", "-m"),
        str,
        SEARCH_MODES[0],
        f"Retrieval: {', '.join(SEARCH_MODES[:-1])} or {SEARCH_MODES[-1]}.",
        metavar="MODE",
    ),
    # -t as ripgrep's --type; -l is ripgrep's --files-with-matches.
    Opt(
        "lang",
        ("--lang", "-t"),
        list,
        None,
        "Only this language (repeatable), e.g. --lang go.",
        metavar="LANG",
    ),
    Opt(
        "path",
        ("--path", "-p"),
        list,
        None,
        "Only paths matching this glob (repeatable), e.g. 'src/**'.",
        metavar="GLOB",
    ),
    Opt(
        "exclude",
        ("--exclude", "-x"),
        list,
        None,
        "Leave out paths matching this glob (repeatable).",
        metavar="GLOB",
    ),
    Opt(
        "kind",
        ("--kind",),
        list,
        None,
        "Only this node kind (repeatable): function, method, class, ...",
        metavar="KIND",
    ),
    repo_option("With several indexes"),
    Opt("json", ("--json",), bool, False, "Print one JSON object: query, results, meta."),
    Opt("jsonl", ("--jsonl",), bool, False, "Print one JSON hit per line."),
    Opt(
        "context",
        ("--context", "-C"),
        int,
        None,
        "Piped output: show N lines around each hit's matching line, under a header (kind, symbol, score).",
        metavar="N",
    ),
    Opt(
        "files_with_matches",
        ("--files-with-matches", "-l"),
        bool,
        False,
        "Print only the paths of the files with hits, best first, one per line (-k counts files).",
    ),
    Opt(
        "snippet_chars",
        ("--snippet-chars",),
        int,
        _B.snippet_chars.default,
        f"Snippet width in characters ({_B.snippet_chars.lo}-{_B.snippet_chars.hi}).",
        metavar="N",
    ),
    Opt("explain", ("--explain",), bool, False, "Show the RRF terms and every boost or penalty applied."),
    Opt(
        "graph", ("--graph",), bool, None, "Attach callers, callees and parents (default: on for JSON).", True
    ),
    Opt(
        "graph_depth",
        ("--graph-depth",),
        int,
        _B.graph_depth.default,
        f"How far graph expansion walks ({_B.graph_depth.lo}-{_B.graph_depth.hi}).",
        metavar="N",
    ),
    Opt("diffuse", ("--diffuse",), bool, False, "Add on-path context nodes found by graph diffusion."),
    Opt("rrf_k", ("--rrf-k",), int, _B.rrf_k.default, "The RRF constant k.", metavar="K"),
    Opt(
        "budget_tokens",
        ("--budget-tokens",),
        int,
        None,
        f"Pack whole results into about N tokens (at least {_BUDGET.lo}).",
        metavar="N",
    ),
    Opt(
        "since",
        ("--since",),
        str,
        None,
        "Only code last changed at or after DATE (ISO, '2 weeks ago', git ref).",
        metavar="DATE",
    ),
    Opt("until", ("--until",), str, None, "Only code last changed at or before DATE.", metavar="DATE"),
    Opt("as_of", ("--as-of",), str, None, "Only code that existed at DATE.", metavar="DATE"),
    Opt("recency", ("--recency",), bool, False, "Favour recently changed code a little."),
    Opt(
        "root",
        ("--root",),
        str,
        None,
        "Search an older publish root (an id or unique prefix; see qry roots).",
        metavar="ROOT",
    ),
    Opt(
        "model",
        ("--model",),
        str,
        None,
        "Folder with model.onnx + tokenizer.json (default: bundled MiniLM).",
        metavar="DIR",
    ),
    Opt(
        "index_dir",
        ("--index-dir",),
        list,
        None,
        "The index directory (default: nearest .qry, or $QRY_INDEX_DIR); repeat it to search several as one.",
        metavar="DIR",
    ),
    Opt(
        "workspace",
        ("--workspace", "-w"),
        str,
        None,
        "Search every index of workspace W (a name from qry workspace list, or a qry.toml).",
        metavar="W",
    ),
    Opt(
        "route", ("--route",), bool, False, "With --workspace: search only the repositories qry route picks."
    ),
    Opt(
        "server",
        ("--server",),
        str,
        None,
        "Ask a running qry serve at URL instead of local indexes.",
        metavar="URL",
    ),
    Opt("no_color", ("--no-color",), bool, False, "Never colour the output (as NO_COLOR does)."),
)

OPTION_BY_DEST = {o.dest: o for o in SEARCH_OPTIONS}
