"""Bracketed character classes as ripgrep reads them, rewritten for Python's `re`.

Owns: the classes whose meaning differs between ripgrep's regex syntax (Rust's `regex` crate) and
Python's: POSIX classes (`[[:digit:]]`, `[[:^alpha:]]`, `[[:upper:]_0-9]`), nested classes
(`[a-c[x-z]]`, `[^[:^alpha:]]`) and the set operations `&&` (intersection), `--` (difference) and
`~~` (symmetric difference), evaluated left to right as Rust does (`[a-d&&b-z--c]` is `[bd]`).
Python reads a `[` inside a class as a literal (and warns "Possible nested set"), a doubled `-`,
`&`, `~` or `|` as literals (warning each time), so `[[:digit:]]+` searched for one of `[:dgit`
followed by `]`. Does not own: the rest of the pattern (Python syntax, `pattern.py`).

How: each class is parsed by Rust's rules (regex-syntax's `parse_set_class`); a class that uses none
of these features is left exactly as written. Another becomes a Python expression matching one
character: members that fit one Python set are merged (`[[:upper:]_0-9]` -> `[\\x41-\\x5a_0-9]`),
the rest are combined with look-aheads (`A&&B` -> `(?=A)B`, `A--B` -> `(?!B)A`, a negated member
`[^...]`, the complement of a complex set `(?!A)[\\s\\S]`). POSIX classes are ASCII, as in Rust.
"""

from __future__ import annotations

import re
from typing import NamedTuple

__all__ = ["POSIX_CLASSES", "ClassError", "translate_classes"]

# Rust regex-syntax's ASCII classes (`ascii_class`), as Python set members.
POSIX_CLASSES: dict[str, str] = {
    "alnum": r"0-9A-Za-z",
    "alpha": r"A-Za-z",
    "ascii": r"\x00-\x7f",
    "blank": r"\t ",
    "cntrl": r"\x00-\x1f\x7f",
    "digit": r"0-9",
    "graph": r"!-\~",
    "lower": r"a-z",
    "print": r" -\~",
    "punct": r"!-/:-@\[-`{-\~",
    "space": r"\t\n\x0b\x0c\r ",
    "upper": r"A-Z",
    "word": r"0-9A-Z_a-z",
    "xdigit": r"0-9A-Fa-f",
}
_ANY = r"[\s\S]"
_NOTHING = "(?!)"
_SPECIAL = ("[", "&&", "--", "~~", "||")  # what Python reads differently inside a class


class ClassError(ValueError):
    """A class ripgrep's syntax cannot read (unclosed, a reversed range): the message says why."""


class _Piece(NamedTuple):
    """One set: `members` when it fits inside one Python `[...]` (positive), else `atom` only."""

    members: str | None
    atom: str


def _simple(members: str) -> _Piece:
    return _Piece(members, f"[{members}]" if members else _NOTHING)


def _complex(atom: str) -> _Piece:
    return _Piece(None, atom)


