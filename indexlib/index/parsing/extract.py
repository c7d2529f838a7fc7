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
- Declarations without a body are nodes too: interface and trait methods, abstract methods, C
  prototypes and TS overload signatures (their container's text still shows them), type aliases
  (kind `type`) and module-level constants and variables (kind `constant`).
- Call targets are the callee as written without arguments, generics, sigils or whitespace, with
  `::`, `->` and `?.` written as "." (`self.retry`, `Foo.new`, `std.make_unique`, `this.gateway.post`).
  Constructor calls name the type (`new Foo()` -> `Foo`). Rust macros are not calls.
- Import targets use "." for `::` and `\\` too (Rust `use a::b::C` -> `a.b.C`, PHP `use A\\B` -> `A.B`);
  `alias` is the local name the import binds, empty when it binds none (C `#include`, C# `using Ns;`,
  a side-effect JS import) or more than one name (`import a.b` binds `a`, not `a.b`).
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass, field
from pathlib import PurePosixPath

from indexlib.engines.treesitter import Deadline, Node, Tree, captures
from indexlib.index.parsing.chunks import Draft, LineIndex, finish
from indexlib.index.parsing.ids import node_uid
from indexlib.index.parsing.references import base_refs, call_target, import_pairs, require_alias
from indexlib.index.parsing.specs import SPECS, Spec
from indexlib.index.parsing.text import (
    Source,
    clean_comment,
    collapse,
    normalize_target,
    python_string,
    split_name,
)
from indexlib.records import CONTAINER_KINDS, NodeKind, Ref, RefKind
from indexlib.records import Node as RecordNode

MAX_QUALIFIER_DEPTH = 32
MAX_SIGNATURE_CHARS = 500

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
    "type": NodeKind.TYPE.value,
    "constant": NodeKind.CONSTANT.value,
}
# When one syntax node is captured twice (`const f = () => 1` is a function and a module constant; a
# Go `type_spec` of a struct is a struct and a type), the capture earlier in this order wins.
_CAPTURE_ORDER = (
    "function",
    "method",
    "class",
    "struct",
    "interface",
    "enum",
    "trait",
    "scope",
    "impl",
    "type",
    "constant",
)


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


def _declarator_name(src: Source, node: Node | None) -> tuple[list[str], Node | None]:
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


def _names(src: Source, node: Node, capture: str, language: str) -> list[str]:
    """The written name of a definition or scope, as components; [] when it has none."""
    kind = node.type
    if kind in ("function_definition", "declaration") and language in ("c", "cpp"):
        return _declarator_name(src, node.child_by_field_name("declarator"))[0]
    if kind == "assignment":  # a Python module-level `NAME = ...`
        return [src(node.child_by_field_name("left"))]
    if kind == "expression_statement" and node.named_child_count == 1:
        return _names(src, node.named_child(0), capture, language)
    if kind in _SPECIFIERS:
        name = node.child_by_field_name("name")
        if name is None and node.parent is not None and node.parent.type == "type_definition":
            name = node.parent.child_by_field_name("declarator")
        return split_name(src(name)) if name is not None else []
    if kind == "variable_declarator":
        return [src(node.child_by_field_name("name"))]
    if kind == "field_definition":
        return [src(node.child_by_field_name("property"))]
    if kind == "assignment_expression":  # `Foo.prototype.bar = function`, `exports.run = () =>`
        parts = split_name(src(node.child_by_field_name("left")))
        if len(parts) >= 3 and parts[-2] == "prototype":
            return [parts[-3], parts[-1]]
        return parts[-1:]
    if kind == "impl_item":
        parts = split_name(src(node.child_by_field_name("type")))
        return parts[-1:]
    if capture == "scope":
        name = node.child_by_field_name("name")
        return split_name(src(name)) if name is not None else []
    if kind in ("class", "module") and language == "ruby":
        return split_name(src(node.child_by_field_name("name")))
    name = node.child_by_field_name("name")
    if name is None:
        return []
    text = src(name)
    if language == "php" or kind in ("class_declaration", "interface_declaration"):
        return split_name(text) or [text]
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
        if kind in (
            "lexical_declaration",
            "variable_declaration",
            "type_declaration",
            "const_declaration",
            "var_declaration",
        ):
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
        end_row = sibling.end_point.row
        if sibling.end_point.column == 0 and end_row > sibling.start_point.row:
            end_row -= 1  # a line comment that owns its newline (Rust) ends on its own line
        if end_row < row - 1 or not _starts_line(data, sibling.start_byte):
            break
        if data[sibling.start_byte : sibling.start_byte + 3] in (b"//!", b"/*!"):
            break  # an inner doc comment documents the enclosing module, not the next item
        comments.append(sibling)
        row = sibling.start_point.row
        sibling = sibling.prev_sibling
    comments.reverse()
    return start, comments


