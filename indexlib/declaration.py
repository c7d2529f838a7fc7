"""Where a node declares itself: the line of its signature, below the doc comment its span holds.

Every surface that points at a definition by one line (a search hit's `line`, a related row of
`qry related` and `--graph`) points at the same one, so an editor jumping there lands on the
declaration, not on the first line of the comment above it. Pure; shared by retrieval and the graph.
"""

from __future__ import annotations

import re

__all__ = ["COMMENT_LINE", "declaration_line", "first_code_line", "signature_line", "text_lines"]

# A line that opens with a comment marker (`#`, `//`, `/*`, a doc block's `*`, `--`, a docstring).
COMMENT_LINE = re.compile(r"\s*(?:#|//|/\*|\*|--|\"\"\"|\'\'\')")
# A comment written after a signature's code (`Timeout int // why`): not part of its head.
_SIGNATURE_COMMENT = re.compile(r"\s(?:#|//|/\*)\s.*")
SIGNATURE_HEAD_CHARS = 40  # the signature's head that finds its line: enough to tell lines apart
MIN_OPENING_CHARS = 6  # a signature's first line, when it spans lines, is at least `def f(`
# Annotations and decorators a signature opens with (`@Override public ...`): the line to point at
# is the declaration's own, as an editor's outline shows it.
_ANNOTATIONS = re.compile(r"^\s*(?:@[\w.]+(?:\([^)]*\))?\s*)+")
DECLARATION_SCAN_LINES = 200  # how far below a node's first line its declaration is looked for


_NOT_CODE = re.compile(r"\s*(?:@|#\[)|" + COMMENT_LINE.pattern)  # a comment, a decorator, an attribute


def text_lines(text: str) -> list[str]:
    """Lines as git, grep and editors count them: split at LF only (a CR of CR LF is dropped by
    `safe_text`); form feeds, vertical tabs and U+2028 stay inside their line (`str.splitlines`
    would split there too and shift every later line number)."""
    lines = text.split("\n")
    if len(lines) > 1 and lines[-1] == "":
        lines.pop()
    return lines


def signature_line(signature: str, lines: list[str]) -> int | None:
    """Index of the line of `lines` that declares a node with `signature` (its head past any
    annotations, outside a comment; a signature written over several lines is found by its first),
    or None when no line shows it."""
    bare = _ANNOTATIONS.sub("", _SIGNATURE_COMMENT.sub("", signature))
    head = " ".join(bare.split())[:SIGNATURE_HEAD_CHARS]
    if not head:
        return None
    flat = [" ".join(line.split()) for line in lines]
    starts = next((i for i, line in enumerate(flat) if line.startswith(head)), None)
    if starts is not None:
        return starts
    inside = next((i for i, line in enumerate(flat) if head in line and not COMMENT_LINE.match(line)), None)
    if inside is not None:
        return inside
    opened = [i for i, line in enumerate(flat) if len(line) >= MIN_OPENING_CHARS and head.startswith(line)]
    return opened[0] if opened else None


def declaration_line(text: str, start_line: int, signature: str) -> int:
    """The file line a node of `text` (starting at `start_line`) declares itself on: its signature's
    line, else its first line of code (past the doc comment above it), else its first line."""
    lines = text.split("\n", DECLARATION_SCAN_LINES)[:DECLARATION_SCAN_LINES]
    found = signature_line(signature, lines)
    return start_line + (first_code_line(lines) if found is None else found)


def first_code_line(lines: list[str]) -> int:
    """Index of the first line of code: past the doc comment, decorators and attributes a node's text
    opens with (0 when there is none)."""
    return next((i for i, line in enumerate(lines) if line.strip() and not _NOT_CODE.match(line)), 0)
