"""C/C++ macros a grammar cannot read: find them in a file and blank them, offsets kept.

Owns: the copy of a C or C++ file in which decoration macros and statement macros are spaces of
the same length, so byte offsets and line numbers are the original's, and the evidence that makes
an ALL-CAPS word such a macro. Does not own: choosing between that copy and the file as written
(preproc.py), parsing, extraction.

Why: a compiler sees macros expanded, a grammar sees unknown identifiers and recovers by guessing.
`class FOO_API Widget {` became a function named `Widget` returning a class `FOO_API`;
`FOO_INLINE int pid() FOO_NOEXCEPT {` a function named `FOO_NOEXCEPT`; `FOO_INLINE std::string
name()` a method `std.stringname`; a statement macro without its `;` (`FOO_CATCH(e)` expanding to
a `catch` block) left an ERROR that moved every later definition out of its namespace.

Decorations (an export macro, an `inline` or `noexcept` stand-in). The header that defines one is
usually another file, so each file is read for its own evidence: an ALL-CAPS word (three or more
characters: template parameters never qualify) is a decoration when the file writes it, outside
function bodies (where `(void *) NULL;` and `if (x) RETURN_OK;` read alike), where only a
decoration fits:
- between `class`/`struct`/`union` and the name of a class being defined: `struct FOO_API Widget {`;
- after a parameter list, before what may follow one: `int pid() FOO_NOEXCEPT {`, `;`, `:`, `const`;
- before a declaration: `FOO_INLINE int f(`, `FOO_API std::string name(`, `FOO_API Widget *make(`,
  `FOO_EXPORT template <typename T> class Store {`
  (the next word a keyword or built-in type, or a type not itself ALL-CAPS and then the name:
  `DWORD WINAPI f(` proves nothing of `DWORD`);
- between a declaration's type and its name: `void FOO_INLINE Widget::run(`, `DWORD WINAPI f(`;
- before a constructor or destructor of a class the file defines: `FOO_CONSTEXPR Widget(int n)`;
- `#define FOO` to nothing, to specifiers, to `__declspec(...)`, `__attribute__((...))` or `[[...]]`.
Then every code use of the word is blanked but where it is called, qualified or a member (`FOO(x)`,
`FOO::x`, `a.FOO`); comments, strings and directives are never touched. Two are blanked where they
stand alone, whatever the word does elsewhere: one called with its arguments between `class` and
the name (`class FOO_VISIBILITY("default") Error :`), and one between `if` and its condition (`if
FOO_CONSTEXPR (x)`, a `constexpr` stand-in).

Statement macros, each use on its own: an ALL-CAPS call alone on its lines and not followed by
what would continue an expression (`FOO_CATCH(e)` then `}` or the next statement) lacks only its
`;`: in a function body, indented, it moves one byte into its indentation and gets one, so its
calls stay calls (on their lines); elsewhere (`FOO_PRAGMA("x")` at file level) it is blanked
whole. An ALL-CAPS word opening a block inside a function body (`FOO_TRY {`), or alone on its
line outside one (`FOO_BEGIN_EXPORTS`), is blanked; so is one alone on its line after a template's
head (`template<typename T>` / `FOO_RETURNS_NON_NULL` / `static T* create(`), and one opening a
block whose `{` is on the next line (`FOO_TRY` / `{`). A macro written as an access label in a
class body (`FOO_PRIVATE_UNLESS_TESTED:`, blanked with its `:`; `public FOO_SLOTS:`, the macro
alone) is blanked too: the grammar took it for a bitfield and lost the class at the next error.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, NamedTuple

from indexlib.index.parsing.text import blank

if TYPE_CHECKING:
    from indexlib.engines.treesitter import Deadline

_CAPS = rb"[A-Z][A-Z0-9_]{2,}"
_CAPS_WORD = re.compile(rb"\b" + _CAPS + rb"\b")
_CAPS_ONLY = re.compile(_CAPS)

# What the code mask blanks: comments, string and character literals (their quotes kept, so
# `extern "C"` still reads as one), and directive lines with their continuations.
_NOT_CODE = re.compile(
    rb"//[^\n]*|/\*.*?(?:\*/|\Z)|\"(?:\\.|[^\"\\\n])*\"|'(?:\\.|[^'\\\n])*'|^[ \t]*#(?:\\\r?\n|[^\n])*",
    re.MULTILINE | re.DOTALL,
)

_SPECIFIERS = (
    rb"(?:static|extern|inline|virtual|explicit|friend|constexpr|consteval|constinit|template\s*<[^;{}]*?>)"
)
_KEYWORD_NEXT = (
    rb"(?:void|bool|char|char8_t|char16_t|char32_t|wchar_t|short|int|long|float|double|signed|unsigned|"
    rb"auto|const|volatile|static|extern|inline|virtual|explicit|friend|constexpr|consteval|struct|class|"
    rb"union|enum|typename|template|std\s*::|size_t|u?int(?:8|16|32|64)_t)\b"
)
# Words that cannot be the type of a declaration: they introduce one, or a statement.
_NOT_TYPES = (
    rb"(?!(?:static|extern|inline|virtual|explicit|friend|constexpr|consteval|constinit|const|volatile|"
    rb"typedef|return|else|case|goto|new|delete|throw|using|typename|template|struct|union|enum|class|"
    rb"signed|unsigned|long|short)\b)"
)
# A type and a declared name as written on one line: `std::vector<int>`, `Widget<T>::~Widget`.
_TYPE = _NOT_TYPES + rb"(?:::)?\w+(?:[ \t]*::[ \t]*\w+)*(?:[ \t]*<[^;{}()\n]*>)?(?:[ \t]*::[ \t]*\w+)*"
_DECLARED = rb"~?\w+(?:[ \t]*<[^;{}()\n]*>)?(?:[ \t]*::[ \t]*~?\w+(?:[ \t]*<[^;{}()\n]*>)?)*\s*\("
_LINE_START = rb"^[ \t]*(?:" + _SPECIFIERS + rb"\s+)*"
# `FOO_INLINE int f(`, `static FOO_API std::string name(`, `FOO_API Widget &make(`.
_CAPS_RUN = rb"((?:" + _CAPS + rb"[ \t]+)+)"  # one or more ALL-CAPS words on one line
_BEFORE_DECLARATION = re.compile(
    _LINE_START + _CAPS_RUN + rb"(?:" + _KEYWORD_NEXT + rb"|(" + _TYPE + rb")[ \t*&]+" + _DECLARED + rb")",
    re.MULTILINE,
)
# `void FOO_INLINE Widget::run(`, `std::future<void> FOO_INLINE pool::post(`.
_BEFORE_NAME = re.compile(
    _LINE_START + rb"(" + _TYPE + rb")[ \t*&]+" + _CAPS_RUN + rb"[*&]*" + _DECLARED, re.MULTILINE
)
# `class FOO_API Widget {`, `struct FOO_API FOO_DEPRECATED Widget final : Base`, `struct FOO_API hash<T>`.
_IN_CLASS_HEAD = re.compile(
    rb"\b(?:class|struct|union)\s+((?:" + _CAPS + rb"\s+)+)\w+\s*(?:final\b\s*)?(?:\{|:(?!:)|<)"
)
# Decorations blanked where they are written, not by their word (a call elsewhere is a call):
# `class FOO_VISIBILITY("default") Error : Base`, `struct FOO_ALIGN(16) FOO_API Vec {` (called with
# their arguments, between `class` and the name), and a `constexpr` stand-in in `if FOO_CONSTEXPR (x)`
# (an `if` takes `constexpr` or its condition, never a word then a parenthesis).
_CALLED_IN_CLASS_HEAD = re.compile(
    rb"\b(?:class|struct|union)\s+((?:" + _CAPS + rb"(?:\s*\([^(){};]*\))?\s*)+)"
    rb"\w+\s*(?:final\b\s*)?(?:\{|:(?!:)|<)"
)
# `FOO_CONSTEXPR Widget(int n) : n_(n) {}`, `FOO_INLINE ~Widget()`: before a constructor or destructor
# of a class the file defines (`_CLASS_NAMED`), where no type can be, as nothing but a type was.
_BEFORE_CONSTRUCTOR = re.compile(_LINE_START + _CAPS_RUN + rb"~?(\w+)\s*\(", re.MULTILINE)
_CLASS_NAMED = re.compile(
    rb"\b(?:class|struct)\s+(?:" + _CAPS + rb"(?:\s*\([^(){};]*\))?\s+)*(\w+)\s*(?:final\b\s*)?[{:<]"
)
_IF_DECORATED = re.compile(rb"(?<![\w#])if\s+(" + _CAPS + rb")\s*\(")
# `) FOO_NOEXCEPT {`, `) const FOO_OVERRIDE;`, `) FOO_NOEXCEPT\n    : member_(x)`.
_AFTER_PARAMETERS = re.compile(
    rb"\)\s*(?:(?:const|volatile|noexcept|override|final|&&?)\s*)*((?:" + _CAPS + rb"\b\s*)+)"
    rb"(?=\{|;|:(?!:)|->|=\s*(?:0|default|delete)\b|(?:const|override|final|noexcept|try)\b)"
)
# `#define FOO_API`, `#define FOO_INLINE static inline`, `#define FOO_API __declspec(dllexport)`.
_DEFINE = re.compile(
    rb"^[ \t]*#[ \t]*define[ \t]+(" + _CAPS + rb")[ \t]*"
    rb"((?:(?:inline|static|extern|constexpr|noexcept|__inline|__forceinline|__inline__|"
    rb"__declspec\s*\([^\n]*?\)|__attribute__\s*\(\([^\n]*?\)\)|\[\[[^\n]*?\]\])[ \t]*)*)"
    rb"(?://[^\n]*|/\*[^\n]*)?\r?$",
    re.MULTILINE,
)
_FUNCTION_LIKE = re.compile(rb"^[ \t]*#[ \t]*define[ \t]+(" + _CAPS + rb")\(", re.MULTILINE)
# Words before a `(` that make it a statement's parentheses, not a parameter list.
_NOT_DECLARATORS = frozenset(
    b"if while for switch return sizeof alignof decltype catch noexcept throw case".split()
)
_SCOPE_HEAD = re.compile(rb"(?:\b(?:namespace|class|struct|union|enum)\b[^(){};=]*|\bextern\s*\"\s*\"\s*)$")
# What may come before a statement, and what may start the next one after a statement macro.
_STATEMENT_ENDS = b";{})"
_NEXT_STATEMENT = re.compile(rb"\s*(?:[A-Za-z_~}]|\Z)")
_DECLARATOR = re.compile(rb"[\s*&]*" + _DECLARED)
# A template's head ending the text before a macro alone on its line (`template<typename T>` then
# `FOO_RETURNS_NON_NULL` then `static T* create(`): the macro starts the declaration, as after a `;`.
_TEMPLATE_HEAD = re.compile(rb"\btemplate\s*<[^;{}]*>$")
# What ends an access label: its `:` (not `::`) and nothing more on the line.
_LABEL_END = re.compile(rb"[ \t]*:(?!:)(?=[ \t\r]*(?:\n|\Z))")


def code_mask(data: bytes) -> bytes:
    """`data` with comments, literals' contents and directive lines as spaces, newlines kept."""

    def blanked(match: re.Match[bytes]) -> bytes:
        text = match.group(0)
        if text[:1] in (b'"', b"'") and len(text) >= 2:
            return text[:1] + blank(text[1:-1]) + text[-1:]
        return blank(text)

    return _NOT_CODE.sub(blanked, data)


