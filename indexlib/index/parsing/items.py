"""Definitions and namespace-like scopes found by a grammar's query: spans, names, nesting, kinds.

Owns: which captured syntax node is a definition or a scope (`_CAPTURE_ORDER` breaks ties), its
written name, its outer span (decorators, `export`, `template <...>`, attributes) and body, the
stack sweep that gives each item its syntactic parent, and classification: kind (a function in a
container is a method), qualifier and the container a Go receiver, Rust `impl`, Swift
`extension`, Kotlin extension receiver or C++ `A::m` attaches it to. Does not own: doc comments,
signatures and node text (symbols.py), the module remainder (remainder.py), references
(extract.py, references.py).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from indexlib.engines.treesitter import Deadline, Node
from indexlib.index.parsing import jsdefs, kotlinswift, luanames, rubydefs, rustimpls, scalaext, tails
from indexlib.index.parsing.declarators import declarator_name, include_guard, local_to_function, typedef_name
from indexlib.index.parsing.languages import DOLLAR_LANGUAGES
from indexlib.index.parsing.overloads import without_overload_stubs
from indexlib.index.parsing.specs import SPECIFIERS, UNQUALIFIED, Spec
from indexlib.index.parsing.text import Source, normalize_target, split_name
from indexlib.pathroles import is_test_container
from indexlib.records import CONTAINER_KINDS, NodeKind

MAX_QUALIFIER_DEPTH = 32

_FUNCTION = NodeKind.FUNCTION.value
_METHOD = NodeKind.METHOD.value
_FIELD = NodeKind.FIELD.value
CONTAINER_VALUES = frozenset(kind.value for kind in CONTAINER_KINDS)
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
    "field": NodeKind.FIELD.value,
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
    "field",
)
# A Java field whose value declares an anonymous class, or an enum constant with a body of its own
# (`DEFAULT { int apply(..) {..} }`): a scope naming that class's methods, which are its members.
# Named by their class alone, a field's adapters were forty `TypeAdapters.read` on gson, each enum
# constant's `apply` one more `Policy.apply` beside the abstract one.
ANONYMOUS_HOLDERS = frozenset({"variable_declarator", "enum_constant"})
# A member the language declares constant, before its `=` or type: Kotlin `const val`, Swift
# `static let`, Scala `final val`. Such a member is a `constant` of its type, not a `field`.
_CONSTANT_MEMBER = re.compile(r"\bconst\b|\bstatic\s+let\b|\bfinal\s+(?:\w+\s+)*val\b")


@dataclass(slots=True, eq=False)
class Item:
    """A definition or a namespace-like scope found by the query, before it becomes a Node."""

    node: Node
    capture: str  # function, method, class, ..., scope, impl
    start: int  # outer span: includes decorators, export, attributes
    end: int
    names: list[str]  # written name; several components for `A::B`, `namespace A.B`
    is_scope: bool
    outer: Node
    # The other names the same statement defines (`a.x = a.y = function`, Go `X, Y int`), each with
    # the syntax node defining it: each is a node of its own with this item's span (`with_aliases`).
    aliases: list[tuple[list[str], Node]] = field(default_factory=list)
    alias_of: Item | None = None  # the item this one repeats under another name
    kind: str = ""
    body: Node | None = None
    parent: Item | None = None  # innermost enclosing item (definition or scope)
    owner: Item | None = None  # innermost enclosing definition (what parent_uid points at)
    qualifier: list[str] = field(default_factory=list)
    attach: str = ""  # qualified container name for Go receivers, Rust impls, C++ `A::m`
    extra_qualifier: list[str] = field(default_factory=list)
    children: list[Item] = field(default_factory=list)
    qualified_name: str = ""
    ordinal: int = 0
    doc: str = ""
    doc_start: int = -1
    uid: int = 0
    start_line: int = 0
    end_line: int = 0


def _names(src: Source, node: Node, capture: str, language: str) -> list[str]:
    """The written name of a definition or scope, as components; [] when it has none."""
    kind = node.type
    if language in kotlinswift.LANGUAGES:
        return kotlinswift.names(src, node, capture, language)
    if kind in ("function_definition", "declaration", "field_declaration") and language in ("c", "cpp"):
        return declarator_name(src, node.child_by_field_name("declarator"))[0]
    if kind == "type_definition" and language in ("c", "cpp"):
        return typedef_name(src, node)  # `typedef std::string name_t;`, `typedef void (*cb)(int);`
    if kind in ("val_definition", "var_definition"):  # Scala `val count = 0`; `val x, y = 1`: x
        pattern = node.child_by_field_name("pattern")
        while pattern is not None and pattern.type == "identifiers":
            pattern = pattern.named_child(0)
        return [src(pattern)] if pattern is not None and pattern.type == "identifier" else []
    if kind == "field" and language == "lua":  # `local M = { on_open = function() end }`: M.on_open
        return luanames.table_path(src, node, MAX_QUALIFIER_DEPTH)
    if kind == "assignment_statement" and language == "lua":  # `M.greet = function(name)`
        names = node.named_child(0) if node.named_child_count else None
        target = names.child_by_field_name("name") if names is not None else None
        if target is not None and target.type == "bracket_index_expression":
            return luanames.keyed_name(src, target)
        return split_name(src(target).replace(":", ".")) if target is not None else []
    if kind == "assignment":  # a Python module-level `NAME = ...`
        return [src(node.child_by_field_name("left"))]
    if kind == "expression_statement" and node.named_child_count == 1:
        return _names(src, node.named_child(0), capture, language)
    if kind in SPECIFIERS:
        name = node.child_by_field_name("name")
        if name is None and node.parent is not None and node.parent.type == "type_definition":
            name = node.parent.child_by_field_name("declarator")
        return split_name(src(name)) if name is not None else []
    if kind == "variable_declarator":
        return [src(node.child_by_field_name("name"))]
    if kind == "const_element":  # PHP `const VERSION = '4.0'`: the name has no field
        return [src(next((c for c in node.named_children if c.type == "name"), None))]
    if kind == "field_definition":
        return [src(node.child_by_field_name("property"))]
    if kind == "assignment_expression":  # `Foo.prototype.bar = function`, `exports.run = () =>`
        return jsdefs.assignment_names(src, node)
    if kind in ("call_expression", "pair"):  # `Object.defineProperty(req, 'protocol', {get})`
        return jsdefs.property_names(src, node)
    if kind == "impl_item":
        return rustimpls.self_type(src, node)
    if capture == "scope":
        name = node.child_by_field_name("name")
        return split_name(src(name)) if name is not None else []
    if kind in ("class", "module") and language == "ruby":
        return split_name(src(node.child_by_field_name("name")))
    if kind in ("call", "alias") and language == "ruby":  # `attr_reader :env, :params`: the first
        return rubydefs.defined_names(src, node)[:1]
    name = node.child_by_field_name("name")
    if name is None:
        return []
    text = src(name)
    if language == "lua":  # `function M.greet()`, `function M:method()`: members of M
        return split_name(text.replace(":", "."))
    if language == "php" or kind in ("class_declaration", "interface_declaration"):
        return split_name(text, language in DOLLAR_LANGUAGES) or [text]
    return [text]


def _body(src: Source, node: Node, language: str) -> Node | None:
    kind = node.type
    if language in kotlinswift.LANGUAGES:
        return kotlinswift.body(node, language)
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
    if kind in ("call_expression", "pair"):  # a property definition: its function or descriptor
        return jsdefs.property_body(src, node)
    if kind == "field" and language == "lua":  # `on_open = function() ... end`: its block
        value = node.child_by_field_name("value")
        return value.child_by_field_name("body") if value is not None else None
    if kind == "assignment_statement":  # Lua `M.f = function() ... end`: the function's block
        values = node.named_child(node.named_child_count - 1) if node.named_child_count else None
        function = values.named_child(0) if values is not None and values.named_child_count else None
        return function.child_by_field_name("body") if function is not None else None
    if kind == "call" and language == "ruby":  # `define_method(:name) do ... end`
        return node.child_by_field_name("block")
    if kind == "enum_variant":  # Rust: shown in its enum unless long (`constant_value`)
        return None
    if kind in ("property_declaration", "event_declaration"):  # C#: accessors with code, or `=> x`
        accessors = node.child_by_field_name("accessors")
        if accessors is not None and any(a.child_by_field_name("body") for a in accessors.named_children):
            return accessors
        return node.child_by_field_name("value")
    return node.child_by_field_name("body")


def constant_value(node: Node) -> Node | None:
    """The value of a constant when it spans several lines (`MIME_TYPES = { ... }`), else None.

    A container's text elides it as it elides a method's body: the constant is a node of its own."""
    value = node.child_by_field_name("right") or node.child_by_field_name("value")
    if node.type == "enum_variant":  # Rust `Move { x: i32, y: i32 }`: its fields
        value = node.child_by_field_name("body")
    if value is None and node.type in ("const_element", "variable_declarator") and node.named_child_count > 1:
        value = node.named_child(node.named_child_count - 1)  # PHP and C# values have no field name
    if value is None or value.start_point.row == value.end_point.row:
        return None
    return value


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
            if _shared(parent, outer, spec.comments):  # `const a = () => 1, b = 2;`: the statement is shared
                break
        elif kind == "expression_statement":
            if outer.type not in ("assignment_expression", "call_expression"):
                break
        elif kind == "type_definition" and node.type not in SPECIFIERS:
            break
        outer = parent
        parent = parent.parent
    return outer


def _shared(declaration: Node, declarator: Node, comments: frozenset[str]) -> bool:
    """Whether a declaration statement declares more than `declarator`. A PHP `const_declaration`
    and a C# typed `variable_declaration` also hold modifiers and the type, so count declarators."""
    if declarator.type == "const_element" or declaration.child_by_field_name("type") is not None:
        return sum(1 for c in declaration.named_children if c.type == declarator.type) != 1
    # A comment inside the statement (`export const J = 2 // why`, no `;`) declares nothing.
    return sum(1 for c in declaration.named_children if c.type not in comments) != 1


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


