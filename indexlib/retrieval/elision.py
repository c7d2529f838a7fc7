"""Which lines of a node's text are not the file's: the bodies of the definitions nested in it. Pure.

Owns: telling, line by line, whether the text a snippet shows for a file line is that line as the file
has it. A definition's stored text elides the body of each definition nested in it (its outline:
`def inner(a):` then `...`, `def helper(xs): String = ...`, `void f() { ... }`) and keeps the line
breaks the body held, so the lines from where a nested body starts to where it ends hold a marker, a
blank, or what follows the body, not the file's text. Which lines those are is not stored; it is read
here from the nested definitions' own texts, which hold their bodies: a line of the container is the
file's when it spells what the nested definition's text spells there (that one's own nested bodies
checked the same way). So the answer is exact whatever the body's language or marker, and needs no
file read (a file changed since the index still gets the indexed text's answer). A nested definition
whose body is on its last line (`def mode: Int = 42`, `int size() { return n; }`) gives that line
back whole: its own text holds the file's line, so the line is restored rather than left out.
Does not own: cutting the snippet (snippets.py) or printing it (cli/render.py leaves these lines out
of `path:line:text` output).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import NamedTuple

from indexlib.records import BRACED_BODY, Node

__all__ = ["Outline", "as_written", "outline_lines"]

# How deep `outline_lines` follows definitions nested in definitions; past it, a line counts as elided.
MAX_NESTING = 32

# The elision that stands for a member's body at the end of its opening line (`f() { ... }`).
_ELIDED_BODY = re.compile(re.escape(BRACED_BODY) + "$")
# What is left of a line after a one-line definition's head: its elided body, nothing else.
_ONLY_MARKER = re.compile(r"[\s{=>]*\.\.\.[\s};]*")


class Outline(NamedTuple):
    """Lines of a definition's text that are not the file's: `elided` to leave out, `restored` (file
    line -> the file's text of it) to show instead of the outline's."""

    elided: frozenset[int]
    restored: dict[int, str]

    def apply(self, text: str, start_line: int) -> str:
        """`text` (a node's, from `start_line`) with each restored line in place of the outline's."""
        if not self.restored:
            return text
        lines = text.split("\n")
        for line, whole in self.restored.items():
            lines[line - start_line] = whole
        return "\n".join(lines)


def as_written(line: str) -> str:
    """A snippet line as `path:line:` prints it: a member's braced body elided at the end of the line
    that opens it (`public JsonToken peek() { ... }`) is shown as that line, ending in its `{`, which
    is the file's line when the body goes on past it (`outline_lines` tells when it does not).

    >>> as_written("  public JsonToken peek() throws IOException { ... }")
    '  public JsonToken peek() throws IOException {'
    """
    return _ELIDED_BODY.sub("{", line)


def outline_lines(node: Node, nested: Sequence[Node]) -> Outline:
    """The file lines of `node` whose text in `node.text`, as `as_written` prints it, is not the
    file's line: those it restores from a nested definition's own text, and the rest, elided, with
    the blank lines inside a nested definition past its first line (its body's, which the outline
    shows none of: a class's outline is its members' heads, not the blank lines of their bodies);
    `nested` are the nodes of its file inside its span (its members, theirs, and any other; those
    that are parts of `node`'s own definition are ignored).

    A line inside a nested definition's span is the file's when every nested definition directly
    inside `node` spanning it has that line as the file has it and `node`'s text spells the same: the
    whole line, or, on the nested one's first line, its end (what precedes the nested definition on
    the line is `node`'s own text)."""
    inner = [
        n
        for n in nested
        if n.uid != node.uid
        and (n.qualified_name, n.kind) != (node.qualified_name, node.kind)
        and node.start_line <= n.start_line <= n.end_line <= node.end_line
    ]
    if not inner:
        return Outline(frozenset(), {})
    check = _Check(inner)
    elided: set[int] = set()
    restored: dict[int, str] = {}
    for line in range(node.start_line, node.end_line + 1):
        shown = check.written(node, line)
        if shown is not None and not shown.strip() and check.in_body(node, line):
            elided.add(line)  # a blank line of a body the outline leaves out is not one of its own
        elif shown is None:
            whole = check.restored(node, line)
            if whole is None:
                elided.add(line)
            else:
                restored[line] = whole
    return Outline(frozenset(elided), restored)


class _Check:
    """The memoised `written` test over the nodes nested in one node."""

    __slots__ = ("_lines", "_nodes", "_spanning")

    def __init__(self, nodes: Sequence[Node]) -> None:
        self._nodes = sorted(nodes, key=lambda m: (m.start_line, -m.end_line))
        self._spanning: dict[int, dict[int, list[Node]]] = {}
        self._lines: dict[int, list[str]] = {}

    def spanning(self, n: Node, line: int) -> list[Node]:
        """The nodes directly inside `n` (in its span, and in no other node inside it; two of one span
        both count) that span `line`."""
        if n.uid not in self._spanning:
            by_line: dict[int, list[Node]] = {}
            last: tuple[int, int] = (0, -1)
            for m in self._nodes:
                if m.uid == n.uid or not _within(m, n):
                    continue
                span = (m.start_line, m.end_line)
                if m.end_line <= last[1] and span != last:
                    continue  # inside a node directly inside `n`
                if m.end_line > last[1]:
                    last = span
                for at in range(m.start_line, m.end_line + 1):
                    by_line.setdefault(at, []).append(m)
            self._spanning[n.uid] = by_line
        return self._spanning[n.uid].get(line, [])

    def in_body(self, n: Node, line: int) -> bool:
        """Whether `line` is past the first line of a definition directly inside `n`."""
        return any(m.start_line < line for m in self.spanning(n, line))

    def text_line(self, n: Node, line: int) -> str | None:
        if n.uid not in self._lines:
            self._lines[n.uid] = n.text.split("\n")
        lines = self._lines[n.uid]
        at = line - n.start_line
        return lines[at] if 0 <= at < len(lines) else None

    def written(self, n: Node, line: int, depth: int = 0) -> str | None:
        """File line `line` as `n`'s text prints it (from where `n` starts on its first line), or
        None when that text is not the file's, or when telling would take more than MAX_NESTING
        definitions nested in each other (a generated or hostile file: such a line is not printed
        rather than checked through a thousand levels)."""
        text = self.text_line(n, line)
        if text is None or depth > MAX_NESTING:
            return None
        shown = as_written(text)
        for child in self.spanning(n, line):
            theirs = self.written(child, line, depth + 1)
            if theirs is None:
                return None
            if not (shown.endswith(theirs) if line == child.start_line else shown == theirs):
                return None
        return shown

    def restored(self, n: Node, line: int) -> str | None:
        """The file's line `line` where `n`'s text ends a nested definition there with its body elided
        (`def mode: Int = ...` for the file's `def mode: Int = 42`): that definition's own line, after
        `n`'s indentation on its first line. None unless exactly one definition spans the line and
        ends on it, it is the file's there, and `n`'s line is its line up to nothing but the elision."""
        kids = self.spanning(n, line)
        text = self.text_line(n, line)
        if len(kids) != 1 or text is None or kids[0].end_line != line:
            return None
        theirs = self.written(kids[0], line)
        if theirs is None:
            return None
        head = text.lstrip() if line == kids[0].start_line else text
        pairs = enumerate(zip(head, theirs, strict=False))
        same = next((i for i, (a, b) in pairs if a != b), min(len(head), len(theirs)))
        if not head[:same].strip() or not _ONLY_MARKER.fullmatch(head[same:]):
            return None
        return text[: len(text) - len(head)] + theirs


def _within(inner: Node, outer: Node) -> bool:
    return outer.start_line <= inner.start_line <= inner.end_line <= outer.end_line
