"""The module remainder: what a file says outside its top-level definitions, as one draft.

Owns: the module node's text (the file with every top-level definition and its doc comment
blanked, trimmed to its first and last non-blank lines), its span and Python module docstring, and
the test that a remainder is only trivia (comments, braces, package lines), which keeps it out of
the index unless a reference needs it as its owner. Does not own: finding definitions (items.py), deciding
which references the module owns (extract.py).
"""

from __future__ import annotations

import re
from pathlib import PurePosixPath

from indexlib.engines.treesitter import Node
from indexlib.index.parsing.chunks import Draft, LineIndex
from indexlib.index.parsing.items import Item
from indexlib.index.parsing.specs import Spec
from indexlib.index.parsing.symbols import elided, python_docstring
from indexlib.index.parsing.text import Source
from indexlib.records import NodeKind

_TRIVIA = re.compile(
    r"^(?:package\s+[\w.]+;?|[{}()\[\];,]+|end|<\?php|\?>|#pragma\s+once|#ifndef\s+\w+|#define\s+\w+|#endif\b.*"
    r"|namespace\s+[\w.\\]+\s*[;{]?|module\s+[\w:]+|\}\s*//.*|\}\s*;?\s*/\*.*)$"
)


def is_trivia(text: str, spec: Spec) -> bool:
    """True when the remainder holds only comments, blank lines, braces and package lines."""
    in_block = False
    for raw in text.split("\n"):
        line = raw.strip()
        if not line:
            continue
        if in_block:
            if "*/" in line:
                in_block = False
            continue
        if line.startswith("/*") and "*/" not in line and "/*" in spec.line_comment:
            in_block = True
            continue
        if line.startswith(spec.line_comment):
            continue
        if _TRIVIA.match(line):
            continue
        return False
    return True


def remainder_draft(
    src: Source, path: str, root: Node, data: bytes, lines: LineIndex, defs: list[Item], language: str
) -> Draft | None:
    holes = [(min(item.doc_start, item.start), item.end, "") for item in defs if item.owner is None]
    holes.sort()
    merged: list[tuple[int, int, str]] = []
    for hole in holes:
        if merged and hole[0] < merged[-1][1]:
            if hole[1] > merged[-1][1]:
                merged[-1] = (merged[-1][0], hole[1], "")
            continue
        merged.append(hole)
    text = elided(data, 0, len(data), merged)
    stripped_start = len(text) - len(text.lstrip())
    body = text.strip()
    if not body:
        return None
    # The text keeps every line, so the first non-blank character's line is its line in the file.
    start_line = text.count("\n", 0, stripped_start) + 1
    end_line = start_line + body.count("\n")
    start_byte = lines.start_of(start_line) + _leading_bytes(text, stripped_start)
    end_byte = _end_byte_of_line(data, lines, end_line)
    doc = ""
    if language == "python":
        doc = python_docstring(src, root)
    stem = PurePosixPath(path).stem or PurePosixPath(path).name
    return Draft(
        kind=NodeKind.MODULE.value,
        name=stem,
        qualified_name=stem,
        start_byte=start_byte,
        end_byte=end_byte,
        start_line=start_line,
        end_line=end_line,
        text=body,
        doc=doc,
    )


def _leading_bytes(text: str, stripped_start: int) -> int:
    """UTF-8 bytes between the start of the first non-blank line and its first character."""
    line_start = text.rfind("\n", 0, stripped_start) + 1
    return len(text[line_start:stripped_start].encode("utf-8"))


def _end_byte_of_line(data: bytes, lines: LineIndex, line: int) -> int:
    end = lines.start_of(line + 1)
    while end > 0 and data[end - 1 : end] in (b"\n", b"\r"):
        end -= 1
    return max(end, lines.start_of(line))
