"""Syntax tree -> symbol nodes and outgoing references, for every grammar qry parses.

Owns: what counts as a definition in each language (function, method, class, struct, interface,
enum, trait), its name, qualified name, signature, doc comment, parent and text; the module-level
remainder; and the references written in the code (calls, imports, inherits, implements). It does
not parse (treesitter.py), window or hash (chunks.py, ids.py), or resolve a reference to a node
(resolution is late, at query time: see `records.Ref`).

How: one tree-sitter query per language captures definitions, namespaces, call sites and imports in
C; Python then orders them by byte span (definitions nest, so a stack sweep gives each its syntactic
parent) and reads names, bodies and comments through node fields. That is cheaper than walking every
syntax node in Python, and works the same on deeply nested input because nothing here recurses.

Conventions (identical in every language):
- qualified_name joins the enclosing containers and namespaces with "." (`Server.handle`,
  `billing.StripeGateway.charge` for C++ `billing::StripeGateway::charge`, `Billing.Service.charge`
  for a Ruby module). Namespaces count when the file declares them (C++/C#/TS/PHP namespaces, Rust
  `mod` blocks, Ruby modules, C# `namespace X;` and PHP `namespace X;` for the rest of the file);
  packages (Go, Java) and Python modules do not: they are where the file is, not what it declares.
  Go methods are qualified by their receiver type, Rust `impl` methods by the impl's type, C++
  out-of-class definitions by their written qualifier; such a method's parent is the same-file
  container of that name when there is one. At most 32 components are kept (the innermost ones).
- A definition's span includes its decorators, `export`, `template <...>` and Rust attributes; its
  doc comment (or Python docstring) is in `doc`, not in the span.
- A node's text elides the bodies of the definitions nested in it (`def charge(...): ...`), keeping
  their newlines so every line of the text is still the file's line; the nested ones are their own
  nodes. The module node is the file with every top-level definition (and its doc comment) blanked
  the same way, trimmed to its first and last non-blank lines.
- Functions and methods need a body (an interface's method signatures stay in the interface's text);
  containers do not (`class Error < StandardError; end`).
- Call targets are the callee as written without arguments, generics, sigils or whitespace, with
  `::`, `->` and `?.` written as "." (`self.retry`, `Foo.new`, `std.make_unique`, `this.gateway.post`).
  Constructor calls name the type (`new Foo()` -> `Foo`). Rust macros are not calls.
- Import targets use "." for `::` and `\\` too (Rust `use a::b::C` -> `a.b.C`, PHP `use A\\B` -> `A.B`);
  `alias` is the local name the import binds, empty when it binds none (C `#include`, C# `using Ns;`,
  a side-effect JS import) or more than one name (`import a.b` binds `a`, not `a.b`).
"""

from __future__ import annotations

import inspect
import re
from bisect import bisect_right
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import PurePosixPath

from indexlib.parsing.chunks import Draft, LineIndex, finish
from indexlib.parsing.ids import node_uid
from indexlib.parsing.treesitter import Deadline, Node, Tree, captures
from indexlib.records import CONTAINER_KINDS, NodeKind, Ref, RefKind
from indexlib.records import Node as RecordNode

MAX_QUALIFIER_DEPTH = 32
MAX_SIGNATURE_CHARS = 500
MAX_TARGET_CHARS = 200

_FUNCTION = NodeKind.FUNCTION.value
_METHOD = NodeKind.METHOD.value
_CONTAINER_VALUES = frozenset(kind.value for kind in CONTAINER_KINDS)
_DEF_CAPTURES = {
    "function": _FUNCTION,
    "method": _METHOD,
    "class": NodeKind.CLASS.value,
    "struct": NodeKind.STRUCT.value,
    "interface": NodeKind.INTERFACE.value,
    "enum": NodeKind.ENUM.value,
    "trait": NodeKind.TRAIT.value,
}


# --------------------------------------------------------------------------------------------------
# Per-language tables


@dataclass(frozen=True, slots=True)
class Spec:
    """What extraction needs to know about one grammar."""

    query: str
    comments: frozenset[str]  # comment node types
    wrappers: frozenset[str] = frozenset()  # parents that belong to a definition's span
    prefixes: frozenset[str] = frozenset()  # preceding siblings that belong to it (Rust attributes)
    line_comment: tuple[str, ...] = ("//", "/*", "*")  # how a comment line starts (module trivia test)


_C_LIKE_COMMENTS = frozenset({"comment"})

_PYTHON = Spec(
    query="""
    (function_definition) @function
    (class_definition) @class
    (call) @call
    (import_statement) @import
    (import_from_statement) @import
    (future_import_statement) @import
    """,
    comments=frozenset({"comment"}),
    wrappers=frozenset({"decorated_definition"}),
    line_comment=("#",),
)

