"""Overloads told apart by the number of arguments a call writes (Java, C#, C++, Kotlin).

Owns: reading how many arguments a declaration's parameter list admits (defaults and a variadic
last parameter included) and keeping, of a call's candidates, the methods that admit the call's
(`Ref.args`, parsing/arguments.py). jsoup's `el.text()` linked ambiguously to `Element.text()` and
`Element.text(String)`, and 3,089 of its ambiguous call sites were overloads of one class alone.

A declaration whose parameters cannot be read from its signature (a list spread over lines past
the signature) admits any call, and when no candidate admits the call (a count read wrongly) every
candidate stays: this only ever narrows.
"""

from __future__ import annotations

import re

from indexlib.engines.lexical import StoredNode
from indexlib.records import is_constructor

_CALLABLE = frozenset({"function", "method"})
_OPEN, _CLOSE = "(<[{", ")>]}"
_VARARG = re.compile(r"(?:@\S+\s+)*vararg\s")  # `vararg names: String`, after any annotations


def parameter_range(signature: str) -> tuple[int, int | None] | None:
    """(fewest, most) arguments the first parameter list of `signature` admits (most None when the
    last is variadic), or None when the list does not close within it.

    >>> parameter_range("Element text(String text) {"), parameter_range("void f(int a, int b = 2)")
    ((1, 1), (1, 2))
    >>> parameter_range("static String join(String sep, String... parts)"), parameter_range("int f(void);")
    ((1, None), (0, 0))
    >>> parameter_range("static int Count(this IEnumerable<T> xs, Func<T, bool> p)"), parameter_range("f(a,")
    ((1, 2), None)
    >>> parameter_range("fun <T> f(cb: (T) -> Unit, n: Int = 0)"), parameter_range("fun g(t: Type, vararg a: A)")
    ((1, 2), (1, None))
    """
    start = signature.find("(")
    if start < 0:
        return None
    depth = 0
    params: list[str] = []
    current: list[str] = []
    prev = " "
    for ch in signature[start + 1 :]:
        if ch == ")" and depth == 0:
            break
        if ch in _OPEN:
            depth += 1
        elif ch in _CLOSE and not (ch == ">" and prev in "-="):  # a Kotlin `(T) -> Unit`, a C# `=>`
            depth -= 1
        elif ch == "," and depth == 0:
            params.append("".join(current).strip())
            current = []
            continue
        current.append(ch)
        prev = ch
    else:
        return None
    params.append("".join(current).strip())
    params = [p for p in params if p and p != "void"]
    fewest, most = sum(1 for p in params if "=" not in p), len(params)
    if params and ("..." in params[-1] or params[-1].startswith("params ")):
        return fewest - 1, None
    if any(_VARARG.match(p) for p in params):  # Kotlin: a `vararg` takes any number, and need not be last
        return fewest - 1, None
    if params and params[0].startswith("this "):  # a C# extension method: `xs.Count(p)` or `Count(xs, p)`
        fewest -= 1
    return fewest, most


def of_call_arity(cands: list[StoredNode], args: int) -> list[StoredNode]:
    """The candidates a call writing `args` arguments can mean: a type or a constructor (which class
    `new T(..)` makes is resolved by the class), or a function or method whose parameters admit
    that many; all of them when none does."""
    kept = [c for c in cands if _admits(c, args)]
    return kept or cands


def _admits(c: StoredNode, args: int) -> bool:
    if c.node.kind not in _CALLABLE or is_constructor(c.node.qualified_name):
        return True  # a type, or a constructor: which class `new T(..)` makes is the class's own question
    got = parameter_range(c.node.signature)
    if got is None:
        return True
    fewest, most = got
    return fewest <= args and (most is None or args <= most)
