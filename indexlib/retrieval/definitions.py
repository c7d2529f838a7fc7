"""Which definition a name given to `qry related` / MCP `get_related` means: exact, never fuzzy.

Owns: exact resolution (a bare name, `Class.method`, a module-qualified name, a Rust path whose
qualifiers name the definition's folders (`grep_searcher::Searcher`), `PATH:NAME`; the name as
typed first, then the same name in another case) and the order of preference that decides a bare
name: code before doc sections,
implementation before tests, top level before nested. `related` answers for one definition, so a name
defined nowhere must say so (exit 1) instead of answering for the nearest spelling; fuzzy matching
belongs to the hint that names the closest definitions, and to MCP `resolve_symbol`, which labels it.

Does not own: what the index stores (`@overload` stubs with an implementation are folded into their
container when the file is parsed, so a name names the implementation) or search's name stream.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable

import msgspec

from indexlib.graph.callarity import swift_parameters
from indexlib.graph.gomodules import go_package
from indexlib.graph.imported import CRATE_ROOT, cargo_names, crate_folders
from indexlib.graph.parts import arity, home_part, one_type, type_arguments
from indexlib.graph.reexports import REEXPORT_FILES, REEXPORT_STEPS, defined_in, passed_on
from indexlib.graph.rubysides import RubySides, Side
from indexlib.pathroles import is_test_code
from indexlib.records import (
    DEFINITION_KINDS,
    ROUTINE_KINDS,
    Node,
    NodeKind,
    is_actual,
    is_component,
    is_constructor,
    is_deprecated,
    is_prototype,
    without_companion,
)
from indexlib.retrieval.names import dotted as as_dotted
from indexlib.retrieval.names import qualified_by_path
from indexlib.retrieval.query import SELECTOR
from indexlib.retrieval.scope import is_docs
from indexlib.snapshot import Snapshot

# Definitions a name may resolve to; a Markdown section too (`API > Context`), ranked after code.
RESOLVABLE_KINDS = frozenset(k.value for k in DEFINITION_KINDS) | {NodeKind.SECTION.value}
_SYMBOL_KINDS = frozenset(k.value for k in DEFINITION_KINDS)


def _symbol(n: Node) -> bool:
    """A definition a name or `PATH:LINE` may name: a definition kind, or a Vue or Svelte
    component, whose module node is the component (`VPSidebarItem`, named by its file)."""
    return n.kind in _SYMBOL_KINDS or is_component(n)


_MACRO_EXPORT = "#[macro_export]"  # a Rust macro so marked is its crate root's item
_MACRO_RULES = "macro_rules!"  # how a Rust declarative macro's signature opens
LOOKUP_CAP = 1000  # most same-named nodes read for one name (a name defined 1000 times is ambiguous anyway)


def module_of(path: str) -> str:
    """The dotted module a file defines: `src/flask/helpers.py` -> `src.flask.helpers`, `a/__init__.py` -> `a`.

    Leading folders stay (`src.`): a qualified name matches on any dotted suffix of
    `module.qualified_name`, so `flask.helpers.url_for` and `helpers.url_for` both match.
    """
    parts = path.split("/")
    stem, dot, _ext = parts[-1].rpartition(".")
    parts[-1] = stem if dot else parts[-1]
    if parts[-1] in ("__init__", "mod", "index") and len(parts) > 1:
        parts.pop()
    return ".".join(parts)


def located(snap: Snapshot, text: str, *, fold_case: bool = False) -> list[Node]:
    """The definitions `path:name` or a module-qualified dotted name names; [] when it is neither.
    Names compare as typed, or ignoring case with `fold_case` (the path part always as typed)."""
    if " " in text and text.rpartition(":")[0] not in snap.manifest.files:
        return []  # words, not a name (a path may hold spaces: `test/Unit tests/ls:10`)

    def same(a: str, b: str) -> bool:
        return a.lower() == b.lower() if fold_case else a == b

    def ends(a: str, b: str) -> bool:
        return a.lower().endswith(b.lower()) if fold_case else a.endswith(b)

    path, colon, name = text.rpartition(":")
    if colon and path and name and not path.endswith(":"):  # `a::b` is a Rust path, not path:name
        # A path the index holds names that file (`finder.go`, not `internal/features/finder.go`
        # too); else any file it ends (`retry.py` for `billing/retry.py`).
        exact = path in snap.manifest.files
        files = [path] if exact else [f for f in snap.manifest.files if f.endswith("/" + path)]
        if name.isdigit():  # `base.rb:1017`: the innermost definition holding that line, as grep prints it
            return _at_line(snap, sorted(files), int(name))
        in_files = [
            n
            for f in sorted(files)
            for n in (s.node for s in snap.nodes_in_file(f))
            if n.part == 0
            and _symbol(n)
            and (same(n.name, name) or same(n.qualified_name, name) or ends(n.qualified_name, "." + name))
        ]
        return [n for n in in_files if same(n.qualified_name, name)] or in_files
    dotted = as_dotted(text)
    if "." not in dotted.strip("."):
        return []
    last = dotted.rsplit(".", 1)[-1]
    found: list[Node] = []
    for stored in snap.lookup("name_exact", last.lower(), limit=LOOKUP_CAP):
        n = stored.node
        qualified = n.qualified_name.replace("::", ".")
        # `JsonReader.Options.of`: a Kotlin companion's member as its class's code names it
        fulls = [f"{module_of(n.path)}.{q}" for q in {qualified, without_companion(qualified, n.language)}]
        if n.language == "go":  # `render.JSON`, `gin.Context`: Go qualifies by package, not file
            fulls.append(f"{go_package(snap, n.path)}.{qualified}")
        if n.part == 0 and _symbol(n) and any(same(f, dotted) or ends(f, "." + dotted) for f in fulls):
            found.append(n)
    # `lume.serialize` in `lume.lua`, which also holds a local `serialize`: the definition whose own
    # qualified name spells what was written, before one the file's module name completes.
    spelled = [n for n in found if _spells(n, dotted, same, ends)]
    found = spelled or found
    if not found and "::" in text:  # `serde_json::Value`: the item its crate's root passes on
        found = through_crate(snap, dotted, same)
    if not found and "::" in text:
        # A Rust or C++ path names the crate, and a crate is rarely its folder's name
        # (`grep_searcher::Searcher` in `crates/searcher/`): its qualifiers name the path instead.
        found = [
            s.node
            for s in snap.lookup("name_exact", last.lower(), limit=LOOKUP_CAP)
            if s.node.part == 0
            and s.node.kind in _SYMBOL_KINDS
            and same(s.node.name, last)
            and qualified_by_path(s.node.path, s.node.qualified_name, dotted.lower())
        ]
    if not found:  # `httpx.Client`: the name a package passes on, as its users write it
        found = _passed_on(snap, dotted, same)
    found.sort(key=lambda n: (n.path, n.start_line))
    return found


def _spells(n: Node, dotted: str, same: Callable[[str, str], bool], ends: Callable[[str, str], bool]) -> bool:
    """Whether `n`'s qualified name alone (no module before it) is the dotted name or ends with it."""
    qualified = n.qualified_name.replace("::", ".")
    names = {qualified, without_companion(qualified, n.language)}
    return any(same(q, dotted) or ends(q, "." + dotted) for q in names)