_JS_COMMON = """
    (function_declaration) @function
    (generator_function_declaration) @function
    (class_declaration) @class
    (method_definition) @method
    (variable_declarator name: (identifier) value: [(arrow_function) (function_expression) (generator_function)]) @function
    (variable_declarator name: (identifier) value: (class)) @class
    (assignment_expression left: (member_expression) right: [(arrow_function) (function_expression)]) @function
    (call_expression) @call
    (new_expression) @call
    (import_statement) @import
    (export_statement source: (_)) @import
"""
_JAVASCRIPT = Spec(
    query=_JS_COMMON
    + """
    (field_definition property: (_) value: [(arrow_function) (function_expression)]) @method
    """,
    comments=_C_LIKE_COMMENTS,
    wrappers=frozenset(
        {"export_statement", "lexical_declaration", "variable_declaration", "expression_statement"}
    ),
)
_TYPESCRIPT = Spec(
    query=_JS_COMMON
    + """
    (public_field_definition name: (_) value: [(arrow_function) (function_expression)]) @method
    (abstract_class_declaration) @class
    (interface_declaration) @interface
    (enum_declaration) @enum
    (internal_module) @scope
    """,
    comments=_C_LIKE_COMMENTS,
    wrappers=frozenset(
        {"export_statement", "lexical_declaration", "variable_declaration", "expression_statement"}
    ),
)
_GO = Spec(
    query="""
    (function_declaration) @function
    (method_declaration) @method
    (type_spec type: (struct_type)) @struct
    (type_spec type: (interface_type)) @interface
    (call_expression) @call
    (import_declaration) @import
    """,
    comments=_C_LIKE_COMMENTS,
    wrappers=frozenset({"type_declaration"}),
)
_JAVA = Spec(
    query="""
    (class_declaration) @class
    (record_declaration) @class
    (interface_declaration) @interface
    (annotation_type_declaration) @interface
    (enum_declaration) @enum
    (method_declaration) @method
    (constructor_declaration) @method
    (method_invocation) @call
    (object_creation_expression) @call
    (import_declaration) @import
    """,
    comments=frozenset({"line_comment", "block_comment"}),
)
_RUST = Spec(
    query="""
    (function_item) @function
    (struct_item) @struct
    (union_item) @struct
    (enum_item) @enum
    (trait_item) @trait
    (impl_item) @impl
    (mod_item body: (_)) @scope
    (mod_item !body) @import
    (extern_crate_declaration) @import
    (use_declaration) @import
    (call_expression) @call
    """,
    comments=frozenset({"line_comment", "block_comment"}),
    prefixes=frozenset({"attribute_item"}),
)
_C_QUERY = """
    (function_definition) @function
    (struct_specifier body: (_)) @struct
    (union_specifier body: (_)) @struct
    (enum_specifier body: (_)) @enum
    (call_expression) @call
    (preproc_include) @import
"""
_C = Spec(query=_C_QUERY, comments=_C_LIKE_COMMENTS, wrappers=frozenset({"type_definition"}))
_CPP = Spec(
    query=_C_QUERY
    + """
    (class_specifier body: (_)) @class
    (namespace_definition) @scope
    (new_expression) @call
    """,
    comments=_C_LIKE_COMMENTS,
    wrappers=frozenset({"type_definition", "template_declaration"}),
)
_CSHARP = Spec(
    query="""
    (class_declaration) @class
    (record_declaration) @class
    (struct_declaration) @struct
    (interface_declaration) @interface
    (enum_declaration) @enum
    (method_declaration) @method
    (constructor_declaration) @method
    (local_function_statement) @function
    (namespace_declaration) @scope
    (file_scoped_namespace_declaration) @scope
    (invocation_expression) @call
    (object_creation_expression) @call
    (using_directive) @import
    """,
    comments=_C_LIKE_COMMENTS,
)
_RUBY = Spec(
    query="""
    (method) @method
    (singleton_method) @method
    (class) @class
    (module) @scope
    (call) @call
    """,
    comments=_C_LIKE_COMMENTS,
    line_comment=("#",),
)
_PHP = Spec(
    query="""
    (function_definition) @function
    (method_declaration) @method
    (class_declaration) @class
    (interface_declaration) @interface
    (trait_declaration) @trait
    (enum_declaration) @enum
    (namespace_definition) @scope
    (function_call_expression) @call
    (member_call_expression) @call
    (nullsafe_member_call_expression) @call
    (scoped_call_expression) @call
    (object_creation_expression) @call
    (namespace_use_declaration) @import
    (require_expression) @import
    (require_once_expression) @import
    (include_expression) @import
    (include_once_expression) @import
    """,
    comments=_C_LIKE_COMMENTS,
    line_comment=("//", "#", "/*", "*"),
)

SPECS: dict[str, Spec] = {
    "python": _PYTHON,
    "javascript": _JAVASCRIPT,
    "typescript": _TYPESCRIPT,
    "tsx": _TYPESCRIPT,
    "go": _GO,
    "java": _JAVA,
    "rust": _RUST,
    "c": _C,
    "cpp": _CPP,
    "csharp": _CSHARP,
    "ruby": _RUBY,
    "php": _PHP,
}


# --------------------------------------------------------------------------------------------------
# Small text helpers


class _Src:
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


_SIMPLE_TARGET = re.compile(r"[A-Za-z_][\w.]*")
_TRAILING_NAME = re.compile(r"[\w.]+$")
_LONG_CALLEE = 1000
_OPENERS = {"(": ")", "[": "]", "{": "}"}


def normalize_target(text: str) -> str:
    """A callee or type as written, minus arguments, generics, sigils and whitespace; "." separated.

    >>> normalize_target("self.client.get(url).json"), normalize_target("std::make_unique<Foo>")
    ('self.client.get.json', 'std.make_unique')
    """
    if _SIMPLE_TARGET.fullmatch(text):
        return text[:MAX_TARGET_CHARS]
    if len(text) > _LONG_CALLEE:
        # A function literal called in place, or a chain with long arguments: only the trailing
        # name chain (`}).then` -> `then`) means anything, and scanning it all would be quadratic.
        tail = _TRAILING_NAME.search(text[-MAX_TARGET_CHARS:].replace("::", ".").replace("->", "."))
        return tail.group(0).strip(".") if tail else ""
    text = text.replace("::", ".").replace("->", ".").replace("?.", ".").replace("\\", ".")
    out: list[str] = []
    depth = 0  # inside (), [] or {}
    angle = 0  # inside <...> generics
    previous = ""
    for char in text:
        if char in _OPENERS:
            depth += 1
        elif char in ")]}":
            depth = max(depth - 1, 0)
        elif depth:
            pass
        elif char == "<" and (previous.isalnum() or previous in "_.>"):
            angle += 1
        elif char == ">" and angle:
            angle -= 1
        elif angle:
            pass
        elif char.isalnum() or char in "_.":
            out.append(char)
        if not char.isspace():
            previous = char
    target = re.sub(r"\.{2,}", ".", "".join(out)).strip(".")
    return target[:MAX_TARGET_CHARS]


def _strip_sigils(target: str) -> str:
    """Ruby `@ivar`/`$global` and PHP `$var` segments lose their sigil."""
    return target.replace("$", "").replace("@", "")


def _collapse(text: str) -> str:
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
                elif stripped.startswith("#"):
                    stripped = stripped.lstrip("#")
                lines.append(stripped[1:] if stripped.startswith(" ") else stripped)
    doc = inspect.cleandoc("\n".join(lines))
    if language == "csharp":
        doc = inspect.cleandoc(_CSHARP_XML_TAG.sub("", doc))
    return doc.strip()


