"""The Typer-free command-line parser of the fast paths (`qry search`, `qry grep`), over an option table.

Owns: reading `argv` by a table of `Opt`: `--flag value`, `--flag=value`, boolean and `--no-` flags,
repeatable list options, `--` before a positional that starts with a dash (not needed for a negated filter
or a quoted query with spaces: `is_dashed_query_word`), and, where a command takes
ripgrep's habits, bundled short flags (`-iw`, `-A3`, `-m 5`). Anything else (an unknown flag, a bad
value, a missing one) gives None, and Typer then parses the line and says what is wrong.
Does not own: the tables (`options.py`, `grepopts.py`) or what a command does with the values.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from cli.optspec import Opt

Parsed = tuple[list[str], dict[str, Any]]

#: A query filter negated by a leading dash (`-path:tests/**`), as the query language spells them.
_NEGATED_FILTER = re.compile(r"-(lang|language|path|file|kind|exclude|repo):.")


def is_dashed_query_word(arg: str) -> bool:
    """Whether a dash-led argument is query text, not options: a negated filter (`-path:tests/**`,
    which Click read as `-p ath:tests/**`, a path filter meaning the opposite) or one argument holding
    whitespace (the quoted query `"-path:tests load_config"`: no option is spelled with a space)."""
    return arg.startswith("-") and (bool(_NEGATED_FILTER.match(arg)) or any(c.isspace() for c in arg))


def flag_table(options: Sequence[Opt]) -> dict[str, tuple[Opt, bool]]:
    """Every accepted flag -> (option, the value a boolean flag sets)."""
    flags: dict[str, tuple[Opt, bool]] = {}
    for o in options:
        for f in o.flags:
            flags[f] = (o, True)
        if o.negatable:
            flags["--no-" + o.flags[0][2:]] = (o, False)
    return flags


def parse_flags(argv: Sequence[str], options: Sequence[Opt], *, bundled: bool = False) -> Parsed | None:
    """(positionals, values by dest) for `argv`, or None for anything the table does not cover."""
    flags = flag_table(options)
    values: dict[str, Any] = {o.dest: o.default for o in options}
    positional: list[str] = []
    args = list(argv)
    i = 0
    while i < len(args):
        arg = args[i]
        i += 1
        if not arg.startswith("-") or arg == "-" or is_dashed_query_word(arg):
            positional.append(arg)
        elif arg == "--":
            positional += args[i:]
            break
        elif bundled and not arg.startswith("--"):
            i = _shorts(arg, args, i, flags, values)
            if i < 0:
                return None
        else:
            i = _long(arg, args, i, flags, values)
            if i < 0:
                return None
    return positional, values


def _long(
    arg: str, args: list[str], i: int, flags: dict[str, tuple[Opt, bool]], values: dict[str, Any]
) -> int:
    """One `--flag[=value]` (or, unbundled, `-k[=value]`): the index after it, or -1."""
    name, eq, inline = arg.partition("=")
    found = flags.get(name)
    if found is None:
        return -1
    opt, flag_value = found
    if opt.type is bool:
        if eq:
            return -1
        values[opt.dest] = flag_value
        return i
    if not eq:
        if i >= len(args):
            return -1
        inline = args[i]
        i += 1
    return i if _set(opt, inline, values) else -1


def _shorts(
    arg: str, args: list[str], i: int, flags: dict[str, tuple[Opt, bool]], values: dict[str, Any]
) -> int:
    """Bundled short flags (`-iw`, `-A3`, `-m 5`): the index after them, or -1."""
    j = 1
    while j < len(arg):
        found = flags.get("-" + arg[j])
        if found is None:
            return -1
        opt = found[0]
        j += 1
        if opt.type is bool:
            values[opt.dest] = True
            continue
        raw = arg[j:]
        if not raw:
            if i >= len(args):
                return -1
            raw = args[i]
            i += 1
        return i if _set(opt, raw, values) else -1
    return i


def _set(opt: Opt, raw: str, values: dict[str, Any]) -> bool:
    try:
        value: Any = raw if opt.type in (str, list) else opt.type(raw)
    except ValueError:
        return False
    values[opt.dest] = [*(values[opt.dest] or []), value] if opt.type is list else value
    return True
