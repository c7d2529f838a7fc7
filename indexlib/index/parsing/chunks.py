"""Line arithmetic, node assembly and line windows.

Owns: mapping byte offsets to lines, turning a described node (a `Draft`) into one or more
`records.Node`s (splitting one that is longer than the window into parts), and chunking a text file
that has no grammar into overlapping line windows. It does not decide what a symbol or a section is
(extract.py and markdown.py do).

Why windows keep the symbol's name: a 3,000-line function is still `parse_all`; each window of it
must be findable by that name, and lines/bytes per window let a snippet point at the right place.
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass
from itertools import accumulate
from pathlib import PurePosixPath

from indexlib.index.parsing.ids import content_hash, node_uid
from indexlib.records import BLOCK_EDGE_LINE, CHUNK_LINES, Node, NodeKind

# Text files (and code whose parse failed) become windows of this many lines, overlapping so that a
# passage cut by one window boundary is whole in the next.
CHUNK_OVERLAP = 10  # lines a text window shares with the next (CHUNK_LINES: records.py)


class LineIndex:
    """Byte offset <-> 1-based line number for one file's bytes."""

    __slots__ = ("size", "starts")

    def __init__(self, data: bytes) -> None:
        # Line starts from the line lengths: split and accumulate run in C.
        starts = list(accumulate((len(line) + 1 for line in data.split(b"\n")), initial=0))
        starts.pop()  # the offset one past the end of the last line
        self.starts = starts
        self.size = len(data)

    @property
    def line_count(self) -> int:
        """Lines in the file; a final newline does not start another line."""
        count = len(self.starts)
        if count > 1 and self.starts[-1] == self.size:
            count -= 1
        return count

    def line_of(self, offset: int) -> int:
        """The 1-based line holding byte `offset`."""
        return bisect_right(self.starts, offset)

    def start_of(self, line: int) -> int:
        """Byte offset where 1-based `line` starts (the file size past the last line)."""
        if line - 1 < len(self.starts):
            return self.starts[line - 1]
        return self.size


@dataclass(slots=True)
class Draft:
    """A node described by its finder, before uid, hash and windowing."""

    kind: str
    name: str
    qualified_name: str
    start_byte: int
    end_byte: int
    start_line: int
    end_line: int
    text: str
    signature: str = ""
    doc: str = ""
    ordinal: int = 0
    parent_uid: int = 0


def finish(draft: Draft, path: str, language: str, window_lines: int, lines: LineIndex | None) -> list[Node]:
    """The Node(s) for `draft`: one, or consecutive windows when it has more than `window_lines` lines.

    Lines are counted without blank ones, so a class whose long methods were elided to blank lines,
    or a module remainder spread over a long file, stays one node while its content is small. Each
    window holds `window_lines` non-blank lines and the block edges after them (`_past_block_edges`),
    starts and ends on a non-blank line, and keeps the draft's kind, names, signature, doc and parent;
    its lines, bytes and text are its own, and it is part 0, 1, 2, ... of the draft.
    """
    window = max(window_lines, 1)
    span = draft.end_line - draft.start_line + 1
    if span <= window or lines is None:
        return [_whole(draft, path, language)]
    rows = draft.text.split("\n")
    filled = [bool(row.strip()) for row in rows]
    if sum(filled) <= window:
        return [_whole(draft, path, language)]
    # Character offset where each row starts in the text.
    offsets = [0]
    for row in rows:
        offsets.append(offsets[-1] + len(row) + 1)
    last_row = len(rows) - 1
    nodes: list[Node] = []
    first = 0
    while first <= last_row:
        while first <= last_row and not filled[first]:
            first += 1
        if first > last_row:
            break
        end, count = first, 0
        while end <= last_row:
            count += filled[end]
            if count == window:
                break
            end += 1
        end = _past_block_edges(rows, min(end, last_row), window)
        while end > first and not filled[end]:
            end -= 1
        piece = draft.text[offsets[first] : offsets[end + 1] - 1]
        start_byte = draft.start_byte if first == 0 else lines.start_of(draft.start_line + first)
        end_byte = draft.end_byte if end == last_row else lines.start_of(draft.start_line + end + 1) - 1
        nodes.append(
            _node(
                draft,
                path,
                language,
                piece,
                draft.start_line + first,
                draft.start_line + end,
                start_byte,
                end_byte,
                len(nodes),
            )
        )
        first = end + 1
    return nodes


def _past_block_edges(rows: list[str], end: int, most: int) -> int:
    """The last row of a window ending at `end`, taken on over the blank rows and block edges that
    follow it (`}`, `end`, a brace or an elided body `{ ... }` below a header; at most `most` rows):
    they belong to what the window holds, and a window of them alone would be a part with nothing
    to show (a class's last part holding only its last method's `{ ... }` and its own `}`)."""
    last = min(len(rows) - 1, end + most)
    while end < last and (not rows[end + 1].strip() or BLOCK_EDGE_LINE.match(rows[end + 1])):
        end += 1
    return end


def _whole(draft: Draft, path: str, language: str) -> Node:
    return _node(
        draft,
        path,
        language,
        draft.text,
        draft.start_line,
        draft.end_line,
        draft.start_byte,
        draft.end_byte,
        0,
    )


def _node(
    draft: Draft,
    path: str,
    language: str,
    text: str,
    start_line: int,
    end_line: int,
    start_byte: int,
    end_byte: int,
    part: int,
) -> Node:
    return Node(
        uid=node_uid(path, draft.qualified_name, draft.kind, draft.ordinal, part),
        content_hash=content_hash(text),
        path=path,
        language=language,
        kind=draft.kind,
        name=draft.name,
        qualified_name=draft.qualified_name,
        signature=draft.signature,
        doc=draft.doc,
        start_line=start_line,
        end_line=end_line,
        start_byte=start_byte,
        end_byte=end_byte,
        parent_uid=draft.parent_uid,
        text=text,
        part=part,
    )


def text_chunks(
    path: str,
    language: str,
    data: bytes,
    *,
    window: int = CHUNK_LINES,
    overlap: int = CHUNK_OVERLAP,
) -> list[Node]:
    """Overlapping line windows over a whole file: kind "chunk", named after the file.

    Used for text without a grammar, and as the fallback when parsing fails. Blank windows are
    dropped; each window is a `part` of one chunk node, so uids are stable while the file grows.
    """
    lines = LineIndex(data)
    total = lines.line_count
    if not data.strip():
        return []
    window = max(window, 1)
    step = max(window - max(overlap, 0), 1)
    name = PurePosixPath(path).name
    nodes: list[Node] = []
    first = 1
    part = 0
    while first <= total:
        last = min(first + window - 1, total)
        start_byte = lines.start_of(first)
        end_byte = lines.start_of(last + 1)
        if data[end_byte - 1 : end_byte] == b"\n":
            end_byte -= 1  # the window ends on its last character, not the newline after it
        raw = data[start_byte:end_byte]
        if raw.strip():
            text = raw.decode("utf-8", "replace")
            draft = Draft(
                kind=NodeKind.CHUNK.value,
                name=name,
                qualified_name=name,
                start_byte=start_byte,
                end_byte=end_byte,
                start_line=first,
                end_line=last,
                text=text,
            )
            nodes.append(_node(draft, path, language, text, first, last, start_byte, end_byte, part))
        if last >= total:
            break
        first += step
        part += 1
    return nodes
