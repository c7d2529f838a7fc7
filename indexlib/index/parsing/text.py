"""Text helpers shared by definition and reference extraction.

Owns: slicing a node's source from the file bytes, normalising a callee or type as written into a
dotted target (a C# type's with its generic arity), stripping comment markers from doc comments, and
reading a string literal (a Python one's value; the first under a node).
Knows no language's grammar beyond those spellings.
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Iterable
from typing import TYPE_CHECKING

from indexlib.records import EXPRESSION_RECEIVER, INDEXED

if TYPE_CHECKING:
    from indexlib.engines.treesitter import Node

MAX_TARGET_CHARS = 200


class Source:
    """Node -> its source text, sliced from the file's bytes.

    Why not `Node.text`: a tree parsed through a read callback (the only form with a timeout) keeps
    no source, and `Node.text` on it crashes py-tree-sitter 0.26.1.
    """

    __slots__ = ("data",)

    def __init__(self, data: bytes) -> None:
        self.data = data

    def __call__(self, node: Node | None) -> str:
        if node is None:
            return ""
        return self.data[node.start_byte : node.end_byte].decode("utf-8", "replace")

    def code(self, node: Node | None) -> str:
        """A callee's text without the comments inside it. Why: a method chain may hold a comment
        line between two calls (`.follow_links(x)` / `// why` / `.max_depth(d)`), and its words
        were read as names, making a target such as `follow_linksNoneedtocheck....max_depth`."""
        text = self(node)
        if node is None or not any(mark in text for mark in _COMMENT_MARKS):
            return text
        out, at, stack, seen = bytearray(), node.start_byte, [node], 0
        comments: list[Node] = []
        while stack and seen < _MAX_CODE_NODES:
            current, seen = stack.pop(), seen + 1
            if "comment" in current.type:
                comments.append(current)
            else:
                stack.extend(current.children)
        for comment in sorted(comments, key=lambda c: c.start_byte):
            out += self.data[at : comment.start_byte]
            at = max(at, comment.end_byte)
        out += self.data[at : node.end_byte]
        return out.decode("utf-8", "replace")


_SIMPLE_TARGET = re.compile(r"[A-Za-z_][\w.]*")
_SIMPLE_DOLLAR_TARGET = re.compile(r"[A-Za-z_$][\w.$]*")
_NUMBERED = re.compile(r"^\d+(?:\[\])?\.(?=.)")  # `$0.close`'s head as normalize_target leaves it
_TRAILING_NAME = re.compile(r"[\w.]+$")
_TRAILING_DOLLAR_NAME = re.compile(r"[\w.$]+$")
_LONG_CALLEE = 1000
_COMMENT_MARKS = ("//", "/*", "#", "--")  # a comment may open so, in one language or another
_MAX_CODE_NODES = 2000  # syntax nodes of one callee walked for comments; past that, some are kept
_OPENERS = {"(": ")", "[": "]", "{": "}"}


def normalize_target(text: str, dollar: bool = False, indexed: bool = False) -> str:
    """A callee or type as written, minus arguments, generics, sigils and whitespace; "." separated.
    With `dollar` (languages.DOLLAR_LANGUAGES), `$` is part of a name, not a sigil. With `indexed` (a
    callee), a name indexed before a member is read on it keeps the mark `[]` (INDEXED): the member
    is its element's (`xs[i].close` -> `xs[].close`), not the collection's, whose `close` it is not.

    >>> normalize_target("self.client.get(url).json"), normalize_target("std::make_unique<Foo>")
    ('self.client.get.json', 'std.make_unique')
    >>> normalize_target("core.$constructor<T>", dollar=True), normalize_target("$this->run")
    ('core.$constructor', 'this.run')
    >>> normalize_target("self.items[k].close", indexed=True), normalize_target("fs[i]", indexed=True)
    ('self.items[].close', 'fs')
    """
    if (_SIMPLE_DOLLAR_TARGET if dollar else _SIMPLE_TARGET).fullmatch(text):
        return text[:MAX_TARGET_CHARS]
    if len(text) > _LONG_CALLEE:
        # A function literal called in place, or a chain with long arguments: only the trailing
        # name chain (`}).then` -> `then`) means anything, and scanning it all would be quadratic.
        trailing = _TRAILING_DOLLAR_NAME if dollar else _TRAILING_NAME
        tail = trailing.search(text[-MAX_TARGET_CHARS:].replace("::", ".").replace("->", "."))
        return tail.group(0).strip(".") if tail else ""
    text = text.replace("::", ".").replace("->", ".").replace("?.", ".").replace("\\", ".")
    out: list[str] = []
    letters = "_.$" if dollar else "_."
    depth = 0  # inside (), [] or {}
    opened = ""  # the bracket the outermost group open now opened
    angle = 0  # inside <...> generics
    previous = ""
    for char in text:
        if char in _OPENERS:
            depth += 1
            opened = char if depth == 1 else opened
        elif char in ")]}":
            depth = max(depth - 1, 0)
            named = bool(out) and out[-1] not in (".", INDEXED)  # `xs[i]`, not `(a)[0]` nor `xs[i][j]`
            if indexed and named and opened == "[" and not (depth or angle):
                out.append(INDEXED)
        elif depth:
            pass
        elif char == "<" and (previous.isalnum() or previous in "_.>"):
            angle += 1
        elif char == ">" and angle:
            angle -= 1
        elif angle:
            pass
        elif char.isalnum() or char in letters or (char == "#" and previous in ("", ".")):
            out.append(char)  # `this.#retry`: a JavaScript private name keeps its `#`
        if not char.isspace():
            previous = char
    target = re.sub(r"\.{2,}", ".", "".join(out)).strip(".")
    target = target.removesuffix(INDEXED)  # `handlers[i](c)`: the element called, named by its collection
    return target[:MAX_TARGET_CHARS]


# Every byte a space but the line ends (`\n`, `\r`): a blanked copy keeps the file's rows and columns.
_BLANK = bytes(byte if byte in (10, 13) else 32 for byte in range(256))


def blank(data: bytes) -> bytes:
    """`data` with every byte but its line ends a space: parsed in place of what the grammar must not
    see (a macro, a directive, a component's template), it keeps every offset and line number."""
    return data.translate(_BLANK)


# A literal or bracketed value a callee may start with: a string (with Python's `f`/`b`/`r` prefix), a
# Ruby `%w(...)`/`%i[...]` list, or a group in brackets.
_LEADING_VALUE = re.compile(
    r"\s*(?:[rRbBuUfF]{0,2}(?P<quote>" + "|".join(['"""', "'''", '"', "'", "`"]) + r")"
    r"|%[qQwWiI]?(?P<open>[(\[{])|(?P<group>[(\[{]))"
)
_MEMBER_ACCESS = re.compile(r"\s*(?:\.|->|::|\?\.|&\.)")
_CONSTRUCTED = re.compile(r"\(\s*new\s+([A-Za-z_\\][\w.\\:]*)")  # `(new Foo(x))->bar()`: Foo's bar
# An unbracketed `new Foo(x).bar()`, `new Foo<T> { X = 1 }.Bar()` (Java, C#, JavaScript, PHP 8.4):
# the class constructed; none for an array or an anonymous object (`new[] { a }.Concat`, `new { A = 1 }`).
_NEW = re.compile(r"\s*new(?:\s+|(?=[\[{]))(?P<cls>[A-Za-z_\\$][\w.\\:$]*)?\s*")


def callee_target(text: str, dollar: bool = False) -> str:
    """normalize_target for a callee, whose receiver may be a value no name holds: `", ".join` ->
    `<expr>.join`, `(a or b).strip` -> `<expr>.strip` (EXPRESSION_RECEIVER), where normalize_target
    would leave a bare `join` (the literal's characters are no name) or, for `"a b".split`, `ab.split`.
    A bracketed `new Foo(...)` names its class: `(new Foo($x))->bar` -> `Foo.bar`.

    >>> callee_target('", ".join'), callee_target("[a, b].forEach"), callee_target("(new Foo(1))->bar")
    ('<expr>.join', '<expr>.forEach', 'Foo.bar')
    >>> callee_target("(a).b.c"), callee_target("[a][0].x"), callee_target("foo(x).bar")
    ('<expr>.b.c', '<expr>.x', 'foo.bar')

    A closure's anonymous parameter (Swift `$0.close`, `$1[2].name`) is no name either: its digits
    were read as a qualifier named `0`.

    >>> callee_target("$0.close"), callee_target("$1[2].name"), callee_target("self.items[k].close")
    ('<expr>.close', '<expr>.name', 'self.items[].close')
    """
    receiver, end = _constructed(text)
    if end > 0 and _MEMBER_ACCESS.match(text, end):
        rest = normalize_target(text[end:], dollar, indexed=True)
        return f"{normalize_target(receiver, dollar) or EXPRESSION_RECEIVER}.{rest}"[:MAX_TARGET_CHARS]
    m = _LEADING_VALUE.match(text)
    end = _value_end(text, m) if m else -1
    while end > 0 and (more := _LEADING_VALUE.match(text, end)) and more.group("group"):
        end = _value_end(text, more)  # `[a][0].x`, `(f)(x).y`: indexed or called, still a value
    if end < 0 or not _MEMBER_ACCESS.match(text, end):
        target = normalize_target(text, dollar, indexed=True)
        return _NUMBERED.sub(EXPRESSION_RECEIVER + ".", target, count=1)
    rest = normalize_target(text[end:], dollar, indexed=True)
    constructed = _CONSTRUCTED.match(text, m.start("group")) if m and m.group("group") else None
    receiver = normalize_target(constructed.group(1), dollar) if constructed else EXPRESSION_RECEIVER
    return f"{receiver}.{rest}"[:MAX_TARGET_CHARS] if rest else ""


def _constructed(text: str) -> tuple[str, int]:
    """(the class, where the expression ends) of a `new` expression `text` starts with, unbracketed:
    `new Foo(1).bar` -> ('Foo', 10); '' for an array or anonymous object; (.., -1) for no such start.
    Read as a name, `new Foo(1)` would prefix its class with the keyword (`newFoo.bar`)."""
    m = _NEW.match(text)
    if m is None:
        return "", -1
    cls, end = m.group("cls") or "", m.end()
    depth = 1 if text.startswith("<", end) else 0  # type arguments: `new Map<K, List<V>>()`
    while depth and end + 1 < len(text):
        end += 1
        depth += {"<": 1, ">": -1}.get(text[end], 0)
    end += 1 if text.startswith(">", end) else 0
    groups = 0
    while (more := _LEADING_VALUE.match(text, end)) and more.group("group"):
        cls = "" if more.group("group") == "[" else cls  # `new int[] {1, 2}`: an array, no object
        end, groups = _value_end(text, more), groups + 1
        if end < 0:
            return "", -1
    return cls, end if groups else -1


def _value_end(text: str, m: re.Match[str]) -> int:
    """Where the literal or bracketed group `m` opens ends in `text` (-1 when it does not close)."""
    quote = m.group("quote")
    if quote:
        at = m.end()
        while at < len(text):
            if text[at] == "\\":
                at += 2
            elif text.startswith(quote, at):
                return at + len(quote)
            else:
                at += 1
        return -1
    depth, at, inside = 0, m.end() - 1, ""
    while at < len(text):
        char = text[at]
        if inside:
            at += 2 if char == "\\" else 1
            inside = "" if char == inside else inside
            continue
        if char in "\"'`":
            inside = char
        elif char in _OPENERS:
            depth += 1
        elif char in ")]}":
            depth -= 1
            if depth == 0:
                return at + 1
        at += 1
    return -1


def strip_sigils(target: str) -> str:
    """Ruby `@ivar`/`$global` and PHP `$var` segments lose their sigil."""
    return target.replace("$", "").replace("@", "")


def absolute(written: str, target: str) -> str:
    """A PHP name written fully qualified (`\\App\\Utils::now()`, `extends \\Exception`) keeps its
    leading backslash (`\\App.Utils.now`): PHP reads it from the global namespace, while the same
    name written without it is relative to the file's namespace (graph/phpnames.py)."""
    return "\\" + target if target and written.lstrip().startswith("\\") else target


def collapse(text: str) -> str:
    return " ".join(text.split())


_CSHARP_XML_TAG = re.compile(r"</?[A-Za-z][^>]*>")


def clean_comment(parts: Iterable[str], language: str) -> str:
    """Comment nodes' text with markers (`/** */`, `///`, `//`, `#`, leading `*`) stripped and dedented."""
    lines: list[str] = []
    for part in parts:
        text = part.strip()
        if text.startswith("/*"):
            text = text[2:]
            text = text.lstrip("*!")
            if text.endswith("*/"):
                text = text[:-2]
            for line in text.split("\n"):
                stripped = line.strip()
                if stripped.startswith("*"):
                    stripped = stripped[1:]
                    line = stripped[1:] if stripped.startswith(" ") else stripped
                lines.append(line.rstrip())
        else:
            for line in text.split("\n"):
                stripped = line.strip()
                if stripped.startswith("//"):
                    stripped = stripped[2:].lstrip("/!")
                elif language == "lua" and stripped.startswith("--"):  # `---`, `--`, `--[[ ... ]]`
                    stripped = stripped.lstrip("-").removeprefix("[[").removesuffix("]]")
                elif stripped.startswith("#"):
                    stripped = stripped.lstrip("#")
                lines.append(stripped[1:] if stripped.startswith(" ") else stripped)
    doc = inspect.cleandoc("\n".join(lines))
    if language == "csharp":
        doc = inspect.cleandoc(_CSHARP_XML_TAG.sub("", doc))
    return doc.strip()


_STRING_PREFIX = re.compile(r"^[rRbBuUfF]*")


def python_string(src: Source, node: Node) -> str:
    text = _STRING_PREFIX.sub("", src(node))
    for quote in ('"""', "'''", '"', "'"):
        if text.startswith(quote) and text.endswith(quote) and len(text) >= 2 * len(quote):
            return inspect.cleandoc(text[len(quote) : -len(quote)])
    return ""


def split_name(text: str, dollar: bool = False) -> list[str]:
    """A written name as components: `a::b::C` -> ["a", "b", "C"] (`dollar`: as normalize_target)."""
    return [part for part in normalize_target(text, dollar).split(".") if part]


def with_arity(target: str, written: str) -> str:
    """A C# type's `target` with the number of type arguments written after its last name, as the
    CLR spells it (`new Policy<T>(...)` -> `Policy`1`; `Dictionary<string, List<int>>` -> `2`):
    `Policy` and `Policy<T>` are two types, and the resolver tells them apart by it. No suffix
    when none are written.

    >>> with_arity("Policy", "Policy<TResult>"), with_arity("A.B", "A<int>.B"), with_arity("D", "D<K, L<V>>?")
    ('Policy`1', 'A.B', 'D`2')
    """
    text = written.rstrip().rstrip("?").rstrip()
    if not target or not text.endswith(">"):
        return target
    depth, commas = 0, 0
    for ch in reversed(text):
        depth += {">": 1, "<": -1}.get(ch, 0)
        if depth == 0:
            break
        commas += ch == "," and depth == 1
    return f"{target}`{commas + 1}" if depth == 0 else target


STRING_TYPES = frozenset(
    {"string", "string_literal", "interpreted_string_literal", "raw_string_literal", "encapsed_string",
     "template_string", "system_lib_string"}
)  # fmt: skip


def first_string(src: Source, node: Node | None) -> str:
    """Content of the first string literal at or under `node` (breadth-first, bounded)."""
    if node is None:
        return ""
    queue = [node]
    seen = 0
    while queue and seen < 64:
        current = queue.pop(0)
        seen += 1
        if current.type in STRING_TYPES:
            text = src(current)
            if len(text) >= 2 and text[0] in "\"'`<" and text[-1] in "\"'`>":
                return text[1:-1]
            return text
        queue.extend(current.named_children)
    return ""
