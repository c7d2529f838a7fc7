"""Where a node declares itself: the line of its signature, below the doc comment its span holds.

Every surface that points at a definition by one line (a search hit's `line`, a related row of
`qry related` and `--graph`) points at the same one, so an editor jumping there lands on the
declaration, not on the first line of the comment above it, nor on the attributes or annotations
written above it (`@Override`, C# `[Fact]`, Rust and PHP `#[...]`), which the parser keeps out of a
signature too. Pure; shared by parsing, retrieval and the graph.
"""

from __future__ import annotations

import re

__all__ = [
    "COMMENT_LINE",
    "attribute_line",
    "attribute_lines",
    "bare_signature",
    "declaration_line",
    "first_code_line",
    "past_licence",
    "signature_line",
    "text_lines",
]

# A line that opens with a comment marker (`#`, `//`, `/*`, a doc block's `*`, `--`, a docstring).
COMMENT_LINE = re.compile(r"\s*(?:#|//|/\*|\*|--|\"\"\"|\'\'\')")
# A comment written after a signature's code (`Timeout int // why`): not part of its head.
_SIGNATURE_COMMENT = re.compile(r"\s(?:#|//|/\*)\s.*")
SIGNATURE_HEAD_CHARS = 40  # the signature's head that finds its line: enough to tell lines apart
MIN_OPENING_CHARS = 6  # a signature's first line, when it spans lines, is at least `def f(`

# The attributes and annotations a declaration opens with, which say how it is built or checked, not
# what it is: the line to point at is the declaration's own, as an editor's outline shows it.
# Arguments in parentheses (one level nested: `[TypeConverter(typeof(X))]`), strings in them.
_ARGS = r"\((?:[^()\"]|\"[^\"]*\"|\((?:[^()\"]|\"[^\"]*\")*\))*\)"
# Java, Kotlin, Swift, Python, TypeScript: `@Override`, `@get:JvmStatic`, `@app.route("/")`,
# Kotlin's `@set:[Inject]`.
_AT = r"@[\w.:]+(?:\[[^\]\n]*\])?(?:" + _ARGS + r")?"
# Rust and PHP 8: `#[derive(Debug)]`, `#[Route('/x')]`, Rust's inner `#![allow(x)]`.
_HASH = r"#!?\[(?:[^\[\]\"]|\"[^\"]*\"|\[[^\]]*\])*\]"
# C#: `[Fact]`, `[Obsolete("x")]`, `[return: NotNull]`, `[Theory, InlineData(1)]`: names, each with
# its arguments, in brackets. Not an indexer (`this[int i]`) or an array type (`int[] a`), which do
# not open the line, nor a list (`[1, 2]`, `[x for x in y]`), which holds no such names.
_NAMED = r"(?:\w+\s*:\s*)?[A-Za-z_][\w.]*(?:<[^<>\n]*>)?(?:" + _ARGS + r")?"
_BRACKETED = r"\[\s*" + _NAMED + r"(?:\s*,\s*" + _NAMED + r")*\s*\]"
# One attribute, ended where the declaration or the next attribute starts (not `[Symbol.iterator]()`).
_ATTRIBUTE = r"(?:" + _AT + "|" + _HASH + "|" + _BRACKETED + r")(?=\s|$|[\[@#])"
_LEADING_ATTRIBUTES = re.compile(r"\s*(?:" + _ATTRIBUTE + r"\s*)+")
_ATTRIBUTE_LINE = re.compile(r"\s*(?:" + _ATTRIBUTE + r"\s*)+$")
# Longer lines are code, not attributes: they are not scanned (the patterns backtrack on hostile ones).
MAX_ATTRIBUTE_LINE_CHARS = 1000
# One attribute and the blanks after it on its line, past the blank lines and indentation before it.
_ONE_ATTRIBUTE = re.compile(r"\s*" + _ATTRIBUTE + r"[ \t]*")
# How much of a declaration's head is scanned for the attributes above it, lines of arguments included.
MAX_ATTRIBUTE_RUN_CHARS = 4000
# Whole lines of comments and blank lines after an attribute, up to and including their last line
# ending: a `// why` between `@Deprecated` and `@SuppressWarnings("x")` is written about the
# declaration below, not part of it. A line comment (`//`, `#` but not Rust's and PHP's `#[`), or
# block comments (`/* ... */`, over lines or not) with nothing else on their line (`/* x */ int f()`
# is the declaration's own line).
_COMMENT_RUN = re.compile(
    r"(?:[ \t]*(?://[^\r\n]*|#(?![!\[])[^\r\n]*|(?:/\*(?:[^*]|\*(?!/))*\*/[ \t]*)+)?\r?\n)+"
)
# PHP's opening tag alone on its line (`<?php`): markup before the file's first line of code.
_OPEN_TAG = re.compile(r"\s*<\?(?:php)?\s*$", re.IGNORECASE)
DECLARATION_SCAN_LINES = 200  # how far below a node's first line its declaration is looked for