def collect_items(
    src: Source, caps: dict[str, list[Node]], spec: Spec, language: str, root: Node, deadline: Deadline
) -> list[Item]:
    items: list[Item] = []
    taken: set[tuple[int, int, str]] = set()
    declared: frozenset[str] = frozenset()  # what a JS module declares, which `exports.X = X` only exports
    for captured in _CAPTURE_ORDER:
        nodes = caps.get(captured, [])
        if captured == "constant" and nodes and language in jsdefs.OBJECT_LANGUAGES:
            declared = jsdefs.module_declarations(src, root)
        for count, node in enumerate(nodes):
            key = (node.start_byte, node.end_byte, node.type)
            if key in taken:
                continue
            taken.add(key)
            capture = kotlinswift.capture_of(node, captured, language)
            if count & 255 == 255:
                # `Node.parent` walks down from the root, so very deep nesting costs depth per call.
                deadline.check("definitions")
            if language == "ruby" and rubydefs.only_nests(node):
                capture = "scope"  # `module Rack` holding only `class Widget`: it qualifies names
            is_scope = capture in ("scope", "impl")
            if is_scope and node.type in ANONYMOUS_HOLDERS and not _holds_a_class_body(node):
                continue  # `int LIMIT = 3`: a field, no scope
            names = _names(src, node, capture, language)
            if not is_scope and not any(names):
                continue  # anonymous: `export default class {}`, `typedef struct {..} *P;`
            if local_to_function(node) or (language == "ruby" and rubydefs.on_one_object(node)):
                continue  # a prototype or macro in a function body is the body's; `def obj.x` obj's
            if node.type == "preproc_def" and include_guard(src, node):
                continue  # `#ifndef FOO_H` / `#define FOO_H` only guards the file
            if (
                capture == "constant"
                and node.type == "variable_declarator"
                and jsdefs.binds_import(src, node, language)
            ):
                continue  # `var send = require('send')` is an import (an edge), not a definition
            if capture == "constant" and language == "csharp" and not _csharp_const(src, node):
                continue  # a C# field is a constant only when declared `const`
            if language in jsdefs.OBJECT_LANGUAGES and jsdefs.declares_nothing(src, node, capture, declared):
                continue
            # A declaration without a body (an interface or trait method, an abstract method, a
            # prototype) is a node of its own: findable by name and by its doc comment.
            body = _body(src, node, language)
            names, aliases, spanned = _aliases(src, node, names, language)
            outer = _outer(spanned, spec) if not is_scope else node
            if language == "ruby":
                outer = rubydefs.wrapping_call(outer)  # `private def x`, `private attr_reader :x`
            start, end = outer.start_byte, tails.content_end(outer, spec.comments, src.data)
            while end > start and src.data[end - 1 : end] in (b"\n", b"\r"):
                end -= 1  # a directive (`#define`) owns its newline; the node ends on its last line
            if node.type in ("file_scoped_namespace_declaration",) or (
                node.type == "namespace_definition" and node.child_by_field_name("body") is None
            ):
                end = _statement_namespace_end(node, root)
            items.append(
                Item(
                    node=node,
                    capture=capture,
                    start=start,
                    end=end,
                    names=[n for n in names if n],
                    is_scope=is_scope,
                    outer=outer,
                    body=body,
                    aliases=aliases,
                )
            )
    return without_overload_stubs(src, items, language)


