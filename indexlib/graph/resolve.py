"""Call resolution: a reference (call, import, base class) of one node resolved to live node uids.

Owns: the per-language rules of name resolution against one snapshot's definitions, and the caches
they need (definitions by name, a file's imports, which modules the index holds). Resolution is late,
at read time: an edge never points at a node a re-index removed, a call follows a changed definition.

Resolution prefers, in order, and keeps only the best non-empty tier:
1. `self.x` / `this.x` / `cls.x`: members of the caller's own container;
2. a name bound by an import in the caller's file: definitions in the imported module's file(s);
3. definitions in the caller's own file;
4. `Type.member` where Type is a known container: that container's members;
5. every definition with that name. More than one candidate left means the call is ambiguous: every
   candidate is kept and the edge is marked `ambiguous`, never silently picked. A declaration
   without a body (a C prototype, an `index.d.ts` method) is not a candidate beside its body.
A name the index defines nowhere (builtins, third-party code) makes no edge. A Scala member access without
arguments (`Lib.size`, marked `UNIFORM_ACCESS`) is a call of a parameterless `def`, so its candidates are
functions and methods only: reading a `val` is no call. A PHP class or function name is read as PHP reads
it instead (phpnames.py): it means one fully qualified name, through the file's namespace and `use`
imports, so its tier is that name's definitions (a static method a class inherits: its base's), and none
when the index has none. A Ruby constant (`< Base`) is first the one its nesting finds (rubyconst.py).

Does not own: edges in either direction or containment (view.py builds them from what this resolves),
traversal (expand.py).
"""

from __future__ import annotations

from collections.abc import Collection
from functools import cached_property, lru_cache, partial

from indexlib.engines.lexical import StoredNode, module_stem
from indexlib.graph import explicitimpl, family, qualified
from indexlib.graph.callarity import of_call_arity
from indexlib.graph.declared import DeclaredTypes
from indexlib.graph.family import family_of, names_a_value, nearest_bodies, same_folder, same_package, sees
from indexlib.graph.gomodules import go_modules, package_folder, through_package
from indexlib.graph.heirs import Heirs
from indexlib.graph.imported import (
    as_written,
    cargo_names,
    crate_folders,
    declared_only,
    imported_type_members,
    rust_modules,
)
from indexlib.graph.locals import LocalTypes
from indexlib.graph.mixhosts import MixinHosts
from indexlib.graph.modulefiles import ModuleFiles
from indexlib.graph.outside import OutsideMembers
from indexlib.graph.parts import PARTS_CAP, TypeParts, of_arity
from indexlib.graph.phpnames import PhpNames, expand, keywords, names_a_class
from indexlib.graph.qualified import SELF_WORDS, by_name_only, qualified_tiers, qualifier_of, receiver
from indexlib.graph.reexports import REEXPORT_FILES, REEXPORT_STEPS, defined_in, passed_on
from indexlib.graph.rubyconst import constructs
from indexlib.graph.rubysides import RubySides, Side, writer
from indexlib.graph.rustpaths import module_path_tier, on_value
from indexlib.graph.targets import anchored, module_path_matches, split_target
from indexlib.graph.typed import GoTypes
from indexlib.pathroles import is_test_path, is_tests_own
from indexlib.records import CONTAINER_KINDS, UNIFORM_ACCESS, Node, Ref, RefKind, is_component, is_constructor
from indexlib.snapshot import Snapshot

MAX_CANDIDATES = 12  # an ambiguous name keeps at most this many targets: beyond that it says nothing
CASE_INSENSITIVE = frozenset({"php"})  # PHP function and method names ignore case; the rest do not
SOURCED = frozenset({"bash"})  # languages whose files see the functions of the files they source
# A bare name may call the own class's method.
IMPLICIT_THIS = frozenset({"java", "csharp", "cpp", "ruby", "kotlin", "swift", "scala"})

SELF_TIERS = 3  # `self.m()`'s own tiers in _tiers (own class, Lua table, bases); later ones are guesses
SELF_NESTING = 6  # functions nested in a method walked up to find the class its `self` is
CALLABLE = {"function", "method", "class", "struct", "interface", "enum", "trait"}