_STRING_PREFIX = re.compile(r"^[rRbBuUfF]*")


def _python_string(src: _Src, node: Node) -> str:
    text = _STRING_PREFIX.sub("", src(node))
    for quote in ('"""', "'''", '"', "'"):
        if text.startswith(quote) and text.endswith(quote) and len(text) >= 2 * len(quote):
            return inspect.cleandoc(text[len(quote) : -len(quote)])
    return ""


# --------------------------------------------------------------------------------------------------
# Definitions


@dataclass(slots=True, eq=False)
class _Item:
    """A definition or a namespace-like scope found by the query, before it becomes a Node."""

    node: Node
    capture: str  # function, method, class, ..., scope, impl
    start: int  # outer span: includes decorators, export, attributes
    end: int
    names: list[str]  # written name; several components for `A::B`, `namespace A.B`
    is_scope: bool
    outer: Node
    kind: str = ""
    body: Node | None = None
    parent: _Item | None = None  # innermost enclosing item (definition or scope)
    owner: _Item | None = None  # innermost enclosing definition (what parent_uid points at)
    qualifier: list[str] = field(default_factory=list)
    attach: str = ""  # qualified container name for Go receivers, Rust impls, C++ `A::m`
    extra_qualifier: list[str] = field(default_factory=list)
    children: list[_Item] = field(default_factory=list)
    qualified_name: str = ""
    ordinal: int = 0
    doc: str = ""
    doc_start: int = -1
    uid: int = 0
    start_line: int = 0
    end_line: int = 0


def _declarator_name(src: _Src, node: Node | None) -> tuple[list[str], Node | None]:
    """C/C++ function name from a declarator chain: (components, the name node)."""
    guard = 0
    while node is not None and guard < 64:
        guard += 1
        kind = node.type
        if kind in ("identifier", "field_identifier", "destructor_name", "operator_name", "type_identifier"):
            return [src(node)], node
        if kind == "qualified_identifier":
            parts = [p for p in normalize_target(src(node)).split(".") if p]
            if src(node).split("::")[-1].strip().startswith("~"):
                parts[-1] = "~" + parts[-1]
            return parts or [src(node)], node
        if kind == "template_function":
            return [normalize_target(src(node.child_by_field_name("name")))], node
        node = node.child_by_field_name("declarator")
    return [], None


def _split_name(text: str) -> list[str]:
    return [part for part in normalize_target(text).split(".") if part]


def _names(src: _Src, node: Node, capture: str, language: str) -> list[str]:
    """The written name of a definition or scope, as components; [] when it has none."""
    kind = node.type
    if kind == "function_definition" and language in ("c", "cpp"):
        return _declarator_name(src, node.child_by_field_name("declarator"))[0]
    if kind in _SPECIFIERS:
        name = node.child_by_field_name("name")
        if name is None and node.parent is not None and node.parent.type == "type_definition":
            name = node.parent.child_by_field_name("declarator")
        return _split_name(src(name)) if name is not None else []
    if kind == "variable_declarator":
        return [src(node.child_by_field_name("name"))]
    if kind == "field_definition":
        return [src(node.child_by_field_name("property"))]
    if kind == "assignment_expression":  # `Foo.prototype.bar = function`, `exports.run = () =>`
        parts = _split_name(src(node.child_by_field_name("left")))
        if len(parts) >= 3 and parts[-2] == "prototype":
            return [parts[-3], parts[-1]]
        return parts[-1:]
    if kind == "impl_item":
        parts = _split_name(src(node.child_by_field_name("type")))
        return parts[-1:]
    if capture == "scope":
        name = node.child_by_field_name("name")
        return _split_name(src(name)) if name is not None else []
    if kind in ("class", "module") and language == "ruby":
        return _split_name(src(node.child_by_field_name("name")))
    name = node.child_by_field_name("name")
    if name is None:
        return []
    text = src(name)
    if language == "php" or kind in ("class_declaration", "interface_declaration"):
        return _split_name(text) or [text]
    return [text]


def _body(node: Node, language: str) -> Node | None:
    kind = node.type
    if kind == "type_spec":  # Go: the struct's field list, or the interface's `{`
        inner = node.child_by_field_name("type")
        if inner is None:
            return None
        if inner.type == "struct_type":
            for child in inner.named_children:
                if child.type == "field_declaration_list":
                    return child
            return None
        for child in inner.children:
            if child.type == "{":
                return child
        return None
    if kind in (
        "variable_declarator",
        "field_definition",
        "public_field_definition",
        "assignment_expression",
    ):
        value = node.child_by_field_name("value") or node.child_by_field_name("right")
        return value.child_by_field_name("body") if value is not None else None
    return node.child_by_field_name("body")


_SPECIFIERS = frozenset({"struct_specifier", "union_specifier", "enum_specifier", "class_specifier"})


def _outer(node: Node, spec: Spec) -> Node:
    """The node whose span the definition owns: its decorators, `export`, `template <...>`."""
    outer = node
    parent = node.parent
    while parent is not None and parent.type in spec.wrappers:
        kind = parent.type
        if kind in ("lexical_declaration", "variable_declaration", "type_declaration"):
            if parent.named_child_count != 1:  # `const a = () => 1, b = 2;`: the statement is shared
                break
        elif kind == "expression_statement":
            if outer.type != "assignment_expression":
                break
        elif kind == "type_definition" and node.type not in _SPECIFIERS:
            break
        outer = parent
        parent = parent.parent
    return outer


def _starts_line(data: bytes, offset: int) -> bool:
    line_start = data.rfind(b"\n", 0, offset) + 1
    return not data[line_start:offset].strip()


def _leading_comments(outer: Node, spec: Spec, data: bytes) -> tuple[int, list[Node]]:
    """(start of the span including prefix siblings, the doc comment nodes above it, top first)."""
    start = outer.start_byte
    row = outer.start_point.row
    sibling = outer.prev_sibling
    while sibling is not None and sibling.type in spec.prefixes and sibling.end_point.row >= row - 1:
        start = sibling.start_byte
        row = sibling.start_point.row
        sibling = sibling.prev_sibling
    comments: list[Node] = []
    while sibling is not None and sibling.type in spec.comments:
        if sibling.end_point.row < row - 1 or not _starts_line(data, sibling.start_byte):
            break
        comments.append(sibling)
        row = sibling.start_point.row
        sibling = sibling.prev_sibling
    comments.reverse()
    return start, comments


