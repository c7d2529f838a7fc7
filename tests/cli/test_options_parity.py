"""The Typer `search` command and the argparse fast path accept exactly the same options."""

from __future__ import annotations

import typer.main

from cli.fastpath import build_parser
from cli.main import app
from cli.options import SEARCH_OPTIONS


def test_fast_path_and_typer_expose_the_same_search_options() -> None:
    command = typer.main.get_command(app)
    search = command.commands["search"]  # type: ignore[attr-defined]
    typer_flags = {f for p in search.params for f in (*p.opts, *p.secondary_opts) if f.startswith("-")}
    fast = build_parser()
    fast_flags = {f for a in fast._actions for f in a.option_strings}
    assert typer_flags - {"--help"} == fast_flags
    assert {p.name for p in search.params} - {"query"} == {o.dest for o in SEARCH_OPTIONS}
