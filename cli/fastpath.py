"""A fast path for `qry search` that skips importing Typer and Click.

Why: a one-shot lexical query is a ~15 ms job, and importing Typer and Click costs ~35 ms more, which
alone would make `qry search` slower than `rg` on a medium repository. The options come from the
same table as the Typer command (`cli/options.py`); anything unusual (`--help`, no query, a parse
error) falls back to Typer so help and error messages stay Typer's.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import Any

from cli.options import SEARCH_OPTIONS


class _Fallback(Exception):
    """The fast parser does not handle this command line: let Typer do it."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> Any:  # argparse would print and exit(2); Typer should
        raise _Fallback(message)


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="qry search", add_help=False, allow_abbrev=False)
    p.add_argument("query")
    for o in SEARCH_OPTIONS:
        if o.type is bool:
            if o.negatable:
                p.add_argument(*o.flags, dest=o.dest, action="store_true", default=o.default)
                p.add_argument(*[f"--no-{f[2:]}" for f in o.flags if f.startswith("--")], dest=o.dest,
                               action="store_false")
            else:
                p.add_argument(*o.flags, dest=o.dest, action="store_true", default=o.default)
        elif o.type is list:
            p.add_argument(*o.flags, dest=o.dest, action="append", default=None)
        else:
            p.add_argument(*o.flags, dest=o.dest, type=o.type, default=o.default)
    return p


def try_fast_search(argv: Sequence[str]) -> int | None:
    """Run `qry search ...` without Typer if the command line is a plain search; else None."""
    if len(argv) < 2 or argv[0] != "search" or any(a in ("--help", "-h") for a in argv):
        return None
    try:
        ns = build_parser().parse_args(list(argv[1:]))
    except _Fallback:
        return None
    from cli.console import Env
    from cli.searchcmd import search_command

    values = vars(ns)
    query = values.pop("query")
    return search_command(Env(), query, values)
