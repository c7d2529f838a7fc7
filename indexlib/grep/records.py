"""The records `qry grep` returns: what `--json` / `--jsonl` print and the MCP `grep` tool sends.

One Struct per line of output, so the JSON schema is the Struct (a test decodes the output with it).
"""

from __future__ import annotations

import msgspec

__all__ = ["GrepError", "GrepLine", "GrepResult", "GrepSummary", "json_text"]

# A byte that is not UTF-8 is decoded as a lone surrogate (U+DC80-U+DCFF, `surrogateescape`), which
# prints back as the byte but which JSON cannot hold: each becomes U+FFFD, so offsets stay right.
_SURROGATES = {c: 0xFFFD for c in range(0xDC80, 0xDD00)}


def json_text(text: str) -> str:
    """`text` fit for JSON: each undecodable byte (a lone surrogate) as U+FFFD."""
    return text if text.isascii() else text.translate(_SURROGATES)


class GrepLine(msgspec.Struct, frozen=True, kw_only=True):
    """One matching line (or, with -A/-B/-C, a context line: `match` false)."""

    path: str  # as printed: under a PATH, the PATH as typed and the rest (else relative to the cwd)
    line: int  # 1-based
    text: str  # the line without its `\n` (a byte that is not UTF-8 as U+FFFD)
    submatches: list[tuple[int, int]]  # [start, end) character offsets of each match in `text`
    match: bool = True
    # the workspace repository the path is in (`qry grep --workspace`); absent for one tree
    repo: str | msgspec.UnsetType = msgspec.UNSET


class GrepSummary(msgspec.Struct, frozen=True, kw_only=True):
    files_searched: int  # files the walk kept
    files_from_index: int  # of those, ruled in or out by a current n-gram index
    files_read: int  # candidates read and verified
    files_matched: int
    lines_matched: int
    index_used: bool
    truncated: bool = False  # a bound (max matches, bytes, time) cut the answer short


class GrepError(msgspec.Struct, frozen=True, kw_only=True):
    """A place that could not be searched (as rg reports it on stderr): the answer is not complete."""

    path: str  # a PATH as typed, a file or folder below one, or a workspace repository's label
    reason: str


class GrepResult(msgspec.Struct, frozen=True, kw_only=True):
    pattern: str
    lines: list[GrepLine]
    summary: GrepSummary
    errors: list[GrepError] | msgspec.UnsetType = msgspec.UNSET  # absent when everything was searched