def _python_docstring(src: _Src, body: Node | None) -> str:
    if body is None:
        return ""
    for child in body.named_children:
        if child.type == "comment":
            continue
        if child.type == "string":
            return _python_string(src, child)
        if child.type == "expression_statement" and child.named_child_count == 1:
            inner = child.named_children[0]
            if inner.type == "string":
                return _python_string(src, inner)
        return ""
    return ""


def _go_receiver(src: _Src, node: Node) -> str:
    receiver = node.child_by_field_name("receiver")
    if receiver is None:
        return ""
    for parameter in receiver.named_children:
        kind = parameter.child_by_field_name("type")
        while kind is not None and kind.type in ("pointer_type", "generic_type", "parenthesized_type"):
            inner = kind.child_by_field_name("type")
            if inner is None:
                inner = next((c for c in kind.named_children if c.type != "type_arguments"), None)
            kind = inner
        if kind is not None:
            return normalize_target(src(kind))
    return ""


def _collect_items(
    src: _Src, caps: dict[str, list[Node]], spec: Spec, language: str, root: Node, deadline: Deadline
) -> list[_Item]:
    items: list[_Item] = []
    for capture, nodes in caps.items():
        if capture not in _DEF_CAPTURES and capture not in ("scope", "impl"):
            continue
        for count, node in enumerate(nodes):
            if count & 255 == 255:
                # `Node.parent` walks down from the root, so very deep nesting costs depth per call.
                deadline.check("definitions")
            is_scope = capture in ("scope", "impl")
            names = _names(src, node, capture, language)
            if not is_scope and not any(names):
                continue  # anonymous: `export default class {}`, `typedef struct {..} *P;`
            body = _body(node, language)
            if not is_scope and capture in ("function", "method") and body is None and language != "ruby":
                continue  # a declaration without a body (Ruby's `def x; end` has none but is one)
            outer = _outer(node, spec) if not is_scope else node
            start, end = outer.start_byte, outer.end_byte
            if node.type in ("file_scoped_namespace_declaration",) or (
                node.type == "namespace_definition" and node.child_by_field_name("body") is None
            ):
                end = _statement_namespace_end(node, root)
            items.append(
                _Item(
                    node=node,
                    capture=capture,
                    start=start,
                    end=end,
                    names=[n for n in names if n],
                    is_scope=is_scope,
                    outer=outer,
                    body=body,
                )
            )
    return items


def _statement_namespace_end(node: Node, root: Node) -> int:
    """`namespace X;` (C#, PHP) covers the file until the next namespace statement."""
    sibling = node.next_named_sibling
    while sibling is not None:
        if sibling.type == node.type:
            return sibling.start_byte
        sibling = sibling.next_named_sibling
    return root.end_byte


def _nest(items: list[_Item]) -> list[_Item]:
    """Sort by span and give each item its innermost enclosing item; returns the sorted list."""
    items.sort(key=lambda item: (item.start, -item.end, item.is_scope is False))
    stack: list[_Item] = []
    for item in items:
        while stack and stack[-1].end <= item.start:
            stack.pop()
        if stack and item.end > stack[-1].end:
            # Overlapping but not nested (possible only inside ERROR recovery): treat as a sibling.
            while stack and item.end > stack[-1].end:
                stack.pop()
        item.parent = stack[-1] if stack else None
        stack.append(item)
    return items


def _classify(src: _Src, item: _Item, language: str) -> None:
    """Kind, qualifier and attachment of one definition, given its parent is already done."""
    parent = item.parent
    owner = parent
    while owner is not None and owner.is_scope:
        owner = owner.parent
    item.owner = owner
    qualifier = (parent.qualifier + parent.names)[-MAX_QUALIFIER_DEPTH:] if parent is not None else []
    names = item.names
    if len(names) > 1:  # `class A::B`, C++ `A::B::m`
        item.extra_qualifier = names[:-1]
        item.names = names = names[-1:]
    if item.is_scope:
        item.qualifier = qualifier + item.extra_qualifier
        return
    kind = _DEF_CAPTURES[item.capture]
    if kind in (_FUNCTION, _METHOD):
        in_container = (parent is not None and not parent.is_scope and parent.kind in _CONTAINER_VALUES) or (
            parent is not None and parent.capture == "impl"
        )
        kind = _METHOD if in_container else _FUNCTION
        if item.node.type == "method_declaration" and language == "go":
            receiver = _go_receiver(src, item.node)
            if receiver:
                item.extra_qualifier = [receiver]
                kind = _METHOD
        elif item.extra_qualifier and (language == "cpp" or item.node.type == "assignment_expression"):
            kind = _METHOD  # `A::m() {}` out of class, JS `A.prototype.m = function`
        if kind == _METHOD and parent is not None and parent.capture == "impl":
            item.attach = ".".join(qualifier)
    item.kind = kind
    item.qualifier = qualifier + item.extra_qualifier
    if item.extra_qualifier and not item.attach:
        item.attach = ".".join(item.qualifier)


def _qualified(components: list[str]) -> str:
    if len(components) > MAX_QUALIFIER_DEPTH:
        components = components[-MAX_QUALIFIER_DEPTH:]
    return ".".join(components)


def _signature(item: _Item, data: bytes, language: str) -> str:
    node = item.node
    start = node.start_byte
    prefix = ""
    if node.type == "type_spec":
        prefix = "type "
    elif node.type == "variable_declarator" and node.parent is not None:
        start = node.parent.start_byte  # `const sleep = (ms) =>`, `const Foo = class`
    body = item.body
    if body is not None and body.start_byte >= start:
        raw = data[start : body.start_byte]
    else:
        end = data.find(b"\n", start, node.end_byte)
        raw = data[start : end if end != -1 else node.end_byte]
        for stop in (b";", b"{"):
            cut = raw.find(stop)
            if cut > 0:
                raw = raw[:cut]
    signature = _collapse(raw.decode("utf-8", "replace"))
    if item.outer.type == "type_definition" and node.child_by_field_name("name") is None:
        signature = f"typedef {signature} {item.names[-1]}"  # `typedef enum { ... } status`
    if language == "python":
        signature = signature.rstrip(":").rstrip()
    elif language == "ruby":
        signature = signature.rstrip("=").rstrip()  # endless `def build(items) = new(items)`
    signature = signature.rstrip("{").rstrip()
    return (prefix + signature)[:MAX_SIGNATURE_CHARS]


