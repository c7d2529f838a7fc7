"""Ruby methods defined by a statement of a class body rather than by `def`.

Owns: the names a class-body statement defines as methods, `attr_reader :name, :other` (and
`attr_writer`, `attr_accessor`, `attr`), `alias new old`, `alias_method :new, :old` and
`define_method(:name) { ... }`, the call a definition is an argument of (`private def x`,
`private attr_reader :x`), which its span and doc comment start at, and which `def obj.name` is no
method of a class.
Does not own: the query capturing these statements (specs.py), spans, nesting and kinds (items.py),
other call targets (references.py).

Why: an accessor, an alias or a defined method is called like any method (`request.env`), so a
question naming it, and a call of it, should find a node of that name in its class, as for a `def`.
And `Foo.new` calls no method `new` of the index: it constructs Foo, so it is a call of the class.
"""

from __future__ import annotations

from indexlib.engines.treesitter import Node
from indexlib.index.parsing.text import Source

# Calls that define one method per symbol argument.
_ACCESSORS = frozenset({"attr_reader", "attr_writer", "attr_accessor", "attr"})
# Calls that define one method named by their first argument.
_NAMING_CALLS = frozenset({"alias_method", "define_method"})


def constructed(src: Source, receiver: Node | None, method: str) -> str:
    """`Jekyll::Site.new(config)` -> `Jekyll::Site`: the class a `.new` on a constant builds, called
    as `Site()` is in Python or `new Site()` in Java; '' for any other call (`obj.new`, `new`)."""
    if method != "new" or receiver is None or receiver.type not in ("constant", "scope_resolution"):
        return ""
    return src(receiver)


def assigned(call: Node) -> bool:
    """Whether a Ruby call is the target of an assignment (`self.url_prefix = url`, `a.b, c.d = 1, 2`):
    Ruby runs it as the writer `url_prefix=`. `self.count += 1` and `x.y ||= v` read before they
    write: their call stays the reader's."""
    parent = call.parent
    if parent is not None and parent.type == "left_assignment_list":
        return True
    return parent is not None and parent.type == "assignment" and parent.child_by_field_name("left") == call


def _symbol_name(src: Source, node: Node) -> str:
    """`:name` or `"name"` -> name; '' for anything computed (a variable, an interpolation)."""
    if node.type == "simple_symbol":
        return src(node).lstrip(":")
    if node.type in ("string", "delimited_symbol") and node.named_child_count == 1:
        content = node.named_child(0)
        if content is not None and content.type == "string_content":
            return src(content)
    return ""


def defined_names(src: Source, node: Node) -> list[str]:
    """The methods a class-body statement defines, in order: [] for any other statement.

    `attr_accessor :a, :b` -> [a, b]; `alias_method :new, :old`, `alias new old` and
    `define_method(:new)` -> [new]. An argument whose name is computed defines no name."""
    if node.type == "alias":
        name = node.child_by_field_name("name")
        if name is None or name.type == "global_variable":  # `alias $new $old` renames a global
            return []
        return [n for n in [src(name).lstrip(":")] if n]
    if node.type != "call" or node.child_by_field_name("receiver") is not None:
        return []
    method = src(node.child_by_field_name("method"))
    if method not in _ACCESSORS and method not in _NAMING_CALLS:
        return []
    arguments = node.child_by_field_name("arguments")
    args = [a for a in arguments.named_children if a.type != "comment"] if arguments is not None else []
    if method in _NAMING_CALLS:
        args = args[:1]
    names = [_symbol_name(src, a) for a in args]
    if method in _NAMING_CALLS:
        return names if all(names) else []
    return [n for n in names if n]


def wrapping_call(node: Node) -> Node:
    """The call whose only argument a definition is (`private def helper`, `private attr_reader
    :x`, `memoize def total`): the definition's span and doc comment start there. Else `node`."""
    arguments = node.parent
    if arguments is None or arguments.type != "argument_list" or arguments.named_child_count != 1:
        return node
    call = arguments.parent
    if call is None or call.type != "call" or call.child_by_field_name("receiver") is not None:
        return node
    return call


def on_one_object(node: Node) -> bool:
    """Whether `def obj.name` defines a method of the one object a variable holds (a test's stub,
    `def obj.warn(*) end`), not of `self` or of a class (`def self.x`, `def Config.x`). Only that
    variable reaches it, so it is no definition of its own (its text stays its container's): as one
    it was a top-level function `warn` that Kernel's `warn` in library code resolved to, and a bare
    `each` to every test's `def body.each`."""
    if node.type != "singleton_method":
        return False
    receiver = node.child_by_field_name("object")
    return receiver is not None and receiver.type not in ("self", "constant", "scope_resolution")


_NESTED = frozenset({"class", "module", "comment"})
_METHODS = frozenset({"method", "singleton_method"})


def super_target(src: Source, node: Node) -> str:
    """The target of a Ruby `super` (bare, `super(x)`, `super.x`): `super.params` in `def params`,
    as Python's `super().params()` is written, so the resolver looks for the nearest ancestor's
    `params` (a mixed-in module's too); '' outside a method. Why: a bare `super` is no `call` node,
    and `super(x)` named a method `super`, so neither made an edge."""
    at = node.parent
    while at is not None and at.type not in _METHODS:
        if at.type in _NESTED:
            return ""
        at = at.parent
    name = at.child_by_field_name("name") if at is not None else None
    return f"super.{src(name)}" if name is not None else ""


