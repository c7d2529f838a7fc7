"""Kotlin and Swift: what their grammars write differently from the others, for items.py and references.py.

Owns: the written name and body of a Kotlin or Swift definition, the kind a Kotlin keyword decides,
the type a Kotlin extension function (`fun String.shout()`) belongs to, and the callee, imports
and base types of both languages.

Why a module of its own: Kotlin's grammar names no fields (a class's name is its first
`type_identifier` child, a function's its `simple_identifier`, a body is a `function_body` or
`class_body` child), and one `class_declaration` is a class, an interface or an enum class by a
keyword child, which a tree-sitter query cannot tell apart without capturing one node twice.
Swift's grammar names fields, but a property's name is a pattern, an extension is a
`class_declaration` that only adds members, and its calls, like Kotlin's, name the callee by
position (`call_expression` = callee + `call_suffix`).
"""

from __future__ import annotations

import re

from indexlib.engines.treesitter import Node
from indexlib.index.parsing.text import Source, blank, normalize_target, split_name
from indexlib.records import WILDCARD_IMPORT, NodeKind, RefKind

LANGUAGES = frozenset({"kotlin", "swift"})

# A Kotlin declaration's name, by node type: the first child of that type.
_KOTLIN_NAME_CHILD = {
    "class_declaration": "type_identifier",
    "object_declaration": "type_identifier",
    "companion_object": "type_identifier",
    "type_alias": "type_identifier",
    "function_declaration": "simple_identifier",
    "enum_entry": "simple_identifier",
}
_KOTLIN_BODIES = frozenset({"function_body", "class_body", "enum_class_body"})
_KOTLIN_KEYWORD_KINDS = {"interface": "interface", "enum": "enum"}
_SWIFT_PROPERTIES = frozenset({"property_declaration", "protocol_property_declaration"})
# The types Swift's sugar spells: `[T]` is `Array<T>`, `[K: V]` `Dictionary<K, V>`, `T?` `Optional<T>`.
_SWIFT_SUGAR = {"array_type": "Array", "dictionary_type": "Dictionary", "optional_type": "Optional"}


def _child(node: Node, node_type: str) -> Node | None:
    return next((c for c in node.named_children if c.type == node_type), None)


def names(src: Source, node: Node, capture: str, language: str) -> list[str]:
    """The written name of a Kotlin or Swift definition (or Swift extension), as components; a
    name quoted in backticks (Swift `` `default` ``, a Kotlin test `` `parses empty input` ``) unquoted."""
    return [name.strip("`") for name in _written_names(src, node, capture, language)]


def other_names(src: Source, node: Node, language: str) -> list[str]:
    """The names after the first that one Swift statement defines: `case get, post`, `let a = 1, b = 2`."""
    if language != "swift" or node.type not in ("enum_entry", "property_declaration"):
        return []
    found: list[Node | None] = list(node.children_by_field_name("name")[1:])
    if node.type == "property_declaration":
        found = [p.child_by_field_name("bound_identifier") for p in found if p is not None]
    return [src(n).strip("`") for n in found if n is not None]


def _written_names(src: Source, node: Node, capture: str, language: str) -> list[str]:
    kind = node.type
    if language == "swift":
        if kind == "subscript_declaration":  # `subscript(index: Int) -> T`: the type's `[]`
            return ["subscript"]
        if kind in _SWIFT_PROPERTIES:  # `let maxRetries = 3`, `var name: String { get }`
            pattern = node.child_by_field_name("name")
            bound = pattern.child_by_field_name("bound_identifier") if pattern is not None else None
            return [src(bound)] if bound is not None else []
        name = node.child_by_field_name("name")
        if name is None:
            return []
        if capture == "impl" and name.type in _SWIFT_SUGAR:  # `extension [Header]` extends Array
            return [_SWIFT_SUGAR[name.type]]
        return split_name(src(name)) if capture == "impl" else [src(name)]  # `extension Foo.Bar`
    if kind == "property_declaration":
        declared = _child(node, "variable_declaration")  # `val (a, b) = pair` declares no one name
        name = _child(declared, "simple_identifier") if declared is not None else None
        return [src(name)] if name is not None else []
    if kind == "secondary_constructor":  # `constructor(a: Int) : this(...)`: named as its class
        owner = node.parent.parent if node.parent is not None else None
        name = _child(owner, "type_identifier") if owner is not None else None
        return [src(name)] if name is not None else []
    if kind == "companion_object":
        name = _child(node, "type_identifier")
        return [src(name) if name is not None else "Companion"]
    child_type = _KOTLIN_NAME_CHILD.get(kind)
    name = _child(node, child_type) if child_type is not None else None
    return [src(name)] if name is not None else []


def body(node: Node, language: str) -> Node | None:
    """The part of a definition its container's text elides: a function's or type's body, a Swift
    computed property's accessors."""
    if language == "swift":
        return node.child_by_field_name("body") or node.child_by_field_name("computed_value")
    if node.type == "secondary_constructor":  # `constructor(...) : this(...) { statements }`
        return _child(node, "statements")
    return next((c for c in node.named_children if c.type in _KOTLIN_BODIES), None)