def _elision_marker(body_text: bytes, language: str) -> str:
    head = body_text.lstrip()[:2]
    if head.startswith(b"{"):
        return "{ ... }"
    if head.startswith(b"=>"):
        return "=> ..."
    return "..."


def _elided(data: bytes, start: int, end: int, holes: list[tuple[int, int, str]]) -> str:
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


# --------------------------------------------------------------------------------------------------
# Bases: inherits / implements


def _type_targets(src: _Src, nodes: Iterable[Node]) -> list[str]:
    targets: list[str] = []
    for node in nodes:
        if node.type in (
            "comment",
            "access_specifier",
            "virtual",
            "type_arguments",
            "keyword_argument",
            "list_splat",
            "dictionary_splat",
            "argument_list",
        ):
            continue
        if node.type == "primary_constructor_base_type":
            node = node.child_by_field_name("type") or node
        target = _strip_sigils(normalize_target(src(node)))
        if target:
            targets.append(target)
    return targets


def _bases(src: _Src, node: Node, kind: str, language: str) -> list[tuple[str, str]]:
    inherits, implements = RefKind.INHERITS.value, RefKind.IMPLEMENTS.value
    found: list[tuple[str, str]] = []
    node_type = node.type
    if language == "python":
        superclasses = node.child_by_field_name("superclasses")
        if superclasses is not None:
            found += [(inherits, t) for t in _type_targets(src, superclasses.named_children)]
        return found
    for child in node.named_children:
        child_type = child.type
        if child_type == "class_heritage":
            for clause in child.named_children:
                if clause.type == "extends_clause":
                    found += [(inherits, t) for t in _type_targets(src, clause.named_children)]
                elif clause.type == "implements_clause":
                    found += [(implements, t) for t in _type_targets(src, clause.named_children)]
                else:
                    found += [(inherits, t) for t in _type_targets(src, [clause])]
        elif child_type in ("extends_type_clause", "extends_interfaces", "base_class_clause"):
            found += [(inherits, t) for t in _type_targets(src, _flatten_type_list(child))]
        elif child_type == "superclass":
            found += [(inherits, t) for t in _type_targets(src, child.named_children)]
        elif child_type == "super_interfaces":
            found += [(implements, t) for t in _type_targets(src, _flatten_type_list(child))]
        elif child_type == "base_clause":  # PHP: extends
            found += [(inherits, t) for t in _type_targets(src, child.named_children)]
        elif child_type == "class_interface_clause":  # PHP: implements
            found += [(implements, t) for t in _type_targets(src, child.named_children)]
        elif child_type == "base_list":  # C#: classes and interfaces are not told apart by syntax
            for target in _type_targets(src, child.named_children):
                is_interface = bool(re.match(r"I[A-Z]", target.rsplit(".", 1)[-1]))
                relation = (
                    inherits
                    if kind == NodeKind.INTERFACE.value
                    else (implements if is_interface or kind == NodeKind.STRUCT.value else inherits)
                )
                found.append((relation, target))
        elif child_type == "trait_bounds" and node_type == "trait_item":
            found += [(inherits, t) for t in _type_targets(src, child.named_children)]
    if language == "go" and node_type == "type_spec":
        found += _go_embedded(src, node)
    return found


def _flatten_type_list(node: Node) -> list[Node]:
    out: list[Node] = []
    for child in node.named_children:
        if child.type == "type_list":
            out.extend(child.named_children)
        else:
            out.append(child)
    return out


def _go_embedded(src: _Src, node: Node) -> list[tuple[str, str]]:
    inner = node.child_by_field_name("type")
    found: list[tuple[str, str]] = []
    if inner is None:
        return found
    if inner.type == "struct_type":
        for fields in inner.named_children:
            for declaration in fields.named_children:
                if (
                    declaration.type == "field_declaration"
                    and declaration.child_by_field_name("name") is None
                ):
                    kind = declaration.child_by_field_name("type")
                    if kind is not None:
                        found.append((RefKind.INHERITS.value, normalize_target(src(kind))))
    elif inner.type == "interface_type":
        for element in inner.named_children:
            if element.type == "type_elem":
                found += [(RefKind.INHERITS.value, t) for t in _type_targets(src, element.named_children)]
    return found


# --------------------------------------------------------------------------------------------------
# Calls and imports


_REQUIRE_RUBY = frozenset({"require", "require_relative", "load"})


def _first_string(src: _Src, node: Node | None) -> str:
    """Content of the first string literal at or under `node` (breadth-first, bounded)."""
    if node is None:
        return ""
    queue = [node]
    seen = 0
    while queue and seen < 64:
        current = queue.pop(0)
        seen += 1
        if current.type in (
            "string",
            "string_literal",
            "interpreted_string_literal",
            "raw_string_literal",
            "encapsed_string",
            "template_string",
            "system_lib_string",
        ):
            text = src(current)
            if len(text) >= 2 and text[0] in "\"'`<" and text[-1] in "\"'`>":
                return text[1:-1]
            return text
        queue.extend(current.named_children)
    return ""