def _passed_on(snap: Snapshot, dotted: str, same: Callable[[str, str], bool]) -> list[Node]:
    """The definitions a dotted name means through a package that imports them from its modules
    (`httpx.Client` for `Client` of `httpx/_client.py`, which `httpx/__init__.py` passes on by
    `from ._client import *`; `httpx.Client.send` for its method): a package's users and its docs name
    its API so, and only the module path was matched. The longest package prefix that passes the
    rest's first name on answers."""
    parts = dotted.strip(".").split(".")
    for cut in range(len(parts) - 1, 0, -1):
        package, rest = ".".join(parts[:cut]), parts[cut:]
        files = [
            f
            for f in sorted(snap.manifest.files)
            if module_of(f) == package or module_of(f).endswith("." + package)
        ]
        mods = [m for f in files[:REEXPORT_FILES] for m in passed_on(f, snap.file_imports(f), rest[0])]
        found = [
            s.node
            for s in (snap.lookup("name_exact", rest[-1].lower(), limit=LOOKUP_CAP) if mods else [])
            if s.node.part == 0
            and _symbol(s.node)
            and same(s.node.qualified_name.replace("::", "."), ".".join(rest))
            and any(defined_in(s.node.path, m) for m in mods)
        ]
        if found:
            return found
    return []