def attribute_line(line: str) -> bool:
    """Whether `line` holds attributes or annotations and nothing else (`@Override`, `[Fact]`,
    `#[derive(Debug)]`): it belongs to the declaration below it.

    >>> [attribute_line(s) for s in ("  [Fact]", "[Pure] public int X()", "public int this[int i]")]
    [True, False, False]
    """
    return len(line) <= MAX_ATTRIBUTE_LINE_CHARS and _ATTRIBUTE_LINE.match(line) is not None


def attribute_lines(text: str) -> int:
    """Length of the whole lines of attributes and annotations `text` opens with, an annotation's
    arguments written over lines of their own included (`@Deprecated(` / `message = "x",` / `)`):
    where the declaration's first line starts, 0 when no line of attributes opens `text`. A line
    that holds the declaration after its attributes (`@Override public void f()`) is its line.

    Comment lines and blank lines after an attribute line are stepped over too (`@Deprecated` /
    `// why` / `@SuppressWarnings("x")`): they are no more the declaration's line than the
    attributes are. A comment before the first attribute is not (0 stays "no attributes").

    >>> text = '@Deprecated(\\n  message = "x",\\n)\\n@JvmStatic fun size() = 1'
    >>> text[attribute_lines(text) :]
    '@JvmStatic fun size() = 1'
    >>> text = '@Deprecated\\n// why\\n\\n@SuppressWarnings("x")\\nvoid f()'
    >>> text[attribute_lines(text) :]
    'void f()'
    """
    head = text[:MAX_ATTRIBUTE_RUN_CHARS]
    at = cut = 0
    while True:
        found = _ONE_ATTRIBUTE.match(head, at)
        if found is None and at:  # past an attribute: the rest of its line and the lines below, if comments
            comments = _COMMENT_RUN.match(head, at)
            if comments is not None:
                at = cut = comments.end()
                continue
        if found is None:
            return cut
        at = found.end()
        ending = 2 if head.startswith("\r\n", at) else 1 if head.startswith("\n", at) else 0
        if ending:
            at = cut = at + ending


def bare_signature(signature: str) -> str:
    """`signature` past the attributes it opens with and without a comment written after its code:
    what the declaration's own line starts with.

    >>> bare_signature('[MessageTemplateFormatMethod("t")] public void Information(string t)')
    'public void Information(string t)'
    """
    bare = _SIGNATURE_COMMENT.sub("", signature)
    lead = _LEADING_ATTRIBUTES.match(bare[:MAX_ATTRIBUTE_LINE_CHARS])
    return bare[lead.end() :] if lead is not None else bare


def _not_code(line: str) -> bool:
    """A comment, a line of attributes or decorators, or PHP's opening tag: not a declaration's line."""
    return COMMENT_LINE.match(line) is not None or attribute_line(line) or _OPEN_TAG.match(line) is not None


def text_lines(text: str) -> list[str]:
    """Lines as git, grep and editors count them: split at LF only (a CR of CR LF is dropped by
    `safe_text`); form feeds, vertical tabs and U+2028 stay inside their line (`str.splitlines`
    would split there too and shift every later line number)."""
    lines = text.split("\n")
    if len(lines) > 1 and lines[-1] == "":
        lines.pop()
    return lines


def signature_line(signature: str, lines: list[str]) -> int | None:
    """Index of the line of `lines` that declares a node with `signature` (its head past any
    annotations, outside a comment; a signature written over several lines is found by its first),
    or None when no line shows it."""
    head = " ".join(bare_signature(signature).split())[:SIGNATURE_HEAD_CHARS]
    if not head:
        return None
    flat = [" ".join(line.split()) for line in lines]
    starts = next((i for i, line in enumerate(flat) if line.startswith(head)), None)
    if starts is not None:
        return starts
    inside = next((i for i, line in enumerate(flat) if head in line and not COMMENT_LINE.match(line)), None)
    if inside is not None:
        return inside
    opened = [i for i, line in enumerate(flat) if len(line) >= MIN_OPENING_CHARS and head.startswith(line)]
    return opened[0] if opened else None


