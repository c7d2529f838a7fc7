"""One file's text -> the lines a pattern matches, and the context around them.

Owns: line semantics. Lines are split on `\\n` only (a `\\r` stays part of the line, as in ripgrep
without `--crlf`); a file's final `\\n` ends the last line rather than starting an empty one. A line
matches when the pattern matches inside it, taken alone.

How: the regex runs over the whole text (one C-speed `search` skips every non-matching stretch at
once), and each hit is mapped to its line. A hit that ends inside its line is a match of that line;
one that runs past the line's end (`\\s`, `[^x]` and the like can cross a `\\n`) is checked again
with the search bounded to the line (`search(text, start, end)`, where `$` matches at the bound).
Either way the next search starts at the next line, so a line is reported at most once.
"""

from __future__ import annotations

import re

__all__ = ["context_groups", "match_lines", "match_spans"]

Line = tuple[int, int, int]  # (1-based line number, start offset, end offset without the \n)


def match_lines(
    text: str, regex: re.Pattern[str], max_count: int | None = None, after: int = 0
) -> list[Line]:
    """Every matching line of `text`, in order, at most `max_count` of them, and then (`after` > 0)
    those of the `after` lines that follow the last one: rg's `-m N -A M` prints a line of that
    trailing context that matches as a match (`path:7:`), and counts it."""
    out: list[Line] = []
    if max_count is not None and max_count <= 0:
        return out
    n = len(text)
    pos = 0  # always the start of a line
    lineno = 1
    counted = 0  # offset up to which newlines are counted into `lineno`
    search, find, rfind, count = regex.search, text.find, text.rfind, text.count
    append = out.append
    limit = -1 if max_count is None else max_count
    while pos <= n:
        m = search(text, pos)
        if m is None:
            break
        s = m.start()
        ls = rfind("\n", 0, s) + 1  # >= pos, since pos starts a line
        if ls == n and (n == 0 or text[n - 1] == "\n"):
            break  # an empty match after the final newline: there is no line there
        le = find("\n", s)
        if le == -1:
            le = n
        if m.end() <= le or search(text, ls, le) is not None:
            lineno += count("\n", counted, ls)
            counted = ls
            append((lineno, ls, le))
            if len(out) == limit:
                if after > 0:
                    _trailing(text, regex, le + 1, lineno, after, out)
                break
        pos = le + 1
    return out


def _trailing(text: str, regex: re.Pattern[str], pos: int, lineno: int, after: int, out: list[Line]) -> None:
    """Append the matching lines among the `after` lines starting at `pos` (line `lineno` + 1)."""
    n = len(text)
    for k in range(1, after + 1):
        if pos > n or (pos == n and (n == 0 or text[n - 1] == "\n")):
            return  # past the last line
        le = text.find("\n", pos)
        if le == -1:
            le = n
        if regex.search(text, pos, le) is not None:
            out.append((lineno + k, pos, le))
        pos = le + 1


def match_spans(text: str, line: Line, regex: re.Pattern[str]) -> list[tuple[int, int]]:
    """The non-empty matches inside one line, as offsets within the line (for colour and JSON)."""
    _n, ls, le = line
    return [(m.start() - ls, m.end() - ls) for m in regex.finditer(text, ls, le) if m.end() > m.start()]


def context_groups(
    text: str, lines: list[Line], before: int, after: int, *, matched: set[int] | None = None
) -> list[list[tuple[int, str, bool]]]:
    """Matching lines with `before`/`after` lines of context, merged where they touch or overlap.

    Each group is a list of (line number, line text, is_match); callers print `--` between groups.
    `matched`: the line numbers shown as matches, when more than `lines` (the matches `-m` left
    in the trailing context open no context of their own).
    """
    if not lines:
        return []
    all_lines = text.split("\n")
    if all_lines and all_lines[-1] == "" and text.endswith("\n"):
        all_lines.pop()
    if matched is None:
        matched = {n for n, _s, _e in lines}
    groups: list[list[tuple[int, str, bool]]] = []
    last = 0  # last line number emitted
    for n, _s, _e in lines:
        lo = max(1, n - before)
        hi = min(len(all_lines), n + after)
        if not groups or lo > last + 1:
            groups.append([])
        for k in range(max(lo, last + 1), hi + 1):
            groups[-1].append((k, all_lines[k - 1], k in matched))
        last = max(last, hi)
    return groups
