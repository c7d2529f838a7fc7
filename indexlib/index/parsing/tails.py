"""Where a definition's code ends, when its grammar runs its last block on past it.

Owns: the end of a definition's content, short of the blank lines and the outdented comments its
syntax node ends with, and those comments, which are the next definition's. Why: a grammar that
reads blocks by indentation (Scala's `indented_block` and Scala 3 template bodies) ends a block
where the next definition starts, so `def a =` with its body on the next line holds the blank line
and the doc comment of the `def b` after it. Kept as the node's range, that made a hit on `b`'s doc
comment a hit on `a` and `b` lose its doc. A comment is the block's own when it is indented deeper
than the definition (Python's `# trailing note` in a body stays); written at the definition's
indentation or less, it is outside the block, as a reader sees it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from indexlib.engines.treesitter import Node

# How far down the chain of last children the end is looked for; deeper, the node's own end stands.
MAX_TAIL_DEPTH = 64


def indentation(data: bytes, offset: int) -> int:
    """Bytes of blanks that open the line holding `offset`."""
    line_start = data.rfind(b"\n", 0, offset) + 1
    at = line_start
    while at < offset and data[at : at + 1] in (b" ", b"\t"):
        at += 1
    return at - line_start


def _outdented(comment: Node, indent: int, data: bytes) -> bool:
    """Whether `comment` opens its line at `indent` blanks or fewer."""
    line_start = data.rfind(b"\n", 0, comment.start_byte) + 1
    lead = data[line_start : comment.start_byte]
    return not lead.strip() and len(lead) <= indent


def content_end(node: Node, comments: frozenset[str], data: bytes) -> int:
    """The end of `node`'s last token that is code or a comment of its own, past none of the blank
    lines and outdented comments (module docstring) its node may end with."""
    indent = indentation(data, node.start_byte)
    current = node
    for _depth in range(MAX_TAIL_DEPTH):
        index = current.child_count - 1
        if index < 0:
            return current.end_byte
        last = current.child(index)
        while last is not None and index > 0 and last.type in comments and _outdented(last, indent, data):
            index -= 1
            last = current.child(index)
        if last is None:
            return node.end_byte
        current = last
    return node.end_byte


def tail_comment(node: Node, comments: frozenset[str], data: bytes) -> Node | None:
    """The last outdented comment `node` ends with (`content_end`), the one nearest the definition
    after it, or None."""
    indent = indentation(data, node.start_byte)
    current = node
    for _depth in range(MAX_TAIL_DEPTH):
        if not current.child_count:
            return None
        last = current.child(current.child_count - 1)
        if last is None:
            return None
        if last.type in comments:
            return last if _outdented(last, indent, data) else None
        current = last
    return None
