"""Classified definitions -> node drafts: names, ids, doc comments, signatures and text.

Owns: the qualified name, ordinal and part-0 uid of each definition; the doc comment above it (or
the Python docstring inside it), which also widens its span; its one-line signature; and its text,
with the bodies of the definitions nested in it elided (`{ ... }`, `=> ...` or `...`), so that
every line of the text is still the file's line. Does not own:
finding and classifying definitions (items.py), windowing drafts into nodes (chunks.py).
"""

from __future__ import annotations

import re

from indexlib.declaration import MAX_ATTRIBUTE_RUN_CHARS, attribute_lines
from indexlib.engines.treesitter import Deadline, Node
from indexlib.index.parsing import tails
from indexlib.index.parsing.chunks import Draft, LineIndex
from indexlib.index.parsing.ids import node_uid
from indexlib.index.parsing.items import CONTAINER_VALUES, Item, constant_value, join_qualified
from indexlib.index.parsing.jsdefs import OBJECT_LANGUAGES, at_module_level, chain_top
from indexlib.index.parsing.specs import MACROS, SPECIFIERS, Spec
from indexlib.index.parsing.text import Source, clean_comment, collapse, python_string
from indexlib.records import (
    BRACED_BODY,
    EXPRESSION_BODY,
    MAX_SIGNATURE_CHARS,
    OTHER_BODY,
    VALUE_KINDS,
    NodeKind,
)

_CALLABLES = (NodeKind.FUNCTION.value, NodeKind.METHOD.value)
_CONSTANT = NodeKind.CONSTANT.value
_FUNCTION = NodeKind.FUNCTION.value
# Declarations of one member whose modifiers belong in its signature (C# fields and events, PHP consts).
_MEMBER_DECLARATIONS = frozenset({"field_declaration", "event_field_declaration", "const_declaration"})


def name_definitions(
    src: Source,
    defs: list[Item],
    path: str,
    spec: Spec,
    language: str,
    lines: LineIndex,
    deadline: Deadline,
    directives: frozenset[int] = frozenset(),
) -> dict[str, Item]:
    """Give each definition its qualified name, ordinal, uid (part 0) and doc; the containers by name.

    Also records each definition among its owner's children, so the owner's text can elide it.
    `directives` are the 0-based rows of blanked preprocessor lines (preproc.py), which do not
    part a doc comment from what it documents.
    """
    data = src.data
    ordinals: dict[tuple[str, str], int] = {}
    by_qualified: dict[str, Item] = {}
    for count, item in enumerate(defs):
        if count & 255 == 255:
            deadline.check("definitions")  # `prev_sibling` also costs depth per call
        item.qualified_name = join_qualified(item.qualifier + item.names)
        key = (item.qualified_name, item.kind)
        item.ordinal = ordinals.get(key, 0)
        ordinals[key] = item.ordinal + 1
        item.uid = node_uid(path, item.qualified_name, item.kind, item.ordinal, 0)
        if item.kind in CONTAINER_VALUES or (language in OBJECT_LANGUAGES and _holds_members(item)):
            by_qualified.setdefault(item.qualified_name, item)
        prefix_start, comments = leading_comments(item.outer, spec, data, directives)
        item.start = min(item.start, prefix_start)
        item.doc_start = comments[0].start_byte if comments else item.start
        # The doc comment above a definition is part of it: its range, snippet and text.
        item.start = min(item.start, item.doc_start)
        if language == "python":
            item.doc = python_docstring(src, item.body)
        if not item.doc and comments:
            item.doc = clean_comment((src(c) for c in comments), language)
        trailing = _trailing_doc(item.outer, spec) if item.kind in VALUE_KINDS else None
        if trailing is not None:  # `Timeout time.Duration // how long to wait`
            item.doc = item.doc or clean_comment([src(trailing)], language)
            item.end = max(item.end, trailing.end_byte)
        item.start_line = lines.line_of(item.start)
        if item.owner is not None:
            item.owner.children.append(item)
    return by_qualified