def _anonymous(item: Item) -> bool:
    """Whether `item` is the scope of a Java field's or enum constant's anonymous class."""
    return item.is_scope and item.node.type in ANONYMOUS_HOLDERS


def _holds_a_class_body(node: Node) -> bool:
    """Whether a Java field's value declares an anonymous class (`new Adapter<T>() {..}`, also
    inside a chain: `new Adapter<T>() {..}.nullSafe()`); an enum constant's scope has its body."""
    stack = [node]
    while stack:
        at = stack.pop()
        if at.type == "class_body":
            return True
        stack.extend(at.named_children)
    return False


def _aliases(
    src: Source, node: Node, names: list[str], language: str
) -> tuple[list[str], list[tuple[list[str], Node]], Node]:
    """(names, the other names the statement defines, the node whose span the definition takes).

    A chained assignment `a.x = a.y = function` is named by its first target and spans the whole
    statement; Go `X, Y int` is named by its first field. The other names become nodes of their own
    (`with_aliases`), so each is found as written and resolves as a call target."""
    if node.type == "assignment_expression":
        chain = jsdefs.chain_names(src, node)
        if len(chain) > 1:
            return chain[0][0], chain[1:], jsdefs.chain_top(node)
    elif node.type == "field_declaration" and language == "go":
        others = [([src(n)], node) for n in node.children_by_field_name("name")[1:]]
        return names, others, node
    elif node.type == "call" and language == "ruby":  # `attr_reader :env, :params`: the others
        return names, [([name], node) for name in rubydefs.defined_names(src, node)[1:]], node
    elif language in kotlinswift.LANGUAGES:  # Swift `case get, post`
        return names, [([name], node) for name in kotlinswift.other_names(src, node, language)], node
    return names, [], node


