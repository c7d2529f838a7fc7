"""Syntax tree -> symbol nodes and outgoing references, for every grammar qry parses.

Owns: the extraction of one file, end to end: run the language's query, then find and classify the
definitions (items.py), name and draft them (symbols.py), draft the module remainder
(remainder.py), window the drafts into nodes (chunks.py), and give every reference written in the
code (calls, imports, inherits, implements) the innermost node, or window of it, that holds it.
Does not own: parsing (treesitter.py), reading a reference's target from its syntax (references.py),
hashing (ids.py), resolving a reference to a node (resolution is late, at query time: see `records.Ref`).

How: one tree-sitter query per language captures definitions, namespaces, call sites and imports in
C; Python then orders them by byte span (definitions nest, so a stack sweep gives each its syntactic
parent) and reads names, bodies and comments through node fields. That is cheaper than walking every
syntax node in Python, and works the same on deeply nested input because nothing here recurses.

Conventions (identical in every language):
- qualified_name joins the enclosing containers and namespaces with "." (`Server.handle`,
  `billing.StripeGateway.charge` for C++ `billing::StripeGateway::charge`, `Billing.Service.charge`
  in a Ruby module). Namespaces count when the file declares them (C++/C#/TS/PHP namespaces, Rust
  `mod` blocks, C# `namespace X;` and PHP `namespace X;` for the rest of the file); packages (Go,
  Java) and Python modules do not: they are where the file is, not what it declares. A Ruby module
  is a container, not a namespace: a `class` node whose `def`s are methods (it holds methods and
  constants, and is an object at run time), as a namespace never is; except a module holding
  nothing but classes and modules in the file (`module Rack; module Protection; class JsonCsrf`),
  which there only qualifies their names.
  Go methods are qualified by their receiver type, Rust `impl` and Swift `extension` members by
  the type they extend, a Kotlin extension function by its receiver type, C++ out-of-class
  definitions by their written qualifier; such a method's parent is the same-file
  container of that name when there is one. At most 32 components are kept (the innermost ones).
- A definition's span includes its decorators, `export`, `template <...>` and Rust attributes; its
  doc comment (or Python docstring) is in `doc`, not in the span.
- A node's text elides the bodies of the definitions nested in it (`def charge(...): ...`), and
  their doc comments with them, keeping their newlines so every line of the text is still the file's
  line; the nested ones are their own nodes. A member shown whole (a field, a one-line constant, an
  interface method) keeps its doc comment in its container's text. The module node is the file with every top-level definition (and its doc comment) blanked
  the same way, trimmed to its first and last non-blank lines.
- Declarations without a body are nodes too: interface and trait methods, abstract methods, C
  prototypes and TS overload signatures without an implementation (their container's text still
  shows them; a signature list followed by its body is one node, overloads.py), type aliases
  (kind `type`) and module-level constants and variables (kind `constant`), and the constants of a
  type where a language declares them there (Rust associated consts, Ruby constants in a class or
  module, PHP `const`, C# `const` fields; a container's text elides a multi-line value). Go struct
  fields are `field`s of their struct (a Go type's API is its fields), and Rust enum variants
  `constant`s of their enum; other fields are not definitions; C# properties and events are `method`s (accessors
  run code). Rust `macro_rules! name` is a `function` (qualified by no `mod`, as `#define`s are
  not); Ruby `attr_reader :a, :b`, `alias`, `alias_method` and `define_method` in a class body
  define a `method` per name (rubydefs.py). Kotlin properties at top level are `constant`s, in a
  class or object body `field`s (a `const val` a `constant`), as Swift properties are (a `static
  let` a `constant`) and Scala `val`/`var`s (a `final val` a `constant`); enum cases are `constant`s; Swift `init` is a method named
  `init` (kotlinswift.py).
- JavaScript defined by statements (jsdefs.py): `Foo.prototype.m = function` is the method `Foo.m`,
  `res.send = function` the method `res.send` (its parent the module-level `res` or `Foo` when there
  is one; none when a callback that is no definition assigns it to its own variable or parameter), `exports.run = ...` is `run` (a function, or a constant for any other value), a property
  definition call (`Object.defineProperty(req, 'ip', {get})`) the method `req.ip`. Every name a
  statement defines is a node of its own with the statement's span, doc and text (aliases.py):
  each target of `a.x = a.y = function`, each name of Go `X, Y int`.
- A doc comment must touch what it documents, except a JSDoc block (`/**`) above a JS/TS definition,
  which blank lines may part from it (JSDoc binds by position), unless it is a licence or file comment.
- A C# file the grammar misreads for its `#if`/`#else` is parsed with only the first branch of each
  conditional (preproc.py); names, signatures and references come from that branch, text from the file.
  A C/C++ file is parsed without its declaration and statement macros (`class FOO_API Widget`,
  `FOO_INLINE int f() FOO_NOEXCEPT`; decorations.py) the same way; a definition's span starts at
  the macros blanked before it on its line. `#define`s are global: no namespace qualifies them.
- Call targets are the callee as written without arguments, generics, sigils or whitespace, with
  `::`, `->` and `?.` written as "." (`self.retry`, `Foo.new`, `std.make_unique`, `this.gateway.post`).
  Constructor calls name the type (`new Foo()` -> `Foo`). A Rust macro invocation calls its
  `macro_rules!` (`arg!(x)` -> `arg`); the standard library's (`println!`, `vec!`) call nothing.
- Import targets use "." for `::` and `\\` too (Rust `use a::b::C` -> `a.b.C`, PHP `use A\\B` -> `A.B`);
  `alias` is the local name the import binds, empty when it binds none (C `#include`, C# `using Ns;`,
  a side-effect JS import) or more than one name (`import a.b` binds `a`, not `a.b`).
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass

from indexlib.engines.treesitter import Deadline, Node, Tree, captures
from indexlib.index.parsing import rubydefs, rustimpls
from indexlib.index.parsing.aliases import alias_refs, with_aliases
from indexlib.index.parsing.arguments import UNREAD, Written, closure_only, written
from indexlib.index.parsing.chunks import LineIndex, finish
from indexlib.index.parsing.ids import node_uid
from indexlib.index.parsing.items import CONTAINER_VALUES, Item, classify, collect_items, join_qualified, nest
from indexlib.index.parsing.jsdefs import (
    OBJECT_LANGUAGES,
    Parameters,
    assigned_to_local,
    at_module_level,
    in_callback,
    module_declarations,
    patches_foreign,
)
from indexlib.index.parsing.jsimports import js_renames
from indexlib.index.parsing.kotlinswift import implicit_member
from indexlib.index.parsing.mixins import mixin_refs
from indexlib.index.parsing.preproc import directive_rows
from indexlib.index.parsing.references import (
    base_refs,
    call_target,
    import_pairs,
    renamed_calls,
    require_alias,
)
from indexlib.index.parsing.remainder import is_trivia, remainder_draft
from indexlib.index.parsing.rustmacros import macro_calls
from indexlib.index.parsing.scalaaccess import access_target, is_access
from indexlib.index.parsing.specs import SPECS
from indexlib.index.parsing.symbols import definition_drafts, name_definitions
from indexlib.index.parsing.text import Source, normalize_target
from indexlib.records import CONSTRUCTS, IMPLICIT_MEMBER, MIXIN, UNIFORM_ACCESS, NodeKind, Ref, RefKind
from indexlib.records import Node as RecordNode

# The call sites that construct an object (`CONSTRUCTS`, C#, Java and PHP): a class's or its constructor's.
_CONSTRUCTIONS = frozenset({"object_creation_expression", "implicit_object_creation_expression"})


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
    text: bytes | None = None,
    file_language: str | None = None,
) -> Extraction:
    """Nodes (module first, then definitions in source order) and refs of one parsed file.

    `data` is what was parsed; `text`, when given, is the file as written, of the same length and
    lines (preproc.py blanks inactive `#if` branches in `data`, sfc.py a component's template):
    names, signatures and references are read from `data`, node text from `text`. `language` is
    the grammar's; the nodes carry `file_language` when given (a Vue component read as TypeScript).
    """
    spec = SPECS[language]
    src = Source(data)
    written = data if text is None else text
    root = tree.root_node
    caps = captures(language, spec.query, root)
    deadline.check("query")
    lines = LineIndex(data)

    items = nest(collect_items(src, caps, spec, language, root, deadline))
    if language in OBJECT_LANGUAGES:
        items = _without_local_members(src, items, root)
    defs: list[Item] = []
    for item in items:
        classify(src, item, language)
        if not item.is_scope:
            defs.append(item)
    defs = with_aliases(src, defs, language)
    deadline.check("definitions")

    directives: frozenset[int] = frozenset()
    if written is not data:
        directives = directive_rows(written, data)
        for item in defs:
            item.start = _blanked_lead(data, written, item.start)
    by_qualified = name_definitions(src, defs, path, spec, language, lines, deadline, directives)

    # Module node (drafted first so top-level refs can point at it).
    module_draft = remainder_draft(src, path, root, written, lines, defs, language)
    module_uid = (
        node_uid(path, module_draft.qualified_name, NodeKind.MODULE.value, 0, 0) if module_draft else 0
    )

    drafts = definition_drafts(defs, by_qualified, data, written, language, lines)
    deadline.check("node text")

    shown = file_language or language
    module_nodes = finish(module_draft, path, shown, window_lines, lines) if module_draft else []
    def_nodes = [finish(draft, path, shown, window_lines, lines) for draft in drafts]
    # Part-0 uid -> (first line of each window, its uid), for refs made inside a windowed node.
    windows = {
        made[0].uid: ([n.start_line for n in made], [n.uid for n in made])
        for made in (module_nodes, *def_nodes)
        if len(made) > 1
    }
    originals = [item for item in defs if item.alias_of is None]
    refs = _refs(src, caps, items, originals, language, module_uid, windows, by_qualified)
    refs = alias_refs(refs, defs, windows)

    nodes: list[RecordNode] = []
    module_windows = set(windows.get(module_uid, ([], [module_uid]))[1])
    needs_module = module_uid != 0 and any(ref.src_uid in module_windows for ref in refs)
    if needs_module or (module_draft is not None and not is_trivia(module_draft.text, spec)):
        nodes.extend(module_nodes)
    refs = [ref for ref in refs if ref.src_uid != 0]
    for made in def_nodes:
        nodes.extend(made)
    return Extraction(nodes=nodes, refs=refs)


def _refs(
    src: Source,
    caps: dict[str, list[Node]],
    items: list[Item],
    defs: list[Item],
    language: str,
    module_uid: int,
    windows: dict[int, tuple[list[int], list[int]]],
    by_qualified: dict[str, Item],
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

    seen: set[tuple[int, str, str, int, str, tuple[str, ...]]] = set()
    refs: list[Ref] = []

    def add(owner: int, kind: str, target: str, line: int, alias: str = "", call: Written = UNREAD) -> None:
        key = (owner, kind, target, line, alias, call[1])
        if not target or key in seen:
            return
        seen.add(key)
        refs.append(_ref(owner, kind, target, line, alias, call))

    calls, imports = RefKind.CALLS.value, RefKind.IMPORTS.value
    parameters = Parameters(src, caps.get("parameters", [])) if language in OBJECT_LANGUAGES else None
    for node in _calls(caps, language):
        # A Rust macro: the calls inside its arguments (rustmacros.py), a token tree to tree-sitter.
        for inner, at in macro_calls(src, node) if node.type == "macro_invocation" else ():
            add(owner_uid(at.start_byte, at.start_point.row + 1), calls, inner, at.end_point.row + 1)
        access = is_access(language, node)  # Scala `Lib.size`: a call when it names a `def`
        target, name_node, is_import = (access_target if access else call_target)(src, node, language)
        if not target or (parameters and "." not in target and parameters.binds(node, target)):
            continue  # `fn()`, `new Class()` with `fn`, `Class` parameters: what the caller passes
        line = (name_node if name_node is not None else node).end_point.row + 1
        owner = owner_uid(node.start_byte, node.start_point.row + 1)
        if is_import:
            add(owner, imports, target, line, require_alias(src, node) if language != "ruby" else "")
            continue
        add(owner, calls, target, line, _marker(node, access), written(src, node, language))
        add(owner, calls, parameters.runs(node, target) if parameters is not None else "", line)
    for node, target in rubydefs.bare_calls(src, caps.get("bare", [])):  # Ruby `settings` (rubydefs.py)
        add(owner_uid(node.start_byte, node.start_point.row + 1), calls, target, node.start_point.row + 1)
    for node in caps.get("decorator", ()):
        # `@pass_context` applies a function without calling it: as much a call as `@command()`.
        start, line = node.start_point.row + 1, node.end_point.row + 1
        add(owner_uid(node.start_byte, start), calls, normalize_target(src(node)), line)
    for node in caps.get("import", ()):
        line = node.start_point.row + 1
        owner = owner_uid(node.start_byte, line)
        for target, alias in import_pairs(src, node, language):
            add(owner, imports, target, line, alias)
    for item in defs:
        if item.kind in CONTAINER_VALUES:
            for relation, target in base_refs(src, item.node, item.kind, language):
                add(item.uid, relation, target, item.node.start_point.row + 1)
            for target, line in mixin_refs(src, item.node, language):  # `use Trait;`, `include Mod`
                add(item.uid, RefKind.INHERITS.value, target, line, MIXIN)
    for item in items:
        traits = _impl_traits(src, item.node, language) if item.capture == "impl" else []
        if traits:
            container = by_qualified.get(join_qualified(item.qualifier + item.names))
            row = item.node.start_point.row + 1
            owner = container.uid if container is not None else owner_uid(item.start, row)
            for trait in traits:
                add(owner, RefKind.IMPLEMENTS.value, trait, row)
    renames = js_renames(src, caps.get("import", [])) if language in OBJECT_LANGUAGES else None
    refs = renamed_calls(refs, language, renames)
    refs.sort(key=lambda ref: (ref.line, ref.kind, ref.target))
    return refs


def _calls(caps: dict[str, list[Node]], language: str) -> list[Node]:
    """The captured calls, but a Swift call that only holds the trailing closure of the call it
    wraps (`let t = s.task(u) { .. }`, arguments.closure_only): that inner call is the one call."""
    calls = caps.get("call", [])
    return [c for c in calls if not closure_only(c)] if language == "swift" else calls


def _marker(call: Node, access: bool) -> str:
    """The `alias` marking how a call site calls: a Scala access (UNIFORM_ACCESS), a C# construction
    (CONSTRUCTS), a Swift implicit member (IMPLICIT_MEMBER), else none."""
    if access:
        return UNIFORM_ACCESS
    if call.type in _CONSTRUCTIONS:
        return CONSTRUCTS
    return IMPLICIT_MEMBER if call.type == "call_expression" and implicit_member(call) else ""


def _ref(owner: int, kind: str, target: str, line: int, alias: str, call: Written) -> Ref:
    """A reference of node `owner`, with what its call writes (arguments.written) when it is one."""
    return Ref(src_uid=owner, kind=kind, target=target, line=line, alias=alias, args=call[0], labels=call[1])


def _without_local_members(src: Source, items: list[Item], root: Node) -> list[Item]:
    """`items` without the members a callback that is no definition assigns to its own variable
    (`schema.parse = () => "overridden"` in a `test(...)` callback; jsdefs.assigned_to_local), or
    patches on a global or an import (`Date.now = () => now`; jsdefs.patches_foreign), and a
    function declared in a callback to its own variable (ky's `response.text = ...` in a test's
    `customFetch`). Named `schema.parse` with no container, such a member was what every
    `schema.parse()` of the repository called (zod: 1,430 edges, 455 of them unambiguous); ky's
    `Date.now()` called three tests' stubs. Its code stays in the text around it."""
    declared = module_declarations(src, root)

    def local(item: Item) -> bool:
        if item.node.type != "assignment_expression" or at_module_level(item.outer):
            return False
        owner, top = item.parent, None
        while owner is not None:
            top = top if owner.is_scope else owner
            owner = owner.parent
        if top is None:  # in a callback: its own variable, or another module's or the runtime's object
            return in_callback(item.node) and (
                assigned_to_local(src, item.node) or patches_foreign(src, item.node, declared)
            )
        # in a function a callback declares (its outermost definition is not the module's)
        return top.parent is None and not at_module_level(top.outer) and assigned_to_local(src, item.node)

    dropped = {id(i) for i in items if local(i)}
    if not dropped:
        return items
    kept = [i for i in items if id(i) not in dropped]
    for item in kept:
        while item.parent is not None and id(item.parent) in dropped:
            item.parent = item.parent.parent
    return kept


def _impl_traits(src: Source, node: Node, language: str) -> list[str]:
    """What a Rust `impl Trait for T` or a Swift `extension T: P, Q` makes its type implement."""
    if language == "swift":
        return [target for _relation, target in base_refs(src, node, NodeKind.STRUCT.value, language)]
    trait = node.child_by_field_name("trait")
    if trait is None or rustimpls.blanket(src, node):  # `impl<M: Matcher> Matcher for &M`: no news
        return []
    return [normalize_target(src(trait))]


def _blanked_lead(data: bytes, written: bytes, start: int) -> int:
    """Where a definition starting at `start` starts in the file as written: before the macros that
    were blanked in `data` ahead of it on its line (`FOO_INLINE int f()` starts at `FOO_INLINE`)."""
    line_start = data.rfind(b"\n", 0, start) + 1
    if data[line_start:start].strip() or not written[line_start:start].strip():
        return start
    lead = written[line_start:start]
    return line_start + len(lead) - len(lead.lstrip())
