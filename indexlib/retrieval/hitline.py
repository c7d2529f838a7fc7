"""The line a search hit is shown by: its declaration when the query names it, else the snippet line
holding the most query words; and, over a list of hits, the lines they are printed by, no two of a
file the same. Pure.

Every surface shows a hit by one line (the piped `path:line:`, the table's highlighted row, the JSON
`line`), so the choice is made once, here, from the hit itself.
"""

from __future__ import annotations

import re
from collections.abc import Container, Sequence
from dataclasses import dataclass

from indexlib.declaration import (
    COMMENT_LINE,
    attribute_line,
    first_code_line,
    past_licence,
    signature_line,
    text_lines,
)
from indexlib.records import BLOCK_EDGE_LINE, Hit, NodeKind

__all__ = ["crowded_hits", "printed_lines", "shown_line", "text_lines"]


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


def shown_line(h: Hit, shown: Container[int] = frozenset()) -> int:
    """Index (into the snippet's lines) of the line a hit is shown by: its declaration when the query
    spells its name (a class is shown by `class RouteGroup`, not by the member line holding more of
    the name's parts); else the highlighted line matching the most different query words (among
    equals, code from the declaration on before the doc comment above it); else the declaration, or
    the first line of code, or the first line with something to show (a hit matched by its path or
    name alone, or by its vector, may hold no query word: a PHP method is not shown by the `/**`
    opening its doc comment, a PHP file by its `<?php`).
    A line in `shown` (file line numbers: lines other hits of the file are shown by) gives way to
    the declaration, else to the next best line; when every line is in `shown`, the best one."""
    free = _free_line(h, shown)
    if free is None:
        free = _free_line(h, frozenset())
    return 0 if free is None else free


def _free_line(h: Hit, taken: Container[int]) -> int | None:
    """`shown_line` among the snippet lines whose file lines are not in `taken`; None when none is.
    A line whose text is not the file's (`Snippet.elided`: an elided body in the outline of the
    definition holding it) is not in the snippet's text, so never one: `path:line:` promises the
    file's line."""
    lines = text_lines(h.snippet.text)
    at = h.snippet.line_of
    sig = signature_line(h.signature, lines)  # the snippet line declaring it, if shown
    if h.provenance.named:
        named = sig if sig is not None else _name_line(h, lines)
        if named is not None and at(named) not in taken:
            return named
    ranked = _ranked_lines(h, lines, sig)
    if sig is not None and at(ranked[0]) in taken and at(sig) not in taken:
        return sig
    return next((i for i in ranked if at(i) not in taken), None)


# Nothing to show a hit by: a blank line, a comment's bare delimiter (`/**`, `*/`, `"""`), or a file's
# markup (`<?php`, `?>`, a `#!` line; not Rust's `#![...]`).
_NOTHING_TO_SHOW = re.compile(
    r"\s*(?:(?:/\*\*?|\*/?|\"\"\"|'''|//|#|--)\s*|<\?(?:php)?\s*|\?>\s*|#!(?!\[).*)?$", re.IGNORECASE
)


def _ranked_lines(h: Hit, lines: list[str], sig: int | None) -> list[int]:
    """Snippet lines best first: highlighted ones by the query words they hold, then the other lines
    with something to show (`_nothing_to_show`); among equals, code from the declaration (else from
    the first line of code) on before the doc comment and attributes above it. A module has no
    declaration: its lines keep their order (a Python module's docstring, a Go file's package
    comment, say what it is)."""
    words: dict[int, set[str]] = {}
    for a, b in h.snippet.highlights:
        matched = h.snippet.text[a:b]
        parts = {p.lower() for p in re.split(r"[^0-9A-Za-z]+|(?<=[a-z0-9])(?=[A-Z])", matched) if p}
        # A name spelled whole (`module.exports`) counts itself too: above its words apart.
        words.setdefault(h.snippet.text.count("\n", 0, a), set()).update(parts | {matched.lower()})
    if sig is not None:
        code = sig
    else:
        code = past_licence(lines) if h.kind == NodeKind.MODULE else first_code_line(lines)
    # The most query words first (a quoted sentence's line in the doc comment, not the code below
    # it holding one of them); among equals, code from the declaration on before the doc above it,
    # and a line of code before a comment (`impl Matcher for RegexMatcher`, not the comment above it
    # saying `matcher impl`).
    best = sorted(words, key=lambda i: (-len(words[i]), i < code, bool(COMMENT_LINE.match(lines[i])), i))
    rest = sorted(
        (i for i, line in enumerate(lines) if i not in words and not _nothing_to_show(line)),
        key=lambda i: (i < code, i),
    )
    return best + rest or [0]


