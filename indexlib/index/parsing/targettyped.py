"""The class a C# target-typed `new(..)` constructs, read from where its value goes.

Owns: finding, for an `implicit_object_creation_expression`, the type node its target declares:
the variable, field or property it initialises (`readonly Dictionary<K, V> _o = new();`, `public
static Seq Empty { get; } = new(..)`), the member whose `=> new(..)` body it is, the method, local
function or property whose value a `return new(..)` gives, or the declared type of the local,
parameter, field or property an assignment gives it (`overrideMap = new(..)` after `LevelOverrideMap?
overrideMap = null;`, `WriteTo = new(this, ..)` in a constructor).

Why: the expression writes no type, so it made no reference at all: on serilog,
`LoggerConfiguration.CreateLogger`'s `return new(processor, ..)` and `overrideMap = new(..)` had no
edge to `Logger` or `LevelOverrideMap`. C# itself types it only from that target, so the target's
declaration is the class (a generic's name and arity as written, `Dictionary<K, V>`).

Left alone (no reference, as before): an argument (`Foo(new(x))`, the parameter's type is the
callee's), a lambda's body or its `return`, `var` and built-in, array or tuple types, and a
target named through another object (`other.Field = new()`).
"""

from __future__ import annotations

from indexlib.engines.treesitter import Node
from indexlib.index.parsing.text import Source, absolute, normalize_target, with_arity

TARGET_TYPED_NEW = "implicit_object_creation_expression"
# Expressions a value passes through unchanged on its way to its target.
_THROUGH = frozenset({"parenthesized_expression", "conditional_expression"})
# Declarations whose value or `return` gives their declared type (`returns` for a method's).
_TYPED_MEMBERS = frozenset(
    {"method_declaration", "local_function_statement", "property_declaration", "indexer_declaration"}
)
# A `return` in one of these returns the lambda's value, whose type the code does not write.
_OPAQUE = frozenset(
    {"lambda_expression", "anonymous_method_expression", "constructor_declaration", "operator_declaration"}
)
_CLASS_BODIES = frozenset({"class_declaration", "struct_declaration", "record_declaration"})


def constructed(src: Source, node: Node) -> tuple[str, Node | None]:
    """(the call target, the node anchoring its line: the `new` keyword) of a target-typed `new(..)`,
    written as a typed `new Foo<T>(..)`'s (`Foo`1`); ("", None) when its class is not read."""
    written = created_type(src, node)
    if written is None:
        return "", None
    text = src(written)
    return with_arity(absolute(text, normalize_target(text)), text), node.child(0)


def created_type(src: Source, node: Node) -> Node | None:
    """The type node naming the class `node` (a target-typed `new(..)`) constructs, or None when
    its target is not one this reads or names no class."""
    child, up = node, node.parent
    while up is not None and up.type in _THROUGH and child != up.child_by_field_name("condition"):
        child, up = up, up.parent
    if up is None:
        return None
    if up.type == "equals_value_clause":  # grammars before 0.23 wrap an initialiser
        up = up.parent
    if up is None:
        return None
    if up.type == "variable_declarator" and up.parent is not None:
        return _class_type(up.parent.child_by_field_name("type"))
    if up.type == "arrow_expression_clause":
        return _member_type(up.parent)
    if up.type == "property_declaration":  # `{ get; } = new(..)`
        return _member_type(up)
    if up.type == "return_statement":
        return _returned_by(up)
    if up.type == "assignment_expression" and up.child_by_field_name("right") == child:
        left = up.child_by_field_name("left")
        name = _assigned_name(src, left) if left is not None else None
        return _declared_type(src, up, name) if name else None
    return None


def _member_type(member: Node | None) -> Node | None:
    if member is None or member.type not in _TYPED_MEMBERS:
        return None
    return _class_type(member.child_by_field_name("returns") or member.child_by_field_name("type"))


def _returned_by(statement: Node) -> Node | None:
    """The declared type of what a `return` statement returns from: its method, local function or
    property (a getter's body), never a lambda's."""
    up = statement.parent
    while up is not None:
        if up.type in _OPAQUE:
            return None
        if up.type in _TYPED_MEMBERS:
            return _member_type(up)
        up = up.parent
    return None


def _assigned_name(src: Source, left: Node) -> str | None:
    """`x` of `x = ..` and of `this.x = ..`; None for another object's member or an element."""
    if left.type == "identifier":
        return src(left)
    if left.type == "member_access_expression":
        owner, name = left.child_by_field_name("expression"), left.child_by_field_name("name")
        if owner is not None and owner.type == "this_expression" and name is not None:
            return src(name)
    return None


def _declared_type(src: Source, at: Node, name: str) -> Node | None:
    """The type of the nearest declaration of `name` seen from `at`: a local or parameter of an
    enclosing function, then a field or property of the enclosing class."""
    up = at.parent
    while up is not None:
        if up.type in _CLASS_BODIES:
            body = up.child_by_field_name("body")
            return _member_declared(src, body, name) if body is not None else None
        if up.type in _TYPED_MEMBERS or up.type in _OPAQUE or up.type == "block":
            found = _local_declared(src, up, name)
            if found is not None:
                return _class_type(found)
        up = up.parent
    return None


def _local_declared(src: Source, scope: Node, name: str) -> Node | None:
    """The written type of `name` declared as a parameter of `scope` or as a local directly in it
    (a statement of its block), or None."""
    params = scope.child_by_field_name("parameters")
    for p in params.named_children if params is not None else ():
        named = p.child_by_field_name("name")
        if p.type == "parameter" and src(named) == name:
            return p.child_by_field_name("type")
    for statement in scope.named_children if scope.type == "block" else ():
        if statement.type == "local_declaration_statement":
            declaration = next(
                (c for c in statement.named_children if c.type == "variable_declaration"), None
            )
            if declaration is not None and _declares(src, declaration, name):
                return declaration.child_by_field_name("type")
    return None


def _member_declared(src: Source, body: Node, name: str) -> Node | None:
    """The type of a field or property `name` of a class body."""
    for member in body.named_children:
        if member.type == "property_declaration":
            named = member.child_by_field_name("name")
            if src(named) == name:
                return _class_type(member.child_by_field_name("type"))
        elif member.type == "field_declaration":
            declaration = next((c for c in member.named_children if c.type == "variable_declaration"), None)
            if declaration is not None and _declares(src, declaration, name):
                return _class_type(declaration.child_by_field_name("type"))
    return None


def _declares(src: Source, declaration: Node, name: str) -> bool:
    return any(
        d.type == "variable_declarator" and src(d.child_by_field_name("name")) == name
        for d in declaration.named_children
    )


def _class_type(written: Node | None) -> Node | None:
    """`written` when it names a class (`Foo`, `A.Foo`, `Foo<T>`; `Foo?` its inner type), None for
    `var` (`implicit_type`), a built-in, array, tuple or pointer type."""
    if written is not None and written.type == "nullable_type":
        written = written.child_by_field_name("type") or (
            written.named_child(0) if written.named_child_count else None
        )
    if written is None or written.type not in ("identifier", "qualified_name", "generic_name"):
        return None
    return written