def _trailing_doc(outer: Node, spec: Spec) -> Node | None:
    """The comment that ends the line of a one-line constant or field: part of its node (its line is
    then shown whole) and its doc when nothing above documents it, as Go writes a field's doc after
    it as often as above it (`Timeout time.Duration // how long to wait`, Python `X = 1  # why`). A
    statement that holds the declaration and ends with it (Python's `expression_statement`, a Go
    `const` of one spec) is where the comment follows."""
    if outer.start_point.row != outer.end_point.row:
        return None
    node = outer
    while node.next_sibling is None and node.parent is not None and node.parent.end_byte == node.end_byte:
        node = node.parent
    following = node.next_sibling
    if (
        following is not None
        and following.type in (",", ";")
        and following.start_point.row == outer.end_point.row
    ):
        following = following.next_sibling  # Rust's `Batch, // why`: the comment follows the comma
    if following is None or following.type not in spec.comments:
        return None
    return following if following.start_point.row == outer.end_point.row else None


def _holds_members(item: Item) -> bool:
    """A module-level object or constructor that assigned members belong to: `var res = ...` for
    `res.send = function`, `function View()` for `View.prototype.render = function`. Module level
    only: a name declared in a function or a callback is one of many (each test its own `View`)."""
    if item.owner is not None or item.alias_of is not None or item.kind not in (_CONSTANT, _FUNCTION):
        return False
    return at_module_level(item.outer)


def _may_attach(member: Item, container: Item) -> bool:
    """A type takes its members wherever they are written (`impl`, `A::m`); a module-level object
    only those assigned at module level, where its name cannot be another's (`_holds_members`)."""
    return container.kind in CONTAINER_VALUES or at_module_level(member.outer)


def definition_drafts(
    defs: list[Item], by_qualified: dict[str, Item], data: bytes, text: bytes, language: str, lines: LineIndex
) -> list[Draft]:
    """One draft per named definition, in `defs` order; its parent is its owner or attached container.

    Signatures are read from `data` (what was parsed), node text from `text` (the file as written)."""
    drafts: list[Draft] = []
    for item in defs:
        parent_uid = item.owner.uid if item.owner is not None else 0
        if parent_uid == 0 and item.attach:
            container = by_qualified.get(item.attach)
            if container is not None and container is not item and _may_attach(item, container):
                parent_uid = container.uid
        node_text = elided(text, item.start, item.end, member_holes(item, data))
        item.end_line = lines.line_of(max(item.end - 1, item.start))
        drafts.append(
            Draft(
                kind=item.kind,
                name=item.names[-1],
                qualified_name=item.qualified_name,
                start_byte=item.start,
                end_byte=item.end,
                start_line=item.start_line,
                end_line=item.end_line,
                text=node_text,
                signature=signature_of(item, data, language),
                doc=item.doc,
                ordinal=item.ordinal,
                parent_uid=parent_uid,
            )
        )
    return drafts


def member_holes(item: Item, data: bytes) -> list[tuple[int, int, str]]:
    """What a container's text leaves out of its members, in source order: each one's body (or
    multi-line constant value), elided to a marker.

    Its members' doc comments stay: a class's text then reads as its outline, each member's
    signature under its doc, which is what a question about the class as a whole matches. (Blanking
    them was measured: it left module wrappers in answers as often as before, and questions without
    their own doc found their file less often, the class outline being the file's summary.)"""
    holes: list[tuple[int, int, str]] = []
    for child in item.children:
        body = child.body
        if body is None and child.kind in VALUE_KINDS:
            body = constant_value(child.node)  # `MIME_TYPES = { ... }` in a class
        if body is None or body.end_byte <= body.start_byte:
            continue
        body_bytes = data[body.start_byte : body.start_byte + 8]
        # A body the grammar runs on past its member (tails.py) is elided only to the member's end.
        holes.append((_body_start(body), min(body.end_byte, child.end), elision_marker(body_bytes)))
    return holes


# Comment node types of every grammar (specs.py).
_COMMENT_TYPES = frozenset({"comment", "line_comment", "block_comment"})


def _body_start(body: Node) -> int:
    """Where a member's elided body starts: at the comments between its header and its body node.
    A Ruby body node starts at its first statement, and the comments above that statement (a nested
    definition's doc, or the body's own first lines) are children of the definition, not the body."""
    start = body.start_byte
    sibling = body.prev_sibling
    while sibling is not None and sibling.type in _COMMENT_TYPES:
        start = sibling.start_byte
        sibling = sibling.prev_sibling
    return start