class Resolver:
    """Resolves references over one Snapshot, caching what it looks up; one instance per query."""

    def __init__(self, snap: Snapshot) -> None:
        self.snap = snap
        self.modules = ModuleFiles(snap)
        self._defs = lru_cache(maxsize=4096)(self._definitions)
        self.outside = OutsideMembers(snap)
        self.go_types = GoTypes(snap, lambda: self._go_modules)
        self.php = PhpNames(snap)
        self.parts = TypeParts(snap)
        self.heirs = Heirs(snap, self.modules, self.resolve, self.parts, self._member_of)
        self.local_types = LocalTypes(
            snap, self._enclosing_class, self.heirs.lineage, self.modules, self.resolve
        )
        self.hosts = MixinHosts(snap, self.resolve, self.parts)
        self.sides = RubySides(snap, self._defs)
        self.declared = DeclaredTypes(snap, self._enclosing_class)  # `buf: &[u8]`: no `Buf` named so

    def _definitions(self, name: str) -> tuple[StoredNode, ...]:
        found = self.snap.lookup("name_exact", name.lower(), limit=200)
        return tuple(
            s for s in found if (s.node.kind in CALLABLE or is_component(s.node)) and s.node.part == 0
        )

    def _file_imports(self, path: str) -> list[Ref]:
        return self.modules.imports(path)

    def resolve(self, src: StoredNode, ref: Ref) -> tuple[list[int], bool]:
        """Resolve one reference of `src` to live node uids; returns (uids, ambiguous)."""
        if ref.kind == RefKind.IMPORTS:
            return self._resolve_import(src.node, ref)
        qualifier, last = split_target(ref.target)
        n = src.node
        last = writer(last, self._defs) if n.language == "ruby" else last  # `self.x = v` calls `x=`
        if not last or qualified.contextual(n, qualifier, last):  # Swift's `.init(..)`: the context's type
            return [], False
        built = n.language == "ruby" and constructs(ref, qualifier, last)  # `Site.new`: a call of class Site
        if n.language == "php":
            qualifier = keywords(qualifier)  # `static::make()` is `self::make()`, `parent::` `super`
        imports = self._file_imports(n.path)
        access = ref.alias == UNIFORM_ACCESS  # Scala `Lib.size`: only a `def`; `<..>` marks, names none
        called = ref.alias if ref.kind == RefKind.CALLS and ref.alias[:1] not in ("", "<") else last  # opt()
        family, exact_case = family_of(n.language), n.language not in CASE_INSENSITIVE
        cands = [
            c
            for c in self._defs(last)
            if family_of(c.node.language) == family
            and sees(n.path, c.node.path)
            and (ref.kind != RefKind.CALLS or names_a_value(family, c.node.kind))  # family.py
            and (c.node.name == last or not exact_case)
            and (c.node.uid != n.uid or qualified.may_recurse(n, qualifier, last))  # recursion
        ]
        if ref.args >= 0:  # `el.text()` is not `text(String)`: overloads told by the arguments written
            cands = of_call_arity(cands, ref.args, ref.labels)
        if ref.kind in (RefKind.INHERITS, RefKind.IMPLEMENTS):
            cands = [c for c in cands if c.node.kind in CONTAINER_KINDS]
        elif access:  # reading a `val` or naming an object or type is no call
            cands = [c for c in cands if c.node.kind in ("function", "method")]
        # as written (Swift `.retry(..)`), no C# `I.M()`; `new Foo(..)`: a type or its ctor, in C# of its arity
        reachable = explicitimpl.callable_by_name(qualified.as_written(ref, cands))
        cands = of_arity(self.snap, reachable, ref, generic=n.language == "csharp")
        if not cands:
            return [], False
        if n.language == "php" and (not qualifier or names_a_class(qualifier, ref.target.startswith("\\"))):
            return self._php(n, ref, qualifier, last, cands, imports)
        # A Ruby class's side the call is on (`Client.push`, `@client.push`); `self.class.x` is own.
        side = self.sides.meant(n, qualifier) if n.language == "ruby" else Side.UNKNOWN
        qualifier = RubySides.own_object(qualifier, side)
        own_container = n.uid if n.kind in CONTAINER_KINDS else self._enclosing_class(n)
        head = (qualifier.split(".")[0] if qualifier else called).removesuffix("()")
        bound = self._bindings(n, imports, head, ref.target if qualifier else "")
        own = self.parts.parts(own_container)
        # `c.Next()` with `c *Context` declared (Go): Context's method, or none for `sync.Pool`'s.
        typed = (
            self.go_types.through(n, qualifier, cands)
            if n.language == "go" and qualifier and not bound and qualifier != receiver(n)
            else None
        )
        # `te.run()` after `let te = TestEnv::new()`, `self.reader.parse()` after `self.reader = Parser()`,
        # `current_app.x()` (an import's); not a Rust local re-declared with a value whose type is unread
        shadowed = self.declared.shadowed(n, qualifier, ref.line)
        if typed is None and qualifier and ref.kind == RefKind.CALLS and not shadowed:
            typed = self.local_types.through(n, qualifier, cands, bound, ref.line)
        # A Ruby constant (`< Base`, `Base.settings`): the one the lexical nesting finds first.
        scoped = self.sides.scoped(n, ref, qualifier, last, cands, built) if n.language == "ruby" else []
        if built and not scoped:
            return [], False  # `File.new`: a class of Ruby's or a gem's, not a same-named indexed one
        # Rust `super::ser::to_writer()` (rustpaths.py); Scala `os.move(..)`, an object of `package os`
        pathed = module_path_tier(n, qualifier, cands) or self.modules.packaged(n.language, qualifier, cands)
        # A JavaScript `#private` member is its own class body's, whichever object it is read on.
        pathed = pathed or ([c for c in cands if self._member_of(c.node, own)] if last[:1] == "#" else [])
        # `Thor::Options.split()`, `Child.create()`: a class method the class inherits (heirs.py)
        plain = typed is None and not scoped and not pathed and qualifier and ref.kind == RefKind.CALLS
        heir = self.heirs.members(n, ref, qualifier, cands, bound) if plain else []
        known = typed if typed is not None else scoped or pathed or heir  # a type, constant, path named it
        tiers = [known] if typed is not None or known else None
        if tiers is None:
            tiers = self._tiers(n, qualifier, last, head, cands, bound, own)
        if tiers is None:
            return [], False
        tiers = [self.sides.pick(t, side) for t in tiers]
        named = type(typed) is list or bool(pathed or heir)  # a type, path or class named it (not Overriders)
        return self._pick(n, tiers, (qualifier, head), bound, own, access=access, named=named)

    def _pick(
        self,
        n: Node,
        tiers: list[list[StoredNode]],
        written: tuple[str, str],
        bound: list[Ref],
        own: frozenset[int],
        *,
        access: bool,
        named: bool,
    ) -> tuple[list[int], bool]:
        """The first non-empty tier's uids, nearest `n` first, and whether the edge is ambiguous:
        several candidates, or one linked by its name alone (`by_name_only`) when neither a type
        nor a module path `named` it. `written` is the call's (qualifier, head)."""
        qualifier, head = written
        # Code outside tests calls no test's definition that only a name links (`setTimeout`'s stub).
        apart = not bound and not named and not is_test_path(n.path)
        for i, tier in enumerate(family.past_prototypes(tiers)):  # a `.c` file's prototype of another's body
            tier = [c for c in tier if not (apart and is_tests_own(c.node.path))]
            if tier:
                # A type declared in parts (a partial class, a reopened Ruby class) is its home part.
                ranked = nearest_bodies(n, [self.parts.as_home(c) for c in tier])
                # `e.run()` in a Go method of `e`'s type, landing on that type's method, is no guess.
                own_method = qualifier == receiver(n) and all(self._member_of(c.node, own) for c in ranked)
                typed = self.declared.of(n, qualifier)  # `buf: ReadBuf`: not named after a `Buf`
                guess = not own_method and not named and by_name_only(qualifier, head, bound, ranked, typed)
                # `self.app()` that no method of the own class or its bases answers: `app` is likely
                # an attribute (`self.app = app`); another class's `app` is only a name's guess.
                guess = guess or (qualifier in SELF_WORDS and i >= SELF_TIERS)
                if access and guess:
                    # `xs.toList` on a value of unknown type, mostly a library collection's: only a
                    # `def` in the caller's own file is likely enough to be the one read.
                    ranked = [c for c in ranked if c.node.path == n.path]
                uids = [c.node.uid for c in ranked[:MAX_CANDIDATES]]
                return uids, len(uids) > 1 or guess
        return [], False

    def _php(
        self, n: Node, ref: Ref, qualifier: str, last: str, cands: list[StoredNode], imports: list[Ref]
    ) -> tuple[list[int], bool]:
        """A PHP class or function name: the definitions of the one name PHP reads it as
        (phpnames.py), else a static method the class inherits from a base the index holds; nothing
        for a class or function the index does not hold."""
        ns = self.php.namespace(n, ref.line)
        uses = [r for r in imports if r.alias]
        written = ("\\" if ref.target.startswith("\\") else "") + (qualifier or last)
        tiers: list[list[StoredNode]] = []
        if qualifier:  # `Utils::currentTime()`: that class's method, else the one it inherits
            cls = expand(written, ns, uses)[0]
            tiers.append([c for c in cands if c.node.qualified_name.lower() == f"{cls}.{last.lower()}"])
            if not tiers[0]:
                tiers.append(self._php_inherited(cls, cands))
        else:  # `new Client()`, `extends Base`, `helper()`: the one class, or the function PHP falls back to
            for i, name in enumerate(expand(written, ns, uses, function=True)):
                tiers.append(
                    [
                        c
                        for c in cands
                        if c.node.qualified_name.lower() == name and (i == 0 or c.node.kind == "function")
                    ]
                )
        for tier in tiers:
            if tier:
                uids = [c.node.uid for c in nearest_bodies(n, tier)[:MAX_CANDIDATES]]
                return uids, len(uids) > 1
        return [], False

    def _php_inherited(self, cls: str, cands: list[StoredNode]) -> list[StoredNode]:
        """Candidates that are members of the nearest ancestor of PHP class `cls` (a fully qualified,
        lowercase name) holding any: `Child::create()` calls the `create` that `Base` defines."""
        holders = frozenset(
            s.node.uid
            for s in self.snap.lookup("qsuffix", cls, limit=PARTS_CAP)
            if s.node.kind in CONTAINER_KINDS and s.node.qualified_name.lower() == cls and s.node.part == 0
        )
        return self.heirs.inherited(holders, cands)

    def _tiers(
        self,
        n: Node,
        qualifier: str,
        last: str,
        head: str,
        cands: list[StoredNode],
        bound: list[Ref],
        own: frozenset[int],
    ) -> list[list[StoredNode]] | None:
        """The candidate tiers, best first; None when the reference provably links to nothing indexed.
        `own` is the caller's container: every node of it, when it is reopened (a Ruby class, a C#
        partial class) or split."""
        # `self.m()`, not `self.fp.m()`: that is another object. A Go method names its own object.
        self_call = qualifier in SELF_WORDS or (bool(qualifier) and qualifier == receiver(n))
        tiers: list[list[StoredNode]] = []
        if head == "super" and qualifier and n.language != "rust":  # Rust's `super::x`: rustpaths.py
            # `super().m()`: the method of a base class the index holds; a base it does not hold (`str`,
            # a library class) makes no edge rather than a guess.
            tiers.append(self.heirs.inherited(own, cands))
            if not tiers[-1]:
                return None
        elif self_call:
            tiers.append([c for c in cands if self._member_of(c.node, own)])
            # `self:mount()` in Lua's `function M:layout()`: M is a table, no container node; the
            # caller's own qualifier in its file names it.
            mine = n.qualified_name.rsplit(".", 1)[0] if "." in n.qualified_name else ""
            tiers.append([c for c in cands if mine and c.node.path == n.path and qualifier_of(c) == mine])
            # an inherited method: the same name on the nearest ancestor the index holds (SELF_TIERS in all)
            tiers.append(self.heirs.inherited(own, cands))
            if not any(tiers) and qualifier in SELF_WORDS and self.local_types.assigned(n, last):
                return None  # `self.app(..)` after `self.app = app`: the value held, no method
        elif bound:
            found = self._bound_tier(qualifier, cands, bound, family_of(n.language), n.path)
            if found is None:
                return None
            tiers.append(found)
        if not qualifier:
            tiers.extend(self._bare_name_tiers(n, cands, own))
        elif not bound and head != "super":
            reach, written, at = self.outside.reachable, self.declared.of(n, qualifier), self.snap.node
            held = self.declared.held(n, written, qualifier)  # `state: AtomicUsize`: no indexed type's method
            qual = qualified_tiers(n, qualifier, last, head, cands, own, self._derived, reach, written, at)
            if qual is not None and held:
                tiers.extend(qual)
            elif not self_call:  # `self.flush()`, `Self::new()`: the own type's tiers above still hold
                return None
        return tiers

    def _bindings(self, n: Node, imports: list[Ref], head: str, target: str) -> list[Ref]:
        """The imports binding a call's `head`: `import a.b` binds `a` (no alias); `from a import b`
        and `import a.b as c` bind their alias. A Rust module's binding (`mod assets;`) is no call's
        on a value its caller holds (`assets.themes()` on `let assets = ..`, rustpaths.on_value)."""
        bound = [
            r
            for r in imports
            if r.alias == head
            or (not r.alias and head in (r.target.rsplit(".", 1)[-1], r.target.split(".", 1)[0]))
        ]
        if bound and n.language == "rust" and target and on_value(n.text, target):
            indexed = partial(self.modules.indexed, family="rust")
            bound = [r for r in bound if not any(indexed(m) for m in self._rust_modules(r.target, n.path))]
        return bound

    def _bound_tier(
        self, qualifier: str, cands: list[StoredNode], bound: list[Ref], family: str, importer: str
    ) -> list[StoredNode] | None:
        """Candidates in the module(s) an import binds the name to; None for a module not indexed."""
        mods = []
        for r in bound:
            target = self._anchored(r.target, importer, family)
            mods.append(target)
            if target.startswith("/"):
                continue  # a path import (`./Foo.vue`) names its module whole: no prefix is one
            if not qualifier:  # `from billing.retry import schedule_retry`: the module is the prefix
                mods.append(r.target.rsplit(".", 1)[0] if "." in r.target else r.target)
            else:  # `import billing.retry as br; br.schedule()`: the module plus the rest of the qualifier
                rest = qualifier.split(".", 1)[1] if "." in qualifier else ""
                if rest:
                    mods.append(f"{r.target}.{rest}")
                if not r.alias:  # `import email.base64mime; email.base64mime.decode()`
                    mods.append(qualifier)
        go = family == "go"
        if family == "rust":  # `crate::Json`, `axum_core::Error`: a crate's root, lib.rs
            mods = [m for written in mods for m in self._rust_modules(written, importer)]
        found = [c for c in cands if any(module_path_matches(c.node.path, m, package_dirs=go) for m in mods)]
        if go and qualifier:  # `logrus.WithField()`: the package's function, never a method
            found = through_package(found, qualifier)
        found = found if go else as_written(qualifier, found)
        if declared_only(found):  # `from attr import evolve` with a stub beside it: the body passed on
            found = self._passed_on(mods, cands, family, qualifier) or found
        if not found and cands:
            found = self._passed_on(mods, cands, family, qualifier)
        if not found and qualifier and not go:  # `Router::new()` with `use crate::routing::Router`
            crates = self._crates if family == "rust" else None
            files = partial(self.modules.files, family=family)
            found = imported_type_members(
                qualifier, cands, bound, importer, crates, files, self._file_imports
            )
        if not found and not any(self.modules.indexed(m, family) for m in mods):
            return None  # bound to a module we do not index (subprocess, numpy): nothing to link
        return found

    def _anchored(self, module: str, importer: str, family: str) -> str:
        """An import target as the file or folder it names (targets.anchored); a Go import path
        inside an indexed module, that package's folder by its go.mod (gomodules.py)."""
        folder = package_folder(module, self._go_modules) if family == "go" else None
        return folder or anchored(module, importer)

    @cached_property
    def _go_modules(self) -> dict[str, str]:
        """The indexed go.mod files' module paths to their folders (gomodules.py), read once."""
        return go_modules(self.snap.manifest.files, self._text_of)

    def _rust_modules(self, module: str, importer: str) -> list[str]:
        """A Rust path as the files it names, anchored where it names an indexed one (imported.py)."""
        return rust_modules(module, importer, self._crates, partial(self.modules.indexed, family="rust"))

    @cached_property
    def _crates(self) -> dict[str, str]:
        """The workspace's Rust library crates by folder name and by Cargo.toml's name (imported.py)."""
        return crate_folders(self.snap.manifest.files) | cargo_names(self.snap.manifest.files, self._text_of)

    def _text_of(self, path: str) -> str:
        """An indexed file's text as its nodes hold it (a manifest's windows), for go.mod and Cargo.toml."""
        return "\n".join(s.node.text for s in self.snap.nodes_in_file(path))

    def _passed_on(self, mods: list[str], cands: list[StoredNode], family: str, via: str) -> list[StoredNode]:
        """Candidates a bound package imports and so passes on (`pkg/__init__.py`: `from .deco import
        option`), two steps deep (axum's `response` passes on `crate::Json`, and its `lib.rs`
        `self::json::Json`): a module's own items, not a same-named method in it. A stub's declaration
        (`attr/__init__.pyi`, beside the `__init__.py` passing the body on) is kept only if no body is.
        `via` is the call's qualifier, a namespace a JavaScript barrel may pass on (reexports.py)."""
        name, found, stubs = cands[0].node.name, list[StoredNode](), list[StoredNode]()
        for _ in range(REEXPORT_STEPS):
            files = [p for m in mods for p in self.modules.files(m, family)]
            mods = [m for p in files[:REEXPORT_FILES] for m in passed_on(p, self._file_imports(p), name, via)]
            found = [
                c for c in cands if not qualifier_of(c) and any(defined_in(c.node.path, m) for m in mods)
            ]
            stubs, found = (stubs or found, []) if declared_only(found) else (stubs, found)
            if found or not mods:
                break
        return found or stubs

    def _bare_name_tiers(
        self, n: Node, cands: list[StoredNode], own: frozenset[int]
    ) -> list[list[StoredNode]]:
        """A bare name calls a function or a class, never another object's method (nor a Lua table's
        function); in languages with an implicit `this` it may call a method of its own class. Nested
        functions are visible only inside the function that holds them."""
        implicit_this = n.language in IMPLICIT_THIS
        # Java's `attr(k)` in `Element` may be its base `Node`'s, `reset(sb)` in `Token.Doctype` its
        # outer `Token`'s.
        around = (
            self._around(own) if implicit_this and own and n.kind in ("function", "method") else frozenset()
        )
        cands = [
            c
            for c in cands
            if (
                c.node.kind != "method"
                or (implicit_this and self._member_of(c.node, own))
                # a base's constructor is no inherited method: a bare `Pipeline()` makes an object
                or (
                    implicit_this
                    and self._member_of(c.node, around)
                    and not is_constructor(c.node.qualified_name)
                )
            )
            and (
                not c.node.parent_uid
                or c.node.kind == "method"
                or c.node.parent_uid in (n.uid, n.parent_uid)
                or self._is_container(c.node.parent_uid)
            )
        ]
        if n.language == "lua":
            # `function lume.fn()` is a field of the table `lume`, reached only as `lume.fn`: a bare
            # `fn(v)` calls a local or a global (lume's `lume.map` calls its parameter `fn`).
            cands = [c for c in cands if c.node.parent_uid or "." not in c.node.qualified_name]
        tiers = [
            [c for c in cands if self._member_of(c.node, own)],
            (self.heirs.inherited(own, cands) if around else [])
            or [c for c in cands if self._member_of(c.node, around)],
            [c for c in cands if c.node.path == n.path],
        ]
        if family_of(n.language) == "java":  # a class of the own package needs no import
            tiers.append([c for c in cands if same_package(n.path, c.node.path)])
        if n.language in SOURCED:
            # A script sees the functions of the files it sources; a name no such file defines is a
            # program (`npm`), not a test's mock of it, unless the caller is a test too.
            sourced = {
                p
                for r in self._file_imports(n.path)
                for p in self.modules.files(anchored(r.target, n.path), family_of(n.language))
            }
            tiers.append([c for c in cands if c.node.path in sourced])
            cands = [c for c in cands if is_test_path(c.node.path) <= is_test_path(n.path)]
        if n.language == "go":  # a bare name is its own package's: another package's needs `pkg.`
            cands = [c for c in cands if same_folder(n.path, c.node.path)]
        tiers.append(cands)
        return tiers

    def _derived(self, found: list[StoredNode], cands: list[StoredNode]) -> list[StoredNode]:
        """Methods `found` of the classes a variable's name spells, and the candidates overriding
        them in the classes deriving from those (heirs.py): the value may be any subclass's. Only
        as many overrides as leave `found` within MAX_CANDIDATES."""
        holders = frozenset(u for c in found for u in self.parts.parts(self._container(c.node)))
        have = {c.node.uid for c in found}
        more = [c for c in self.heirs.overriding(holders, cands) if c.node.uid not in have]
        return found + more[: max(0, MAX_CANDIDATES - len(found))]

    def _enclosing_class(self, n: Node) -> int:
        """The class `self` means in `n`: a method's own, and in a function nested in a method (a
        decorator's inner function, a callback) that method's, whose `self` it closes over."""
        for _ in range(SELF_NESTING):
            if n.kind == "method":
                return self._container(n)
            parent = self.snap.node(n.parent_uid) if n.parent_uid and n.kind == "function" else None
            if parent is None:
                return 0
            n = parent.node
        return 0

    def _container(self, n: Node) -> int:
        """The container a method belongs to: its parent in its file, or the type it is a member of
        though defined in another file (a Go method beside its package's struct)."""
        return self.outside.container_of(n) or n.parent_uid

    def _member_of(self, n: Node, containers: Collection[int]) -> bool:
        """Whether `n` is a member of one of `containers`, in their file or outside it."""
        return bool(containers) and (n.parent_uid in containers or self.outside.container_of(n) in containers)

    def _around(self, own: frozenset[int]) -> frozenset[int]:
        """The classes a bare method name in `own` may also reach: those it inherits from and what
        they implement (heirs.lineage, as far as the index holds them), those it is nested in, and for
        a module the classes mixing it in with theirs (mixhosts.py: `halt` in Sinatra's Helpers is Base's)."""
        hosts = self.hosts.of(own)
        seen = set(own).union(*self.heirs.lineage(own), hosts, *self.heirs.lineage(hosts))
        for uid in own:
            parent = self.snap.node(uid)
            while (
                parent is not None and parent.node.parent_uid and self._is_container(parent.node.parent_uid)
            ):
                seen |= self.parts.parts(parent.node.parent_uid)
                parent = self.snap.node(parent.node.parent_uid)
        return frozenset(seen - own)

    def _is_container(self, uid: int) -> bool:
        parent = self.snap.node(uid)
        return parent is not None and parent.node.kind in CONTAINER_KINDS

    def _resolve_import(self, src: Node, ref: Ref) -> tuple[list[int], bool]:
        if not module_stem(ref.target):
            return [], False
        family = family_of(src.language)
        anchored = [self._anchored(ref.target, src.path, family)]
        targets = self._rust_modules(ref.target, src.path) if family == "rust" else anchored
        found = [s for t in targets for s in self.modules.nodes(t, src.path, family, MAX_CANDIDATES)]
        uids = sorted({s.node.uid for s in found})[:MAX_CANDIDATES]
        return uids, len(uids) > 1


__all__ = ["Resolver", "anchored", "family_of", "module_path_matches", "split_target"]