def only_nests(node: Node) -> bool:
    """Whether a module holds nothing but classes and modules (`module Rack; module Protection;
    class Widget`): in this file it only qualifies their names, as a namespace does, and a node of
    its own would be the header lines around them, found by every question about them."""
    if node.type != "module":
        return False
    body = node.child_by_field_name("body")
    if body is None or body.named_child_count == 0:
        return False  # an empty module is a definition: a marker, or one to fill in
    return all(child.type in _NESTED for child in body.named_children)


# Where a bare name is read as a value (a statement, an argument, an operand, a receiver): there a
# name no local holds is a method call. Elsewhere an identifier names (a method, a parameter, a
# variable assigned), which is no call.
_VALUE_PARENTS = frozenset(
    {"body_statement", "then", "else", "do", "begin", "ensure", "block_body", "argument_list",
     "binary", "unary", "parenthesized_statements", "conditional", "if_modifier", "unless_modifier",
     "while_modifier", "until_modifier", "rescue_modifier", "interpolation", "array", "return",
     "next", "break", "element_reference", "splat_argument", "hash_splat_argument", "range"}
)  # fmt: skip
# Parent -> its fields in which an identifier is an operand, though the parent also names.
_VALUE_FIELDS = {
    "call": ("receiver",), "assignment": ("right",), "operator_assignment": ("right",),
    "pair": ("value",), "if": ("condition",), "unless": ("condition",), "while": ("condition",),
    "until": ("condition",), "case": ("value",),
}  # fmt: skip
# Parents whose identifier children a scope binds as locals: parameters, multiple assignment,
# a rescued exception, pattern matching.
_BINDERS = frozenset(
    {"method_parameters", "block_parameters", "lambda_parameters", "optional_parameter",
     "keyword_parameter", "splat_parameter", "hash_splat_parameter", "block_parameter",
     "destructured_parameter", "left_assignment_list", "rest_assignment", "destructured_left_assignment",
     "exception_variable", "array_pattern", "find_pattern", "hash_pattern", "keyword_pattern",
     "as_pattern", "alternative_pattern", "for"}
)  # fmt: skip
# Parents binding only the identifier of one field: `x = ...`'s left, `def f(a = b)`'s `a`.
_BINDING_FIELDS = {
    "assignment": "left",
    "operator_assignment": "left",
    "optional_parameter": "name",
    "keyword_parameter": "name",
    "in_clause": "pattern",
}
# The scopes of Ruby's local variables: a block sees its method's, a method sees none around it.
_LOCAL_SCOPES = frozenset({"method", "singleton_method", "class", "module", "singleton_class", "program"})


class BareCalls:
    """The bare names of one Ruby file that call a method: `settings`, `request.path`'s `request`,
    `render_page` on its own line. Ruby reads such a name as a local variable only when an
    assignment or a parameter of its scope binds it; tree-sitter writes both as one `identifier`, so
    a helper called without arguments or parentheses made no reference. The names each scope (a
    method, a class body, the file) binds are read off the file's identifiers once: anywhere in the
    scope, so a local assigned after the name is read as a local too, which errs towards no edge."""

    def __init__(self, src: Source, names: list[Node]) -> None:
        """`names`: every identifier of the file (those binding a local among them)."""
        self._src = src
        self._scopes: dict[int, Node] = {}
        bound: dict[int, set[str]] = {}
        for n in names:
            if n.parent is not None and _binds(n, n.parent):
                bound.setdefault(self._scope(n.parent).id, set()).add(src(n))
        self._bound = {scope: frozenset(found) for scope, found in bound.items()}

    def called(self, node: Node) -> str:
        """The method a bare identifier calls, or '' (a local, a parameter, a name being defined)."""
        parent = node.parent
        if parent is None or not _read_as_value(node, parent):
            return ""
        name = self._src(node)
        return "" if name in self._bound.get(self._scope(parent).id, frozenset()) else name

    def _scope(self, node: Node) -> Node:
        """The scope of local variables `node` is in (remembered for every node on the way up: a
        file's identifiers share their ancestors)."""
        seen: list[int] = []
        at = node
        while at.id not in self._scopes and at.parent is not None and at.type not in _LOCAL_SCOPES:
            seen.append(at.id)
            at = at.parent
        scope = self._scopes.get(at.id, at)
        for i in seen:
            self._scopes[i] = scope
        return scope


def bare_calls(src: Source, names: list[Node]) -> list[tuple[Node, str]]:
    """(identifier, the method it calls) for each of a file's bare identifiers (`names`: all of
    them) that is a call."""
    reader = BareCalls(src, names)
    return [(n, called) for n in names if (called := reader.called(n))]


def _read_as_value(node: Node, parent: Node) -> bool:
    """Whether identifier `node` is read as a value where it is written (not a name being defined)."""
    if parent.type in _VALUE_PARENTS:
        return True
    fields = _VALUE_FIELDS.get(parent.type)
    return fields is not None and any(parent.child_by_field_name(f) == node for f in fields)


def _binds(node: Node, parent: Node) -> bool:
    """Whether identifier `node` is a local its scope binds: a parameter, an assigned name."""
    field = _BINDING_FIELDS.get(parent.type)
    if field is not None:
        return parent.child_by_field_name(field) == node
    return parent.type in _BINDERS