def _starts_line(data: bytes, offset: int) -> bool:
    line_start = data.rfind(b"\n", 0, offset) + 1
    return not data[line_start:offset].strip()


def leading_comments(
    outer: Node, spec: Spec, data: bytes, directives: frozenset[int] = frozenset()
) -> tuple[int, list[Node]]:
    """(start of the span including prefix siblings, the doc comment nodes above it, top first).

    Rows in `directives` (blanked `#if` lines) between a comment and the definition are skipped.
    A comment must touch the definition, or the comment below it, except the nearest one when it is
    the grammar's doc block (`/**`: JSDoc binds a comment to what follows it, whatever blank lines
    part them) and no file-level comment (`_detached_doc`)."""
    start = outer.start_byte
    row = outer.start_point.row
    sibling = outer.prev_sibling
    while sibling is not None and sibling.type in spec.prefixes and sibling.end_point.row >= row - 1:
        start = sibling.start_byte
        row = sibling.start_point.row
        sibling = sibling.prev_sibling
    floor: int | None = None  # comments taken from the tail of the definition above: no deeper
    if sibling is not None and sibling.type in spec.trailing_comments:
        sibling = _trailing_comment(sibling, spec) or sibling
    elif sibling is not None and sibling.type not in spec.comments:
        tail = tails.tail_comment(sibling, spec.comments, data)  # Scala: in the block above (tails.py)
        if tail is not None:
            floor = tails.indentation(data, sibling.start_byte)
            sibling = tail
    if sibling is None and outer.parent is not None and outer.parent.type == "body_statement":
        # Ruby: a comment above the first statement of a body is the body's sibling, not the statement's.
        sibling = outer.parent.prev_sibling
    comments: list[Node] = []
    while sibling is not None and sibling.type in spec.comments:
        end_row = sibling.end_point.row
        if sibling.end_point.column == 0 and end_row > sibling.start_point.row:
            end_row -= 1  # a line comment that owns its newline (Rust) ends on its own line
        while row - 1 in directives:
            row -= 1
        if not _starts_line(data, sibling.start_byte):
            break
        if floor is not None and tails.indentation(data, sibling.start_byte) > floor:
            break  # the block's own comment, above the outdented ones
        if end_row < row - 1 and (comments or not _detached_doc(sibling, spec, data)):
            break
        if data[sibling.start_byte : sibling.start_byte + 3] in (b"//!", b"/*!"):
            break  # an inner doc comment documents the enclosing module, not the next item
        comments.append(sibling)
        row = sibling.start_point.row
        sibling = sibling.prev_sibling
    comments.reverse()
    return start, comments


def _trailing_comment(node: Node, spec: Spec) -> Node | None:
    """The comment a grammar ends `node` with, a few levels down: Kotlin's parser makes the doc
    comment below the imports a child of the last import (`import_list`, `import_header`)."""
    last = node
    for _depth in range(4):
        if not last.child_count:
            return None
        last = last.child(last.child_count - 1)
        if last is None:
            return None
        if last.type in spec.comments:
            return last
    return None


# What marks a comment as the file's, not the next definition's: a licence or a JSDoc file-level tag
# (`@file`, `@module`), or a comment that documents a type of its own (`@typedef`, `@callback`).
_FILE_COMMENT = re.compile(
    rb"@(?:license|preserve|copyright|file|fileoverview|overview|module|typedef|callback)\b"
    rb"|\bcopyright\b|SPDX-License-Identifier",
    re.IGNORECASE,
)


def _detached_doc(comment: Node, spec: Spec, data: bytes) -> bool:
    """Whether a comment parted from the next definition by blank lines still documents it: a doc
    block (`/**`, not a `/***` banner) that is not a file-level comment (`_FILE_COMMENT`)."""
    opening = spec.doc_block
    text = data[comment.start_byte : comment.end_byte]
    if not opening or not text.startswith(opening) or text[len(opening) : len(opening) + 1] == b"*":
        return False
    return _FILE_COMMENT.search(text) is None


def python_docstring(src: Source, body: Node | None) -> str:
    """The string literal that opens a Python block (or module), if any."""
    # `named_child(0)`, not `named_children`: a body can be long. It raises on an empty body.
    child = body.named_child(0) if body is not None and body.named_child_count else None
    while child is not None and child.type == "comment":
        child = child.next_named_sibling
    if child is not None and child.type == "expression_statement" and child.named_child_count == 1:
        child = child.named_child(0)
    if child is not None and child.type == "string":
        return python_string(src, child)
    return ""