def _call(src: _Src, node: Node, language: str) -> tuple[str, Node | None, bool]:
    """(target, the node naming the callee, is_import) for one call-site capture."""
    kind = node.type
    if kind in ("new_expression", "object_creation_expression"):
        if language == "php":
            callee = next((c for c in node.named_children if c.type in ("name", "qualified_name")), None)
        else:
            callee = node.child_by_field_name("constructor") or node.child_by_field_name("type")
        return normalize_target(src(callee)), callee, False
    if kind == "method_invocation":  # Java
        name = node.child_by_field_name("name")
        obj = node.child_by_field_name("object")
        text = (src(obj) + "." if obj is not None else "") + src(name)
        return normalize_target(text), name, False
    if kind in ("member_call_expression", "nullsafe_member_call_expression", "scoped_call_expression"):
        name = node.child_by_field_name("name")
        obj = node.child_by_field_name("object") or node.child_by_field_name("scope")
        text = (src(obj) + "." if obj is not None else "") + src(name)
        return _strip_sigils(normalize_target(text)), name, False
    if kind == "call" and language == "ruby":
        method = node.child_by_field_name("method")
        receiver = node.child_by_field_name("receiver")
        if method is None:
            return "", None, False
        method_name = src(method)
        if receiver is None and method_name in _REQUIRE_RUBY:
            return _first_string(src, node.child_by_field_name("arguments")), method, True
        text = (src(receiver) + "." if receiver is not None else "") + method_name
        return _strip_sigils(normalize_target(text)), method, False
    callee = node.child_by_field_name("function")
    if callee is None:
        return "", None, False
    if (
        language in ("javascript", "typescript", "tsx")
        and callee.type == "identifier"
        and src(callee) == "require"
    ):
        return _first_string(src, node.child_by_field_name("arguments")), callee, True
    if callee.type == "import":  # dynamic `import("x")`
        return _first_string(src, node.child_by_field_name("arguments")), callee, True
    target = normalize_target(src(callee))
    if language == "php":
        target = _strip_sigils(target)
    return target, callee, False


def _require_alias(src: _Src, node: Node) -> str:
    """`const fs = require("fs")` binds `fs`."""
    parent = node.parent
    while parent is not None and parent.type in ("await_expression", "parenthesized_expression"):
        parent = parent.parent
    if parent is not None and parent.type == "variable_declarator":
        name = parent.child_by_field_name("name")
        if name is not None and name.type == "identifier":
            return src(name)
    return ""


def _imports(src: _Src, node: Node, language: str) -> list[tuple[str, str]]:
    """(target, alias) pairs of one import statement."""
    kind = node.type
    if language == "python":
        return _python_imports(src, node)
    if kind in ("import_statement", "export_statement"):
        return _js_imports(src, node)
    if kind == "import_declaration":
        return _go_imports(src, node) if language == "go" else _java_import(src, node)
    if kind == "using_directive":
        return _csharp_using(src, node)
    if kind == "use_declaration":  # Rust
        argument = node.child_by_field_name("argument")
        return _rust_use(src, argument, []) if argument is not None else []
    if kind in ("mod_item", "extern_crate_declaration"):  # Rust `mod retry;`, `extern crate foo as bar;`
        crate = src(node.child_by_field_name("name"))
        bound = node.child_by_field_name("alias")
        return [(crate, src(bound) if bound is not None else crate)]
    if kind == "preproc_include":
        return [(_first_string(src, node.child_by_field_name("path")), "")]
    if kind == "namespace_use_declaration":  # PHP
        return _php_uses(src, node)
    if kind.startswith(("require", "include")):  # PHP require/include(_once)
        target = _first_string(src, node)
        return [(target, "")] if target else []
    return []


def _js_imports(src: _Src, node: Node) -> list[tuple[str, str]]:
    source = _first_string(src, node.child_by_field_name("source"))
    pairs: list[tuple[str, str]] = []
    for child in node.named_children:
        if child.type != "import_clause":
            continue
        for part in child.named_children:
            if part.type == "identifier":  # default import
                pairs.append((source, src(part)))
            elif part.type == "namespace_import":  # `* as ns`
                pairs.append((source, src(part.named_children[-1]) if part.named_children else ""))
            elif part.type == "named_imports":
                for specifier in part.named_children:
                    if specifier.type == "import_specifier":
                        bound = specifier.child_by_field_name("alias") or specifier.child_by_field_name(
                            "name"
                        )
                        pairs.append((source, src(bound)))
    return pairs or [(source, "")]


def _go_imports(src: _Src, node: Node) -> list[tuple[str, str]]:
    pairs: list[tuple[str, str]] = []
    for specifier in _descendants(node, "import_spec"):
        package = _first_string(src, specifier.child_by_field_name("path"))
        bound = specifier.child_by_field_name("name")
        pairs.append((package, src(bound) if bound is not None else package.rsplit("/", 1)[-1]))
    return pairs


def _java_import(src: _Src, node: Node) -> list[tuple[str, str]]:
    text = _collapse(src(node)).removeprefix("import").strip().rstrip(";").strip()
    text = text.removeprefix("static ").strip().replace(" ", "")
    if text.endswith(".*"):
        return [(text[:-2], "*")]
    return [(text, text.rsplit(".", 1)[-1])]


def _csharp_using(src: _Src, node: Node) -> list[tuple[str, str]]:
    text = _collapse(src(node)).removeprefix("global ").removeprefix("using").strip().rstrip(";").strip()
    text = text.removeprefix("static ").strip()
    if "=" in text:
        bound, _, target = text.partition("=")
        return [(normalize_target(target), bound.strip())]
    return [(normalize_target(text), "")]


def _descendants(node: Node, node_type: str) -> list[Node]:
    found: list[Node] = []
    stack = [node]
    while stack:
        current = stack.pop()
        if current.type == node_type:
            found.append(current)
            continue
        stack.extend(reversed(current.named_children))
    return found


def _python_imports(src: _Src, node: Node) -> list[tuple[str, str]]:
    pairs: list[tuple[str, str]] = []
    if node.type == "import_statement":
        for child in node.children_by_field_name("name"):
            if child.type == "aliased_import":
                pairs.append(
                    (src(child.child_by_field_name("name")), src(child.child_by_field_name("alias")))
                )
            else:
                name = src(child)
                pairs.append((name, "" if "." in name else name))
        return pairs
    if node.type == "future_import_statement":
        module = "__future__"
    else:
        module = _collapse(src(node.child_by_field_name("module_name"))).replace(" ", "")
    names = node.children_by_field_name("name")
    if not names:
        if any(child.type == "wildcard_import" for child in node.named_children):
            return [(module, "*")]
        return [(module, "")]
    for child in names:
        if child.type == "aliased_import":
            name = src(child.child_by_field_name("name"))
            alias = src(child.child_by_field_name("alias"))
        else:
            name = src(child)
            alias = name.rsplit(".", 1)[-1]
        target = module + name if module.endswith(".") else f"{module}.{name}"
        pairs.append((target, alias))
    return pairs


