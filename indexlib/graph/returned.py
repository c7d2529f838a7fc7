"""The class a method's declaration says it returns, or a property's its declared type, as a chain of
calls outside Go steps through them (graph/locals.py `LocalTypes.through`).

Owns: reading a return type from a signature, per language (`-> Self`, `): Elements`, `Elements
select(`, Rust's `-> Option<T>` read as its `T`), and a Kotlin or Swift property's written type.

Why here: graph/locals.py reads a variable's class and walks the chain; what one step's declaration
says is a reading of one signature, kept apart so that module stays within its size.
"""

from __future__ import annotations

import re

# A Rust trait object's `dyn`; Swift's existential `any P` and opaque `some P`, also made optional in
# parentheses (`(any RequestRetrier)?`): the value is one of P's, so P's members answer its calls.
EXISTENTIAL = r"(?:dyn\s+|\(?(?:any|some)\s+)?"
_RUST_RETURNED = re.compile(
    r"->\s*(?:(?:\w+::)*(?:Option|Result|Box)\s*<\s*)?&?(?:mut\s+)?([A-Z]\w*)\b(?!\s*(?:<|::))"
)
# A Kotlin or Swift property's declared type (`val writeTo: Sinks`, `var other: Sinks?`, `let s: S`).
_PROPERTY = re.compile(rf"\b(?:val|var|let)\s+(\w+)\s*:\s*{EXISTENTIAL}([A-Z]\w*)\b(?!\s*<)")


def returned_class(signature: str, name: str, language: str) -> str | None:
    """The class a method's signature says it returns (`-> Self`, `): Elements`, `Elements select(`),
    or a property's its declared type (C# `public LoggerSinkConfiguration WriteTo { get; }`, Kotlin
    `val writeTo: Sinks`, Swift `var sinks: Sinks?`): a fluent chain steps through both alike
    (`new LoggerConfiguration().WriteTo.Sink(s)`). None when it names none (a primitive, a generic
    wrapper, nothing written)."""
    lang = {"tsx": "typescript", "jsx": "javascript"}.get(language, language)
    word = re.escape(name)
    declared = _PROPERTY.search(signature) if lang in ("kotlin", "swift") else None
    if declared and declared.group(1) == name:  # `val writeTo: Sinks = ..`, `var other: Sinks?`
        return declared.group(2)
    if lang in ("java", "csharp"):  # a method's `(`/`<`; a property's end, accessors, `=>`, `=`
        m = re.search(rf"(?<![\w.])([A-Z]\w*)(?:<[^()]*>)?\??\s+{word}\s*(?:[(<{{=]|$)", signature)
    elif lang == "php":  # `): EasyHandle`, `): ?self`, `): \\Foo\\Bar`
        m = re.search(r"\)\s*:\s*\??\\?(?:\w+\\)*([A-Z]\w*|self|static)\s*(?:$|\{)", signature)
    elif lang == "rust":  # `-> Option<Self>`, `-> io::Result<Config>`: the `T` an unwrap or `?` gives
        m = re.search(_RUST_RETURNED, signature)
    elif lang in ("python", "swift"):
        m = re.search(rf"->\s*&?(?:mut\s+)?{EXISTENTIAL}['\"]?([A-Z]\w*)\b(?!\s*<)", signature)
    else:  # TypeScript, JavaScript's JSDoc-less methods have none, Kotlin `): Type`
        m = re.search(r"\)\s*:\s*([A-Z]\w*|this)\b(?!\s*<)", signature)
    return m.group(1) if m else None


def enclosing_named(cls: str, name: str) -> str:
    """`name` as a member of `cls` reads it: the class itself or one `cls` is nested in when one of
    them is so named (`Builder` in `Retrofit.Builder`), else `name` as written."""
    parts = cls.split(".")
    return ".".join(parts[: parts.index(name) + 1]) if name in parts else name
