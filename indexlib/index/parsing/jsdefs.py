"""JavaScript and TypeScript definitions written as statements: what a CommonJS module or a
prototype-style class defines by assignment, and a property by a definition call.

Owns: the name a member assignment defines (`Foo.prototype.bar`, `res.send`, `exports.run`), every
target of a chained assignment (`a.x = a.y = function ...`), which module-level `exports.X = value`
is a constant, and which calls define a property (`Object.defineProperty(obj, 'name', {get})`,
`Object.defineProperties(obj, {name: {get}})`, a `defineGetter(obj, 'name', fn)` helper).
Does not own: the query capturing them (specs.py), spans, nesting and kinds (items.py).

Why statements: before `class`, and in CommonJS to this day, an object's API is whatever the module
assigns to it (`res.send = function send() {}`), and a getter is whatever a definition call installs;
a reader asks for those names (`res.send`, `req.protocol`) as they would for a class's methods.
"""

from __future__ import annotations

import re

from indexlib.engines.treesitter import Node
from indexlib.index.parsing.references import loads_module
from indexlib.index.parsing.text import Source, split_name

# Languages whose module-level objects take members by assignment (`res.send = function`), so a
# top-level constant or constructor function of that name is the member's container.
OBJECT_LANGUAGES = frozenset({"javascript", "typescript", "tsx"})

# Syntax nodes that define a member of an object named in them, not a name of their own scope.
MEMBER_DEFINITIONS = frozenset({"assignment_expression", "call_expression", "pair"})

# Objects whose members are the module's or the instance's own names, not an object's API:
# `exports.run = ...` defines `run`.
BARE_OBJECTS = frozenset({"exports", "module", "this", "self", "window", "global", "globalThis"})

_FUNCTIONS = frozenset({"function_expression", "arrow_function", "generator_function"})
# A function's own methods that run it, now (`call`, `apply`) or when what they make is called (`bind`).
_RUNNERS = frozenset({"bind", "call", "apply"})
# Calls that define one property: (object, 'name', function or descriptor). Only these names: the same
# shape is a route or an event handler elsewhere (`app.get('/users', function ...)`,
# `emitter.on(x, 'data', ...)`), which defines nothing. `defineProperty` is the standard
# (`Object.`/`Reflect.`); `defineGetter`/`defineSetter` are the helpers older code wraps it in.
_PROPERTY_CALLS = frozenset({"defineProperty", "defineGetter", "defineSetter"})
_PROPERTIES_CALL = "defineProperties"  # (object, {name: descriptor, ...})
_ACCESSORS = frozenset({"get", "set", "value"})
_PROPERTY_NAME = re.compile(r"[A-Za-z_$][\w$]*")


def member_names(parts: list[str]) -> list[str]:
    """The name components a member of `parts` (object path + member) defines: `Foo.prototype.bar`
    -> [Foo, bar], `res.send` -> [res, send], `exports.run` and `a.b.c` -> their last part."""
    if len(parts) >= 3 and parts[-2] == "prototype":
        return [parts[-3], parts[-1]]
    if len(parts) == 2 and parts[0] not in BARE_OBJECTS:
        return parts  # `res.sendFile = function`: a member of `res`, found as `res.sendFile`
    return parts[-1:]


def assignment_names(src: Source, node: Node) -> list[str]:
    """The name an `object.member = ...` assignment defines."""
    return member_names(split_name(src(node.child_by_field_name("left")), dollar=True))


# Statements a module-level definition may be written in.
_STATEMENTS = frozenset(
    {"expression_statement", "export_statement", "lexical_declaration", "variable_declaration"}
)


def at_module_level(node: Node) -> bool:
    """Whether a definition's outer node is a statement of the module itself (a key of a property
    definition is where its call is), not of a function or a callback."""
    if node.type == "pair":  # `Object.defineProperties(obj, {key: ...})`: pair, object, arguments, call
        call = node.parent.parent.parent if node.parent and node.parent.parent else None
        node = call if call is not None else node
    parent = node.parent
    while parent is not None and parent.type in _STATEMENTS:
        parent = parent.parent
    return parent is not None and parent.type == "program"


_FUNCTION_SCOPES = frozenset(
    {
        "function_expression",
        "arrow_function",
        "function_declaration",
        "generator_function",
        "generator_function_declaration",
        "method_definition",
    }
)


