"""How a file's text is normalised for the n-gram index: one rule, shared by the writer and by grep.

Owns: `normalise` (what the n-gram index stores per file) and `norm_char` (the same rule for one
character of a pattern literal). Does not own: the index (`engines/lexical.py`) or the query over it
(`grep/ngrams.py`).

Normalisation, and why it is safe for every flag. The index sees each file with ASCII letters lower-
cased, the four non-ASCII characters that Python's case-insensitive matching equates with an ASCII
letter (`İ ı` ~ i, `K` (Kelvin) ~ k, `ſ` ~ s) replaced by that letter, and every other non-ASCII
character replaced by one placeholder, `\\x01`. Pattern literals are normalised the same way. So
whatever text a literal matches, case-sensitively or not, normalises to the literal's normalised form,
and a required trigram of the pattern is a trigram of every file that can match: the index only
narrows, the regex decides. A unit test recomputes the four characters from `re` itself.
"""

from __future__ import annotations

import re

__all__ = ["CASE_EQUIVALENTS", "PLACEHOLDER", "norm_char", "normalise"]

# Non-ASCII characters that `re.IGNORECASE` matches with an ASCII letter (tests recompute this).
CASE_EQUIVALENTS: dict[str, str] = {"\u0130": "i", "\u0131": "i", "\u212a": "k", "\u017f": "s"}
PLACEHOLDER = "\x01"
_NON_ASCII = re.compile(r"[^\x00-\x7f]")


def normalise(data: bytes) -> str:
    """A file's bytes as the n-gram index stores them (see the module docstring)."""
    if data.isascii():
        return data.lower().decode("ascii")
    text = data.decode("utf-8", "replace")
    for char, letter in CASE_EQUIVALENTS.items():
        if char in text:
            text = text.replace(char, letter)
    return _NON_ASCII.sub(PLACEHOLDER, text).lower()


def norm_char(code: int) -> str:
    """One character of a pattern literal, normalised as `normalise` treats file text."""
    c = chr(code)
    if code < 128:
        return c.lower()
    return CASE_EQUIVALENTS.get(c, PLACEHOLDER)
