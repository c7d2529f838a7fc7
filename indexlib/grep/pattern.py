"""A grep pattern: the user's text and flags -> one compiled Python regular expression.

Owns: regex or fixed string (`-F`), case (`-i`, `-S` smart case), whole words (`-w`) and the check that
a pattern is usable (a clear UsageError, never a traceback). Does not own: where the pattern is searched
(`lines.py`) or which files (`files.py`).

Syntax is Python's `re` (https://docs.python.org/3/library/re.html). The regex is compiled with
MULTILINE, so `^` and `$` are line anchors, and is only ever reported per line: a match must lie
within one line (split on `\\n`), as in ripgrep, which also refuses a literal `\\n` in a pattern.
`-w` wraps the pattern as `(?<!\\w)(?:PATTERN)(?!\\w)`: a match may not touch a word character on
either side. Smart case (`-S`) searches case-insensitively when the pattern has a literal (in a
literal or a character class; escapes such as `\\W` and POSIX classes such as `[[:upper:]]` are not
literals) and none is upper case, as ripgrep does. Several patterns (`-e A -e B`) match a line when
any of them does, each read on its own, as rg joins them.

Character classes are read as ripgrep reads them where Python would read them differently (POSIX
classes, nested classes, `&&` / `--` / `~~`: `classes.py`), so `[[:digit:]]+` means what it means to
rg. No Python warning escapes: a pattern Python would warn about is refused with a hint instead.
"""

from __future__ import annotations

import re
import re._parser as sre_parse  # the parser behind `re`: smart case asks which literals a pattern has
import threading
import warnings
from collections.abc import Callable, Sequence
from typing import NamedTuple, TypeVar

from indexlib.errors import UsageError
from indexlib.grep.classes import ClassError, translate_classes

__all__ = ["GrepPattern", "compile_pattern"]

_HINT = "qry grep takes Python `re` syntax; use -F for a fixed string"
_T = TypeVar("_T")
_WARNINGS = threading.Lock()  # around the process-wide warning filters (`_quiet`)
_CLASS_HINT = "a `[` inside a class opens a nested class, as in rg: write \\[ for a literal one"


class GrepPattern(NamedTuple):
    """A compiled pattern. `source` is the regex text actually compiled (after -F / -w)."""

    text: str
    source: str
    regex: re.Pattern[str]
    ignore_case: bool


def _case_literals(parsed: sre_parse.SubPattern, out: list[bool]) -> None:
    """Smart case's test: append each literal's (or class member's) `isupper()` to `out`."""
    for op, arg in parsed.data:
        if op in (sre_parse.LITERAL, sre_parse.NOT_LITERAL):
            out.append(chr(arg).isupper())
        elif op is sre_parse.IN:
            for cop, carg in arg:
                if cop is sre_parse.LITERAL:
                    out.append(chr(carg).isupper())
                elif cop is sre_parse.RANGE:
                    out.extend(chr(c).isupper() for c in carg)
        elif op is sre_parse.SUBPATTERN:
            _case_literals(arg[-1], out)
        elif op is sre_parse.BRANCH:
            for b in arg[1]:
                _case_literals(b, out)
        elif op in (sre_parse.MAX_REPEAT, sre_parse.MIN_REPEAT, sre_parse.POSSESSIVE_REPEAT):
            _case_literals(arg[2], out)
        elif op in (sre_parse.ASSERT, sre_parse.ASSERT_NOT):
            _case_literals(arg[1], out)
        elif op is sre_parse.ATOMIC_GROUP:
            _case_literals(arg, out)


def _smart_insensitive(texts: Sequence[str]) -> bool:
    """rg's smart case: insensitive when the patterns hold a literal and no upper-case one. POSIX
    classes count as none (`translate_classes(neutral=True)` writes them as `\\d`)."""
    found: list[bool] = []
    for text in texts:
        _case_literals(_parse(translate_classes(text, neutral=True), text), found)
    return bool(found) and not any(found)


def _quiet(call: Callable[[], _T], text: str) -> _T:
    """`call()` (a parse or a compile of `text`'s regex); an error, or any warning it would print
    (a FutureWarning about a set `re` may read differently one day), is a UsageError instead, so
    stderr never carries one. Warnings are recorded, not raised: the filters are process-wide, and
    the lock keeps two greps (the MCP server runs them in threads) from restoring each other's."""
    try:
        with _WARNINGS, warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            result = call()
    except (re.error, OverflowError, RecursionError) as exc:
        raise UsageError(f"invalid regular expression {text!r}: {exc}", hint=_HINT) from None
    if caught:
        raise UsageError(f"invalid regular expression {text!r}: {caught[0].message}", hint=_HINT)
    return result


def _parse(source: str, text: str) -> sre_parse.SubPattern:
    return _quiet(lambda: sre_parse.parse(source), text)


def _source(text: str, fixed: bool) -> str:
    """One pattern as Python source: escaped (`-F`), else with rg's classes translated."""
    if "\n" in text:
        raise UsageError("the pattern contains a newline; matches never span lines", hint=_HINT)
    if fixed:
        return re.escape(text)
    try:
        source = translate_classes(text)
    except ClassError as exc:
        raise UsageError(f"invalid regular expression {text!r}: {exc}", hint=_CLASS_HINT) from None
    _parse(source, text)
    return source


def compile_pattern(
    text: str,
    *,
    fixed: bool = False,
    ignore_case: bool = False,
    smart_case: bool = False,
    word: bool = False,
    more: Sequence[str] = (),
) -> GrepPattern:
    """Compile a grep pattern; UsageError (exit 2) for an empty-line-spanning or malformed one.
    `more`: further patterns (rg's repeated `-e`); a line matches when any of them does.

    >>> compile_pattern("def .*_request", smart_case=True).ignore_case
    True
    """
    texts = [text, *more]
    sources = [_source(t, fixed) for t in texts]
    source = sources[0] if len(sources) == 1 else "|".join(f"(?:{s})" for s in sources)
    if smart_case and not ignore_case:
        ignore_case = _smart_insensitive([re.escape(t) for t in texts] if fixed else texts)
    if word:
        source = rf"(?<!\w)(?:{source})(?!\w)"
    flags = re.MULTILINE | (re.IGNORECASE if ignore_case else 0)
    regex = _quiet(lambda: re.compile(source, flags), text)
    return GrepPattern(text=text, source=source, regex=regex, ignore_case=ignore_case)