class MacroCopies(NamedTuple):
    """The copies of a file a parse may be tried on, each (without every macro, without only the
    statement macros), None where there is nothing to blank: by the plain rules, and by the
    extended ones (`_statement_macros`). Made from one reading of the file: its code mask, ALL-CAPS
    words, function bodies and decoration words serve all four."""

    plain: tuple[bytes | None, bytes | None]
    extended: tuple[bytes | None, bytes | None]


def blank_macros(data: bytes, deadline: Deadline | None = None, *, extended: bool = False) -> bytes | None:
    """`data` with its decoration and statement macros blanked; None when it has none. `extended`:
    the access-label, next-line-block and after-template macros too (`_statement_macros`).

    >>> blank_macros(b"class FOO_API Widget {};\\nFOO_API int f() FOO_NOEXCEPT;\\n")
    b'class         Widget {};\\n        int f()             ;\\n'
    """
    copies = macro_copies(data, deadline)
    return (copies.extended if extended else copies.plain)[0]


def blank_statement_macros(
    data: bytes, deadline: Deadline | None = None, *, extended: bool = False
) -> bytes | None:
    """`data` with only its statement macros blanked (`FOO_END_EXPORT` alone on its line); None when
    it has none. The fewer edits of the two copies: what a grammar reads when the copy without the
    decorations too parses worse than the file as written.

    >>> blank_statement_macros(b"#define FOO_API\\nFOO_API int f();\\nFOO_END\\nint g();\\n")
    b'#define FOO_API\\nFOO_API int f();\\n       \\nint g();\\n'
    """
    copies = macro_copies(data, deadline)
    return (copies.extended if extended else copies.plain)[1]