def capture_of(node: Node, capture: str, language: str) -> str:
    """A Kotlin `class_declaration` written `interface` or `enum class` is that kind of definition."""
    if language != "kotlin" or node.type != "class_declaration":
        return capture
    for child in node.children:
        kind = _KOTLIN_KEYWORD_KINDS.get(child.type)
        if kind is not None and not child.is_named:
            return kind
    return capture


def receiver(src: Source, node: Node, language: str) -> str:
    """The type a Kotlin extension function or property extends (`fun List<T>.second()` -> `List`);
    for a type parameter, its bound (`fun <S : BufferedSink> S.writeUShort()` -> `BufferedSink`),
    through a parameter bounded by another (`fun <T : Base<T>, U : T> U.context()` -> `Base`)."""
    if language != "kotlin":
        return ""
    written = node.child_by_field_name("receiver")
    if written is None:
        return ""
    kind = _child(written, "user_type") or _child(written, "nullable_type") or written
    name = normalize_target(src(kind)).removesuffix("?")
    for _ in range(MAX_BOUND_STEPS):  # `<T : Base<T>, U : T> U.context()`: U's bound is T, T's Base
        bound = _bound(src, node, name) if "." not in name else None
        if bound is None:
            break
        name = normalize_target(src(bound)).removesuffix("?")
    return name


_BOUNDS = frozenset({"user_type", "nullable_type"})
# Type parameters followed from one to the bound it names (`U : T`, `T : Base<T>`): a declaration
# writes a few; a cycle (`<A : B, B : A>`, not valid Kotlin) ends on a parameter's name.
MAX_BOUND_STEPS = 4


def _bound(src: Source, node: Node, name: str) -> Node | None:
    """The upper bound the declaration gives its type parameter `name`: in `<S : X>`, else the first
    `where S : X`. None for no such parameter or one without a bound (`fun <T> T.x()`, any type)."""
    parameters = _child(node, "type_parameters")
    for parameter in parameters.named_children if parameters is not None else []:
        written = _child(parameter, "type_identifier")
        if written is not None and src(written) == name:
            return next((c for c in parameter.named_children if c.type in _BOUNDS), None) or _where(
                src, node, name
            )
    return None


def _where(src: Source, node: Node, name: str) -> Node | None:
    """The first bound a `where` clause gives `name` (`where T : Sink, T : Closeable` -> `Sink`)."""
    constraints = _child(node, "type_constraints")
    for constraint in constraints.named_children if constraints is not None else []:
        written = _child(constraint, "type_identifier")
        if written is not None and src(written) == name:
            return next((c for c in constraint.named_children if c.type in _BOUNDS), None)
    return None


def callee(node: Node) -> Node | None:
    """The callee of a `call_expression`: its first named child (`reader.nextString`, `URL`); none
    for a Swift subscript (`self.items[i]`, which the grammar reads as a call with `[..]` arguments):
    it reads an element, calling no function named after the collection."""
    first = node.named_child(0) if node.named_child_count else None
    if first is None or first.type == "call_suffix":
        return None
    suffix = first.next_named_sibling
    arguments = suffix.named_child(0) if suffix is not None and suffix.named_child_count else None
    opener = arguments.child(0) if arguments is not None and arguments.type == "value_arguments" else None
    return None if opener is not None and opener.type == "[" else first


def implicit_member(node: Node) -> bool:
    """Whether a `call_expression` is a Swift implicit member expression (`.retry(userInfo: nil)`,
    `.init(value: 1)`): its callee is `.` and a name with nothing before it. A Kotlin prefix
    expression is an operator's (`-x`, `!done`), never a `.`."""
    first = node.named_child(0) if node.named_child_count else None
    lead = first.child(0) if first is not None and first.type == "prefix_expression" else None
    return lead is not None and lead.type == "."


def import_pairs(src: Source, node: Node, language: str) -> list[tuple[str, str]]:
    """(target, alias) of a Kotlin `import a.b.C [as D]` / `import a.b.*`, or a Swift `import [kind] A.B`."""
    path = _child(node, "identifier")
    if path is None:
        return []
    target = ".".join(split_name(src(path)))
    if not target:
        return []
    if language == "kotlin":
        if _child(node, "wildcard_import") is not None:
            return [(target, WILDCARD_IMPORT)]
        alias = _child(node, "import_alias")
        bound = _child(alias, "type_identifier") if alias is not None else None
        return [(target, src(bound) if bound is not None else target.rsplit(".", 1)[-1])]
    # Swift: `import Foundation` makes a module's names visible; `import struct Foo.Bar` binds `Bar`.
    kind = next((c for c in node.children if not c.is_named and c.type != "import"), None)
    return [(target, target.rsplit(".", 1)[-1] if kind is not None else WILDCARD_IMPORT)]


