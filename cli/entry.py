"""The console entry point, kept tiny: a plain `qry search` never imports Typer (see cli/fastpath.py)."""

from __future__ import annotations

import sys


def run() -> None:
    from cli.fastpath import try_fast_search

    code = try_fast_search(sys.argv[1:])
    if code is not None:
        try:
            sys.stdout.flush()
        except BrokenPipeError:
            pass
        sys.exit(code)
    from cli.main import main

    main()
