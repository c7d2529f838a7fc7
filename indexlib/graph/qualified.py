"""`x.m()` read without an import binding `x`: the caller's own object (`self`, a Go receiver), a
type named `x`, or a variable named after its type (`sink.write()`).

Owns: the pure rules of the resolver's qualified tiers (resolve.py applies them against the
snapshot's candidates): which words name the caller's own object, a Go method's receiver, and
which candidates a written qualifier can mean. Kept apart so resolve.py stays one screenful of
tiers per language rather than every rule's detail.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from indexlib.engines.lexical import StoredNode
from indexlib.graph import explicitimpl
from indexlib.graph.builtins import (
    BUILTIN_TYPES,
    COMMON_METHODS,
    CPP_STD_NAMESPACES,
    FAMILY_COMMON_METHODS,
    RUST_PRIMITIVES,
)
from indexlib.graph.family import family_of
from indexlib.records import CALLED, IMPLICIT_MEMBER, Node, Ref, without_companion

GO_RECEIVER = re.compile(r"func\s*\(\s*(\w+)\s+\*?\s*[\w.]")  # `func (e *Executor) Run()`
NAMED_AFTER_MIN = 3  # a receiver variable this long may name its type (`sink: Sink`), not `s` or `fp`
SELF_WORDS = {"self", "this", "cls", "super", "Self", "me", "@"}
# A language's initializer, which `self.init(..)` delegates to: the own type's (or its base's), never
# another type's of that name.
INITIALIZERS = {"swift": "init", "python": "__init__", "ruby": "initialize"}
# A Swift declaration of the type's own side, which an implicit member expression may call.
_TYPE_LEVEL = re.compile(r"\b(?:static|class)\s+func\b")


def contextual(n: Node, qualifier: str, last: str) -> bool:
    """A Swift `.init(..)` written without its type (`stream(.init(event: e))`, an implicit member
    expression): the type is the context's, which the call does not say, so no initializer is known."""
    return not qualifier and n.language == "swift" and last == INITIALIZERS["swift"]


def as_written(ref: Ref, cands: list[StoredNode]) -> list[StoredNode]:
    """The candidates a call may mean by how it is written: a Swift implicit member (`.retry(userInfo:
    nil)`, IMPLICIT_MEMBER) only a static or class method, since it is a member of the type the
    context expects (an enum's case, a static factory), never a method of the caller's own object:
    on onevcat/Kingfisher, `DelayRetryStrategy.retry`'s `retryHandler(.retry(userInfo: nil))`, the
    case `RetryDecision.retry`, was a certain call of itself. No call names a C# explicit interface
    implementation (explicitimpl.py)."""
    if ref.alias == IMPLICIT_MEMBER:
        return [c for c in cands if _TYPE_LEVEL.search(c.node.signature.split("(", 1)[0])]
    return explicitimpl.callable_by_name(cands)


def may_recurse(n: Node, qualifier: str, last: str) -> bool:
    """Whether a call of `last` in `n` may be `n` calling itself: one of its own name, but not an
    initializer's `self.init(..)`, which delegates to another initializer (Foundation's, when the
    index holds none of its labels)."""
    return last == n.name and not (qualifier in SELF_WORDS and last == INITIALIZERS.get(n.language))


def receiver(n: Node) -> str:
    """A Go method's receiver variable (`e` of `func (e *Executor) Run()`), its own object as `self`
    is in other languages; '' for anything else."""
    if n.language != "go" or n.kind != "method":
        return ""
    m = GO_RECEIVER.match(n.signature)
    return m.group(1) if m else ""


def named_after(variable: str, qualified_name: str) -> bool:
    """Whether a receiver variable is named after the container of a method: it spells the
    container's name or its last camel-case words, case aside (`sink` for `Sink.write`, `headers`
    for `HTTPHeaders.add`, `type` for `Type.canonicalize`; not `data` for `Metadata`), at
    NAMED_AFTER_MIN characters or more."""
    container = qualified_name.rsplit(".", 2)[-2:-1]
    size = len(variable)
    if size < NAMED_AFTER_MIN or not container or len(container[0]) < size:
        return False
    name = container[0]
    return name[-size:].lower() == variable.lower() and (len(name) == size or name[-size].isupper())


Derived = Callable[[list[StoredNode], list[StoredNode]], list[StoredNode]]


