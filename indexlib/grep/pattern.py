"""A grep pattern: the user's text and flags -> one compiled Python regular expression.

Owns: regex or fixed string (`-F`), case (`-i`, `-S` smart case), whole words (`-w`) and the check that
a pattern is usable (a clear UsageError, never a traceback). Does not own: where the pattern is searched
(`lines.py`) or which files (`files.py`).

Syntax is Python's `re` (https://docs.python.org/3/library/re.html). The regex is compiled with
MULTILINE, so `^` and `$` are line anchors, and is only ever reported per line: a match must lie
within one line (split on `\\n`), as in ripgrep, which also refuses a literal `\\n` in a pattern.
`-w` wraps the pattern as `(?<!\\w)(?:PATTERN)(?!\\w)`: a match may not touch a word character on
either side. Smart case (`-S`) searches case-insensitively when the pattern has no upper-case
literal (in a literal or a character class; escapes such as `\\W` do not count), as ripgrep does.
"""

from __future__ import annotations

import re
import re._parser as sre_parse  # the parser behind `re`: smart case asks which literals a pattern has
from typing import NamedTuple

from indexlib.errors import UsageError

__all__ = ["GrepPattern", "compile_pattern"]

_HINT = "qry grep takes Python `re` syntax; use -F for a fixed string"


class GrepPattern(NamedTuple):
    """A compiled pattern. `source` is the regex text actually compiled (after -F / -w)."""

    text: str
    source: str
    regex: re.Pattern[str]
    ignore_case: bool


def _has_upper(parsed: sre_parse.SubPattern) -> bool:
    """Whether any literal or class member of a parsed pattern is upper case (smart case's test)."""
    for op, arg in parsed.data:
        if op in (sre_parse.LITERAL, sre_parse.NOT_LITERAL):
            if chr(arg).isupper():
                return True
        elif op is sre_parse.IN:
            for cop, carg in arg:
                if cop is sre_parse.LITERAL and chr(carg).isupper():
                    return True
                if cop is sre_parse.RANGE and any(chr(c).isupper() for c in carg):
                    return True
        elif op is sre_parse.SUBPATTERN:
            if _has_upper(arg[-1]):
                return True
        elif op is sre_parse.BRANCH:
            if any(_has_upper(b) for b in arg[1]):
                return True
        elif op in (sre_parse.MAX_REPEAT, sre_parse.MIN_REPEAT, sre_parse.POSSESSIVE_REPEAT):
            if _has_upper(arg[2]):
                return True
        elif op in (sre_parse.ASSERT, sre_parse.ASSERT_NOT):
            if _has_upper(arg[1]):
                return True
        elif op is sre_parse.ATOMIC_GROUP:
            if _has_upper(arg):
                return True
    return False


def compile_pattern(
    text: str, *, fixed: bool = False, ignore_case: bool = False, smart_case: bool = False, word: bool = False
) -> GrepPattern:
    """Compile a grep pattern; UsageError (exit 2) for an empty-line-spanning or malformed one.

    >>> compile_pattern("def .*_request", smart_case=True).ignore_case
    True
    """
    if "\n" in text:
        raise UsageError("the pattern contains a newline; matches never span lines", hint=_HINT)
    source = re.escape(text) if fixed else text
    try:
        parsed = sre_parse.parse(source)
    except re.error as exc:
        raise UsageError(f"invalid regular expression {text!r}: {exc}", hint=_HINT) from None
    if smart_case and not ignore_case:
        ignore_case = not _has_upper(parsed)
    if word:
        source = rf"(?<!\w)(?:{source})(?!\w)"
    flags = re.MULTILINE | (re.IGNORECASE if ignore_case else 0)
    try:
        regex = re.compile(source, flags)
    except (re.error, OverflowError, RecursionError) as exc:
        raise UsageError(f"invalid regular expression {text!r}: {exc}", hint=_HINT) from None
    return GrepPattern(text=text, source=source, regex=regex, ignore_case=ignore_case)