def _csharp_const(src: Source, declarator: Node) -> bool:
    declaration = declarator.parent
    field = declaration.parent if declaration is not None else None
    return field is not None and any(c.type == "modifier" and src(c) == "const" for c in field.named_children)


def _statement_namespace_end(node: Node, root: Node) -> int:
    """`namespace X;` (C#, PHP) covers the file until the next namespace statement."""
    sibling = node.next_named_sibling
    while sibling is not None:
        if sibling.type == node.type:
            return sibling.start_byte
        sibling = sibling.next_named_sibling
    return root.end_byte


def nest(items: list[Item]) -> list[Item]:
    """Sort by span and give each item its innermost enclosing item; returns the sorted list."""
    items.sort(key=lambda item: (item.start, -item.end, item.is_scope is False))
    stack: list[Item] = []
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


def _test_module(item: Item) -> list[str]:
    """A Rust macro's test module (`mod tests { macro_rules! ... }`), its one qualifier: a macro
    qualified by nothing was library code (ripgrep's `qry search matched` led with a test macro)."""
    scope = item.parent
    while scope is not None and not (scope.is_scope and any(map(is_test_container, scope.names))):
        scope = scope.parent
    return scope.names[-1:] if scope is not None and item.node.type == "macro_definition" else []


def classify(src: Source, item: Item, language: str) -> None:
    """Kind, qualifier and attachment of one definition, given its parent is already done."""
    parent = item.parent
    suite: list[str] = []
    if item.node.type in UNQUALIFIED:
        suite = _test_module(item)
        parent = None  # the preprocessor knows no namespaces or classes: `#define` names are global
    owner = parent
    while owner is not None and owner.is_scope:
        owner = owner.parent
    item.owner = owner
    qualifier = (parent.qualifier + parent.names)[-MAX_QUALIFIER_DEPTH:] if parent is not None else suite
    names = item.names
    if len(names) > 1:  # `class A::B`, C++ `A::B::m`
        item.extra_qualifier = names[:-1]
        item.names = names = names[-1:]
    if item.is_scope:
        item.qualifier = qualifier + item.extra_qualifier
        return
    kind = _DEF_CAPTURES[item.capture]
    if kind == _FIELD and _CONSTANT_MEMBER.search(re.split(r"[=:\n]", src(item.node), maxsplit=1)[0]):
        kind = NodeKind.CONSTANT.value
    if kind in (_FUNCTION, _METHOD):
        in_container = (parent is not None and not parent.is_scope and parent.kind in CONTAINER_VALUES) or (
            parent is not None and (parent.capture == "impl" or _anonymous(parent))
        )
        kind = _METHOD if in_container else _FUNCTION
        if item.node.type == "method_declaration" and language == "go":
            receiver = _go_receiver(src, item.node)
            if receiver:
                item.extra_qualifier = [receiver]
                kind = _METHOD
        elif item.extra_qualifier and (language == "cpp" or item.node.type in jsdefs.MEMBER_DEFINITIONS):
            kind = _METHOD  # `A::m() {}` out of class, JS `A.prototype.m = function`, `req.protocol` getter
    extended = kotlinswift.receiver(src, item.node, language) or scalaext.receiver(src, item.node, language)
    if extended and parent is None:  # Kotlin `fun String.shout()`, Scala's `extension (s: String)`
        item.extra_qualifier = [extended]
        kind = _METHOD if kind == _FUNCTION else kind
    if parent is not None and parent.capture == "impl":
        item.attach = ".".join(qualifier)  # methods and associated items of `impl Circle`
    item.kind = kind
    item.qualifier = qualifier + item.extra_qualifier
    if item.extra_qualifier and not item.attach:
        item.attach = ".".join(item.qualifier)


def join_qualified(components: list[str]) -> str:
    if len(components) > MAX_QUALIFIER_DEPTH:
        components = components[-MAX_QUALIFIER_DEPTH:]
    return ".".join(components)
