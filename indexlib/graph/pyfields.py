"""The classes a Python class's own field declarations name: `headers: CaseDict` in the class body,
`self.conn: Adapter = conn` in a method.

Owns: reading, from a class's texts (graph/locals.py `class_texts`: the class, its methods), the
annotations written directly in a class body (at the body's own indentation, so neither a method's
parameter nor a nested class's field) and the annotated assignments to `self`'s attributes.

Why: locals.py read every `name: Type` in those texts as a field, a method's parameter included, so
on psf/requests `PreparedRequest.prepare(.., headers: Mapping[..] | None = None, ..)` gave the field
`headers` a second class beside its declared `headers: CaseInsensitiveDict[..]`, and a name with two
classes has none: `self.headers.copy()` in `PreparedRequest.copy` linked to nothing. An annotated
attribute (`self.conn: Adapter = conn`) was not read at all.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence

from indexlib.graph.codelines import code_only

# A Python class's name as written: capitalised, or so after the underscores that make it private to
# its module (`_ClassBuilder`, `__Cache`); every Python pattern of a class written in code uses it.
PY_CLASS = r"_*[A-Z]\w*"
# A written type's class, also inside `Optional[..]` or quoted (`"Adapter"`): `CaseDict` of
# `CaseDict[str]`; `Dict[str, X]` reads as `Dict`, which no indexed class is, so it answers nothing.
_TYPE = rf"['\"]?(?:(?:typing\.|t\.)?Optional\[\s*['\"]?)?({PY_CLASS})"
_SELF_ANNOTATED = re.compile(rf"\bself\.(\w+)\s*:\s*{_TYPE}")
_BODY_ANNOTATION = re.compile(rf"(?m)^(?P<indent>[ \t]+)(?P<var>[A-Za-z_]\w*)\s*:\s*{_TYPE}")


def is_py_class(name: str) -> bool:
    """Whether a Python name is written as a class's (PY_CLASS): `Client`, `_ClassBuilder`; not
    `client`, `_helper`, `__init__`."""
    return name.lstrip("_")[:1].isupper()


def python_fields(texts: Sequence[str]) -> Iterator[tuple[str, str]]:
    """(field, class) for each declaration of a field with a class in a Python class's texts."""
    for text in (code_only(t, "python") for t in texts):
        for m in _SELF_ANNOTATED.finditer(text):
            yield m.group(1), m.group(2)
        if not _is_class(text):
            continue
        indent = None
        for m in _BODY_ANNOTATION.finditer(text):
            if indent is None:
                indent = _body_indent(text)
            if m.group("indent") == indent:
                yield m.group("var"), m.group(3)


def _is_class(text: str) -> bool:
    """Whether `text` is a class's (its first statement, past decorators, is `class`)."""
    for line in text.splitlines():
        stripped = line.strip()
        if stripped and not stripped.startswith("@"):
            return stripped.startswith("class ")
    return False


def _body_indent(text: str) -> str:
    """The indentation of a class's body: that of its first line after the header's colon."""
    depth, seen_colon = 0, False
    for i, ch in enumerate(text):
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif ch == ":" and depth == 0:
            seen_colon = True
        elif ch == "\n" and seen_colon:
            for line in text[i + 1 :].splitlines():
                if line.strip():
                    return line[: len(line) - len(line.lstrip())]
            return ""
    return ""
