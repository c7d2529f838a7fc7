"""A function's declaration and its body are one hit: `spdlog.h`'s `set_level` folds into
`spdlog-inl.h`'s. Pure.

Owns: the one rewrite of a ranked page that folds a bodiless declaration (`Candidate.prototype`: a
C or C++ header's prototype or in-class member declaration, a method of a TypeScript declaration
file, a Python stub) into its body: the body takes the better place of the two, at its score, and
the declaration leaves the page, whatever the query's route.

Why: a C++ library declares each member in its class and defines it out of line (`logger.h`'s
`void set_level(..);`, `logger-inl.h`'s `logger::set_level(..) { .. }`); both hold the name and its
words, so both ranked, side by side: on spdlog, "set the log level from an environment variable"
spent 6 of 10 places on 3 functions. An IDE's workspace symbols and Sourcegraph's code navigation
treat the two as one symbol (go to definition lands on the body); a result page should too. The
body is what a reader wants (what runs, what a fix changes), so it is the one shown; the
declaration's place is said in its `explain`.

A declaration and a body are one function when both are routines of one qualified name (`::` and
`.` alike), one language family (a header's C prototype and its C++ body; an `index.d.ts` and its
JavaScript) and one number of parameters, so overloads (`log(msg)`, `log(loc, lvl, msg)`) stay
apart; a list that cannot be read counts as a number of its own. A bare name (no class or
namespace in it) is one function across files only in C and C++, where it is the program's one
symbol of that name; elsewhere a top-level name is its module's, so a declaration and a body of a
bare name fold only from files of one stem (`index.d.ts` and `index.js`, `util.pyi` and `util.py`):
vue's `global.d.ts` declares estree-walker's `walk`, no body of the three `walk`s of its own code.
Only bodies already on the page fold: one the words did not find is not brought in.

A declaration that folds into no body still yields its place to a routine of its name ranked below
it (an `__init__.pyi` overload of a function `_make.py` defines with more parameters): the body is
what a reader wants first, but a function it may not declare is not to hide it.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from indexlib.graph.callarity import parameters
from indexlib.graph.family import family_of
from indexlib.records import ROUTINE_KINDS, Node
from indexlib.retrieval.fusion import Candidate
from indexlib.retrieval.names import dotted

__all__ = ["fold_declarations"]

# A file's name without what tells a declaration file from its code (`index.d.ts`, `index.js`).
_SUFFIXES = re.compile(r"(?:\.d)?\.[cm]?[jt]sx?$|\.pyi?$")

# What tells two routines of one name apart: language family and number of parameters (None: unread).
_Shape = tuple[str, int | None]


def fold_declarations(ranked: list[Candidate], node_of: Callable[[int], Node | None]) -> list[Candidate]:
    """`ranked` with each declaration folded into its body on the page (`node_of` reads a
    candidate's node): the body at the better place of the two, at the better score, the declaration
    gone. A declaration with no body on the page stays where it ranked."""
    names = {dotted(c.qualified_name) for c in ranked if c.prototype and c.kind in ROUTINE_KINDS}
    if not names:
        return ranked
    shapes: dict[int, _Shape] = {}
    for c in ranked:
        if c.kind in ROUTINE_KINDS and dotted(c.qualified_name) in names:
            n = node_of(c.uid)
            if n is not None:
                params = parameters(n.signature)
                shapes[c.uid] = (family_of(n.language), None if params is None else len(params))
    out = list(ranked)
    i = 0
    while i < len(out):
        c = out[i]
        j = _other_half(out, i, shapes) if c.uid in shapes else None
        if j is not None:
            body, declaration = (out[j], c) if c.prototype else (c, out[j])
            body.score = max(body.score, c.score)  # its place, so a later sort by score keeps it
            n = node_of(declaration.uid)
            at = f"{declaration.path}:{n.start_line}" if n is not None else declaration.path
            body.explain.append(f"its declaration at {at} folded into it")
            out[i] = body
            del out[j]
            continue  # the body, now here, may have a second declaration further down
        i += 1
    return _bodies_first(out)


def _bodies_first(ranked: list[Candidate]) -> list[Candidate]:
    """`ranked` with a body of each declaration's name (a routine of its qualified name, not itself
    a declaration) moved to just before the declaration's place, at its score, when it ranked below."""
    out = list(ranked)
    i = 0
    while i < len(out):
        c = out[i]
        if c.prototype and c.kind in ROUTINE_KINDS:
            name = dotted(c.qualified_name)
            j = next(
                (
                    j
                    for j in range(i + 1, len(out))
                    if not out[j].prototype
                    and out[j].kind in ROUTINE_KINDS
                    and dotted(out[j].qualified_name) == name
                ),
                None,
            )
            if j is not None:
                body = out.pop(j)
                body.score = max(body.score, c.score)
                body.explain.append(f"the body of {c.path}'s declaration: before it")
                out.insert(i, body)
                i += 1  # the declaration, now one place down, was handled
        i += 1
    return out


def _other_half(out: list[Candidate], i: int, shapes: dict[int, _Shape]) -> int | None:
    """The index, below `i`, of the body of `out[i]` when it is a declaration, or of a declaration
    of it when it is a body: a routine of its qualified name, family and parameter count."""
    c = out[i]
    name = dotted(c.qualified_name)
    shape = shapes[c.uid]
    return next(
        (
            j
            for j in range(i + 1, len(out))
            if out[j].prototype != c.prototype
            and out[j].kind in ROUTINE_KINDS
            and dotted(out[j].qualified_name) == name
            and shapes.get(out[j].uid) == shape
            and (shape[0] == family_of("c") or "." in name or _stem(out[j].path) == _stem(c.path))
        ),
        None,
    )


def _stem(path: str) -> str:
    """`path` without the suffix of a declaration file or of the code it declares: `lib/index.d.ts`
    and `lib/index.js` are both `lib/index`."""
    return _SUFFIXES.sub("", path)
