"""The class a PHP local is given by a chain of method calls on another variable: `$mapped =
$listing->map($f);` after `$listing = new DirectoryListing($xs)`, `$config =
$this->resolveConfig($c);` in a class whose `resolveConfig` says `): Config`.

Owns: reading such assignments in a function's text and stepping through their calls by what each
call's declaration says it returns (the resolver's `returns`, graph/locals.py).

Why: on thephpleague/flysystem a test's `$mappedListing = $listing->map(..)` then
`$mappedListing->toArray()` was ambiguous between `DirectoryListing::toArray` and `Config::toArray`,
as was `$withoutSetting = $config->withoutSettings('b')` then `$withoutSetting->toArray()`: locals.py
read a PHP local's class from `new`, a parameter's type or a docblock alone, and chainmade.py reads a
chain that starts at a type, which PHP writes `Foo::make()`, rarely a variable's.
Does not own: the classes of the variables a chain starts at (locals.py `declared_classes`).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from indexlib.graph.chainmade import MAX_CHAIN, returned_through

# `$b = $a->m(..)->n(..);`: arguments nested two levels deep at most (`map(function (int $i) {..})`).
_ARGS = r"\((?:[^()]|\((?:[^()]|\([^()]*\))*\))*\)"
_MADE = re.compile(rf"\$(?P<var>\w+)\s*=\s*\$(?P<head>\w+)(?P<rest>(?:\s*\??->\s*\w+\s*{_ARGS})+)\s*;")
_STEP = re.compile(r"\??->\s*(\w+)")
_INNER_ARGS = re.compile(r"\([^()]*\)")


def php_made(
    text: str,
    name: str,
    own: str | None,
    declared: dict[str, str],
    returns: Callable[[str, str], str | None],
) -> str | None:
    """The class every `$name = $head->m(..)..;` in `text` gives `$name`: `$head`'s class
    (`declared`, or `own` for `$this`) stepped through each call's declared return. None when one
    such assignment is not read, two differ, or there is none. An assignment from `$name` itself
    (`$xs = $xs->map(..)`) must give back the class the others give."""
    said: set[str | None] = set()
    again: list[str] = []  # the steps of assignments from `$name` itself
    for m in _MADE.finditer(text):
        if m["var"] != name:
            continue
        rest = m["rest"]
        while _INNER_ARGS.search(rest):
            rest = _INNER_ARGS.sub("", rest)
        steps = _STEP.findall(rest)
        if m["head"] == name:
            again.append(",".join(steps))
            continue
        start = own if m["head"] == "this" else declared.get(m["head"])
        said.add(_through(start, steps, returns))
    if len(said) != 1:
        return None
    cls = said.pop()
    if cls is None or any(_through(cls, steps.split(","), returns) != cls for steps in again):
        return None
    return cls


def _through(cls: str | None, steps: list[str], returns: Callable[[str, str], str | None]) -> str | None:
    if not steps or len(steps) > MAX_CHAIN:
        return None
    return returned_through(cls, steps, returns)
