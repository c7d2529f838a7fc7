"""A definition's text with its comments and docstrings blanked, for the patterns that read
declarations from text (locals.py): only code declares a variable's class.

Why: a doc comment's parameter list is written as a declaration is (Swift's DocC `/// - rootQueue:
Root `DispatchQueue` for ...`, a Python Google-style docstring's `client: Client to send with`), so
`name: Word` in it read as the variable's class. The variable then had two classes (`DispatchQueue`
and `Root`) and was left alone: on Alamofire every documented parameter and property lost its
type, and `self.rootQueue.after(..)` in `Session.retryRequest` was a guess by name.

Whole comment lines go (`//`, `///`, a block comment's `/*`, `*` and `*/` lines; `#` where it starts a
comment), and Python's triple-quoted strings, which are docstrings or text and never declare. A
comment after code on its line stays: `//` and `#` may be inside a string there (`"http://x"`).
PHP's are kept whole: its docblocks declare (`/** @var Foo */ private $f;`, `@param Foo $f`).
"""

from __future__ import annotations

import re

# Languages whose `#` starts a comment (elsewhere it is a directive or an attribute: `#if`, `#[derive]`).
HASH_COMMENTS = frozenset({"python", "ruby", "bash"})
DOCBLOCK_TYPES = frozenset({"php"})  # comments that declare a variable's class: kept
_SLASH_LINE = re.compile(r"(?m)^[ \t]*(?://|/\*|\*).*$")
_HASH_LINE = re.compile(r"(?m)^[ \t]*#.*$")
_TRIPLE_QUOTED = re.compile(r'"""[\s\S]*?"""|\'\'\'[\s\S]*?\'\'\'')


def code_only(text: str, language: str) -> str:
    """`text` with its whole comment lines (and Python's triple-quoted strings) emptied; lines are kept,
    so what a pattern finds stays on its line."""
    if language in DOCBLOCK_TYPES:
        return text
    if language == "python":
        text = _TRIPLE_QUOTED.sub(lambda m: "\n" * m.group(0).count("\n"), text)
    text = _SLASH_LINE.sub("", text) if language != "python" else text
    return _HASH_LINE.sub("", text) if language in HASH_COMMENTS else text
