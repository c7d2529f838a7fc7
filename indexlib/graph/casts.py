"""The class a local is given by a cast or a type test where it is declared (locals.py reads them with
its other declarations): C#'s and Java's `var h = (Handler<T>)pool.Get(k)`, C#'s `var h = x as
Handler;`, Java's `x instanceof Handler h`, Swift's `if let h = x as? Handler {`, `guard let h = x as!
Handler else` and `case let h as Handler:`, Kotlin's `val h = x as? Handler ?: return`, TypeScript's
`const h = x as Handler;`.

Why: a cast says the class of the value it makes as plainly as a constructor does, but a local made by
one had no class, so its calls were linked by the method's name alone. On MediatR `var handler =
(RequestHandlerWrapper<TResponse>)_requestHandlers.GetOrAdd(..)` then `handler.Handle(..)` in
`Mediator.Send` linked to all 12 indexed `Handle` methods, ambiguous (pipeline behaviours, stream
wrappers); on swift-argument-parser `if var helpResult = result as? HelpCommand {
helpResult.buildCommandStack(with: self) }` was a guess.

The cast must be the whole value (`var n = (Count) * 2`, `var v = (x as? A) ?? d`, `var s = (T)a + b`
are not read): a parenthesised type is followed by the value it casts, and an `as` ends the value
(a statement's end, Swift's `{`, `,` or `else`, Kotlin's `?:`). A class named twice is left unread by
locals.py as any other declaration is, and a class the index does not hold narrows nothing.
"""

from __future__ import annotations

import re

# A class as a cast writes it: capitalised names through the classes it is nested in, with type
# arguments up to two deep (`Handler<TRequest, Task<T>>`), nullable in C# and Kotlin. Swift's
# `Handler.Type` is the metatype of `Handler`, no class nested in it.
_CLASS = r"(?P<cls>[A-Z]\w*(?:\.(?!Type\b)[A-Z]\w*)*)(?:<(?:[^<>;=(){}]|<[^<>;=(){}]*>)*>)?"
# `var h = (Handler<T>)value` (C#, Java 10's `var`, and Java's written `Handler h = (Handler) value`
# that locals.py's `Type name` pattern reads anyway): the cast is followed by the value it casts.
_PAREN_CAST = re.compile(rf"\bvar\s+(?P<var>[a-z_]\w*)\s*=\s*\(\s*{_CLASS}\??\s*\)\s*(?=[\w@(])")
# `var h = value as Handler;` (C#): the `as` ends the statement.
_CSHARP_AS = re.compile(rf"\bvar\s+(?P<var>[a-z_]\w*)\s*=[^;=]*?\bas\s+{_CLASS}\s*;")
# `value instanceof Handler h` (Java 16's pattern).
_INSTANCEOF = re.compile(rf"\binstanceof\s+(?:final\s+)?{_CLASS}\s+(?P<var>[a-z_]\w*)\b")
# Swift: `let h = value as? Handler` ending the value (a line's end, `{`, `,`, `else`); a metatype's
# `as? Handler.Type` is the class too (its static members answer). `case let h as Handler:` too.
_SWIFT_AS = re.compile(
    rf"\b(?:let|var)\s+(?P<var>[a-z_]\w*)\s*=[^\n=]*?\bas[?!]?\s+{_CLASS}(?:\.Type)?\s*(?=$|[{{,]|else\b)",
    re.MULTILINE,
)
_SWIFT_CASE = re.compile(
    rf"\b(?:case|catch)\s+(?:let|var)\s+(?P<var>[a-z_]\w*)\s+as\s+{_CLASS}\s*(?=[:,]|where\b)"
)
# Kotlin: `val h = value as Handler`, `as? Handler ?: return`, at the end of the line.
_KOTLIN_AS = re.compile(
    rf"\b(?:val|var)\s+(?P<var>[a-z_]\w*)\s*=[^\n=]*?\bas\??\s+{_CLASS}\??\s*(?=$|\?:)", re.MULTILINE
)
# TypeScript: `const h = value as Handler;` at the end of the statement.
_TS_AS = re.compile(
    rf"\b(?:const|let|var)\s+(?P<var>[a-zA-Z_$][\w$]*)\s*=[^;\n=]*?\bas\s+{_CLASS}\s*(?=;|$)", re.MULTILINE
)

CASTS: dict[str, tuple[re.Pattern[str], ...]] = {
    "csharp": (_PAREN_CAST, _CSHARP_AS),
    "java": (_PAREN_CAST, _INSTANCEOF),
    "swift": (_SWIFT_AS, _SWIFT_CASE),
    "kotlin": (_KOTLIN_AS,),
    "typescript": (_TS_AS,),
}

__all__ = ["CASTS"]
