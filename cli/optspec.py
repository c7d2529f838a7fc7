"""One command-line option, as the option tables declare it (`options.py`, `grepopts.py`).

Its own module so that `qry grep`'s fast path reads its table without importing the search table
(and the library's search bounds behind it).
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
    metavar: str = ""  # what help shows for the value (N, NUM, GLOB, DIR); empty: Typer shows `<int>`


def repo_option(scope: str) -> Opt:
    """`--repo REGEX`, the one option search, grep and index share for choosing among a workspace's
    repositories (`scope` says when it applies: "With --workspace", "With several indexes")."""
    return Opt(
        "repo",
        ("--repo",),
        list,
        None,
        f"{scope}: only repositories whose name matches this regex (repeatable), as repo:.",
        metavar="REGEX",
    )
