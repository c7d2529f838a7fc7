"""The classes a TypeScript, JavaScript or PHP function tests a variable or an own field against with
`instanceof`: `if (this.#queue instanceof PriorityQueue) { this.#queue.remove(run); }`, `if (error
instanceof HTTPError) { error.response.. }`, `q instanceof A || q instanceof B`.

Owns: reading those tests of one subject, as locals.py's qualifier writes it (`q`, `this.#queue`,
`this.queue`), for the languages that write the test so.

Why: a value is often declared by a type that does not have the method the narrowed branch calls
(an interface, a type alias, a union, a type parameter's bound); the declared type then answered
nothing and the call was linked by the method's name alone, or, for a name as common as `remove`,
not at all. On sindresorhus/p-queue `this.#queue.remove(run)` under `this.#queue instanceof
PriorityQueue` had no callee. locals.py asks for these classes only when the declared one (or none)
answers nothing, so a test narrows and never overrides a declaration. On symfony/console 10 PHP
`$output->getErrorOutput()` calls under `$output instanceof ConsoleOutputInterface` were likewise
linked by name to `ConsoleOutput::getErrorOutput`.
"""

from __future__ import annotations

import re

from indexlib.graph.codelines import code_only

LANGUAGES = frozenset({"typescript", "tsx", "javascript", "jsx", "php"})
# The class after `instanceof`, written through a namespace or not: its last name (`errors.HTTPError`;
# PHP's `\Foo\Bar`).
_TESTED = r"\s+instanceof\s+(?:[A-Za-z_$][\w$]*\.)*([A-Za-z_$][\w$]*)\b"
_PHP_TESTED = r"\s+instanceof\s+\\?(?:\w+\\)*([A-Za-z_]\w*)\b"
_PART = re.compile(r"#?[A-Za-z_$][\w$]*")  # a name, or a `#private` field's


def tested_classes(text: str, subject: list[str], language: str = "typescript", line: int = -1) -> list[str]:
    """The classes, once each in order, that code `text` tests `subject` against (`["q"]` for `q`,
    `["this", "#queue"]` for `this.#queue`, PHP's `$this->queue`); none for a subject that is no
    variable or field chain (an element, a call's result) or that the text reads off another value
    (`x.q`). In TypeScript and JavaScript a negated test (`!(q instanceof A)`) narrows to no class,
    and `line` (counted from the text's first, 0) keeps only the tests whose branch holds that line:
    the block an `if (..) {` on the test's line opens, else the test's line alone (`q instanceof A ?
    q.m() : ..`, `q instanceof A && q.m()`); -1: every test. PHP reads every test of the function,
    negated ones too: its guard `if (!$e instanceof Foo) { return; }` narrows what follows it."""
    if language == "php":
        if not subject or not all(p.isidentifier() for p in subject):
            return []
        found = re.finditer(re.escape("$" + "->".join(subject)) + _PHP_TESTED, code_only(text, "php"))
        return list(dict.fromkeys(m.group(1) for m in found if m.group(1).lower() not in ("self", "static")))
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