def _python_docstring(src: Source, body: Node | None) -> str:
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


def _go_receiver(src: Source, node: Node) -> str:
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
    src: Source, caps: dict[str, list[Node]], spec: Spec, language: str, root: Node, deadline: Deadline
) -> list[_Item]:
    items: list[_Item] = []
    taken: set[tuple[int, int, str]] = set()
    for capture in _CAPTURE_ORDER:
        nodes = caps.get(capture, [])
        for count, node in enumerate(nodes):
            key = (node.start_byte, node.end_byte, node.type)
            if key in taken:
                continue
            taken.add(key)
            if count & 255 == 255:
                # `Node.parent` walks down from the root, so very deep nesting costs depth per call.
                deadline.check("definitions")
            is_scope = capture in ("scope", "impl")
            names = _names(src, node, capture, language)
            if not is_scope and not any(names):
                continue  # anonymous: `export default class {}`, `typedef struct {..} *P;`
            if node.type == "declaration" and _inside(node, "function_definition"):
                continue  # a prototype written inside a function body declares nothing of the file
            # A declaration without a body (an interface or trait method, an abstract method, a
            # prototype) is a node of its own: findable by name and by its doc comment.
            body = _body(node, language)
            outer = _outer(node, spec) if not is_scope else node
            start, end = outer.start_byte, outer.end_byte
            while end > start and src.data[end - 1 : end] in (b"\n", b"\r"):
                end -= 1  # a directive (`#define`) owns its newline; the node ends on its last line
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


def _inside(node: Node, kind: str) -> bool:
    parent = node.parent
    while parent is not None:
        if parent.type == kind:
            return True
        parent = parent.parent
    return False


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


def _classify(src: Source, item: _Item, language: str) -> None:
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
    if parent is not None and parent.capture == "impl":
        item.attach = ".".join(qualifier)  # methods and associated items of `impl Circle`
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
    if node.type in ("type_spec", "type_alias"):
        prefix = "type "
    elif node.type in ("const_spec", "var_spec"):
        prefix = "const " if node.type == "const_spec" else "var "
    elif node.type == "variable_declarator" and node.parent is not None:
        start = node.parent.start_byte  # `const sleep = (ms) =>`, `const Foo = class`
    body = item.body
    if body is not None and body.start_byte >= start:
        raw = data[start : body.start_byte]
    elif item.kind in (_FUNCTION, _METHOD):
        raw = data[start : node.end_byte]  # a bodiless declaration: the whole header, however wrapped
    else:
        end = data.find(b"\n", start, node.end_byte)
        raw = data[start : end if end != -1 else node.end_byte]
    if body is None:
        for stop in (b";", b"{"):
            cut = raw.find(stop)
            if cut > 0:
                raw = raw[:cut]
    signature = collapse(raw.decode("utf-8", "replace"))
    if item.outer.type == "type_definition" and node.child_by_field_name("name") is None:
        signature = f"typedef {signature} {item.names[-1]}"  # `typedef enum { ... } status`
    if language == "python":
        signature = signature.rstrip(":").rstrip()
    elif language == "ruby":
        signature = signature.rstrip("=").rstrip()  # endless `def build(items) = new(items)`
    signature = signature.rstrip("{").rstrip()
    return (prefix + signature)[:MAX_SIGNATURE_CHARS]


def _elision_marker(body_text: bytes) -> str:
    """What stands in for an elided body: `{ ... }`, `=> ...` (C# expression bodies) or `...`."""
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
    """What one file yields: nodes in source order (the module remainder first) and their refs."""

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
    src = Source(data)
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
        # The doc comment above a definition is part of it: its range, snippet and text.
        item.start = min(item.start, item.doc_start)
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
                holes.append((child.body.start_byte, child.body.end_byte, _elision_marker(body_bytes)))
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
    src: Source, path: str, root: Node, data: bytes, lines: LineIndex, defs: list[_Item], language: str
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
    src: Source,
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
        target, name_node, is_import = call_target(src, node, language)
        if not target:
            continue
        anchor = name_node if name_node is not None else node
        line = anchor.end_point.row + 1
        owner = owner_uid(node.start_byte, node.start_point.row + 1)
        if is_import:
            add(owner, imports, target, line, require_alias(src, node) if language != "ruby" else "")
        else:
            add(owner, calls, target, line)
    for node in caps.get("import", ()):
        line = node.start_point.row + 1
        owner = owner_uid(node.start_byte, line)
        for target, alias in import_pairs(src, node, language):
            add(owner, imports, target, line, alias)
    for item in defs:
        if item.kind in _CONTAINER_VALUES:
            for relation, target in base_refs(src, item.node, item.kind, language):
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