def base_refs(src: Source, node: Node, kind: str, language: str) -> list[tuple[str, str]]:
    """(inherits|implements, target) for the types a Kotlin or Swift type declares it extends.

    Kotlin says which is which: a superclass is called (`Base()`), an interface is not. Swift does
    not: a protocol extends its protocols, a struct or enum implements them, and a class's list is
    read as bases (its superclass comes first, and a protocol there is one it conforms to)."""
    inherits, implements = RefKind.INHERITS.value, RefKind.IMPLEMENTS.value
    found: list[tuple[str, str]] = []
    if language == "kotlin":
        for spec in node.named_children:
            if spec.type != "delegation_specifier":
                continue
            invoked = _child(spec, "constructor_invocation")
            written = _child(invoked if invoked is not None else spec, "user_type")
            if written is not None:
                relation = inherits if invoked is not None or kind == NodeKind.INTERFACE.value else implements
                found.append((relation, normalize_target(src(written))))
        return found
    relation = implements if kind in (NodeKind.STRUCT.value, NodeKind.ENUM.value) else inherits
    for spec in node.named_children:
        written = spec.child_by_field_name("inherits_from") if spec.type == "inheritance_specifier" else None
        if written is not None:
            found.append((relation, normalize_target(src(written))))
    return found


# --------------------------------------------------------------------------------------------------
# What the grammars misread, blanked at equal length before parsing (preproc.parse_best keeps the
# copy unless it parses worse than the file as written).

# Swift's grammar reads `#if` only around whole statements of a body: one inside an enum, protocol or
# class body ended the type there (Alamofire's `AFError` lost its cases). Each branch of a Swift
# conditional must parse on its own, so the directive lines alone are blanked and every branch kept.
_SWIFT_DIRECTIVE = re.compile(rb"^[ \t]*#(?:if|elseif|else|endif)\b[^\n]*", re.MULTILINE)
# A compiler diagnostic (`#error("needs a lock")`, `#warning(...)`) in a type's body is no statement to
# the grammar either: the type ended there (Alamofire's `Protected` lost its members). It is blanked
# from the line's `#` to the diagnostic's closing parenthesis on that line; a message spanning lines
# is left as written.
_SWIFT_DIAGNOSTIC = re.compile(
    rb"^[ \t]*(#(?:error|warning)[ \t]*\((?:[^\n\"]|\"(?:[^\"\\\n]|\\.)*\")*?\))", re.MULTILINE
)
# A freestanding macro without arguments as a value (`sourceLocation: SourceLocation =
# #_sourceLocation`, `= #isolation`) is no expression to the grammar, which knows only its own few
# (`#file`, `#line`, `#function`, ...): it lost the rest of the type, swift-argument-parser's test
# structs and their methods. Its `#` is blanked, so it reads as the name it expands from.
_SWIFT_BARE_MACRO = re.compile(
    rb"=[ \t]*(#)(?!(?:file|filePath|fileID|line|column|function|dsohandle)\b)[A-Za-z_]\w*\b(?![ \t]*[({<])"
)
# Kotlin's grammar ends a class at a line break before its primary constructor's keyword
# (`class Adapter<T>` / `private constructor(...)`), and its members became top-level functions;
# without the keyword and its modifiers (blanked) it reads the parameter list on the next line.
_SPLIT_CONSTRUCTOR = re.compile(
    rb"^[ \t]*((?:@[\w.:]+(?:\([^)\n]*\))?[ \t]+|(?:private|internal|public|protected|actual|expect)"
    rb"[ \t]+)*constructor)[ \t]*\(",
    re.MULTILINE,
)
_CLASS_HEADER = re.compile(rb"\b(?:class|object)\s+`?\w")
_SKIPPED_LINE = re.compile(rb"^\s*(?:$|//|/\*|\*|@[\w.:]+(?:\([^)]*\))?\s*$)")


def parse_view(data: bytes, language: str) -> bytes | None:
    """`data` without what the grammar misreads (module comment above), or None when it has none."""
    if language == "swift":
        spans = [m.span() for m in _SWIFT_DIRECTIVE.finditer(data)]
        if b"#error" in data or b"#warning" in data:
            spans += [m.span(1) for m in _SWIFT_DIAGNOSTIC.finditer(data)]
        spans += [m.span(1) for m in _SWIFT_BARE_MACRO.finditer(data)]
        return _blank(data, sorted(spans))
    if language == "kotlin" and b"constructor" in data:
        spans = [m.span(1) for m in _SPLIT_CONSTRUCTOR.finditer(data) if _after_header(data, m.start())]
        return _blank(data, spans)
    return None


def _after_header(data: bytes, start: int) -> bool:
    """Whether the code line above `start` (past blank, comment and annotation lines) opens a class
    whose header has not reached its body yet."""
    end = start
    while end > 0:
        begin = data.rfind(b"\n", 0, end - 1) + 1
        line = data[begin:end]
        if not _SKIPPED_LINE.match(line):
            return bool(_CLASS_HEADER.search(line)) and b"{" not in line and b"=" not in line
        end = begin
    return False


def _blank(data: bytes, spans: list[tuple[int, int]]) -> bytes | None:
    if not spans:
        return None
    out = bytearray(data)
    for start, end in spans:
        out[start:end] = blank(data[start:end])
    return bytes(out)
