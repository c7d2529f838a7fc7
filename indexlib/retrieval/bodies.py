"""A function's body before its declaration: `lib/command.js`'s `error()` before `index.d.ts`'s.

Owns: the one reordering of a ranked page that puts a definition's body where its bodiless
declaration ranked (`Candidate.prototype`: a C or C++ header's prototype, a method of a TypeScript
declaration file), whatever the query's route.

Why: the definition signal makes a declaration yield to its body when a query names it, but a
sentence is ranked by its words, and a package that ships typings repeats each doc comment in its
`index.d.ts`, whose short declaration BM25 scores above the body holding the same comment. The body
is what a reader of the question wants to see (what runs, what a fix changes); the declaration
follows it. Only bodies already on the page move: one the words did not find is not brought in.
"""

from __future__ import annotations

from indexlib.records import ROUTINE_KINDS
from indexlib.retrieval.fusion import Candidate
from indexlib.retrieval.names import dotted


def bodies_first(ranked: list[Candidate]) -> list[Candidate]:
    """`ranked` with each declaration's body (same kind of callable, same qualified name, not itself
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
                body.score = max(body.score, c.score)  # its place, so a later sort by score keeps it
                body.explain.append(f"the body of {c.path}'s declaration: before it")
                out.insert(i, body)
                i += 1  # the declaration, now one place down, was handled
        i += 1
    return out