def in_callback(node: Node) -> bool:
    """Whether the function nearest around `node` is passed to a call (`test("x", () => {..})`), not
    called where it is written: a library's wrapper, `(function($){ $.fn.tip = .. })(jQuery)` or
    `(function(){ _.each = .. }.call(this))`, holds the module's own code."""
    at = node.parent
    while at is not None and at.type not in _FUNCTION_SCOPES:
        at = at.parent
    return at is not None and at.parent is not None and at.parent.type == "arguments"


def assigned_to_local(src: Source, node: Node) -> bool:
    """Whether `node`, an `obj.m = function` assignment, gives the member to a variable or parameter
    of a function around it (`const schema = z.string(); schema.parse = () => "x"` in a test's
    callback): one object of one call, which no other code names, not a module's `obj`."""
    left = node.child_by_field_name("left")
    target = left.child_by_field_name("object") if left is not None else None
    if target is None or target.type != "identifier":
        return False
    name = src(target)
    if Parameters(src).binds(node, name):
        return True
    scope = node.parent
    while scope is not None and scope.type != "program":
        if scope.type == "statement_block" and any(
            src(d.child_by_field_name("name") or d) == name
            for statement in scope.named_children
            if statement.type in ("lexical_declaration", "variable_declaration")
            for d in statement.named_children
            if d.type == "variable_declarator"
        ):
            return True
        scope = scope.parent
    return False


def patches_foreign(src: Source, node: Node, declared: frozenset[str]) -> bool:
    """Whether `node`, an `obj.m = ...` assignment (`Date.now = () => now`, `ky.stop = ...`,
    `Foo.prototype.m = ...`), patches an object the module declares nowhere: a global of the
    runtime or an import's binding (`declared`: module_declarations). A test's stub of someone
    else's object, which no other code calls by that name."""
    target = node.child_by_field_name("left")
    while target is not None and target.type == "member_expression":
        target = target.child_by_field_name("object")
    if target is None or target.type != "identifier":
        return False
    name = src(target)
    return name not in declared and name not in BARE_OBJECTS


class Parameters:
    """The parameter names in scope at a syntax node of one file: its functions' and those of the
    functions around them. Memoised by node, so a file's calls cost one walk of their ancestors in
    all, however deep they nest (`f(f(f(...)))` 5,000 times)."""

    def __init__(self, src: Source, declared: list[Node] | None = None) -> None:
        """`declared`: the file's parameter lists (and an arrow function's one bare parameter), when
        known; a name none of them holds is no parameter anywhere, and costs no walk."""
        self._src = src
        self._at: dict[int, frozenset[str]] = {}
        self._anywhere = None if declared is None else {n for d in declared for n in _names(src, d)}

    def runs(self, node: Node, target: str) -> str:
        """The function a call `target` at `node` also runs by its `bind`, `call` or `apply`
        (function_run), '' for none or a parameter's (`fn.call(this)` runs what the caller passes)."""
        run = function_run(target)
        return "" if run and self.binds(node, run) else run

    def binds(self, node: Node, name: str) -> bool:
        """Whether `name` at `node` is a parameter of a function around it: `new Class({...})` in
        zod's `_string(Class, params)` makes whatever class the caller passes, not an indexed `Class`."""
        if (self._anywhere is not None and name not in self._anywhere) or node.parent is None:
            return False
        return name in self._in_scope(node.parent)

    def _in_scope(self, node: Node) -> frozenset[str]:
        path: list[Node] = []
        current: Node | None = node
        while current is not None and current.id not in self._at:
            path.append(current)
            current = current.parent
        names = self._at[current.id] if current is not None else frozenset[str]()
        for n in reversed(path):
            if n.type in _FUNCTION_SCOPES:
                names = names | _parameters(self._src, n)
            self._at[n.id] = names
        return names


def _parameters(src: Source, function: Node) -> set[str]:
    """The plain names a function's parameters bind (`(a, b = 1)`, `x => ...`; not destructured ones)."""
    declared = function.child_by_field_name("parameter") or function.child_by_field_name("parameters")
    return _names(src, declared) if declared is not None else set()


def _names(src: Source, declared: Node) -> set[str]:
    """The plain names of a parameter list, or of an arrow function's one bare parameter."""
    if declared.type == "identifier":
        return {src(declared)}
    found: set[str] = set()
    for p in declared.named_children:
        named = p.child_by_field_name("pattern") if p.type != "identifier" else p
        if named is not None and named.type == "assignment_pattern":
            named = named.child_by_field_name("left")
        if named is not None and named.type == "identifier":
            found.add(src(named))
    return found