def through_crate(snap: Snapshot, dotted: str, same: Callable[[str, str], bool] = str.__eq__) -> list[Node]:
    """The definitions a Rust path written from an indexed library crate's name means
    (`serde_json::from_str`, `serde_json::Value::pointer`, `serde_json::de::Deserializer`): an item
    the crate's root (`src/lib.rs`) passes on (`pub use crate::de::from_str`, two steps deep) or
    defines (an exported macro too), or one of the module the path goes through. Its users and its docs write its API so; the crate's name is
    no folder of a crate at a repository's top, and `qry related serde_json::from_str` found nothing
    while search ranked `Deserializer::from_str` above the function."""
    head, _, rest = dotted.strip(".").partition(".")
    files = snap.manifest.files
    if not rest or not head.islower():  # `Deserializer::from_str`: a crate's name is in lower case
        return []
    folder = crate_folders(files).get(head)
    if folder is None:  # a name its Cargo.toml gives: read only for a path that may start with one
        folder = cargo_names(files, lambda p: _text_of(snap, p)).get(head)
    if folder is None:
        return []
    root = posixpath.join(folder, CRATE_ROOT)
    names = rest.split(".")
    mods, step = [root.removesuffix(".rs")], [root]  # defined in the root, or passed on by it
    for _ in range(REEXPORT_STEPS):  # `Map`: the root's `crate::value` passes it on from `crate::map`
        passed = [m for f in step for m in passed_on(f, snap.file_imports(f), names[0])]
        mods += passed
        step = [f for f in sorted(files) if f.endswith(".rs") and any(defined_in(f, m) for m in passed)]
    places = [(m, rest) for m in mods]
    places += [
        (posixpath.join(posixpath.dirname(root), *names[:i]), ".".join(names[i:]))
        for i in range(1, len(names))
    ]
    src = posixpath.dirname(root) + "/"
    return [
        s.node
        for s in snap.lookup("name_exact", names[-1].lower(), limit=LOOKUP_CAP)
        if s.node.part == 0
        and _symbol(s.node)
        and (
            any(
                same(s.node.qualified_name.replace("::", "."), q) and defined_in(s.node.path, m)
                for m, q in places
            )
            # `serde_json::json!`: an exported macro is the root's, in whichever module it is written
            or (same(s.node.name, rest) and s.node.path.startswith(src) and _MACRO_EXPORT in s.node.text)
        )
    ]


def _text_of(snap: Snapshot, path: str) -> str:
    """An indexed file's text as its nodes hold it (a manifest's windows: a Cargo.toml's name)."""
    return "\n".join(s.node.text for s in snap.nodes_in_file(path))


def is_qualified(name: str) -> bool:
    """Whether `name` is a `PATH:NAME` or a qualified name (`a.b`, `a::b`, `a\\b`), not a bare name."""
    return ":" in name or "." in as_dotted(name).strip(".")


def exact_definitions(snap: Snapshot, name: str) -> list[Node]:
    """Every definition `name` names exactly: as typed, else in another case (`context` -> `Context`).

    A `PATH:NAME` or dotted name goes through `located`; a bare name must equal a definition's name.
    Sub-words (`nonexistent` in `test_editor_nonexistent_exception`) and near spellings never match.
    """
    text, generic = _generic(name.strip())
    found = located(snap, text) or located(snap, text, fold_case=True)
    if not found and not is_qualified(text):
        named = [
            s.node
            for s in snap.lookup("name_exact", text.lower(), limit=LOOKUP_CAP)
            if s.node.part == 0 and (s.node.kind in RESOLVABLE_KINDS or _symbol(s.node))
        ]
        found = [n for n in named if n.name == text] or [n for n in named if n.name.lower() == text.lower()]
        found.sort(key=lambda n: (n.path, n.start_line))
    if generic is not None:  # `Policy<TResult>`: the type of that many parameters, else any named so
        found = [n for n in found if arity(n) == generic] or found
    if not found and text.endswith("()") and text[:-2].strip():
        # `Session.send()`, as a call is written in prose and commit messages (search reads it so):
        # the name without the parentheses, tried second so C++'s `operator()` stays a name.
        return exact_definitions(snap, text[:-2])
    if not found and text.endswith("!") and text[:-1].strip():
        # `json!`, `serde_json::json!`: a Rust macro as its callers write it; a `macro_rules!` of the
        # name before a function (a procedural macro is one) named so.
        named = exact_definitions(snap, text[:-1])
        return [n for n in named if n.signature.startswith(_MACRO_RULES)] or named
    selector = SELECTOR.search(text) if not found else None
    if selector is not None and selector.start():
        # `Session.request(_:method:)`, as Swift and DocC name a method: the overloads of that name
        # whose external labels are those, else all of them.
        named = exact_definitions(snap, text[: selector.start()])
        labels = selector.group(1).split(":")[:-1]
        return [n for n in named if _labels(n) == labels] or named
    return found