def declaration_line(text: str, start_line: int, signature: str) -> int:
    """The file line a node of `text` (starting at `start_line`) declares itself on: its signature's
    line, else its first line of code (past the doc comment above it), else its first line."""
    lines = text.split("\n", DECLARATION_SCAN_LINES)[:DECLARATION_SCAN_LINES]
    found = signature_line(signature, lines)
    return start_line + (first_code_line(lines) if found is None else found)


def first_code_line(lines: list[str]) -> int:
    """Index of the first line of code: past the doc comment, decorators and attributes a node's text
    opens with, and a PHP file's opening tag (0 when there is none)."""
    at = 0
    while at < len(lines):
        if lines[at].strip() and not _not_code(lines[at]):
            below = "\n".join(lines[at : at + DECLARATION_SCAN_LINES])
            skipped = below.count("\n", 0, attribute_lines(below))  # `@Deprecated(` over lines
            if not skipped or at + skipped >= len(lines):
                return at
            at += skipped
            continue
        at += 1
    return 0


def declared_standing(name: str, text: str, *, private_by_default: bool = False) -> tuple[bool, bool]:
    """(private, overrides) of the definition `name` whose text is `text`, read in one pass over its
    lines: `private` (or Swift's `fileprivate`) before the name on its declaring line (Java, C#,
    Kotlin, Scala, Swift, PHP, TypeScript members); overriding by Java's `@Override` among its
    annotations or an `override` modifier on that line (Kotlin, C#, Scala, Swift, TypeScript; C++
    after the parameters). The declaring line is the one past the doc comment and attributes a
    node's text opens with, which a doc comment naming the method (`/** peek is private */`) must
    not stand for. Where a same-named definition is neither, that one is what a search for the name
    is after: the API a caller uses, the method an override overrides.

    `private_by_default` is for a Rust function outside a trait: it is private unless declared
    `pub` (`pub fn`, `pub(crate) fn`), so ripgrep's `GlobSet::is_match` comes before the `fn
    is_match` helpers of its private strategies. A method of a trait implementation has no `pub`
    either; it then follows the type's own `pub` methods, which is where a caller's call goes too."""
    lines = text_lines(text)
    if not lines:
        return False, False
    at = first_code_line(lines)
    line = lines[at]
    cut = re.search(rf"(?<![\w$]){re.escape(name)}(?![\w$])", line) if name else None
    head = line[: cut.start()] if cut else line
    above = "\n".join(lines[:at])
    private = bool(_PRIVATE.search(head)) or (
        private_by_default and _RUST_UNEXPORTED_FN.fullmatch(head) is not None
    )
    return private, bool(_OVERRIDE_ANNOTATION.search(above) or _OVERRIDE.search(line))


# A Rust `fn` declared without `pub`: its qualifiers (`const`, `async`, `unsafe`, `extern "C"`) and
# the `fn` keyword, up to the name.
_RUST_UNEXPORTED_FN = re.compile(r'\s*(?:(?:const|async|unsafe|default|extern(?:\s+"[^"]*")?)\s+)*fn\s+')
_PRIVATE = re.compile(r"(?<![\w$@#])(?:file)?private\b(?!\s*[:(=])")
_OVERRIDE_ANNOTATION = re.compile(r"@Override\b")
_OVERRIDE = re.compile(r"(?<![\w$@#])override\b(?!\s*[:(=])")


_LICENCE = re.compile(r"copyright|\blicen[cs]ed?\b|spdx-license", re.IGNORECASE)
_DOCSTRING = re.compile(r"\s*[rRbBuU]?(?:\"\"\"|\'\'\')")
_MARKUP = re.compile(r"\s*(?:<\?(?:php)?\s*$|#!)")  # `<?php`, a `#!` line


def past_licence(lines: list[str]) -> int:
    """Index of the first line past the licence comment `lines` open with (after any `<?php` or `#!`
    line): 0 when the comment they open with names no copyright or licence, or nothing follows it.
    An Apache-licensed Kotlin file's header names its owner and terms, not what the file is: its
    module row is shown from its `package` line, or the comment below saying what it holds. A
    Python docstring ends the walk: it says what the module is.

    >>> past_licence(["/*", " * Copyright 2015 Square, Inc.", " */", "", "package a"])
    4
    >>> past_licence(["// Package transfer keeps statistics.", "package transfer"])
    0
    """
    head = 0
    while head < len(lines) and not _DOCSTRING.match(lines[head]):
        line = lines[head]
        if line.strip() and not COMMENT_LINE.match(line) and not _MARKUP.match(line):
            break
        head += 1
    if head == len(lines) or not any(_LICENCE.search(line) for line in lines[:head]):
        return 0
    return head