def _chain_parent(node: Node) -> Node | None:
    """The assignment whose right side `node` is, when it assigns to a member: `a.x = <node>`."""
    parent = node.parent
    if parent is None or parent.type != "assignment_expression":
        return None
    right, left = parent.child_by_field_name("right"), parent.child_by_field_name("left")
    if right is None or right.id != node.id or left is None or left.type != "member_expression":
        return None
    return parent


def chain_top(node: Node) -> Node:
    """The outermost assignment of a chain `a.x = a.y = function ...` holding `node` (else `node`)."""
    top = node
    parent = _chain_parent(top)
    while parent is not None:
        top = parent
        parent = _chain_parent(top)
    return top


def chain_names(src: Source, node: Node) -> list[tuple[list[str], Node]]:
    """The names every target of the chain holding assignment `node` defines, with the assignment
    to it, outermost first: `res.set = res.header = function header()` -> [([res, set], the whole
    assignment), ([res, header], `res.header = function header()`)]."""
    found: list[tuple[list[str], Node]] = []
    current: Node | None = node
    while current is not None:
        names = assignment_names(src, current)
        if names and all(names != seen for seen, _ in found):
            found.append((names, current))
        current = _chain_parent(current)
    found.reverse()
    return found


# What compiled CommonJS assigns an export before defining it (`exports.run = void 0;`): no value.
_PLACEHOLDERS = frozenset({"void0", "undefined", "null"})


def export_constant(src: Source, node: Node, declared: frozenset[str]) -> bool:
    """Whether a module-level assignment defines an export that is not a function:
    `exports.static = require('serve-static')`, `module.exports.Router = Router`. Any other object's
    member (`res.locals = {}`), `module.exports = x` itself and a chain are not constants, nor is the
    export of a name the module declares (`exports.parse = parse`): that declaration is the definition,
    nor a placeholder (`exports.parse = void 0`)."""
    left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
    if left is None or right is None or right.type == "assignment_expression":
        return False
    if right.type == "identifier" and src(right) in declared:
        return False
    if "".join(src(right).split()) in _PLACEHOLDERS:
        return False
    target = left.child_by_field_name("object")
    return target is not None and src(target).replace(" ", "") in ("exports", "module.exports")


_DECLARATIONS = frozenset(
    {
        "function_declaration",
        "generator_function_declaration",
        "class_declaration",
        "abstract_class_declaration",
    }
)


def module_declarations(src: Source, root: Node) -> frozenset[str]:
    """The names a module declares at its top level, other than bindings of imports: functions,
    classes and variables (`var x = require('x')` binds an import, not a definition)."""
    names: set[str] = set()
    for child in root.named_children:
        if child.type == "export_statement":
            child = child.child_by_field_name("declaration") or child
        if child.type in _DECLARATIONS:
            names.add(src(child.child_by_field_name("name")))
        elif child.type in ("lexical_declaration", "variable_declaration"):
            for declarator in child.named_children:
                name = (
                    declarator.child_by_field_name("name")
                    if declarator.type == "variable_declarator"
                    else None
                )
                if name is not None and name.type == "identifier" and not binds_import(src, declarator):
                    names.add(src(name))
    return frozenset(names)


def binds_import(src: Source, declarator: Node, language: str = "javascript") -> bool:
    """Whether a binding's value is an import (`require('x')`, `await import('x')`) or a member of one
    (`require('x').y`), as `references.loads_module` reads a call."""
    value = declarator.child_by_field_name("value")
    while value is not None and value.type in (
        "member_expression",
        "await_expression",
        "parenthesized_expression",
    ):
        value = (
            value.child_by_field_name("object") if value.type == "member_expression" else value.named_child(0)
        )
    return value is not None and value.type == "call_expression" and loads_module(src, value, language)


def _callee(src: Source, call: Node) -> str:
    """The last name of a call's function: `Object.defineProperty` -> `defineProperty`."""
    function = call.child_by_field_name("function")
    parts = split_name(src(function), dollar=True) if function is not None else []
    return parts[-1] if parts else ""


def _string_name(src: Source, node: Node | None) -> str:
    """A property name written as a string literal (`'protocol'`) or a key (`protocol:`); '' when
    it is computed or not a plain identifier."""
    if node is None:
        return ""
    text = src(node)
    if node.type == "string":
        text = text[1:-1]
    elif node.type != "property_identifier":
        return ""
    return text if _PROPERTY_NAME.fullmatch(text) else ""