def qualified_tiers(
    n: Node,
    qualifier: str,
    last: str,
    head: str,
    cands: list[StoredNode],
    own: frozenset[int],
    derived: Derived,
    reachable: Callable[[Node, Node], bool] = lambda _n, _c: True,
    declared: str = "",
    node_of: Callable[[int], StoredNode | None] = lambda _uid: None,
) -> list[list[StoredNode]] | None:
    """`x.m()` with `x` bound by no import: a member of a container named `x`, else a method (in the
    caller's file first); None for a type the index does not hold, a builtin container's method, or
    `self.init(..)` (only the own tiers before these answer it).
    `derived(found, cands)` adds to methods `found` the candidates overriding them in subclasses;
    `reachable(n, c)` says whether `n` may hold a value of member `c`'s type at all (outside.py): a
    variable named after types it may not hold (another Rust crate's private `Buf`) holds another
    type of the name, one the index does not hold, as a capitalised qualifier may. `declared` is the
    type a declaration writes for `x` (declared.py), '' when none: a variable is named after a type
    only when no declaration says it holds another (`buf: &mut ReadBuf` is no `Buf`). `node_of(uid)`
    is the snapshot's node of a uid, which tells a Kotlin named companion object (`kotlin_companion`)."""
    if qualifier in SELF_WORDS and last == INITIALIZERS.get(n.language):
        return None  # `self.init(..)` in an extension of Foundation's `URLRequest`: its own, unindexed
    cands = [c for c in cands if c.node.uid != n.uid]  # `x.m()` inside `m` is rarely recursion
    if head in SELF_WORDS or head == receiver(n):  # `self.fp.read()`: whatever `self.fp` holds, not self
        cands = [c for c in cands if c.node.parent_uid not in own]
    qlast = qualifier.rsplit(".", 1)[-1]
    members = [c for c in cands if owner_name(c) == [qlast]] or kotlin_companion(n, qlast, cands, node_of)
    if members:  # `Type.member`: a container of that name holds it, the caller's file's first (Lua `M`)
        return [[c for c in members if c.node.path == n.path], members]
    if head in CPP_STD_NAMESPACES and family_of(n.language) == "c":
        return None  # `std::move(x)`: the standard library's, not an indexed method named `move`
    # `tempfile::Builder::new()`: a capitalized name is a type's (C#'s properties aside), not a
    # variable's named after a type, so `CommandBuilder.new` is no guess for it.
    typed = [c for c in cands if declared and owner_name(c) == [declared.rsplit(".", 1)[-1]]]
    written = [c for c in typed if reachable(n, c.node)]
    if written:  # `chan: chan::Tx<T>`: the declared type's `Tx.strong_count`, by its name alone
        return [written]
    typelike = qlast[:1].isupper() and n.language != "csharp"
    spelled = [
        c
        for c in ([] if typelike else cands)
        if named_after(qlast, c.node.qualified_name) and declared.rsplit(".", 1)[-1] in ("", *owner_name(c))
    ]
    named = [c for c in spelled if reachable(n, c.node)]
    if named:  # `sink.write()`, `headers.add()`: a variable named after its type (kept ambiguous),
        return [derived(named, cands)]  # which may hold a subclass's value (`route` a `Mount`)
    if spelled:  # `buf.len()` across Rust crates, whose `Buf` is private: another type of that name
        return None
    if (
        qlast[:1].isupper()
        or (qlast in BUILTIN_TYPES and n.language == "python")
        or (qlast in RUST_PRIMITIVES and n.language == "rust")
    ):
        return None  # `str.__new__`, `ValueError.__init__`: a type the index does not hold
    if last in COMMON_METHODS or last in FAMILY_COMMON_METHODS.get(family_of(n.language), ()):
        return None  # `items.append(x)`, `socket.on(..)` on an untyped variable: almost always a builtin type
    return [
        [c for c in cands if c.node.path == n.path and c.node.kind == "method"],
        [c for c in cands if c.node.kind == "method"],
    ]


def by_name_only(
    qualifier: str, head: str, bound: list[Ref], chosen: list[StoredNode], declared: str = ""
) -> bool:
    """`x.m()` linked to a method `m` only because of its name: `x` is bound by no import, is not
    `self`/`this`/`super`, and names no container of the method, case aside (`err.Error()` on a
    library error type would link to the indexed code's only `Error`). Such an edge is kept but
    marked ambiguous: the call may well be to a type the index does not hold. So is one whose `x`
    is declared of another type (declared.py) than the container it is named after: `buf: &[u8]`
    holds no `Buf`. A declared type alone names no container: `std::sync::Mutex` is no indexed one."""
    if not qualifier or bound or head == "super" or qualifier in SELF_WORDS:
        return False
    # `type.canonicalize()` on a `Type`: named so; `self.registration().x()`, a call's result, only
    # when what the call returns (declared) is the type it is named after
    qlast = qualifier.rsplit(".", 1)[-1].lower().removesuffix(CALLED)
    return not any(
        [p.lower() for p in owner_name(c)] == [qlast] and declared.rsplit(".", 1)[-1] in ("", *owner_name(c))
        for c in chosen
    )


def qualifier_of(c: StoredNode) -> str:
    """What qualifies a definition's name: `M` for `M.load`, "" for a bare name."""
    name = c.node.qualified_name
    return name.rsplit(".", 1)[0] if "." in name else ""


_COMPANION = re.compile(r"\bcompanion\s+object\b")


def kotlin_companion(
    n: Node, qlast: str, cands: list[StoredNode], node_of: Callable[[int], StoredNode | None]
) -> list[StoredNode]:
    """`Timber.plant(tree)` calls `Timber.Forest.plant`, a member of a *named* `companion object
    Forest` in `Timber`: Kotlin (and Java, with `@JvmStatic`) call it through the class, as an unnamed
    companion's (records.without_companion, which a name alone cannot tell from a nested class's)."""
    if n.language not in ("kotlin", "java"):
        return []
    found = []
    for c in cands:
        parent = node_of(c.node.parent_uid) if c.node.language == "kotlin" and c.node.parent_uid else None
        if parent is not None and _COMPANION.search(parent.node.signature) and owner_name(parent) == [qlast]:
            found.append(c)
    return found


def owner_name(c: StoredNode) -> list[str]:
    """The last name of the container a qualifier writes for member `c` (`[]` for none): its class's
    for a Kotlin companion's member, `JsonReader` for `JsonReader.Companion.of` called `JsonReader.of()`."""
    return without_companion(c.node.qualified_name, c.node.language).rsplit(".", 2)[-2:-1]


__all__ = [
    "SELF_WORDS",
    "by_name_only",
    "contextual",
    "kotlin_companion",
    "may_recurse",
    "named_after",
    "owner_name",
    "qualified_tiers",
    "qualifier_of",
    "receiver",
]