def _rust_use(src: _Src, node: Node, prefix: list[str]) -> list[tuple[str, str]]:
    kind = node.type
    if kind == "use_as_clause":
        path = prefix + _split_name(src(node.child_by_field_name("path")))
        return [(".".join(path), src(node.child_by_field_name("alias")))]
    if kind == "use_wildcard":
        inner = [c for c in node.named_children]
        path = prefix + (_split_name(src(inner[0])) if inner else [])
        return [(".".join(path), "*")]
    if kind == "scoped_use_list":
        path_node = node.child_by_field_name("path")
        path = prefix + (_split_name(src(path_node)) if path_node is not None else [])
        list_node = node.child_by_field_name("list")
        return _rust_use(src, list_node, path) if list_node is not None else []
    if kind == "use_list":
        pairs: list[tuple[str, str]] = []
        for child in node.named_children:
            if child.type == "self":
                if prefix:
                    pairs.append((".".join(prefix), prefix[-1]))
            elif child.type not in ("line_comment", "block_comment"):
                pairs.extend(_rust_use(src, child, prefix))
        return pairs
    path = prefix + _split_name(src(node))
    if not path:
        return []
    return [(".".join(path), path[-1])]


def _php_uses(src: _Src, node: Node) -> list[tuple[str, str]]:
    pairs: list[tuple[str, str]] = []
    prefix: list[str] = []
    for child in node.named_children:
        if child.type in ("namespace_name", "qualified_name", "name") and not pairs:
            prefix = _split_name(src(child))
        elif child.type == "namespace_use_group":
            for clause in child.named_children:
                pairs.extend(_php_clause(src, clause, prefix))
        elif child.type == "namespace_use_clause":
            pairs.extend(_php_clause(src, child, []))
    return pairs


def _php_clause(src: _Src, clause: Node, prefix: list[str]) -> list[tuple[str, str]]:
    if clause.type != "namespace_use_clause":
        return []
    alias_node = clause.child_by_field_name("alias")
    names = [c for c in clause.named_children if c is not alias_node and c.type in ("name", "qualified_name")]
    if not names:
        return []
    path = prefix + _split_name(src(names[0]))
    if not path:
        return []
    alias = src(alias_node) if alias_node is not None else path[-1]
    return [(".".join(path), alias)]


# --------------------------------------------------------------------------------------------------
# The module remainder


_TRIVIA = re.compile(
    r"^(?:package\s+[\w.]+;?|[{}()\[\];,]+|end|<\?php|\?>|#pragma\s+once|#ifndef\s+\w+|#define\s+\w+|#endif\b.*"
    r"|namespace\s+[\w.\\]+\s*[;{]?|\}\s*//.*|\}\s*;?\s*/\*.*)$"
)


def _is_trivia(text: str, spec: Spec) -> bool:
    """True when the remainder holds only comments, blank lines, braces and package lines."""
    in_block = False
    for raw in text.split("\n"):
        line = raw.strip()
        if not line:
            continue
        if in_block:
            if "*/" in line:
                in_block = False
            continue
        if line.startswith("/*") and "*/" not in line and "/*" in spec.line_comment:
            in_block = True
            continue
        if line.startswith(spec.line_comment):
            continue
        if _TRIVIA.match(line):
            continue
        return False
    return True


# --------------------------------------------------------------------------------------------------
# Entry point


@dataclass(slots=True)
class Extraction:
    nodes: list[RecordNode]
    refs: list[Ref]


def extract(
    tree: Tree,
    data: bytes,
    path: str,
    language: str,
    *,
    window_lines: int,
    deadline: Deadline,
) -> Extraction:
    """Nodes (module first, then definitions in source order) and refs of one parsed file."""
    spec = SPECS[language]
    src = _Src(data)
    root = tree.root_node
    caps = captures(language, spec.query, root)
    deadline.check("query")
    lines = LineIndex(data)

    items = _nest(_collect_items(src, caps, spec, language, root, deadline))
    defs: list[_Item] = []
    for item in items:
        _classify(src, item, language)
        if not item.is_scope:
            defs.append(item)
    deadline.check("definitions")

    # Qualified names, ordinals, uids (part 0), docs.
    ordinals: dict[tuple[str, str], int] = {}
    by_qualified: dict[str, _Item] = {}
    for count, item in enumerate(defs):
        if count & 255 == 255:
            deadline.check("definitions")  # `prev_sibling` also costs depth per call
        item.qualified_name = _qualified(item.qualifier + item.names)
        key = (item.qualified_name, item.kind)
        item.ordinal = ordinals.get(key, 0)
        ordinals[key] = item.ordinal + 1
        item.uid = node_uid(path, item.qualified_name, item.kind, item.ordinal, 0)
        if item.kind in _CONTAINER_VALUES:
            by_qualified.setdefault(item.qualified_name, item)
        prefix_start, comments = _leading_comments(item.outer, spec, data)
        item.start = min(item.start, prefix_start)
        item.doc_start = comments[0].start_byte if comments else item.start
        if language == "python":
            item.doc = _python_docstring(src, item.body)
        if not item.doc and comments:
            item.doc = clean_comment((src(c) for c in comments), language)
        item.start_line = lines.line_of(item.start)
        if item.owner is not None:
            item.owner.children.append(item)

    # Module node (drafted first so top-level refs can point at it).
    module_draft = _module_draft(src, path, root, data, lines, defs, language)
    module_uid = (
        node_uid(path, module_draft.qualified_name, NodeKind.MODULE.value, 0, 0) if module_draft else 0
    )

    drafts: list[Draft] = []
    for item in defs:
        parent_uid = item.owner.uid if item.owner is not None else 0
        if parent_uid == 0 and item.attach:
            container = by_qualified.get(item.attach)
            if container is not None and container is not item:
                parent_uid = container.uid
        holes = []
        for child in item.children:
            if child.body is not None and child.body.end_byte > child.body.start_byte:
                body_bytes = data[child.body.start_byte : child.body.start_byte + 8]
                holes.append(
                    (child.body.start_byte, child.body.end_byte, _elision_marker(body_bytes, language))
                )
        text = _elided(data, item.start, item.end, holes)
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
                text=text,
                signature=_signature(item, data, language),
                doc=item.doc,
                ordinal=item.ordinal,
                parent_uid=parent_uid,
            )
        )
    deadline.check("node text")

    module_nodes = finish(module_draft, path, language, window_lines, lines) if module_draft else []
    def_nodes = [finish(draft, path, language, window_lines, lines) for draft in drafts]
    # Part-0 uid -> (first line of each window, its uid), for refs made inside a windowed node.
    windows = {
        made[0].uid: ([n.start_line for n in made], [n.uid for n in made])
        for made in (module_nodes, *def_nodes)
        if len(made) > 1
    }
    refs = _refs(src, caps, items, defs, language, module_uid, windows, by_qualified)

    nodes: list[RecordNode] = []
    module_windows = set(windows.get(module_uid, ([], [module_uid]))[1])
    needs_module = module_uid != 0 and any(ref.src_uid in module_windows for ref in refs)
    if needs_module or (module_draft is not None and not _is_trivia(module_draft.text, spec)):
        nodes.extend(module_nodes)
    refs = [ref for ref in refs if ref.src_uid != 0]
    for made in def_nodes:
        nodes.extend(made)
    return Extraction(nodes=nodes, refs=refs)