def _accessor(src: Source, descriptor: Node) -> Node | None:
    """The first function a property descriptor (`{ get: function () {}, set(v) {} }`) runs."""
    if descriptor.type != "object":
        return None
    for child in descriptor.named_children:
        if child.type == "method_definition" and src(child.child_by_field_name("name")) in _ACCESSORS:
            return child
        if child.type == "pair" and src(child.child_by_field_name("key")) in _ACCESSORS:
            value = child.child_by_field_name("value")
            if value is not None and value.type in _FUNCTIONS:
                return value
    return None


def _arguments(call: Node) -> list[Node]:
    arguments = call.child_by_field_name("arguments")
    if arguments is None:
        return []
    return [a for a in arguments.named_children if a.type != "comment"]


def property_names(src: Source, node: Node) -> list[str]:
    """The names a property definition defines: `defineGetter(req, 'protocol', function () {})` and
    `Object.defineProperty(req, 'protocol', { get() {} })` -> [req, protocol]; a pair of
    `Object.defineProperties(req, { protocol: { get() {} } })` likewise. [] when the call is no
    property definition, its name is computed, or it installs no function written in place."""
    if node.type == "pair":
        return _pair_names(src, node)
    args = _arguments(node)
    if _callee(src, node) not in _PROPERTY_CALLS or len(args) < 3:
        return []
    name = _string_name(src, args[1])
    if not name or property_body(src, node) is None:
        return []
    return member_names([*split_name(src(args[0]), dollar=True), name])


def _pair_names(src: Source, pair: Node) -> list[str]:
    """[object, key] for a key of `Object.defineProperties(object, {key: descriptor})`, else []."""
    properties = pair.parent
    arguments = properties.parent if properties is not None else None
    call = arguments.parent if arguments is not None and arguments.type == "arguments" else None
    if properties is None or call is None or _callee(src, call) != _PROPERTIES_CALL:
        return []
    args = _arguments(call)
    if len(args) < 2 or args[1].id != properties.id:
        return []
    name = _string_name(src, pair.child_by_field_name("key"))
    descriptor = pair.child_by_field_name("value")
    if not name or descriptor is None or _accessor(src, descriptor) is None:
        return []
    return member_names([*split_name(src(args[0]), dollar=True), name])


def property_body(src: Source, node: Node) -> Node | None:
    """What a property definition installs: the function's body, or the descriptor object."""
    if node.type == "pair":
        return node.child_by_field_name("value")
    args = _arguments(node)
    if len(args) < 3:
        return None
    value = args[2]
    if value.type in _FUNCTIONS:
        return value.child_by_field_name("body")
    return value if _accessor(src, value) is not None else None


def installed_by_definition(src: Source, node: Node) -> bool:
    """Whether a function is what a property definition installs (the `function protocol() {}` of
    `defineGetter(req, 'protocol', function protocol() {})`, the `get() {}` of a descriptor): the
    definition is the property's node, so the function is not one of its own."""
    parent = node.parent
    if parent is not None and parent.type == "pair":
        parent = parent.parent
    if parent is None:
        return False
    if parent.type == "arguments":  # `defineGetter(obj, 'x', <node>)`
        call = parent.parent
        if call is None or call.type != "call_expression":
            return False
        args = _arguments(call)
        return len(args) >= 3 and args[2].id == node.id and bool(property_names(src, call))
    if parent.type != "object" or parent.parent is None:
        return False
    holder = parent.parent
    if holder.type == "pair":
        return bool(property_names(src, holder))
    call = holder.parent if holder.type == "arguments" else None
    return call is not None and call.type == "call_expression" and bool(property_names(src, call))


def declares_nothing(src: Source, node: Node, capture: str, declared: frozenset[str]) -> bool:
    """A capture that is no definition of its own: a module-level member assignment of a value that
    is not an export (`res.locals = {}`), or the function a property definition installs (that
    definition is the node, named by its object and key)."""
    if capture == "constant" and node.type == "assignment_expression":
        return not export_constant(src, node, declared)
    if node.type in ("function_expression", "method_definition"):
        return installed_by_definition(src, node)
    return False


def function_run(target: str) -> str:
    """The function a call of its `bind`, `call` or `apply` runs (`subprocessKill.bind(undefined,
    opts)` -> `subprocessKill`, `fn.call(this, x)` -> `fn`), '' for another call. execa hands most of
    its functions around bound (`promise.pipe = pipeToSubprocess.bind(..)`): only the call of
    `bind` named them, so `qry related subprocessKill --callers` found none."""
    head, _, method = target.rpartition(".")
    return head if method in _RUNNERS and head and head.rpartition(".")[2] not in _RUNNERS else ""