class _Parser:
    """Rust's class grammar over `text` from `pos` (a `[`); `neutral` emits POSIX classes as `\\d`
    (smart case counts them as no literal, as ripgrep does)."""

    def __init__(self, text: str, pos: int, neutral: bool) -> None:
        self.text = text
        self.pos = pos
        self.neutral = neutral

    def peek(self, k: int = 0) -> str:
        i = self.pos + k
        return self.text[i] if i < len(self.text) else ""

    def bracketed(self) -> _Piece:
        """`[` ... `]`, nested ones included; `pos` ends past the closing `]`."""
        self.pos += 1  # the `[`
        negated = self.peek() == "^"
        if negated:
            self.pos += 1
        items: list[_Piece] = []
        while self.peek() == "-":  # leading dashes are literals
            items.append(_simple(r"\-"))
            self.pos += 1
        if not items and self.peek() == "]":
            items.append(_simple(r"\]"))
            self.pos += 1
        result: _Piece | None = None
        op = ""
        while True:
            c = self.peek()
            if not c:
                raise ClassError("unclosed character class (write \\[ for a literal [ inside one)")
            if c == "]":
                self.pos += 1
                whole = _combine(op, result, _union(items))
                return _negate(whole) if negated else whole
            if c == "[":
                posix = self.posix()
                items.append(posix if posix is not None else self.bracketed())
            elif c in "&-~" and self.peek(1) == c:
                self.pos += 2
                result, op, items = _combine(op, result, _union(items)), c * 2, []
            else:
                items.append(self.range_item())

    def posix(self) -> _Piece | None:
        m = re.compile(r"\[:(\^?)([a-z]+):\]").match(self.text, self.pos)
        if m is None or m.group(2) not in POSIX_CLASSES:
            return None  # `[:foo:]` is a nested class of `:`, `f`, `o`, as in Rust
        self.pos = m.end()
        members = r"\d" if self.neutral else POSIX_CLASSES[m.group(2)]
        return _complex(f"[^{members}]") if m.group(1) else _simple(members)

    def range_item(self) -> _Piece:
        first = self.item()
        if self.peek() != "-" or self.peek(1) in ("]", "-", ""):
            return _simple(first)
        self.pos += 1
        if not self.peek():
            raise ClassError("unclosed character class")
        return _simple(f"{first}-{self.item()}")

    def item(self) -> str:
        """One literal or escape, as Python set-member text."""
        c = self.peek()
        if c != "\\":
            self.pos += 1
            return re.escape(c)
        m = re.compile(r"\\(?:[xuU]\{[^}]*\}|[pP]\{[^}]*\}|x[0-9A-Fa-f]{2}|u[0-9A-Fa-f]{4}|.)").match(
            self.text, self.pos
        )
        if m is None:
            raise ClassError("dangling \\ in a character class")
        self.pos = m.end()
        return m.group()


def _union(items: list[_Piece]) -> _Piece:
    members = "".join(p.members for p in items if p.members is not None)
    atoms = [p.atom for p in items if p.members is None]
    if not atoms:
        return _simple(members)
    alts = ([f"[{members}]"] if members else []) + atoms
    return _complex(alts[0] if len(alts) == 1 else "(?:" + "|".join(alts) + ")")


def _combine(op: str, left: _Piece | None, right: _Piece) -> _Piece:
    if left is None:
        return right
    a, b = left.atom, right.atom
    if op == "&&":
        return _complex(f"(?:(?={a}){b})")
    if op == "--":
        return _complex(f"(?:(?!{b}){a})")
    return _complex(f"(?:(?!{b}){a}|(?!{a}){b})")  # ~~


def _negate(piece: _Piece) -> _Piece:
    if piece.members is not None:
        return _complex(f"[^{piece.members}]" if piece.members else _ANY)
    return _complex(f"(?:(?!{piece.atom}){_ANY})")


def _class_end(text: str, pos: int) -> int:
    """Where a class that Python and Rust read alike ends (past its `]`), or -1 if unclosed."""
    i = pos + 1
    if text.startswith("^", i):
        i += 1
    if text.startswith("]", i):
        i += 1
    while i < len(text):
        if text[i] == "\\":
            i += 2
        elif text[i] == "]":
            return i + 1
        else:
            i += 1
    return -1


def translate_classes(text: str, *, neutral: bool = False) -> str:
    """`text` with every class ripgrep reads differently from Python rewritten (see the module
    docstring); ClassError for one Rust's syntax refuses. `neutral`: POSIX classes as `\\d`.

    >>> translate_classes("[[:digit:]]+")
    '[0-9]+'
    """
    out: list[str] = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c == "\\":
            out.append(text[i : i + 2])
            i += 2
        elif text.startswith("(?#", i):  # a Python comment is copied as it is
            end = text.find(")", i)
            end = n if end < 0 else end + 1
            out.append(text[i:end])
            i = end
        elif c == "[":
            end = _class_end(text, i)
            body = text[i + 1 : end - 1] if end > 0 else text[i + 1 :]
            if end > 0 and not any(s in body for s in _SPECIAL):
                out.append(text[i:end])  # read alike by both: left exactly as written
                i = end
                continue
            parser = _Parser(text, i, neutral)
            out.append(parser.bracketed().atom)
            i = parser.pos
        else:
            out.append(c)
            i += 1
    return "".join(out)