def modules_named(snap: Snapshot, name: str) -> list[Node]:
    """The modules (a file's module-level code) `name` names when no definition has the name: its
    file's path (`src/requests/sessions.py`), its stem (`sessions`), or a dotted or `::` path
    ending at it (`requests.sessions`). Why: `qry related PATH:LINE` on a module's first line
    answers with its importers and imports, while the module's own name, which the closest-names
    hint printed, answered "no definition named"."""
    text = name.strip()
    if text in snap.manifest.files:
        return [
            s.node for s in snap.nodes_in_file(text) if s.node.kind == NodeKind.MODULE and s.node.part == 0
        ]
    tail = "/".join(as_dotted(text).split("."))
    if not tail.strip("/") or " " in tail:
        return []

    def stem(n: Node) -> str:
        return posixpath.splitext(n.path)[0]

    modules = [
        s.node
        for s in snap.lookup("name_exact", tail.rsplit("/", 1)[-1].lower(), limit=LOOKUP_CAP)
        if s.node.kind == NodeKind.MODULE and s.node.part == 0
    ]
    for fold in (str, str.lower):
        found = [
            n for n in modules if fold(stem(n)) == fold(tail) or fold(stem(n)).endswith("/" + fold(tail))
        ]
        if found:
            return sorted(found, key=lambda n: n.path)
    return []


def _labels(n: Node) -> list[str] | None:
    """The external labels of a Swift function's parameters (`_`, `method`), None when unread."""
    params = swift_parameters(n.signature) if n.language == "swift" else None
    return None if params is None else [label for label, _optional, _variadic in params]


_GENERIC = re.compile(r"^(.*?[\w$])\s*<(.*)>$")


def _generic(text: str) -> tuple[str, int | None]:
    """A name and the number of type arguments written after it (`AsyncPolicy<TResult>` ->
    ("AsyncPolicy", 1), `Dictionary<string, List<int>>` -> 2); None when none are written, as in
    `Type.member` or `operator<`.

    >>> _generic("AsyncPolicy<TResult>"), _generic("Dictionary<string, List<int>>"), _generic("Site")
    (('AsyncPolicy', 1), ('Dictionary', 2), ('Site', None))
    """
    m = _GENERIC.match(text)
    if m is None or not m.group(2).strip():
        return text, None
    return m.group(1), len(type_arguments(m.group(2) + ">"))


def _at_line(snap: Snapshot, files: list[str], line: int) -> list[Node]:
    """Per file, the innermost definition whose lines (all its parts) hold `line`; outside any, the
    file's module node (top-level code: a script's commands, a component's template); nothing for a
    line past the file's last line of code (`_client.py:9999` named the module of a 2,019-line file)."""
    out: list[Node] = []
    for f in files:
        nodes = [s.node for s in snap.nodes_in_file(f)]
        if line < 1 or not nodes or line > max(n.end_line for n in nodes):
            continue
        holding = [snap.first_part(n) for n in nodes if _symbol(n) and n.start_line <= line <= n.end_line]
        if not holding:
            holding = [n for n in nodes if n.kind == NodeKind.MODULE.value and n.part == 0]
        if holding:
            out.append(min(holding, key=lambda n: (whole(snap, n).end_line - n.start_line, n.uid)))
    return out


def whole(snap: Snapshot, n: Node) -> Node:
    """`n` spanning all its parts: a definition too long for one node is split into windows (parts 1,
    2, ...) that follow its first, and the definition ends where its last part does."""
    later = snap.later_parts(n)
    end = later[-1].node.end_line if later else n.end_line
    return msgspec.structs.replace(n, end_line=end) if end > n.end_line else n


def _no_file_generated(_path: str) -> bool:
    """Without a snapshot to ask, no file counts as generated."""
    return False


