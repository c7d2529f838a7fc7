"""Markdown -> one node per section.

Owns: splitting a Markdown file at its ATX (`## Title`) and setext (`Title` over `===` / `---`)
headings into "section" nodes whose qualified name is the heading path (`Guide > Install > Linux`)
and whose parent is the enclosing section. It does not parse inline Markdown or links.

Why a line scanner rather than the tree-sitter grammar: sections only need headings and fenced code
blocks (so a `# comment` inside a fence is not a heading), a scanner does that in one pass with exact
line and byte offsets, and it cannot fail on odd input.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import PurePosixPath

from indexlib.index.parsing.chunks import Draft, LineIndex, finish
from indexlib.index.parsing.ids import node_uid
from indexlib.records import WINDOW_LINES, Node, NodeKind

PATH_SEPARATOR = " > "

_ATX = re.compile(r"^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$")
_SETEXT = re.compile(r"^ {0,3}(=+|-+)[ \t]*$")
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
# A line that cannot be a setext heading's text: a list item, quote, table rule, or indented code.
_NOT_PARAGRAPH = re.compile(r"^(?: {4,}|\t| {0,3}(?:[-*+][ \t]|\d{1,9}[.)][ \t]|>|\||[-*_]{3,}[ \t]*$))")


@dataclass(slots=True)
class _Heading:
    line: int  # 1-based line where the section starts (the title line for setext)
    level: int
    title: str


def sections(
    path: str, data: bytes, *, window_lines: int = WINDOW_LINES, language: str = "markdown"
) -> list[Node]:
    """Section nodes of a Markdown file, in source order.

    Text before the first heading (badges, front matter, an intro) is a section named after the file
    stem. A section runs from its heading to the line before the next heading of any level; sections
    longer than `window_lines` lines are split into parts.
    """
    lines = LineIndex(data)
    text = data.decode("utf-8", "replace")
    rows = text.split("\n")
    total = lines.line_count
    headings = _headings(rows[:total])
    stem = PurePosixPath(path).stem or PurePosixPath(path).name

    nodes: list[Node] = []
    # (level, title, uid of its part 0) of the open headings, outermost first.
    stack: list[tuple[int, str, int]] = []
    ordinals: dict[str, int] = {}
    starts = [h.line for h in headings]
    if not headings or headings[0].line > 1:
        first_heading = starts[0] if starts else total + 1
        if _has_content(rows, 1, first_heading - 1):
            nodes.extend(
                _section(
                    path,
                    language,
                    data,
                    lines,
                    stem,
                    stem,
                    0,
                    1,
                    first_heading - 1,
                    0,
                    window_lines,
                    ordinals,
                )
            )
    for index, heading in enumerate(headings):
        end = starts[index + 1] - 1 if index + 1 < len(headings) else total
        while stack and stack[-1][0] >= heading.level:
            stack.pop()
        parent_uid = stack[-1][2] if stack else 0
        title = heading.title or f"(untitled {'#' * heading.level})"
        qualified = PATH_SEPARATOR.join([*(entry[1] for entry in stack), title])
        made = _section(
            path,
            language,
            data,
            lines,
            title,
            qualified,
            parent_uid,
            heading.line,
            end,
            heading.level,
            window_lines,
            ordinals,
        )
        nodes.extend(made)
        ordinal = ordinals[qualified] - 1
        stack.append((heading.level, title, node_uid(path, qualified, NodeKind.SECTION.value, ordinal, 0)))
    return nodes


def _section(
    path: str,
    language: str,
    data: bytes,
    lines: LineIndex,
    name: str,
    qualified: str,
    parent_uid: int,
    first: int,
    last: int,
    level: int,
    window_lines: int,
    ordinals: dict[str, int],
) -> list[Node]:
    ordinal = ordinals.get(qualified, 0)
    ordinals[qualified] = ordinal + 1
    start_byte = lines.start_of(first)
    end_byte = lines.start_of(last + 1)
    # Drop the newline that ends the section's last line, so end_byte ends on its last character.
    while end_byte > start_byte and data[end_byte - 1 : end_byte] in (b"\n", b"\r"):
        end_byte -= 1
    body = data[start_byte:end_byte].decode("utf-8", "replace")
    draft = Draft(
        kind=NodeKind.SECTION.value,
        name=name,
        qualified_name=qualified,
        start_byte=start_byte,
        end_byte=end_byte,
        start_line=first,
        end_line=max(first, last),
        text=body,
        signature="#" * level + " " + name if level else "",
        ordinal=ordinal,
        parent_uid=parent_uid,
    )
    draft.end_line = first + body.count("\n")
    return finish(draft, path, language, window_lines, lines)


def _has_content(rows: list[str], first: int, last: int) -> bool:
    return any(rows[i - 1].strip() for i in range(first, last + 1))


def _headings(rows: list[str]) -> list[_Heading]:
    """ATX and setext headings outside fenced code blocks."""
    headings: list[_Heading] = []
    fence: str | None = None  # the opening fence's character run while inside a fenced block
    previous_is_paragraph = False
    previous_title = ""
    front_matter = bool(rows) and rows[0].strip() == "---"
    for number, raw in enumerate(rows, start=1):
        line = raw.rstrip("\r")
        if front_matter:
            # YAML front matter: `---` ... `---` (or `...`) at the very top is not content to split.
            if number > 1 and line.strip() in ("---", "..."):
                front_matter = False
            previous_is_paragraph = False
            continue
        fence_match = _FENCE.match(line)
        if fence is not None:
            closing = fence_match.group(1) if fence_match else ""
            if closing[:1] == fence[0] and len(closing) >= len(fence) and not line.strip().lstrip(fence[0]):
                fence = None
            previous_is_paragraph = False
            continue
        if fence_match:
            fence = fence_match.group(1)
            previous_is_paragraph = False
            continue
        atx = _ATX.match(line)
        if atx:
            headings.append(_Heading(number, len(atx.group(1)), (atx.group(2) or "").strip()))
            previous_is_paragraph = False
            continue
        setext = _SETEXT.match(line)
        if setext and previous_is_paragraph:
            level = 1 if setext.group(1)[0] == "=" else 2
            headings.append(_Heading(number - 1, level, previous_title))
            previous_is_paragraph = False
            continue
        stripped = line.strip()
        previous_is_paragraph = bool(stripped) and not _NOT_PARAGRAPH.match(line)
        previous_title = stripped
    return headings