def _module_draft(
    src: _Src, path: str, root: Node, data: bytes, lines: LineIndex, defs: list[_Item], language: str
) -> Draft | None:
    holes = [(min(item.doc_start, item.start), item.end, "") for item in defs if item.owner is None]
    holes.sort()
    merged: list[tuple[int, int, str]] = []
    for hole in holes:
        if merged and hole[0] < merged[-1][1]:
            if hole[1] > merged[-1][1]:
                merged[-1] = (merged[-1][0], hole[1], "")
            continue
        merged.append(hole)
    text = _elided(data, 0, len(data), merged)
    stripped_start = len(text) - len(text.lstrip())
    body = text.strip()
    if not body:
        return None
    # The text keeps every line, so the first non-blank character's line is its line in the file.
    start_line = text.count("\n", 0, stripped_start) + 1
    end_line = start_line + body.count("\n")
    start_byte = lines.start_of(start_line) + _leading_bytes(text, stripped_start)
    end_byte = _end_byte_of_line(data, lines, end_line)
    doc = ""
    if language == "python":
        doc = _python_docstring(src, root)
    stem = PurePosixPath(path).stem or PurePosixPath(path).name
    return Draft(
        kind=NodeKind.MODULE.value,
        name=stem,
        qualified_name=stem,
        start_byte=start_byte,
        end_byte=end_byte,
        start_line=start_line,
        end_line=end_line,
        text=body,
        doc=doc,
    )


def _leading_bytes(text: str, stripped_start: int) -> int:
    """UTF-8 bytes between the start of the first non-blank line and its first character."""
    line_start = text.rfind("\n", 0, stripped_start) + 1
    return len(text[line_start:stripped_start].encode("utf-8"))


def _end_byte_of_line(data: bytes, lines: LineIndex, line: int) -> int:
    end = lines.start_of(line + 1)
    while end > 0 and data[end - 1 : end] in (b"\n", b"\r"):
        end -= 1
    return max(end, lines.start_of(line))


def _refs(
    src: _Src,
    caps: dict[str, list[Node]],
    items: list[_Item],
    defs: list[_Item],
    language: str,
    module_uid: int,
    windows: dict[int, tuple[list[int], list[int]]],
    by_qualified: dict[str, _Item],
) -> list[Ref]:
    """Every reference, owned by the innermost node (or window of it) holding it; the module otherwise."""
    starts = [item.start for item in defs]

    def owner_uid(offset: int, line: int) -> int:
        index = bisect_right(starts, offset) - 1
        item = defs[index] if index >= 0 else None
        while item is not None and not (item.start <= offset < item.end):
            item = item.owner
        uid = item.uid if item is not None else module_uid
        if uid in windows:
            first_lines, uids = windows[uid]
            return uids[max(bisect_right(first_lines, line) - 1, 0)]
        return uid

    seen: set[tuple[int, str, str, int, str]] = set()
    refs: list[Ref] = []

    def add(owner: int, kind: str, target: str, line: int, alias: str = "") -> None:
        if not target:
            return
        key = (owner, kind, target, line, alias)
        if key in seen:
            return
        seen.add(key)
        refs.append(Ref(src_uid=owner, kind=kind, target=target, line=line, alias=alias))

    calls, imports = RefKind.CALLS.value, RefKind.IMPORTS.value
    for node in caps.get("call", ()):
        target, name_node, is_import = _call(src, node, language)
        if not target:
            continue
        anchor = name_node if name_node is not None else node
        line = anchor.end_point.row + 1
        owner = owner_uid(node.start_byte, node.start_point.row + 1)
        if is_import:
            add(owner, imports, target, line, _require_alias(src, node) if language != "ruby" else "")
        else:
            add(owner, calls, target, line)
    for node in caps.get("import", ()):
        line = node.start_point.row + 1
        owner = owner_uid(node.start_byte, line)
        for target, alias in _imports(src, node, language):
            add(owner, imports, target, line, alias)
    for item in defs:
        if item.kind in _CONTAINER_VALUES:
            for relation, target in _bases(src, item.node, item.kind, language):
                add(item.uid, relation, target, item.node.start_point.row + 1)
    for item in items:
        if item.capture == "impl":
            trait = item.node.child_by_field_name("trait")
            if trait is None:
                continue
            container = by_qualified.get(_qualified(item.qualifier + item.names))
            owner = (
                container.uid
                if container is not None
                else owner_uid(item.start, item.node.start_point.row + 1)
            )
            add(owner, RefKind.IMPLEMENTS.value, normalize_target(src(trait)), item.node.start_point.row + 1)
    refs.sort(key=lambda ref: (ref.line, ref.kind, ref.target))
    return refs
