"""The line a search hit is shown by: its declaration when the query names it, else the snippet line
holding the most query words. Pure.

Every surface shows a hit by one line (the piped `path:line:`, the table's highlighted row, the JSON
`line`), so the choice is made once, here, from the hit itself.
"""

from __future__ import annotations

import re

from indexlib.declaration import COMMENT_LINE, signature_line, text_lines
from indexlib.records import BRACED_BODY, EXPRESSION_BODY, OTHER_BODY, Hit

__all__ = ["shown_line", "text_lines"]


def _name_line(h: Hit, lines: list[str]) -> int | None:
    """Index of the first snippet line outside a comment that spells the hit's name as a whole word,
    as the snippet's own window finds a declaration its signature does not spell as written (a Go
    constant of a `const (...)` block has the signature `const X`, and its line is `X`)."""
    name = h.symbol.rsplit(".", 1)[-1]
    if not name:
        return None
    spelled = re.compile(r"(?<![\w$])" + re.escape(name) + r"(?![\w$])")
    return next(
        (i for i, line in enumerate(lines) if spelled.search(line) and not COMMENT_LINE.match(line)), None
    )


def shown_line(h: Hit, shown: frozenset[int] = frozenset()) -> int:
    """Index (into the snippet's lines) of the line a hit is shown by: its declaration when the query
    spells its name (a class is shown by `class RouteGroup`, not by the member line holding more of
    the name's parts); else the highlighted line matching the most different query words (among
    equals, code from the declaration on before the doc comment above it, then the first); else the
    first line that is not blank (a vector-only hit shares no word with the query).
    A line an earlier hit of the file was shown by (`shown`, file line numbers: a member, then its
    class matched in that member) gives way to the declaration, else to the next best line."""
    lines = text_lines(h.snippet.text)
    sig = signature_line(h.signature, lines)  # the snippet line declaring it, if shown
    if h.provenance.named:
        named = sig if sig is not None else _name_line(h, lines)
        if named is not None:
            return named
    ranked = _ranked_lines(h, lines, sig)
    if sig is not None and h.snippet.start_line + ranked[0] in shown:
        return sig
    return next((i for i in ranked if h.snippet.start_line + i not in shown), ranked[0])


# A blank line, one that only closes a block, or an elided body: nothing to show a hit by.
_NOTHING_TO_SHOW = re.compile(
    r"\s*(?:end|[}\])]+[;,]?|"
    + "|".join(re.escape(m) for m in (BRACED_BODY, EXPRESSION_BODY, OTHER_BODY))
    + r")?\s*$"
)


def _ranked_lines(h: Hit, lines: list[str], sig: int | None) -> list[int]:
    """Snippet lines best first: highlighted ones by the query words they hold, then the other lines
    that are not blank."""
    words: dict[int, set[str]] = {}
    for a, b in h.snippet.highlights:
        matched = h.snippet.text[a:b]
        parts = {p.lower() for p in re.split(r"[^0-9A-Za-z]+|(?<=[a-z0-9])(?=[A-Z])", matched) if p}
        # A name spelled whole (`module.exports`) counts itself too: above its words apart.
        words.setdefault(h.snippet.text.count("\n", 0, a), set()).update(parts | {matched.lower()})
    # The most query words first (a quoted sentence's line in the doc comment, not the code below
    # it holding one of them); among equals, code from the declaration on before the doc above it.
    best = sorted(words, key=lambda i: (-len(words[i]), sig is None or i < sig, i))
    rest = [i for i, line in enumerate(lines) if not _NOTHING_TO_SHOW.match(line) and i not in best]
    return best + rest or [0]
