"""The class a variable is given by a chain of calls that starts at a type: Rust's `let f =
SizeFilter::from_string(s).unwrap();`, Kotlin's `val b = CodeBlock.builder()`, Swift's `let c =
Config.load(p)`, C#'s `var r = Request.Create(u).WithTimeout(t);`, a field's as a local's.

Owns: reading such a declaration into its type and its steps (nested classes merged into the type:
`Retrofit.Builder().baseUrl(u)` is `Retrofit.Builder` then `baseUrl`), and stepping through them
by what each step's declaration says it returns (the resolver's `returns`).

Why: a local or a field made by a factory or a builder chain was unread outside Rust, so on
square/kotlinpoet `FunSpec.Builder`'s `body.addStatement(..)`, with `internal val body =
CodeBlock.builder()`, was ambiguous among the three `addStatement`s, and a test's `b.build()` after
`val b = TypeSpec.classBuilder("A")..` among every `build`. A type written first counts only when
the index holds it (`holds`); a value that is no plain chain of calls (a lambda, an operator, an
elvis) is not read, and a name two declarations give different classes is left alone.
"""

from __future__ import annotations

import re
from collections.abc import Callable

# Calls and properties followed through a chain (`a.b().c().d()`, C# `new Conf().WriteTo.Sink(s)`) by
# their declared types, here and in graph/locals.py: a fluent builder's chain steps through a property.
MAX_CHAIN = 8
_CALL_ARGUMENTS = re.compile(r"\([^()]*\)")
# `let f = SizeFilter::from_string("-1k").unwrap();`
_RUST_LET = re.compile(r"\blet\s+(?:mut\s+)?(?P<var>[a-z_]\w*)\s*=\s*(?P<cls>[A-Z]\w*)::(?P<rest>[^;]*);")
# `val b = CodeBlock.builder()`, `var r = Request.Create(u)`, `let c = Config.load(p)`, with a
# written type (`val b: Builder = ..`) or not, its chain going on on lines that start with a `.`.
_MADE = re.compile(
    r"\b(?:val|var|let)\s+(?P<var>[a-z_]\w*)\s*(?::[^=\n]*)?=\s*(?P<cls>[A-Z]\w*)"
    r"(?P<rest>\.[^\n;]*(?:\n[ \t]*\.[^\n;]*)*)"
)
_LANGUAGES = frozenset({"rust", "kotlin", "swift", "scala", "java", "csharp"})


def chain_made(
    texts: list[str],
    name: str,
    language: str,
    holds: Callable[[str], bool],
    returns: Callable[[str, str], str | None],
) -> str | None:
    """The class every declaration of `name` in `texts` makes it by a chain from a type, each
    call's declared return in turn (`returns(cls, method)`); None when one is not read or two differ."""
    if language not in _LANGUAGES:
        return None
    said: set[str | None] = set()
    pattern = _RUST_LET if language == "rust" else _MADE
    for text in texts:
        for m in pattern.finditer(text):
            if m["var"] == name:
                said.add(_through(m["cls"], m["rest"], language, holds, returns))
    return said.pop() if len(said) == 1 else None


def _through(
    cls: str,
    rest: str,
    language: str,
    holds: Callable[[str], bool],
    returns: Callable[[str, str], str | None],
) -> str | None:
    while _CALL_ARGUMENTS.search(rest):
        rest = _CALL_ARGUMENTS.sub("", rest)
    separator = "::" if language == "rust" else "."
    steps = re.sub(r"[\s?!]", "", rest).removeprefix(separator).split(".")
    if not all(re.fullmatch(r"\w+", step) for step in steps) or len(steps) > MAX_CHAIN:
        return None  # not a plain chain of calls: a `match`, a lambda, an operator
    if not holds(cls):
        return None
    found: str | None = cls
    while steps and steps[0][:1].isupper() and holds(f"{cls}.{steps[0]}"):
        found = cls = f"{cls}.{steps[0]}"  # `Retrofit.Builder()`: the nested class it makes
        steps = steps[1:]
    return returned_through(found, steps, returns)


def returned_through(
    cls: str | None, steps: list[str], returns: Callable[[str, str], str | None]
) -> str | None:
    """The class the calls `steps` return one after the other from `cls`, by their declarations
    (`returns(cls, method)`); None once a step says nothing."""
    for step in steps:
        cls = returns(cls, step) if cls is not None else None
    return cls
