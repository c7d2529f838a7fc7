"""Token budgets: pack whole results into a context window. Pure.

Owns: estimating a hit's token cost, dropping hits whose snippet overlaps one already packed, and
stopping when the budget is spent. Results are never cut mid-snippet: a model reading half a function
is worse off than one reading fewer whole ones. What was left out is counted so callers can say so.

The estimate is ~4 characters per token (the usual figure for code with BPE tokenizers) of the hit
as JSON, the form a model reads it in: its framing, the escapes of its snippet and its `related` rows
cost as much as the code it shows, so counting the text alone came out 1.5-1.9 times over budget.
"""

from __future__ import annotations

import msgspec

from indexlib.records import Hit

CHARS_PER_TOKEN = 4
_encode = msgspec.json.Encoder().encode


def hit_tokens(hit: Hit) -> int:
    """The hit's cost: its JSON (and the comma after it in the results array), 4 characters a token.

    Why encode rather than sum field lengths: every field a hit gains is then counted at once, and
    `RepoHit.repo` too; encoding a hit takes microseconds next to the search that found it.
    """
    chars = len(_encode(hit)) + 1
    return (chars + CHARS_PER_TOKEN - 1) // CHARS_PER_TOKEN


def _overlaps(a: Hit, b: Hit) -> bool:
    return (
        a.path == b.path
        and a.snippet.start_line <= b.snippet.end_line
        and b.snippet.start_line <= a.snippet.end_line
    )


def pack(hits: list[Hit], budget_tokens: int) -> tuple[list[Hit], int]:
    """Keep hits in rank order while they fit; skip overlapping snippets. Returns (kept, left_out).

    The best hit is always kept (an empty answer helps nobody); a hit that does not fit with its
    related nodes is tried again without them.

    >>> pack([], 100)
    ([], 0)
    """
    kept: list[Hit] = []
    spent = 0
    left_out = 0
    for h in hits:
        if any(_overlaps(h, k) for k in kept):
            left_out += 1
            continue
        cost = hit_tokens(h)
        if spent + cost > budget_tokens and h.related:
            # Related nodes are the first thing to give up: the hit itself is what was asked for.
            h.related = []
            cost = hit_tokens(h)
        if spent + cost > budget_tokens and kept:
            left_out += 1
            continue
        kept.append(h)
        spent += cost
    return kept, left_out
