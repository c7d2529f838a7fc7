"""The classes a TypeScript or JavaScript function tests a variable or an own field against with
`instanceof`: `if (this.#queue instanceof PriorityQueue) { this.#queue.remove(run); }`, `if (error
instanceof HTTPError) { error.response.. }`, `q instanceof A || q instanceof B`.

Owns: reading those tests of one subject, as locals.py's qualifier writes it (`q`, `this.#queue`,
`this.queue`), for the languages that write the test so.

Why: a value is often declared by a type that does not have the method the narrowed branch calls
(an interface, a type alias, a union, a type parameter's bound); the declared type then answered
nothing and the call was linked by the method's name alone, or, for a name as common as `remove`,
not at all. On sindresorhus/p-queue `this.#queue.remove(run)` under `this.#queue instanceof
PriorityQueue` had no callee. locals.py asks for these classes only when the declared one (or none)
answers nothing, so a test narrows and never overrides a declaration, as for PHP (phpdeclared.py).
"""

from __future__ import annotations

import re

from indexlib.graph.codelines import code_only

LANGUAGES = frozenset({"typescript", "tsx", "javascript", "jsx"})
# The class after `instanceof`, written through a namespace (`errors.HTTPError`) or not: its last name.
_TESTED = r"\s+instanceof\s+(?:[A-Za-z_$][\w$]*\.)*([A-Za-z_$][\w$]*)\b"
_PART = re.compile(r"#?[A-Za-z_$][\w$]*")  # a name, or a `#private` field's


def tested_classes(text: str, subject: list[str], language: str = "typescript", line: int = -1) -> list[str]:
    """The classes, once each in order, that code `text` tests `subject` against (`["q"]` for `q`,
    `["this", "#queue"]` for `this.#queue`); none for a subject that is no variable or field chain
    (an element, a call's result) or that the text reads off another value (`x.q`). A negated test
    (`!(q instanceof A)`) narrows to no class. `line` (counted from the text's first, 0): only the
    tests whose branch holds that line, the block an `if (..) {` on the test's line opens, else the
    test's line alone (`q instanceof A ? q.m() : ..`, `q instanceof A && q.m()`); -1: every test."""
    if not subject or not all(_PART.fullmatch(p) for p in subject):
        return []
    code = code_only(text, "javascript" if language in ("javascript", "jsx") else "typescript")
    found = re.finditer(r"(?<![\w$#.])" + re.escape(".".join(subject)) + _TESTED, code)
    return list(
        dict.fromkeys(
            m.group(1) for m in found if not _negated(code, m.start()) and (line < 0 or _holds(code, m, line))
        )
    )


def _negated(code: str, at: int) -> bool:
    """Whether the test starting at `at` is written under a `!` (`if (!(q instanceof A))`)."""
    before = code[code.rfind("\n", 0, at) + 1 : at].rstrip(" \t(")
    return before.endswith("!")


def _holds(code: str, m: re.Match[str], line: int) -> bool:
    """Whether `line` is in the branch the test `m` narrows: the block opened at the end of its line,
    else that line alone."""
    first = code.count("\n", 0, m.start())
    eol = code.find("\n", m.end())
    rest = code[m.end() : eol if eol >= 0 else len(code)].rstrip()
    last = first
    if rest.endswith("{"):
        depth, i = 1, m.end() + len(rest)
        while i < len(code) and depth:
            depth += {"{": 1, "}": -1}.get(code[i], 0)
            i += 1
        last = code.count("\n", 0, i)
    return first <= line <= last


__all__ = ["LANGUAGES", "tested_classes"]