_NO_COPIES = MacroCopies((None, None), (None, None))


def macro_copies(data: bytes, deadline: Deadline | None = None) -> MacroCopies:
    """Every copy of `data` a parse may be tried on (MacroCopies), from one reading of it."""
    if not _CAPS_WORD.search(data):
        return _NO_COPIES
    code = code_mask(data)
    caps = [match.span() for match in _CAPS_WORD.finditer(code)]
    if not caps:
        return _NO_COPIES
    bodies = _function_bodies(code)
    if deadline is not None:
        deadline.check("macros")
    words = decoration_words(data, code, bodies, caps)
    # A word this file defines to nothing or to specifiers stays a decoration before a `(` too:
    # `int f FOO_NOEXPAND(int)` is how a macro of the same name as `f` is kept from expanding.
    defined = {m.group(1) for m in _DEFINE.finditer(data)} - set(_FUNCTION_LIKE.findall(data))
    decorations = [
        (start, end)
        for start, end in caps
        if code[start:end] in words and not _used_as_name(code, start, end, code[start:end] in defined)
    ] + _placed_decorations(code, bodies)
    if deadline is not None:
        deadline.check("macros")
    out = []
    for extended in (False, True):
        statements = _statement_macros(code, bodies, caps, extended=extended)
        out.append((_edited(data, code, statements, decorations), _edited(data, code, statements, [])))
    return MacroCopies(*out)


