"""Secret redaction: replace credentials in source text with `[REDACTED]` before anything is stored.

Owns: the cheap scanning that lets most files pass with a few substring searches, and the
replacement itself, over the rules of redactrules.py (the secret patterns: PEM private keys, cloud and
SaaS token formats, JWTs, credentials in URLs, `password = "..."`-style assignments, and the checks
that tell a real value from a placeholder).
Does not own: deciding which text gets redacted (the build redacts each file's text before parsing, so
node texts, snippets, terms and vectors never see a secret) or reporting the count.

Guarantees:
- only the secret itself is replaced; quotes, keys and operators stay (`password = "[REDACTED]"`), and a
  PEM block keeps its BEGIN / END lines;
- the number of lines never changes (a redacted PEM body keeps its newlines), so line numbers computed on
  the redacted text still point at the right lines of the file; character and byte lengths do change;
- `[REDACTED]` is itself a placeholder, so redacting twice changes nothing the second time.

How it stays fast: every rule names literal *stems* (`-----BEGIN `, `ghp_`, `://`, `token`, ...). The
text is searched for each stem with `str.find` (C speed), and the rule's regular expression is only
*matched* (anchored) at the places a stem occurs. Python's `re` has no multi-literal prefilter, so an
unanchored `(?i)password|token|...` search is ~10x slower than this.

Deliberate misses (false negatives we accept to keep ordinary code intact): quoted values shorter than 5
characters, values containing whitespace (help texts, messages), all-lower-case or ALL_CAPS identifier
values (`"next_marker"`, `"GITHUB_TOKEN"`: names, not secrets), unquoted values that could be code
(`password = get_password()`, `token = None`), and comparisons (`if token == "EOF"`).
"""

from __future__ import annotations

import re

# `_RULES` keeps its name here: bench/redact_fp.py reads the table and `_find` through this module.
from indexlib.index.redactrules import RULES as _RULES
from indexlib.index.redactrules import Rule
from indexlib.records import REDACTED

__all__ = ["PLACEHOLDER", "redact", "redact_path"]

PLACEHOLDER = REDACTED

_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")


def _fold(text: str) -> str:
    """Lower-case without changing any index (`str.lower` can lengthen a few non-ASCII characters)."""
    lowered = text.lower()
    return lowered if len(lowered) == len(text) else text.translate(_ASCII_LOWER)


def _span(match: re.Match[str], group: str | int) -> tuple[int, int] | None:
    if isinstance(group, int):
        return match.span(group)
    for name in group.split("|"):
        if match.group(name) is not None:
            return match.span(name)
    return None


def _find(rule: Rule, text: str, haystack: str) -> list[tuple[int, int]]:
    """Accepted secret spans of one rule, sorted and non-overlapping."""
    spans: set[tuple[int, int]] = set()
    if rule.spans is not None:
        for start, end in rule.spans(haystack):
            if end > start and rule.accept(text[start:end]):
                spans.add((start, end))
    else:
        match_at = rule.pattern.match
        for stem in rule.stems:
            i = haystack.find(stem)
            while i >= 0:
                m = match_at(haystack, i)
                if m is not None:
                    span = _span(m, rule.group)
                    if span is not None and span[1] > span[0] and rule.accept(text[span[0] : span[1]]):
                        spans.add(span)
                i = haystack.find(stem, i + 1)
    out: list[tuple[int, int]] = []
    for start, end in sorted(spans):
        if not out or start >= out[-1][1]:
            out.append((start, end))
    return out


def _replacement(secret: str) -> str:
    """`[REDACTED]` keeping the secret's leading/trailing whitespace and its number of newlines."""
    core = secret.strip()
    if not core:
        return secret
    lead = secret[: len(secret) - len(secret.lstrip())]
    trail = secret[len(secret.rstrip()) :]
    return lead + PLACEHOLDER + "\n" * core.count("\n") + trail


def _replace(text: str, spans: list[tuple[int, int]]) -> str:
    pieces: list[str] = []
    pos = 0
    for start, end in spans:
        pieces.append(text[pos:start])
        pieces.append(_replacement(text[start:end]))
        pos = end
    pieces.append(text[pos:])
    return "".join(pieces)


# Every distinct stem once: one scan per stem tells which rules can match at all.
_CASE_STEMS = tuple(dict.fromkeys(stem for rule in _RULES if not rule.folded for stem in rule.stems))
_FOLDED_STEMS = tuple(dict.fromkeys(stem for rule in _RULES if rule.folded for stem in rule.stems))


def redact(text: str) -> tuple[str, int]:
    """Replace secrets in `text` with `[REDACTED]`; return the new text and how many were replaced.

    Cost: one substring scan per distinct stem (26 of them) for text without any, so redact the
    whole file once rather than each node's text separately.

    >>> redact('db_password = "s3cr3t-Pa55"\\nuser = input()')
    ('db_password = "[REDACTED]"\\nuser = input()', 1)
    """
    if not text:
        return text, 0
    first_fold = _fold(text)
    present = {stem for stem in _CASE_STEMS if stem in text}
    present.update(stem for stem in _FOLDED_STEMS if stem in first_fold)
    folded: str | None = first_fold  # dropped after a replacement changes the text
    if not present:
        return text, 0
    total = 0
    for rule in _RULES:
        if not any(stem in present for stem in rule.stems):
            continue
        if rule.folded:
            if folded is None:
                folded = _fold(text)
            haystack = folded
        else:
            haystack = text
        spans = _find(rule, text, haystack)
        if spans:
            text = _replace(text, spans)
            folded = None
            total += len(spans)
    return text, total


def redact_path(path: str) -> str:
    """A file's path with any secret in it (a token used as a file or folder name) replaced.

    The build stores this form everywhere (manifest, tables, Tantivy, output) and reads the file
    through its real path; two paths that redact alike are told apart by the caller.

    >>> redact_path("keys/ghp_" + "a1B2c3D4e5F6g7H8i9J0" * 2 + ".txt")
    'keys/[REDACTED].txt'
    """
    return redact(path)[0] if path else path