def signature_of(item: Item, data: bytes, language: str) -> str:
    node = item.node
    start = node.start_byte
    prefix = ""
    lead = b""  # the modifiers and type a C# field or PHP const declarator shares with its siblings
    if node.type in ("type_spec", "type_alias") and language == "go":
        prefix = "type "
    elif node.type in ("const_spec", "var_spec"):
        prefix = "const " if node.type == "const_spec" else "var "
    elif node.type in ("variable_declarator", "const_element") and _member_declaration(node) is not None:
        lead = _shared_lead(node, data)  # `public const int Max = 3`, `final public const B = 2`
    elif node.type == "variable_declarator" and node.parent is not None:
        start = node.parent.start_byte  # `const sleep = (ms) =>`, `const Foo = class`
    elif (
        node.type == "assignment_statement"
        and node.parent is not None
        and node.parent.type == "variable_declaration"
    ):
        start = node.parent.start_byte  # Lua `local noop = function()`
    elif node.type == "assignment_expression" and item.alias_of is None:
        start = chain_top(node).start_byte  # the first name of `a.x = a.y = function (v)`: the chain
    elif (
        node.type in SPECIFIERS and item.outer.type == "type_definition" and node.child_by_field_name("name")
    ):
        # `typedef struct cJSON {`: signed as written, so the declaration is found by its signature
        # and not by a member line `struct cJSON *next;` that `struct cJSON` alone is the head of.
        start = item.outer.start_byte
    if node.type in MACROS:
        return _macro_signature(data[start : node.end_byte])
    if node.type == "macro_definition":  # its rules are its body
        return f"macro_rules! {item.names[-1]}"
    if node.type == "enum_variant":
        return _variant_signature(node, data)
    body = item.body
    header_end = body.start_byte if body is not None and body.start_byte >= start else node.end_byte
    start = _past_annotation_lines(data, start, header_end)  # `@Override`, `[Fact]` lines above it
    if body is not None and body.start_byte >= start:
        raw = data[start : body.start_byte]
    elif item.kind in _CALLABLES:
        raw = data[start : node.end_byte]  # a bodiless declaration: the whole header, however wrapped
    else:
        end = data.find(b"\n", start, node.end_byte)
        raw = data[start : end if end != -1 else node.end_byte]
    if body is None:
        for stop in (b";", b"{"):
            cut = raw.find(stop)
            if cut > 0:
                raw = raw[:cut]
    text = (lead + raw).decode("utf-8", "replace")
    if language == "ruby":  # the body of a class or method starts at its first comment, if any
        text = _RUBY_COMMENT.sub("", text)
    elif language in _COMMENTED_HEADERS:  # a comment between a Kotlin class and its constructor
        text = _C_COMMENT.sub("", text)
    elif language == "lua":  # `function M.load(opts) ---@type X`: the body's first comment
        text = _LUA_COMMENT.sub("", text)
    signature = collapse(text)
    if (
        node.type in SPECIFIERS
        and item.outer.type == "type_definition"
        and node.child_by_field_name("name") is None
    ):
        signature = f"typedef {signature} {item.names[-1]}"  # `typedef enum { ... } status`
    if language == "python":
        signature = signature.rstrip(":").rstrip()
    elif language in ("ruby", "scala"):
        signature = signature.rstrip("=").rstrip()  # `def build(items) = new(items)`
    signature = signature.rstrip("{").rstrip()
    if node.type == "call_expression":
        signature = signature.rstrip(",").rstrip()  # `Object.defineProperty(req, 'x',` and a descriptor
    return (prefix + signature)[:MAX_SIGNATURE_CHARS]


def _variant_signature(node: Node, data: bytes) -> str:
    """A Rust enum variant as written (`Move { x: i32, y: i32 }`, `Code(u16) = 3`), only its name
    when its fields span several lines."""
    fields = node.child_by_field_name("body")
    end = (
        fields.start_byte
        if fields is not None and node.start_point.row != node.end_point.row
        else node.end_byte
    )
    return collapse(data[node.start_byte : end].decode("utf-8", "replace"))[:MAX_SIGNATURE_CHARS]


