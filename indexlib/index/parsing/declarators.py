"""C and C++ names read from declarators, and the C-family declarations that define nothing.

Owns: the written name of a function (`int &Widget::counter()`, `Widget::operator==`, `operator
bool`), of a typedef (`typedef void (*callback)(int)`), and the tests that keep a declaration out
of the definitions: written inside a function body, an include guard's `#define`, a typedef of a
struct whose body is already its own node. Does not own: which nodes are captured (specs.py) or
their spans and kinds (items.py).
"""

from __future__ import annotations

from indexlib.engines.treesitter import Node
from indexlib.index.parsing.text import Source, normalize_target


def declarator_name(src: Source, node: Node | None) -> tuple[list[str], Node | None]:
    """C/C++ function name from a declarator chain: (components, the name node).

    The chain is followed through the declarators that wrap a name without a `declarator` field
    (`int &counter()`, `Widget &Widget::operator=(...)`, `int (*handler(void))(int)`); a pointer
    in parentheses that does not lead to a function's own declarator (`int (*fp)(int)`, a pointer
    to a function) names a variable, not a function: no name then."""
    guard = 0
    while node is not None and guard < 64:
        guard += 1
        kind = node.type
        if kind in _NAME_NODES:
            return [_simple_name(src, node)], node
        if kind == "qualified_identifier":
            return _qualified_parts(src, node), node
        if kind == "template_function":
            return [normalize_target(src(node.child_by_field_name("name")))], node
        if kind == "parenthesized_declarator" and not _wraps_function(node):
            return [], None
        node = _inner(node)
    return [], None


_NAME_NODES = frozenset(
    {"identifier", "field_identifier", "destructor_name", "operator_name", "operator_cast", "type_identifier"}
)
# Declarators whose inner declarator is a child without a field name.
_WRAPPING_DECLARATORS = frozenset({"reference_declarator", "parenthesized_declarator", "pointer_declarator"})
# The other children of those: `int *const p`, `int &[[maybe_unused]] r`, MSVC's `__based`.
_DECLARATOR_MODIFIERS = frozenset(
    {
        "type_qualifier",
        "attribute_specifier",
        "attribute_declaration",
        "ms_based_modifier",
        "ms_pointer_modifier",
    }
)


def _wraps_function(node: Node | None) -> bool:
    """Whether a parenthesized declarator holds a function's declarator under its pointers."""
    guard = 0
    while node is not None and node.type in _WRAPPING_DECLARATORS and guard < 64:
        guard += 1
        node = _inner(node)
    return node is not None and node.type == "function_declarator"


def _inner(node: Node) -> Node | None:
    """The declarator inside `node`: its `declarator` field, else (`int &f()`, `(*f)`) its one
    declarator child without a field name."""
    inner = node.child_by_field_name("declarator")
    if inner is None and node.type in _WRAPPING_DECLARATORS:
        inner = next((c for c in node.named_children if c.type not in _DECLARATOR_MODIFIERS), None)
    return inner


def _qualified_parts(src: Source, node: Node | None) -> list[str]:
    """`a::b<T>::m` -> [a, b, m]; the last component as `_simple_name` spells it (`operator==`, `~b`)."""
    parts: list[str] = []
    guard = 0
    while node is not None and node.type == "qualified_identifier" and guard < 64:
        guard += 1
        scope = node.child_by_field_name("scope")
        if scope is not None:
            parts.extend(p for p in normalize_target(src(scope)).split(".") if p)
        node = node.child_by_field_name("name")
    if node is not None:
        name = _simple_name(src, node) if node.type in _NAME_NODES else normalize_target(src(node))
        parts.extend(p for p in [name] if p)
    return parts


def _simple_name(src: Source, node: Node) -> str:
    """A name node's text with its spacing made canonical: `operator==`, `operator new`,
    `operator bool` (a conversion), `~Widget`, so in-class and out-of-class spellings agree."""
    kind = node.type
    if kind == "operator_cast":
        return "operator " + " ".join(src(node.child_by_field_name("type")).split())
    text = src(node)
    if kind == "destructor_name":
        return "~" + text.lstrip("~").strip()
    if kind == "operator_name":
        symbol = " ".join(text[len("operator") :].split())
        return "operator" + (" " + symbol if symbol[:1].isalpha() else symbol.replace(" ", ""))
    return text


def typedef_name(src: Source, node: Node) -> list[str]:
    """The name a `typedef` declares: `name_t`, `callback` of `typedef void (*callback)(int)`; none
    when it declares a struct, union, enum or class with a body (that specifier is the definition,
    named by the typedef when it has no name of its own: `typedef struct { ... } point;`)."""
    kind = node.child_by_field_name("type")
    if kind is not None and kind.type in _BODIED and kind.child_by_field_name("body") is not None:
        return []
    declarator = node.child_by_field_name("declarator")
    guard = 0
    while declarator is not None and guard < 64:
        guard += 1
        if declarator.type in ("type_identifier", "identifier", "primitive_type"):
            return [src(declarator)]
        declarator = _inner(declarator)
    return []


_BODIED = frozenset({"struct_specifier", "union_specifier", "enum_specifier", "class_specifier"})
_LOCAL_KINDS = frozenset(
    {
        "declaration",
        "preproc_def",
        "preproc_function_def",
        "type_definition",
        "alias_declaration",
        "macro_definition",
    }
)


def local_to_function(node: Node) -> bool:
    """Whether a declaration, typedef, alias or macro (`#define`, Rust `macro_rules!`) is written
    inside a function body, where only that body can use it."""
    if node.type not in _LOCAL_KINDS:
        return False
    parent = node.parent
    while parent is not None:
        if parent.type in ("function_definition", "function_item"):
            return True
        parent = parent.parent
    return False


def include_guard(src: Source, node: Node) -> bool:
    """Whether a `#define` is an include guard: no value, under `#ifndef` or `#if !defined` of its name."""
    if node.child_by_field_name("value") is not None:
        return False
    name = src(node.child_by_field_name("name"))
    parent = node.parent
    if parent is None:
        return False
    if parent.type == "preproc_ifdef":
        opener = parent.child(0)
        return (
            opener is not None
            and opener.type == "#ifndef"
            and src(parent.child_by_field_name("name")) == name
        )
    if parent.type == "preproc_if":
        condition = "".join(src(parent.child_by_field_name("condition")).split())
        return condition in (f"!defined({name})", f"!defined{name}")
    return False
