"""The code graph of one snapshot: references resolved to live nodes, read through `GraphView`.

Owns: name resolution of references (calls, imports, inherits, implements) against the snapshot's
definitions, and attaching graph context to search hits. Resolution is late, at read time, so an edge
can never point at a node a re-index removed, and a call into a changed file follows the new definition.

Resolution prefers, in order, and keeps only the best non-empty tier:
1. `self.x` / `this.x` / `cls.x`: members of the caller's own container;
2. a name bound by an import in the caller's file: definitions in the imported module's file(s);
3. definitions in the caller's own file;
4. `Type.member` where Type is a known container: that container's members;
5. every definition with that name. More than one candidate left means the call is ambiguous: every
   candidate is kept and the edge is marked `ambiguous`, never silently picked.
Calls to names with no definition in the index (builtins, third-party code) produce no edge.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping
from functools import lru_cache

from indexlib.engines.lexical import StoredNode, module_stem
from indexlib.graph.expand import GraphNode, expand, on_path
from indexlib.records import CONTAINER_KINDS, Edge, Hit, Node, Ref, RefKind, Related
from indexlib.retrieval.snapshot import Snapshot

# Code can only call code of its own language family: a Python call never lands on a Ruby method.
_FAMILY = {"typescript": "javascript", "tsx": "javascript", "cpp": "c"}


def _family(language: str) -> str:
    return _FAMILY.get(language, language)


MAX_CANDIDATES = 12
CASE_INSENSITIVE = frozenset({"php"})
BUILTIN_TYPES = frozenset(
    [
        "str",
        "int",
        "float",
        "bytes",
        "bytearray",
        "list",
        "dict",
        "set",
        "frozenset",
        "tuple",
        "object",
        "type",
        "bool",
    ]
)  # PHP function and method names ignore case; the rest do not
IMPLICIT_THIS = frozenset({"java", "csharp", "cpp", "ruby"})  # a bare name may call the own class's method
# Methods of built-in containers and strings: on an untyped receiver (`items.append(x)`) such a call
# almost never means a same-named method of the indexed code, so it makes no edge.
COMMON_METHODS = frozenset(
    [
        "append",
        "extend",
        "insert",
        "pop",
        "remove",
        "clear",
        "copy",
        "count",
        "index",
        "sort",
        "reverse",
        "get",
        "set",
        "setdefault",
        "update",
        "keys",
        "values",
        "items",
        "add",
        "discard",
        "union",
        "intersection",
        "difference",
        "join",
        "split",
        "rsplit",
        "splitlines",
        "strip",
        "lstrip",
        "rstrip",
        "lower",
        "upper",
        "title",
        "replace",
        "startswith",
        "endswith",
        "find",
        "rfind",
        "format",
        "encode",
        "decode",
        "read",
        "write",
        "readline",
        "readlines",
        "close",
        "flush",
        "seek",
        "tell",
        "search",
        "match",
        "fullmatch",
        "group",
        "groups",
        "groupdict",
        "sub",
        "subn",
        "findall",
        "finditer",
        "push",
        "shift",
        "unshift",
        "slice",
        "splice",
        "map",
        "filter",
        "reduce",
        "forEach",
        "concat",
        "includes",
        "indexOf",
        "toString",
        "trim",
        "toLowerCase",
        "toUpperCase",
        "then",
        "catch",
        "finally",
        "has",
        "delete",
        "entries",
        "size",
        "length",
        "equals",
        "hashCode",
        "compareTo",
        "contains",
        "containsKey",
        "put",
        "isEmpty",
        "iter",
        "next",
        "unwrap",
        "expect",
        "clone",
        "to_string",
        "len",
        "is_empty",
        "as_str",
        "as_ref",
        "into",
        "collect",
    ]
)


def _closeness(a: str, b: str) -> int:
    """How many leading path components two files share (nearer definitions are likelier targets)."""
    n = 0
    for x, y in zip(a.split("/")[:-1], b.split("/")[:-1], strict=False):
        if x != y:
            break
        n += 1
    return n + (
        100 if a == b else 0
    )  # an ambiguous name keeps at most this many targets: beyond that it says nothing


MAX_CALLERS = 500
SELF_WORDS = {"self", "this", "cls", "super", "Self", "me", "@"}
_CALLABLE = {"function", "method", "class", "struct", "interface", "enum", "trait"}


def _split_target(target: str) -> tuple[str, str]:
    """`self.retry` -> ("self", "retry"); `a.b.c` -> ("a.b", "c"); `foo` -> ("", "foo")."""
    t = target.replace("::", ".").replace("->", ".").replace("\\", ".").strip(".")
    t = re.sub(r"\(.*$", "", t)
    if "." in t:
        q, _, last = t.rpartition(".")
        return q, last
    return "", t


def _module_path_matches(path: str, module: str) -> bool:
    """Does file `path` implement import target `module` (`billing.retry`, `./retry`, `net/http`)?

    Python-style dotted modules and JS-style relative paths name a file (or a package's
    `__init__`/`index`/`mod` file); a slash-separated import (Go) may name the file's directory.
    """
    m = module.strip().strip("\"'<>").replace("\\", "/")
    if not m:
        return False
    p = path.rsplit(".", 1)[0]  # drop the extension
    if p.endswith(("/__init__", "/index", "/mod")):
        p = p.rsplit("/", 1)[0]
    m = m.lstrip("./")
    # Rust paths start at the crate or the current module: `crate::retry` names `src/retry.rs`.
    m = re.sub(r"^(?:(?:crate|self|super)[./])+", "", m)
    if "/" in m:
        target = re.sub(r"\.\w+$", "", m)  # ./retry.js -> retry
    else:
        target = m.replace(".", "/")
    if not target:
        return False
    if p == target or p.endswith("/" + target):
        return True
    if "/" in m:  # Go: an import path names a package directory
        directory = p.rsplit("/", 1)[0] if "/" in p else ""
        last = target.rsplit("/", 1)[-1]
        return directory == last or directory.endswith("/" + last)
    return False


class SnapshotGraph:
    """`GraphView` over a Snapshot. Caches what it resolves; one instance per query."""

    def __init__(self, snap: Snapshot) -> None:
        self.snap = snap
        self._out: dict[tuple[int, str], list[Edge]] = {}
        self._in: dict[tuple[int, str], list[Edge]] = {}
        self._imports: dict[str, list[Ref]] = {}
        self._indexed_modules: dict[tuple[str, str], bool] = {}
        self._defs = lru_cache(maxsize=4096)(self._definitions)

    # -- GraphView ------------------------------------------------------------------------------

    def node(self, uid: int) -> GraphNode | None:
        stored = self.snap.node(uid)
        return None if stored is None else to_graph_node(stored.node)

    def edges(self, uid: int, kinds: Collection[str], direction: str) -> list[Edge]:
        out: list[Edge] = []
        for kind in sorted(set(kinds)):
            cache = self._out if direction == "out" else self._in
            key = (uid, kind)
            if key not in cache:
                cache[key] = self._compute(uid, kind, direction)
            out.extend(cache[key])
        return out

    def find(self, *, kind: str | None, props: Mapping[str, object], limit: int) -> list[int]:
        lookup: tuple[str, str] | None = None
        if "name" in props:
            lookup = ("name_exact", str(props["name"]).lower())
        elif "qualified_name" in props:
            lookup = ("qsuffix", str(props["qualified_name"]).lower().replace("::", "."))
        elif "path" in props:
            lookup = ("path", str(props["path"]))
        elif kind is not None:
            lookup = ("kind", kind)
        elif "language" in props:
            lookup = ("lang", str(props["language"]))
        if lookup is None:
            stored_all = [s for _seg, s in self.snap.iter_live_nodes()]
        else:
            stored_all = self.snap.lookup(lookup[0], lookup[1], limit=max(limit * 4, 1000))
        out: list[int] = []
        for s in sorted(stored_all, key=lambda s: (s.node.path, s.node.start_line, s.node.uid)):
            n = s.node
            if kind is not None and n.kind != kind:
                continue
            ok = True
            for key, value in props.items():
                actual = {
                    "name": n.name,
                    "qualified_name": n.qualified_name,
                    "path": n.path,
                    "language": n.language,
                    "kind": n.kind,
                }.get(key)
                if actual != value:
                    ok = False
                    break
            if ok and n.uid not in out:
                out.append(n.uid)
                if len(out) >= limit:
                    break
        return out

    def degree(self, uid: int, kinds: Collection[str]) -> int:
        return len(self.edges(uid, kinds, "out")) + len(self.edges(uid, kinds, "in"))

    # -- resolution -----------------------------------------------------------------------------

    def _definitions(self, name: str) -> tuple[StoredNode, ...]:
        found = self.snap.lookup("name_exact", name.lower(), limit=200)
        return tuple(s for s in found if s.node.kind in _CALLABLE and s.node.part == 0)

    def _file_imports(self, path: str) -> list[Ref]:
        if path not in self._imports:
            refs: list[Ref] = []
            for s in self.snap.nodes_in_file(path):
                refs.extend(r for r in s.refs if r.kind == RefKind.IMPORTS)
            self._imports[path] = refs
        return self._imports[path]

    def resolve(self, src: StoredNode, ref: Ref) -> tuple[list[int], bool]:
        """Resolve one reference of `src` to live node uids; returns (uids, ambiguous)."""
        if ref.kind == RefKind.IMPORTS:
            return self._resolve_import(src.node, ref)
        qualifier, last = _split_target(ref.target)
        if not last:
            return [], False
        n = src.node
        family = _family(n.language)
        exact_case = n.language not in CASE_INSENSITIVE
        cands = [
            c
            for c in self._defs(last)
            if _family(c.node.language) == family
            and (c.node.name == last or not exact_case)
            and (c.node.uid != n.uid or c.node.name == n.name)  # a recursive call keeps its edge
        ]
        if ref.kind in (RefKind.INHERITS, RefKind.IMPLEMENTS):
            cands = [c for c in cands if c.node.kind in CONTAINER_KINDS]
        if not cands:
            return [], False
        own_container = n.parent_uid if n.kind == "method" else (n.uid if n.kind in CONTAINER_KINDS else 0)
        head = (qualifier.split(".")[0] if qualifier else last).removesuffix("()")
        imports = self._file_imports(n.path)
        # `import a.b` binds `a` (no alias); `from a import b` and `import a.b as c` bind their alias.
        bound = [
            r
            for r in imports
            if r.alias == head
            or (not r.alias and head in (r.target.rsplit(".", 1)[-1], r.target.split(".", 1)[0]))
        ]
        self_call = qualifier in SELF_WORDS  # `self.m()`, not `self.fp.m()`: that is another object
        tiers: list[list[StoredNode]] = []
        if head == "super" and qualifier:
            # `super().m()`: the method of a base class the index holds; a base it does not hold (`str`,
            # a library class) makes no edge rather than a guess.
            bases = self._base_containers(own_container)
            tiers.append([c for c in cands if c.node.parent_uid in bases])
            if not tiers[-1]:
                return [], False
        elif self_call:
            tiers.append([c for c in cands if own_container and c.node.parent_uid == own_container])
            # an inherited method: the same name on a base class the index holds
            tiers.append([c for c in cands if c.node.parent_uid in self._base_containers(own_container)])
        elif bound:
            mods = []
            for r in bound:
                mods.append(r.target)
                if not qualifier:  # `from billing.retry import schedule_retry`: the module is the prefix
                    mods.append(r.target.rsplit(".", 1)[0] if "." in r.target else r.target)
                else:  # `import billing.retry as br; br.schedule()`: the module plus the rest of the qualifier
                    rest = qualifier.split(".", 1)[1] if "." in qualifier else ""
                    if rest:
                        mods.append(f"{r.target}.{rest}")
                    if not r.alias:  # `import email.base64mime; email.base64mime.decode()`
                        mods.append(qualifier)
            found = [c for c in cands if any(_module_path_matches(c.node.path, m) for m in mods)]
            if not found and not any(self._module_indexed(m, family) for m in mods):
                return [], False  # bound to a module we do not index (subprocess, numpy): nothing to link
            tiers.append(found)
        if not qualifier:
            # A bare name calls a function or a class, never another object's method; in languages with
            # an implicit `this` it may call a method of its own class. Nested functions are visible
            # only inside the function that holds them.
            implicit_this = n.language in IMPLICIT_THIS
            cands = [
                c
                for c in cands
                if (
                    c.node.kind != "method"
                    or (implicit_this and own_container and c.node.parent_uid == own_container)
                )
                and (
                    not c.node.parent_uid
                    or c.node.kind == "method"
                    or c.node.parent_uid in (n.uid, n.parent_uid)
                    or self._is_container(c.node.parent_uid)
                )
            ]
            tiers.append([c for c in cands if own_container and c.node.parent_uid == own_container])
            tiers.append([c for c in cands if c.node.path == n.path])
            tiers.append(cands)
        elif not bound and head != "super":
            cands = [c for c in cands if c.node.uid != n.uid]  # `x.m()` inside `m` is rarely recursion
            if head in SELF_WORDS:  # `self.fp.read()`: a method of whatever `self.fp` holds, not of self
                cands = [c for c in cands if not own_container or c.node.parent_uid != own_container]
            qlast = qualifier.rsplit(".", 1)[-1]
            members = [c for c in cands if c.node.qualified_name.rsplit(".", 2)[-2:-1] == [qlast]]
            if members:  # `Type.member`: a container of that name holds it
                tiers.append(members)
            elif qlast[:1].isupper() or qlast in BUILTIN_TYPES:
                return [], False  # `str.__new__`, `ValueError.__init__`: a type the index does not hold
            elif last in COMMON_METHODS:
                return [], False  # `items.append(x)` on an untyped variable: almost always a builtin type
            else:
                tiers.append([c for c in cands if c.node.path == n.path and c.node.kind == "method"])
                tiers.append([c for c in cands if c.node.kind == "method"])
        for tier in tiers:
            if tier:
                ranked = sorted(
                    {c.node.uid: c for c in tier}.values(),
                    key=lambda c: (-_closeness(n.path, c.node.path), c.node.uid),
                )
                uids = [c.node.uid for c in ranked[:MAX_CANDIDATES]]
                return uids, len(uids) > 1
        return [], False

    def _base_containers(self, container_uid: int) -> set[int]:
        """Uids of the classes `container_uid` inherits from, as far as the index holds them."""
        container = self.snap.node(container_uid) if container_uid else None
        out: set[int] = set()
        if container is None:
            return out
        for r in container.refs:
            if r.kind == RefKind.INHERITS:
                out.update(self.resolve(container, r)[0])
        return out

    def _is_container(self, uid: int) -> bool:
        parent = self.snap.node(uid)
        return parent is not None and parent.node.kind in CONTAINER_KINDS

    def _module_indexed(self, module: str, family: str) -> bool:
        key = (module, family)
        if key not in self._indexed_modules:
            self._indexed_modules[key] = any(
                _family(rec.language) == family and _module_path_matches(p, module)
                for p, rec in self.snap.manifest.files.items()
            )
        return self._indexed_modules[key]

    def _resolve_import(self, src: Node, ref: Ref) -> tuple[list[int], bool]:
        if not module_stem(ref.target):
            return [], False
        found = self._module_nodes(ref.target, src.path, _family(src.language))
        uids = sorted({s.node.uid for s in found})[:MAX_CANDIDATES]
        return uids, len(uids) > 1

    def _module_nodes(self, target: str, own_path: str, family: str) -> list[StoredNode]:
        """Module-remainder nodes of files (of the importer's language family) that implement `target`."""
        out: list[StoredNode] = []
        paths = [
            p
            for p, rec in self.snap.manifest.files.items()
            if p != own_path and _family(rec.language) == family and _module_path_matches(p, target)
        ]
        for p in paths[:MAX_CANDIDATES]:
            for s in self.snap.nodes_in_file(p):
                if s.node.kind == "module":
                    out.append(s)
                    break
        return out

    def _compute(self, uid: int, kind: str, direction: str) -> list[Edge]:
        src = self.snap.node(uid)
        if src is None:
            return []
        n = src.node
        if kind == RefKind.CONTAINS:
            if direction == "in":
                if n.parent_uid and self.snap.node(n.parent_uid) is not None:
                    return [Edge(src=n.parent_uid, dst=uid, kind=kind, line=n.start_line)]
                return []
            members = self.snap.lookup("parent", f"{uid:016x}", limit=MAX_CALLERS)
            return sorted(
                (
                    Edge(src=uid, dst=m.node.uid, kind=kind, line=m.node.start_line)
                    for m in members
                    if m.node.part == 0
                ),
                key=lambda e: (e.line, e.dst),
            )
        if kind in (RefKind.IMPLEMENTS, RefKind.INHERITS) and n.kind == "method":
            return self._method_links(src, kind, direction)
        if direction == "out":
            edges: dict[tuple[int, int], Edge] = {}
            for ref in src.refs:
                if ref.kind != kind:
                    continue
                targets, ambiguous = self.resolve(src, ref)
                for t in targets:
                    key = (t, ref.line)
                    if key not in edges:
                        edges[key] = Edge(src=uid, dst=t, kind=kind, line=ref.line, ambiguous=ambiguous)
            return sorted(edges.values(), key=lambda e: (e.line, e.dst))
        # direction == "in": who references this node's name (or file, for imports), then verify.
        if kind == RefKind.IMPORTS:
            if n.kind != "module":
                return []
            stem = n.path.rsplit("/", 1)[-1].rsplit(".", 1)[0].lower()
            if stem in ("__init__", "index", "mod") and "/" in n.path:
                stem = n.path.rsplit("/", 2)[-2].lower()
            field, value = "imports", stem
        elif kind == RefKind.CALLS:
            if n.kind not in _CALLABLE:
                return []
            field, value = "calls", n.name.lower()
        else:
            if n.kind not in CONTAINER_KINDS:
                return []
            field, value = "bases", n.name.lower()
        result: dict[tuple[int, int], Edge] = {}
        for caller in self.snap.lookup(field, value, limit=MAX_CALLERS):
            for ref in caller.refs:
                if ref.kind != kind:
                    continue
                if kind != RefKind.IMPORTS and _split_target(ref.target)[1].lower() != value:
                    continue
                targets, ambiguous = self.resolve(caller, ref)
                if uid in targets:
                    key = (caller.node.uid, ref.line)
                    result.setdefault(
                        key, Edge(src=caller.node.uid, dst=uid, kind=kind, line=ref.line, ambiguous=ambiguous)
                    )
        return sorted(result.values(), key=lambda e: (e.src, e.line))

    def _members_named(self, container_uid: int, name: str) -> list[StoredNode]:
        members = self.snap.lookup("parent", f"{container_uid:016x}", limit=MAX_CALLERS)
        return [m for m in members if m.node.kind == "method" and m.node.name == name and m.node.part == 0]

    def _method_links(self, src: StoredNode, kind: str, direction: str) -> list[Edge]:
        """A method implements (or overrides) the same-named method its container's bases declare.

        Out: `Circle.area` -> `Shape.area` when Circle implements Shape. In: a trait or interface
        method -> every same-named method of the containers that implement or extend its container.
        """
        n = src.node
        parent = self.snap.node(n.parent_uid) if n.parent_uid else None
        if parent is None or parent.node.kind not in CONTAINER_KINDS:
            return []
        edges: list[Edge] = []
        if direction == "out":
            for ref in parent.refs:
                if ref.kind != kind:
                    continue
                targets, ambiguous = self.resolve(parent, ref)
                for base in targets:
                    for m in self._members_named(base, n.name):
                        edges.append(
                            Edge(src=n.uid, dst=m.node.uid, kind=kind, line=n.start_line, ambiguous=ambiguous)
                        )
        else:
            for e in self._compute(parent.node.uid, kind, "in"):
                for m in self._members_named(e.src, n.name):
                    if m.node.uid != n.uid:
                        edges.append(
                            Edge(
                                src=m.node.uid,
                                dst=n.uid,
                                kind=kind,
                                line=m.node.start_line,
                                ambiguous=e.ambiguous,
                            )
                        )
        unique = {(e.src, e.dst): e for e in edges}
        return sorted(unique.values(), key=lambda e: (e.src, e.dst))


def to_graph_node(n: Node) -> GraphNode:
    return GraphNode(
        uid=n.uid,
        kind=n.kind,
        name=n.name,
        qualified_name=n.qualified_name,
        path=n.path,
        language=n.language,
        start_line=n.start_line,
        end_line=n.end_line,
        signature=n.signature,
        parent_uid=n.parent_uid,
    )


def attach_graph(
    snap: Snapshot, hits: list[Hit], *, depth: int = 1, expand_related: bool = True, diffuse: bool = False
) -> list[Hit]:
    """Attach callers/callees/parents to hits, and append on-path context nodes after them."""
    view = SnapshotGraph(snap)
    uids = [int(h.uid, 16) for h in hits]
    if expand_related and depth > 0:
        related = expand(
            view,
            uids,
            depth=depth,
            kinds=(RefKind.CALLS.value, RefKind.INHERITS.value, RefKind.IMPLEMENTS.value),
        )
        for h, u in zip(hits, uids, strict=True):
            h.related = related.get(u, [])
    if diffuse and len(uids) >= 2:
        seeds = {u: 1.0 / (i + 1) for i, u in enumerate(uids)}
        # epsilon 1e-4: at 1e-3 a seed of degree > ~10 never pushes (residual < eps * degree).
        for u, score in on_path(view, seeds, epsilon=1e-4):
            stored = snap.node(u)
            if stored is None:
                continue
            n = stored.node
            from indexlib.retrieval.snippets import make_snippet

            hits.append(
                Hit.of_node(
                    n,
                    score=score,
                    snippet=make_snippet(n.text, n.start_line, [], 300),
                    context=True,
                    explain=["on-path context: diffusion from the hits (not a fused hit)"],
                )
            )
    return hits


def related_of(
    snap: Snapshot, uid: int, *, callers: bool, callees: bool, depth: int, cap: int = 50
) -> list[Related]:
    """The neighbourhood of one node for `qry related`: callers and/or callees up to depth, plus parent."""
    directions = tuple(d for d, on in (("in", callers), ("out", callees)) if on) or ("in", "out")
    rel = expand(
        SnapshotGraph(snap),
        [uid],
        depth=depth,
        cap=cap,
        kinds=(RefKind.CALLS.value, RefKind.INHERITS.value, RefKind.IMPLEMENTS.value, RefKind.IMPORTS.value),
        directions=directions,  # type: ignore[arg-type]
    )
    return rel.get(uid, [])


__all__ = ["SnapshotGraph", "attach_graph", "related_of", "to_graph_node"]
