"""The type a local variable is given where it is declared, outside Go (graph/typed.py does Go's).

Owns: reading, from a function's text, the variables whose declaration names their class
(`let te = TestEnv::new(..)`, `let cfg: Config = ..`, `r = Retrier(..)`, `const c = new Client()`,
`Parser p = new Parser(..)`, `val b = Builder()`), and narrowing a call through one (`te.assert_output()`)
to the methods that class declares.

Why: a call through a local was linked by the method's name alone, so fd's ~330 `te.assert_output(..)`
calls on a `TestEnv` were ambiguous edges to every `assert_output`, and `qry related --callers` listed
them all as guesses. The declaration says which class it is, as a Go parameter's type does.

What is read is a declaration's shape, not a type inference: a constructor call or a written type,
with the class's name capitalised (`Type::new`, `Type::default`, `Type { .. }`, `new Type(`,
`Type(` in Python and Kotlin). A name declared with two classes in one function is left alone, and
when no method of the class is found (inherited from a class the index does not hold, or the
declaration read wrongly), the call is resolved as before: this only ever narrows.
"""

from __future__ import annotations

import re

from indexlib.engines.lexical import StoredNode
from indexlib.records import Node

_TYPE = r"([A-Z]\w*)"
# `name: Type` (a parameter or an annotated local: `te: &TestEnv`, `req: Request`, `c: Client`).
_ANNOTATED = re.compile(rf"(?<![\w.$])([a-z_]\w*)\s*:\s*&?(?:mut\s+)?(?:dyn\s+)?{_TYPE}")
# `Type name` followed by `=`, `;`, `,` or `)` (a Java or C# parameter or local: `Parser p = ..`).
_TYPE_FIRST = re.compile(r"(?<![\w.])([A-Z]\w*)(?:<[^;=(){}]*>)?(?:\[\])?\s+([a-z_]\w*)\s*[=;,)]")
_PATTERNS: dict[str, tuple[re.Pattern[str], ...]] = {
    "rust": (
        _ANNOTATED,
        re.compile(
            rf"\blet\s+(?:mut\s+)?(\w+)\s*=\s*{_TYPE}(?:::<[^;]*?>)?(?:::(?:new|default)\s*\(|\s*\{{)"
        ),
    ),
    "python": (_ANNOTATED, re.compile(rf"(?m)^\s*([a-z_]\w*)\s*=\s*{_TYPE}\(")),
    "typescript": (
        _ANNOTATED,
        re.compile(rf"\b(?:const|let|var)\s+(\w+)\s*(?::\s*[^=;]+)?=\s*new\s+{_TYPE}"),
    ),
    "javascript": (re.compile(rf"\b(?:const|let|var)\s+(\w+)\s*=\s*new\s+{_TYPE}"),),
    "kotlin": (_ANNOTATED, re.compile(rf"\b(?:val|var)\s+(\w+)\s*=\s*{_TYPE}\(")),
    "swift": (_ANNOTATED, re.compile(rf"\b(?:let|var)\s+(\w+)\s*=\s*{_TYPE}\(")),
    "java": (_TYPE_FIRST, re.compile(rf"\bvar\s+(\w+)\s*=\s*new\s+{_TYPE}")),
    "csharp": (_TYPE_FIRST, re.compile(rf"\bvar\s+(\w+)\s*=\s*new\s+{_TYPE}")),
}
LANGUAGES = frozenset(_PATTERNS) | {"tsx", "jsx"}
_ALIAS = {"tsx": "typescript", "jsx": "javascript"}


def declared_classes(node: Node) -> dict[str, str]:
    """variable -> the class its declarations in `node` name, for the variables declared with one."""
    seen: dict[str, set[str]] = {}
    for pattern in _PATTERNS.get(_ALIAS.get(node.language, node.language), ()):
        for m in pattern.finditer(node.text):
            var, cls = (m.group(2), m.group(1)) if pattern is _TYPE_FIRST else (m.group(1), m.group(2))
            seen.setdefault(var, set()).add(cls)
    return {v: next(iter(cs)) for v, cs in seen.items() if len(cs) == 1}


class LocalTypes:
    """The calls a function makes through locals of a declared class, over one resolver's life."""

    def __init__(self) -> None:
        self._variables: dict[int, dict[str, str]] = {}

    def through(self, n: Node, qualifier: str, cands: list[StoredNode]) -> list[StoredNode] | None:
        """The candidates of `qualifier.name()` in `n` that the class of the local `qualifier`
        declares, or None when `qualifier` is no such local or that class declares none of them."""
        if "." in qualifier or n.language not in LANGUAGES:
            return None
        if n.uid not in self._variables:  # read once per function, not once per call in it
            self._variables[n.uid] = declared_classes(n)
        cls = self._variables[n.uid].get(qualifier)
        if cls is None:
            return None
        found = [c for c in cands if _container(c) == cls]
        return found or None


def _container(c: StoredNode) -> str:
    """The class a member is declared in, by the last qualifier of its name (`TestEnv` of
    `TestEnv.assert_output`, `tests.TestEnv.assert_output`)."""
    parts = c.node.qualified_name.replace("::", ".").split(".")
    return parts[-2] if len(parts) > 1 else ""
