"""What a variable declared with a generic function's type parameter is: the parameter's bound.

Owns: reading the type parameters a function's signature declares and the bound each is given
(Kotlin and Swift `<T : Base<T>>`, Java and TypeScript `<T extends Base>`, Scala `[T <: Base]`,
and a `where T : Base` clause of Kotlin, Swift or C#), and replacing, in the classes locals.py read
for a function's variables (`rootCommand: T`, C#'s `T options`), such a parameter by its bound.

Why: `fun <T : BaseCliktCommand<T>> parseArgv(rootCommand: T)` declares `rootCommand` a `T`, a
class no file declares, so `rootCommand.resetContext()` was linked by the name alone (ambiguous),
while the bound says every `T` is a `BaseCliktCommand`, whose methods are the only ones it may call.
An unbounded parameter (`fun <T> f(x: T)`) says nothing of the class: the variable is left unread
rather than read as a class named `T`. A class's own type parameters (`class Parser<T : Base<T>>(
val command: T)`) are read the same way for its fields and its methods' variables.
"""

from __future__ import annotations

import re

from indexlib.graph.parts import type_arguments
from indexlib.records import CONTAINER_KINDS, Node

# The languages whose signatures write type parameters as read here.
_LANGUAGES = frozenset({"kotlin", "swift", "java", "typescript", "tsx", "scala", "csharp"})
# A bound is followed from parameter to parameter (`<T : Base<T>, U : T>`) at most this many times.
MAX_BOUND_STEPS = 4
# One type parameter and its first bound: `T : Base<T>`, `reified T : Any`, `out T`, `T extends A & B`,
# `T <: Base`, `+T`; the bound's generic arguments are left off (`Base<T>` -> `Base`).
_PARAMETER = re.compile(
    r"^\s*(?:(?:reified|in|out)\s+)?[+-]?(?P<name>[A-Za-z_]\w*)"
    r"(?:\s*(?P<by>:|<:|\bextends\b)\s*(?P<bound>[A-Za-z_][\w.]*))?"
)
# A `where` clause's constraint (Kotlin, Swift, C#): `where T : Base`, `, U : T`.
_WHERE = re.compile(r"(?:\bwhere\s+|,\s*)(?P<name>[A-Za-z_]\w*)\s*:\s*(?P<bound>[A-Za-z_][\w.]*)")


def type_parameter_bounds(node: Node) -> dict[str, str | None]:
    """type parameter -> its bound (None: none written), of those the generic function or class
    `node` declares."""
    if node.language not in _LANGUAGES or not node.name:
        return {}
    head = node.signature
    name = re.escape(node.name)
    if node.language == "scala":
        opened = re.search(rf"\b{name}\s*\[", head)
    elif (
        node.language in ("kotlin", "java") and node.kind not in CONTAINER_KINDS
    ):  # before the name: `fun <T> f(`, `<T> T f(`
        opened = re.search(rf"(?:^|[\s)]|\bfun)\s*<(?=[^()]*\b{name}\s*\()", head)
    else:  # after the name: `f<T>(`, `M<T>(`, `func f<T>(`
        opened = re.search(rf"\b{name}\s*<", head)
    if opened is None:
        return {}
    closing = "]" if node.language == "scala" else ">"
    bounds: dict[str, str | None] = {}
    for segment in _segments(head[opened.end() :], closing):
        found = _PARAMETER.match(segment)
        if found is not None:  # Scala's `[T: Ordering]` is a context bound: no class of T's
            upper = found.group("by") != ":" or node.language != "scala"
            bounds[found.group("name")] = _proper(found.group("bound")) if upper else None
    clause = re.search(r"\bwhere\b", head)
    for found in _WHERE.finditer(head[clause.start() :] if clause is not None else ""):
        if found.group("name") in bounds and bounds[found.group("name")] is None:
            bounds[found.group("name")] = _proper(found.group("bound"))
    return bounds


def _segments(text: str, closing: str) -> list[str]:
    """The parameters of the list opened just before `text`, as type_arguments reads `<..>`."""
    if closing == ">":
        return type_arguments(text)
    scala = text.replace("<:", "\0").replace(">:", "\1").replace("[", "<").replace("]", ">")
    return [s.replace("\0", "<:").replace("\1", ">:") for s in type_arguments(scala)]


def _proper(bound: str | None) -> str | None:
    """A bound that names a class: not `Any`, `Object` or `class` (C#'s `where T : class`)."""
    return (
        None
        if bound is None or bound in ("Any", "AnyObject", "Object", "object", "class", "struct")
        else bound
    )


def bounded(node: Node, classes: dict[str, str], outer: Node | None = None) -> dict[str, str]:
    """`classes` (variable -> class) with each class that is a type parameter of `node`, or of the
    class `outer` it is a member of, read as its bound, through bounds naming other parameters; a
    variable of an unbounded one dropped."""
    bounds = {**(type_parameter_bounds(outer) if outer is not None else {}), **type_parameter_bounds(node)}
    if not bounds:
        return classes
    out: dict[str, str] = {}
    for variable, written in classes.items():
        cls: str | None = written
        for _ in range(MAX_BOUND_STEPS):
            if cls is None or cls not in bounds:
                break
            cls = bounds[cls]
        if cls is not None and cls not in bounds:
            out[variable] = cls
    return out


__all__ = ["MAX_BOUND_STEPS", "bounded", "type_parameter_bounds"]