def _nothing_to_show(line: str) -> bool:
    """A line a hit holding no query word in it is not shown by: `_NOTHING_TO_SHOW`, a block's edge,
    or attributes alone (`[Fact]` says how a test is run, not which one it is)."""
    return (
        _NOTHING_TO_SHOW.match(line) is not None
        or BLOCK_EDGE_LINE.match(line) is not None
        or attribute_line(line)
    )


def printed_lines(hits: Sequence[Hit]) -> list[int]:
    """The file line each hit is printed by: the line the search chose (`Hit.line`) unless another
    hit of its file holds it, then `shown_line` past the lines held. The lines of a hit nested in
    another are the inner one's (a class matched in its member's line, or in its member's doc comment
    or body, gives way when the member is a hit too, whichever ranks first); a line two hits of one
    span would share, the better ranked one's. So no two hits of a file print the same `path:line`
    while their snippets have another line to show, and a class is not shown by its member's lines."""
    return [line for line, _free in _placed(hits)]


def crowded_hits(hits: Sequence[Hit]) -> list[int]:
    """Indexes of the hits that gave way (as `printed_lines` reads them) to no line of their snippet
    holding a query word or their declaration: what their snippet matched is other hits' lines (an
    interface matched in the doc comment of its member, a hit above it), and it is cut again."""
    return [i for i, (_line, free) in enumerate(_placed(hits)) if not free]


def _telling(h: Hit, at: int) -> bool:
    """Whether snippet line `at` says why `h` is a hit: it holds a query word, or declares `h`."""
    text = h.snippet.text
    if any(text.count("\n", 0, a) == at for a, _b in h.snippet.highlights):
        return True
    return signature_line(h.signature, text_lines(text)) == at


@dataclass(frozen=True, slots=True)
class _Held:
    """The lines of a file a hit gives way on: those other hits are printed by, and every line of
    the hits nested in it (placed before it), its member's doc comment and body as much as its
    declaration."""

    printed: set[int]
    nested: tuple[tuple[int, int], ...]

    def __contains__(self, line: object) -> bool:
        if not isinstance(line, int):
            return False
        return line in self.printed or any(a <= line <= b for a, b in self.nested)


def _placed(hits: Sequence[Hit]) -> list[tuple[int, bool]]:
    """(file line printed by, whether it was free) per hit; hits placed innermost first."""
    printed: dict[str, set[int]] = {}
    spans: dict[str, list[tuple[int, int]]] = {}
    out: list[tuple[int, bool]] = [(0, True)] * len(hits)
    for i in sorted(range(len(hits)), key=lambda i: (hits[i].end_line - hits[i].start_line, i)):
        h = hits[i]
        span = (h.start_line, h.end_line)
        inside = tuple(s for s in spans.get(h.path, ()) if span[0] <= s[0] <= s[1] <= span[1] and s != span)
        taken = _Held(printed.setdefault(h.path, set()), inside)
        chosen = h.line if h.line else h.snippet.line_of(shown_line(h))
        free = chosen not in taken
        if not free:
            at = _free_line(h, taken)
            free = at is not None and _telling(h, at)
            chosen = h.snippet.line_of(at) if at is not None else chosen
        printed[h.path].add(chosen)
        spans.setdefault(h.path, []).append(span)
        out[i] = (chosen, free)
    return out
