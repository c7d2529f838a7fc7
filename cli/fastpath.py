"""A fast path for `qry search` that skips importing Typer and Click (and argparse).

Why: a one-shot lexical query is a ~15 ms job, and importing Typer and Click costs ~35 ms more, which
alone would make `qry search` slower than `rg` on a medium repository. The options come from the
same table as the Typer command (`cli/options.py`); anything unusual (`--help`, no query, an unknown
option, a bad number) falls back to Typer so help and error messages stay Typer's.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from cli.flagparse import parse_flags
from cli.lean import import_msgspec_lean
from cli.options import SEARCH_OPTIONS


def parse_search_args(argv: Sequence[str]) -> tuple[str, dict[str, Any]] | None:
    """Parse `QUERY... [options]` by the option table; None for anything unusual (Typer then decides).

    Deliberately small (`flagparse.parse_flags`, without bundled short flags). Several query words
    (`qry search parse config`) are one query, joined by spaces, as Typer's command joins them.
    """
    parsed = parse_flags(argv, SEARCH_OPTIONS)
    if parsed is None or not parsed[0]:
        return None
    words, values = parsed
    return " ".join(words), values


def try_fast_search(argv: Sequence[str]) -> int | None:
    """Run `qry search ...` without Typer if the command line is a plain search; else None."""
    if len(argv) < 2 or argv[0] != "search" or any(a in ("--help", "-h") for a in argv):
        return None
    parsed = parse_search_args(argv[1:])
    if parsed is None:
        return None
    import_msgspec_lean()
    from cli.console import Env
    from cli.searchcmd import search_command

    query, values = parsed
    return search_command(Env(), query, values)