def _edited(
    data: bytes, code: bytes, statements: list[tuple[int, int, bool]], decorations: list[tuple[int, int]]
) -> bytes | None:
    """`data` with `decorations` and the `statements` to blank blanked, and the statements to end
    ended; None when there is nothing to edit."""
    spans = [(start, end) for start, end, ended in statements if not ended] + decorations
    if not spans and not statements:
        return None
    out = bytearray(data)
    for start, end in spans:
        out[start:end] = blank(code[start:end])
    for start, end, ended in statements:
        if ended:  # one byte to the left, into its indentation, and its `;` after it
            out[start - 1 : end] = out[start:end] + b";"
    return bytes(out)


def decoration_words(
    data: bytes, code: bytes, bodies: list[tuple[int, int]], caps: list[tuple[int, int]]
) -> frozenset[bytes]:
    """The words `data` uses as declaration decorations, by the evidence in the module docstring.
    `code` is its `code_mask`, `bodies` its function bodies, `caps` the spans of its ALL-CAPS words."""
    words: set[bytes] = {m.group(1) for m in _DEFINE.finditer(data)}
    matches: list[tuple[re.Pattern[bytes], re.Match[bytes]]] = []
    for pattern in (_IN_CLASS_HEAD, _AFTER_PARAMETERS):
        matches.extend((pattern, match) for match in pattern.finditer(code))
    # The declaration patterns start at a line's start: only lines with an ALL-CAPS word are tried.
    lines = sorted({code.rfind(b"\n", 0, start) + 1 for start, _ in caps if not _inside(bodies, start)})
    for pattern in (_BEFORE_DECLARATION, _BEFORE_NAME, _BEFORE_CONSTRUCTOR):
        matches.extend((pattern, m) for line in lines if (m := pattern.match(code, line)) is not None)
    classes = {m.group(1) for m in _CLASS_NAMED.finditer(code)}
    for pattern, match in matches:
        group = 2 if pattern is _BEFORE_NAME else 1
        if _inside(bodies, match.start(group)):
            continue
        # `DWORD WINAPI f(`, `FOO_API HANDLE open(`: either ALL-CAPS word may be the type.
        typed = match.group(2 if pattern is _BEFORE_DECLARATION else 1)
        if pattern in (_BEFORE_DECLARATION, _BEFORE_NAME) and typed and _CAPS_ONLY.fullmatch(typed):
            continue
        if pattern is _AFTER_PARAMETERS and not _closes_parameters(code, match.start()):
            continue
        if pattern is _BEFORE_CONSTRUCTOR and match.group(2) not in classes:
            continue  # `BOOL Init(`: the word may be the type of a function
        words.update(_CAPS_WORD.findall(match.group(group)))
    return frozenset(words)