_DEFINE = re.compile(r"^#\s*define\s+")


def _macro_signature(raw: bytes) -> str:
    """A `#define`'s first line, spelled `#define NAME...` (`#  define` is how nesting is indented)."""
    line = raw.split(b"\n", 1)[0].decode("utf-8", "replace").rstrip("\r").rstrip("\\")
    return _DEFINE.sub("#define ", collapse(line))[:MAX_SIGNATURE_CHARS]


# Languages whose headers may hold comments (a Kotlin class's header and its primary constructor
# apart), and such a comment: a block, or `//` at a line's start or after a blank (not `http://`).
_COMMENTED_HEADERS = frozenset({"kotlin", "swift", "scala"})
_LUA_COMMENT = re.compile(r"--[^\n]*")
_C_COMMENT = re.compile(r"/\*.*?\*/|(?:^|(?<=\s))//[^\n]*", re.DOTALL | re.MULTILINE)


def _past_annotation_lines(data: bytes, start: int, end: int) -> int:
    """Where a declaration's first line is, past whole lines of annotations or attributes above it
    (`@Override`, `@Retention(RUNTIME)`, C# `[Fact]`, PHP `#[Pure]`, and `@Deprecated(` with its
    arguments on the lines below; `declaration.attribute_lines`), when some of the declaration
    follows them: a signature is the declaration's own line, as Python's (past its decorators) and
    Rust's (past its `#[...]`) are, and as the line a hit is shown by is."""
    head = data[start : min(end, start + MAX_ATTRIBUTE_RUN_CHARS)].decode("utf-8", "surrogateescape")
    past = start + len(head[: attribute_lines(head)].encode("utf-8", "surrogateescape"))
    if past == start or _NON_BLANK.search(data, past, end) is None:
        return start  # nothing of the declaration follows: these are not its attributes
    return past


_NON_BLANK = re.compile(rb"\S")


# A Ruby comment: from a `#` at a line's start or after a blank (not `#{` interpolation) to its end.
_RUBY_COMMENT = re.compile(r"(?:^|(?<=\s))#(?!\{)[^\n]*", re.MULTILINE)


def _member_declaration(declarator: Node) -> int | None:
    """Where the C# field or event, or PHP const, declaring `declarator` starts after its attributes
    (so the signature has the modifiers: `public const int Max = 3`); None for other declarators."""
    declaration = declarator.parent
    if declaration is not None and declaration.type == "variable_declaration":
        declaration = declaration.parent
    if declaration is None or declaration.type not in _MEMBER_DECLARATIONS:
        return None
    for child in declaration.children:
        if child.type not in ("attribute_list", "attribute_group", "comment"):
            return child.start_byte
    return declaration.start_byte


def _shared_lead(declarator: Node, data: bytes) -> bytes:
    """The text before the first declarator of `declarator`'s declaration: `public const int `."""
    start = _member_declaration(declarator)
    parent = declarator.parent
    first = next((c for c in parent.named_children if c.type == declarator.type), None) if parent else None
    if start is None or first is None or first.start_byte < start:
        return b""
    return data[start : first.start_byte]


def elision_marker(body_text: bytes) -> str:
    """What stands in for an elided body: `{ ... }`, `=> ...` (C# expression bodies) or `...`."""
    head = body_text.lstrip()[:2]
    if head.startswith(b"{"):
        return BRACED_BODY
    if head.startswith(b"=>"):
        return EXPRESSION_BODY
    return OTHER_BODY


def elided(data: bytes, start: int, end: int, holes: list[tuple[int, int, str]]) -> str:
    """data[start:end] decoded, each hole replaced by its marker plus the newlines it held."""
    if not holes:
        return data[start:end].decode("utf-8", "replace")
    pieces: list[str] = []
    at = start
    for hole_start, hole_end, marker in holes:
        if hole_start < at or hole_end > end:
            continue
        pieces.append(data[at:hole_start].decode("utf-8", "replace"))
        pieces.append(marker)
        pieces.append("\n" * data.count(b"\n", hole_start, hole_end))
        at = hole_end
    pieces.append(data[at:end].decode("utf-8", "replace"))
    return "".join(pieces)
