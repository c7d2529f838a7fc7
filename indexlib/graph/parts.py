"""One type declared in parts: a C# `partial class` spread over files, a Ruby class reopened in
another file. Which nodes are parts of one type, and which part stands for it (its home).

Why: files are parsed alone, so each part is a node of its own, and each holds the members written
in it. Read as separate types, `PropertyValueConverter` lacked the `DepthLimiter` class its other
file declares, and a call to (or a subclass of) a class reopened in a test helper was an edge
marked ambiguous between two nodes of one class. The graph instead reads the parts as the one type
they are: every edge to a part lands on the home (`home`), the home's members and bases are those
of every part (its own members first, then the others' by file), a member's container is the home,
and another part, as a node of the graph, contains nothing and extends nothing (so both directions
of an edge agree). Calls stay where they are written: a call from a class body of another part is
that part's.

The home is the part `qry related` answers with (retrieval/definitions.py asks `home_part` too):
outside tests and generated code first, then the part in the file named after the type
(`PropertyValueConverter.cs`), a class before a Scala companion object, else the first by path.

Which types are in parts (`in_parts`, `one_type`): a C# type declared `partial` (every part of one
must be, and two non-partial types of one name are two projects' types), every Ruby class or module
(Ruby reopens any class anywhere), and a Scala class, trait or enum with its companion object (the
object of its name in its file, whose members are the type's static side: `OParser.builder` is as
much OParser's as `OParser#parse`). Elsewhere a same-named type is another type (two Go packages'
types are told apart by folder, a Rust type is declared once, a Kotlin `expect object` and each
`actual` one are per-platform definitions, two Python modules' classes are two classes), so no other
language's nodes are merged here. A Kotlin `companion object` is written inside its class, so it is
already one of the class's members. A type's generic arity is part of its name, as C# reads it:
`AsyncPolicy` and `AsyncPolicy<TResult>`, both partial, are two types, never parts of one (Polly's
were one type of 25 members, answering from `AsyncPolicy.ContextAndKeys.cs`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from indexlib.engines.lexical import StoredNode
from indexlib.graph.family import family_of, may_share_a_type
from indexlib.graph.targets import written_arity
from indexlib.pathroles import is_test_path
from indexlib.records import CONSTRUCTS, CONTAINER_KINDS, Node, Ref
from indexlib.snapshot import Snapshot

PARTS_CAP = 200  # same-named nodes read to find the other parts of a type
PARTIAL = re.compile(r"\bpartial\b")


def in_parts(n: Node) -> bool:
    """Whether `n` is a type that may be declared in parts: a C# `partial` type, a Ruby class (parts
    in several files), a Scala class, trait, enum or object (with its companion, in one file)."""
    if n.kind not in CONTAINER_KINDS or n.part != 0:
        return False
    if n.language in ("ruby", "scala"):
        return True
    return n.language == "csharp" and bool(PARTIAL.search(n.signature.split("{", 1)[0]))


def type_params(n: Node) -> list[str]:
    """The type parameters a type declares: `[TResult]` for `partial class AsyncPolicy<TResult> :
    IAsyncPolicy<TResult>`, none for `class AsyncPolicy` (its name's first mention declares it)."""
    head = n.signature.split("{", 1)[0]
    found = re.search(rf"(?<![\w.]){re.escape(n.name)}\b\s*", head) if n.name else None
    if found is None or head[found.end() : found.end() + 1] != "<":
        return []
    return [(re.findall(r"\w+", seg) or [""])[-1] for seg in type_arguments(head[found.end() + 1 :])]


def type_arguments(text: str) -> list[str]:
    """The comma-separated arguments of a generic list opened just before `text`, up to the `>`
    closing it (`string, List<int>> x` -> ["string", " List<int>"]); nested lists stay whole."""
    depth, segments, current = 0, [], ""
    for ch in text:
        if ch == ">" and depth == 0:
            break
        depth += {"<": 1, ">": -1}.get(ch, 0)
        if ch == "," and depth == 0:
            segments.append(current)
            current = ""
        else:
            current += ch
    segments.append(current)
    return segments


def arity(n: Node) -> int:
    """How many type parameters a type declares (C# tells `Policy` from `Policy<T>` by it)."""
    return len(type_params(n))


def _file_of_its_own(n: Node, stem: str) -> bool:
    """Whether a file's stem names the type alone: `AsyncPolicy` for `AsyncPolicy`, and for
    `AsyncPolicy<TResult>` `AsyncPolicy.TResult`, `AsyncPolicy{TResult}` or `AsyncPolicy`1` (not
    `AsyncPolicy.ContextAndKeys`, another part's file)."""
    if not stem.lower().startswith(n.name.lower()):
        return False
    params = set(type_params(n))
    return all(w in params for w in re.findall(r"[A-Za-z_]\w*", stem[len(n.name) :]))


def one_type(a: Node, b: Node) -> bool:
    """Whether `a` and `b` are parts of one type: both `in_parts`, of one qualified name and generic
    arity, and of one kind in files that may share it (C#, Ruby), or in one file (a Scala companion
    pair: Scala allows no two same-named types in one scope besides a type and its object)."""
    if a.qualified_name != b.qualified_name or a.language != b.language or not (in_parts(a) and in_parts(b)):
        return False
    if arity(a) != arity(b):
        return False
    if a.language == "scala":
        return a.path == b.path
    return a.kind == b.kind and may_share_a_type(a.language, a.path, b.path)


def _never_generated(_path: str) -> bool:
    return False


def home_part(parts: Sequence[Node], generated: Callable[[str], bool] = _never_generated) -> Node:
    """The part that stands for a type declared in `parts` (see the module docstring for the order)."""

    def key(n: Node) -> tuple[bool, bool, bool, bool, bool, str, int]:
        stem = n.path.rsplit("/", 1)[-1].rsplit(".", 1)[0]
        named = stem.split(".")[0].lower() == n.name.lower()
        alone = _file_of_its_own(n, stem)  # `AsyncPolicy.cs` before `AsyncPolicy.ContextAndKeys.cs`
        companion = bool(re.search(rf"\bobject\s+{re.escape(n.name)}\b", n.signature))
        return (
            is_test_path(n.path),
            generated(n.path),
            not named,
            not alone,
            companion,
            n.path,
            n.start_line,
        )

    return min(parts, key=key)


class TypeParts:
    """The parts of containers and their homes, cached per snapshot read."""

    def __init__(self, snap: Snapshot) -> None:
        self.snap = snap
        self._parts: dict[int, frozenset[int]] = {}
        self._home: dict[int, int] = {}

    def parts(self, container_uid: int) -> frozenset[int]:
        """Every node of the container `container_uid` (none: empty): itself, and the other nodes of
        its qualified name and kind its language lets share a type (a class reopened in another file,
        a partial class; a Go type's build-tagged twins in its folder), and a Scala type's companion."""
        if not container_uid:
            return frozenset()
        if container_uid not in self._parts:
            stored = self.snap.node(container_uid)
            same = {container_uid}
            if stored is not None and stored.node.kind in CONTAINER_KINDS:
                c = stored.node
                same.update(
                    s.node.uid
                    for s in self.snap.lookup("name_exact", c.name.lower(), limit=PARTS_CAP)
                    if one_type(c, s.node)
                    or (
                        s.node.qualified_name == c.qualified_name
                        and s.node.kind == c.kind
                        and arity(s.node) == arity(c)
                        and family_of(s.node.language) == family_of(c.language)
                        and may_share_a_type(c.language, c.path, s.node.path)
                    )
                )
            self._parts[container_uid] = frozenset(same)
        return self._parts[container_uid]

    def home(self, n: Node) -> int:
        """The uid of the part standing for the type `n` is a part of; `n`'s own for anything else."""
        if not in_parts(n):
            return n.uid
        if n.uid not in self._home:
            nodes = [s.node for s in (self.snap.node(u) for u in self.parts(n.uid)) if s is not None]
            nodes = [p for p in nodes if one_type(n, p)] or [n]  # a C# part not declared partial is apart
            home = home_part(nodes, self.snap.is_generated).uid
            for p in nodes:
                self._home[p.uid] = home
            self._home.setdefault(n.uid, home)
        return self._home[n.uid]

    def others(self, n: Node) -> list[int]:
        """The uids of the other parts of the type whose home is `n` ([] when `n` is not its home)."""
        if not in_parts(n) or self.home(n) != n.uid:
            return []
        return sorted(u for u, h in self._home.items() if h == n.uid and u != n.uid)

    def as_home(self, stored: StoredNode) -> StoredNode:
        """`stored`, or the home part standing for the type it is a part of."""
        home = self.home(stored.node)
        return stored if home == stored.node.uid else (self.snap.node(home) or stored)


def type_arity(snap: Snapshot, c: StoredNode) -> int | None:
    """The generic arity of a type candidate, or of the class a constructor candidate constructs;
    None for any other definition."""
    if c.node.kind in CONTAINER_KINDS:
        return arity(c.node)
    owner = snap.node(c.node.parent_uid) if c.node.kind == "method" else None
    if owner is not None and owner.node.kind in CONTAINER_KINDS and owner.node.name == c.node.name:
        return arity(owner.node)  # a constructor
    return None


def of_arity(snap: Snapshot, cands: list[StoredNode], ref: Ref, *, generic: bool = True) -> list[StoredNode]:
    """What a reference may mean by the kind of type it writes. A construction (`CONSTRUCTS`: `new
    LogEvent(..)` in C#, Java or PHP) keeps only types and constructors: a method named as the class
    (`static LogEvent LogEvent(..)`) is no class, and with none indexed the call links nowhere. With
    `generic` (C#, whose types overload by their type parameters), the types and constructors of
    the generic arity it wrote: `new Policy<T>()` is `Policy<T>`'s, `: Policy` is `Policy`'s, and
    a call writing type arguments (`ParseArguments<Options>(args)`) one of the methods declaring as
    many (not `ParseArguments(args, params Type[] types)`; with none written they may be inferred);
    other candidates stay, and all of them when none has that arity (a library's type, or one the
    parser read otherwise)."""
    if ref.alias == CONSTRUCTS:
        cands = [c for c in cands if type_arity(snap, c) is not None]
    if not generic:
        return cands
    written = written_arity(ref.target)
    kept = [c for c in cands if type_arity(snap, c) in (None, written)]
    if written:
        kept = [
            c
            for c in kept
            if c.node.kind != "method" or type_arity(snap, c) is not None or arity(c.node) == written
        ]
    return kept or cands


__all__ = [
    "TypeParts",
    "arity",
    "home_part",
    "in_parts",
    "of_arity",
    "one_type",
    "type_arguments",
]