def _placed_decorations(code: bytes, bodies: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The spans of the decorations only their place proves (`_CALLED_IN_CLASS_HEAD`,
    `_IF_DECORATED`): the grammar took `FOO_VISIBILITY` for the class and lost the one named, and
    `if FOO_CONSTEXPR (` for an error that moved the rest of a class out of it."""
    heads = [
        match.span(1)
        for match in _CALLED_IN_CLASS_HEAD.finditer(code)
        if b"(" in match.group(1) and not _inside(bodies, match.start())
    ]
    return heads + [match.span(1) for match in _IF_DECORATED.finditer(code)]


def _statement_macros(
    code: bytes, bodies: list[tuple[int, int]], caps: list[tuple[int, int]], *, extended: bool = False
) -> list[tuple[int, int, bool]]:
    """The statement macros of `code`, as (start, end, ended): to blank (`FOO_TRY` of `FOO_TRY {`
    in a function body, `FOO_BEGIN_EXPORTS` alone on its line outside one, an unindented
    `FOO_CATCH(e)`), or, when `ended`, a call to end with the `;` it lacks (an indented
    `FOO_CATCH(e)` in a body: it moves one byte into its indentation, so it stays a call).

    `extended` adds access labels (`FOO_PRIVATE_UNLESS_TESTED:`), a block macro whose `{` is on the
    next line and a macro alone after a template's head. Without them the grammar may lose a class
    at the first such line, but with them a class whose later text it cannot read (nlohmann/json's
    `basic_json`) may be lost whole: preproc.py keeps the copy whose parse holds more members."""
    found: list[tuple[int, int, bool]] = []
    work = bytearray(code)  # `code` with the macros found so far edited: one may follow another
    for start, end in caps:
        lead = code[code.rfind(b"\n", 0, start) + 1 : start].strip()
        label = _access_label(code, bodies, start, end, lead) if extended else None
        if label is not None:
            found.append(label)
            work[label[0] : label[1]] = b" " * (label[1] - label[0])
            continue
        if lead and not lead.endswith(b"}"):
            continue  # neither first on its line nor after a block's `}` (`} FOO_CATCH(e) {`)
        opener = code[end : end + 256].lstrip(b" \t\r")[:1] or b"\n"
        if extended and opener == b"\n" and code[end : end + 256].lstrip()[:1] == b"{":
            opener = b"{"  # `FOO_TRY` with its block's `{` on the next line
        if opener not in b"({\n" or (lead and opener != b"("):
            continue
        before = bytes(work[max(start - 256, 0) : start]).rstrip()
        if (
            before
            and before[-1] not in _STATEMENT_ENDS
            and not (extended and _after_template_head(work, start))
        ):
            continue  # a continued expression: `x =\n FOO(y);`, not a template's head
        edit = _statement_span(code, bodies, start, end, opener, before.endswith(b"}"))
        if edit is None:
            continue
        found.append(edit)
        first, last, ended = edit
        if ended:
            work[first - 1 : last] = work[first:last] + b";"
        else:
            work[first:last] = b" " * (last - first)
    return found


def _after_template_head(code: bytearray, start: int) -> bool:
    """Whether a template's head (`template <typename T, ...>`, on one line or several) ends the
    code before `start`."""
    return bool(_TEMPLATE_HEAD.search(bytes(code[max(start - 1024, 0) : start]).rstrip()))


def _access_label(
    code: bytes, bodies: list[tuple[int, int]], start: int, end: int, lead: bytes
) -> tuple[int, int, bool] | None:
    """The span to blank when `code[start:end]` is a macro written as an access label in a class
    body (`FOO_PRIVATE_UNLESS_TESTED:`, `public FOO_SLOTS:`) alone on its line, else None. In a
    function body the same line is a `goto` label, which the grammar reads."""
    if lead not in (b"", b"public", b"private", b"protected") or _inside(bodies, start):
        return None
    label = _LABEL_END.match(code, end)
    if label is None:
        return None
    return (start, end, False) if lead else (start, label.end(), False)


def _statement_span(
    code: bytes, bodies: list[tuple[int, int]], start: int, end: int, opener: bytes, after_block: bool
) -> tuple[int, int, bool] | None:
    """What to do with the statement macro `code[start:end]` followed by `opener`, as
    `_statement_macros` returns it, or None when it is none."""
    in_body = _inside(bodies, start)
    if opener == b"{":
        return (start, end, False) if in_body else None  # `FOO_TRY {`
    if opener != b"(":
        # `FOO_BEGIN_EXPORTS` alone on its line, not the type of `DWORD\nGetValue(void)`.
        if not in_body and _starts_statement(code, end) and not _DECLARATOR.match(code, end):
            return start, end, False
        return None
    close = _closing(code, end)
    if close < 0:
        return None
    if after_block and in_body and code[close + 1 : close + 64].lstrip().startswith(b"{"):
        return start, close + 1, False  # `} FOO_CATCH(e) {`
    line_end = code.find(b"\n", close)
    line_end = len(code) if line_end < 0 else line_end
    if code[close + 1 : line_end].strip() or not _starts_statement(code, line_end):
        return None  # `FOO(x);`, `FOO(x) {`, `FOO(a)\n  << b;`: the grammar reads those
    indented = start > 0 and code[start - 1 : start] in (b" ", b"\t")
    return start, close + 1, in_body and indented


def _starts_statement(code: bytes, at: int) -> bool:
    """Whether what follows `at` (after blanks) may start a statement: a name, `}` or the end."""
    return bool(_NEXT_STATEMENT.match(code, at))


def _closing(code: bytes, opening: int) -> int:
    """The offset of the `)` matching the `(` at `opening`; -1 when it is not closed nearby."""
    depth = 0
    for at in range(opening, min(len(code), opening + 4096)):
        char = code[at]
        if char == 0x28:  # (
            depth += 1
        elif char == 0x29:  # )
            depth -= 1
            if depth == 0:
                return at
        elif char in (0x7B, 0x7D, 0x3B):  # { } ;: a statement, not an argument list
            return -1
    return -1


def _used_as_name(code: bytes, start: int, end: int, defined: bool = False) -> bool:
    """Whether the word at code[start:end] is called (unless `defined` as an object-like macro),
    qualified or a member: `FOO(`, `FOO::`, `.FOO`."""
    after = code[end : end + 64].lstrip()
    if after.startswith(b"::") or (after.startswith(b"(") and not defined):
        return True
    before = code[max(start - 64, 0) : start].rstrip()
    return before.endswith((b".", b"->", b"::"))


def _closes_parameters(code: bytes, close: int) -> bool:
    """Whether the `)` at `close` ends a parameter list: its `(` follows a name (not `if`, `sizeof`),
    a template's `>` or another `)` (`operator()(`), not an operator (a cast: `= (void *) NULL`)."""
    depth = 0
    at = close
    while at >= max(close - 4096, 0):
        char = code[at]
        if char == 0x29:  # )
            depth += 1
        elif char == 0x28:  # (
            depth -= 1
            if depth == 0:
                break
        at -= 1
    if depth != 0:
        return False
    before = code[max(at - 64, 0) : at].rstrip()
    if not before or not (before[-1:].isalnum() or before[-1:] in (b"_", b">", b")")):
        return False
    word = re.search(rb"\w+$", before)
    return word is None or word.group(0) not in _NOT_DECLARATORS


def _function_bodies(code: bytes) -> list[tuple[int, int]]:
    """The outermost brace spans of `code` that are not a namespace, class, `extern "C"` or enum
    body (function bodies, initializers, lambdas), as sorted (start, end) pairs."""
    spans: list[tuple[int, int]] = []
    stack: list[tuple[int, bool]] = []  # (where the brace opened, it is a scope's)
    in_body = 0  # how many of the open braces are not a scope's
    head_start = 0
    for match in re.finditer(rb"[{};]", code):
        char = match.group(0)
        at = match.start()
        if char == b"{":
            is_scope = not in_body and bool(_SCOPE_HEAD.search(code[max(head_start, at - 512) : at]))
            stack.append((at, is_scope))
            in_body += not is_scope
        elif char == b"}" and stack:
            opened, is_scope = stack.pop()
            in_body -= not is_scope
            if not is_scope and not in_body:
                spans.append((opened, at + 1))
        head_start = at + 1
    first_open = next((opened for opened, scope in stack if not scope), None)
    if first_open is not None:  # an unclosed body runs to the end
        spans.append((first_open, len(code)))
    return spans


def _inside(spans: list[tuple[int, int]], offset: int) -> bool:
    low, high = 0, len(spans)
    while low < high:
        middle = (low + high) // 2
        if spans[middle][1] <= offset:
            low = middle + 1
        else:
            high = middle
    return low < len(spans) and spans[low][0] <= offset