def preference(
    n: Node, generated: Callable[[str], bool] = _no_file_generated
) -> tuple[bool, bool, bool, bool, bool, bool]:
    """The class of a definition for a bare name, lower first: code before doc sections, code that does
    the work before tests, examples and generated code (`generated` says which files carry the
    marker), a body before a C prototype of it, a Kotlin `expect` declaration before its platforms'
    `actual`s, a type before its constructor, top level before
    nested (a method, a function in a test). Search ranks the same way (docs and tests lower, the
    definition itself first, a constructor yielding to its class). A constructor is nested in its
    class but for a C++ one defined out of line in another file (`Widget::Widget() {}` in a .cpp),
    which is as top level as the class and made the class's name ambiguous. A definition marked
    deprecated comes after a current one (as search ranks it), and a Kotlin extension function
    (`fun Moshi.adapter()`, a method outside any class) after the members it extends: `Moshi.adapter`
    means the class's own."""
    supporting = generated(n.path) or is_test_code(n.path, n.qualified_name)
    yields = (
        is_prototype(n.language, n.kind, n.text, n.path)
        or is_deprecated(n.name, n.text, n.doc)
        or is_actual(n.language, n.signature)
    )
    extension = n.language == "kotlin" and n.kind == NodeKind.METHOD.value and n.parent_uid == 0
    constructor = n.kind == NodeKind.METHOD.value and is_constructor(n.qualified_name)
    return (is_docs(n.path, n.kind), supporting, yields, constructor, extension, n.parent_uid != 0)


# Languages that overload a routine by its parameters. A Ruby `def self.call` beside `def call` is a
# class method beside an instance method, and a Python property's setter beside its getter: two
# things under one name, which the caller picks.
_OVERLOADING = frozenset({"java", "csharp", "cpp", "kotlin", "scala", "swift", "typescript", "tsx"})


def overloads(nodes: list[Node]) -> bool:
    """Whether several definitions are overloads of one name: routines of one qualified name that one
    container declares in one file (Java's `text()` and `text(String)`, a C++ free function per
    argument type). No qualification tells them apart, only a line does, so `related` answers for
    each of them instead of refusing the name; same-named routines of two classes or files stay
    ambiguous (the caller meant one of them)."""
    first = nodes[0]
    return len(nodes) > 1 and all(
        n.language in _OVERLOADING
        and n.kind in ROUTINE_KINDS
        and n.path == first.path
        and n.parent_uid == first.parent_uid
        and n.qualified_name == first.qualified_name
        for n in nodes
    )


def ruby_side(snap: Snapshot, nodes: list[Node], name: str) -> list[Node]:
    """Of a Ruby class method and an instance method of one qualified name, the one `name` spells
    as Ruby's documentation does: `Client#push` the instance's, `Sidekiq::Client.push` or
    `Client::push` the class's (graph/rubysides.py). A dotted name (`Sidekiq.Client.push`, as qry
    spells both) spells no side, nor does a bare one: any other set of definitions as given."""
    first = nodes[0] if nodes else None
    if first is None or len(nodes) < 2 or ("#" not in name and "::" not in name):
        return nodes
    if any(
        n.language != "ruby" or n.kind != "method" or n.qualified_name != first.qualified_name for n in nodes
    ):
        return nodes
    want = Side.INSTANCE if "#" in name else Side.CLASS
    sides = RubySides(snap)
    return [n for n in nodes if sides.of_method(n) is want] or nodes


def best_class(nodes: list[Node], generated: Callable[[str], bool] = _no_file_generated) -> list[Node]:
    """The definitions in the best preference class: one means the name is decided, several ambiguous.
    A mock generated from an interface shares the interface's method names; the interface wins."""
    if not nodes:
        return []
    best = min(preference(n, generated) for n in nodes)
    return _one_of_parts([n for n in nodes if preference(n, generated) == best], generated)


def _one_of_parts(nodes: list[Node], generated: Callable[[str], bool]) -> list[Node]:
    """One type declared in parts (a C# `partial class`, a Ruby class reopened in another file, a
    Scala class and its companion object) is one definition: the part the graph calls its home
    (graph/parts.py: the part in the file named after it, a class before an object, else the first)
    answers for all, so the edges to the type are its. Same-named types of other languages, or in
    other files (two Python modules' `Pool`; a Kotlin `expect object`'s `actual`s, which yield to it
    in `preference`, when named without it), are as many definitions, so the name is ambiguous; so are two types told apart by their generic arity
    (C#'s `AsyncPolicy` and `AsyncPolicy<TResult>`, each in parts: two definitions, one per type)."""
    groups: list[list[Node]] = []
    for n in nodes:
        group = next((g for g in groups if one_type(g[0], n)), None)
        if group is None:
            groups.append([n])
        else:
            group.append(n)
    return [g[0] if len(g) == 1 else home_part(g, generated) for g in groups]
