"""What classes inherit: the ancestry walk the resolver reads (`self.m()`, `super().m()`, a local's
class), and `Child.make()` where the class `Child` does not define `make` but an ancestor does.

Owns: each container's indexed ancestors, level by level (MAX_ANCESTRY levels, each class once), the
members the nearest of them holds, and the classes a call on a class's name means for that lookup.

Why a rule of its own: a call on a class names that class's method, and a class method (Ruby's
`def self.split`, Python's `@classmethod`, a JavaScript `static`) is inherited. The resolver looked
for the member in the class written and, not finding it there, linked nothing: on thor,
`Thor::Options.split(args)` (`class Options < Arguments`, `def self.split` in `Arguments`) was no
caller of `Thor::Arguments.split`; Python's `Child.from_config()` after `from .child import Child`
and TypeScript's `Child.create()` likewise. Java, Kotlin and C# read a type's ancestors already
(locals.py), and PHP's `Child::create()` (resolve.py).

The rule: the classes the qualifier's last name means are found as the language finds them (a
Ruby constant through its lexical nesting, rubyconst.py; a name an import binds in the module the
import names), then the member of the nearest ancestor holding one, as far as the index holds them.
A class the index does not hold, or one declaring the member itself, is left to the other tiers.
"""

from __future__ import annotations

from collections.abc import Callable, Collection

from indexlib.engines.lexical import StoredNode
from indexlib.graph.family import family_of
from indexlib.graph.locals import MAX_ANCESTRY
from indexlib.graph.mixhosts import extended_onto
from indexlib.graph.modulefiles import ModuleFiles
from indexlib.graph.parts import PARTS_CAP, TypeParts
from indexlib.graph.qualified import NAMED_AFTER_MIN, named_after, owner_name
from indexlib.graph.rubyconst import constant_path, lexical
from indexlib.graph.targets import anchored
from indexlib.pathroles import is_test_path, is_tests_own
from indexlib.records import CONTAINER_KINDS, MIXIN, Node, Ref, RefKind
from indexlib.snapshot import Snapshot

# Languages whose class methods are inherited and reached by a class's name, and whose resolution
# of `Type.m()` reads no declared ancestors elsewhere.
LANGUAGES = frozenset({"ruby", "python", "javascript", "typescript", "tsx", "jsx"})


class Heirs:
    """The inherited members a call on a class reaches, over one resolver's life: `ancestry` gives
    the classes some containers inherit from, level by level; `member_of` whether a node is a
    member of some containers (in their file or outside it)."""

    def __init__(
        self,
        snap: Snapshot,
        modules: ModuleFiles,
        resolve: Callable[[StoredNode, Ref], tuple[list[int], bool]],
        parts: TypeParts,
        member_of: Callable[[Node, Collection[int]], bool],
    ) -> None:
        """`resolve` links a reference (a class's base) to node uids; `parts` gives every node of a
        class declared in parts; `member_of` says whether a node is a member of some containers."""
        self.snap, self.modules, self.parts = snap, modules, parts
        self._resolve, self._member_of = resolve, member_of
        self._ancestries: dict[frozenset[int], list[frozenset[int]]] = {}
        self._lineages: dict[frozenset[int], list[frozenset[int]]] = {}
        self._named: dict[tuple[str, str], list[StoredNode]] = {}
        self._extended: dict[int, set[int]] = {}

    def inherited(self, holders: frozenset[int], cands: list[StoredNode]) -> list[StoredNode]:
        """Candidates that are members of the nearest ancestors of the container `holders` holding
        any, MAX_ANCESTRY levels up: a method is inherited from a grandparent too (monolog's
        `AmqpHandler` gets `getFormatter` from the trait its base `AbstractProcessingHandler` uses),
        and, past the classes, from the interfaces they implement (`lineage`)."""
        for level in self.lineage(holders):
            found = [c for c in cands if self._member_of(c.node, level)]
            if found:
                return found
        return []

    def overriding(self, holders: frozenset[int], cands: list[StoredNode]) -> list[StoredNode]:
        """Candidates that are methods of a class deriving from the container `holders`
        (MAX_ANCESTRY levels down): a value typed as a class may be any subclass's, so a call on it
        may dispatch to an override (starlette's `route.url_path_for()` on a `BaseRoute` to
        `Mount.url_path_for`). The reverse of `inherited`, read from each candidate's own ancestry."""
        return [
            c
            for c in cands
            if c.node.kind == "method"
            and c.node.parent_uid not in holders
            and any(level & holders for level in self.ancestry(self.parts.parts(c.node.parent_uid)))
        ]

    def ancestry(self, holders: frozenset[int]) -> list[frozenset[int]]:
        """The classes `holders` inherit from, level by level (bases, theirs, ...), MAX_ANCESTRY
        levels at most, each class once, as far as the index holds them."""
        if holders not in self._ancestries:
            self._ancestries[holders] = []  # as in `lineage`: a cycle through resolution ends here
            levels: list[frozenset[int]] = []
            seen, frontier = set(holders), holders
            for _ in range(MAX_ANCESTRY):
                frontier = frozenset(self._bases(frontier) - seen)
                if not frontier:
                    break
                levels.append(frontier)
                seen |= frontier
            self._ancestries[holders] = levels
        return self._ancestries[holders]

    def lineage(self, holders: frozenset[int]) -> list[frozenset[int]]:
        """`ancestry`, then the interfaces, protocols and traits `holders` and their ancestors
        implement, level by level (with the ones those extend), MAX_ANCESTRY levels more: the
        members a type gets from what it conforms to. A Swift protocol extension's
        `static func parse(..)` is called as `Command.parse(..)` on a struct conforming to it, a
        Kotlin or Java interface's default method and a Rust trait's provided one on an
        implementing type's value. After every class level, so a base class's method is still
        the one a class inherits when an interface declares it too."""
        if holders not in self._lineages:
            self._lineages[holders] = []  # a base whose resolution asks for this lineage again gets none
            levels = self.ancestry(holders)
            seen = set(holders).union(*levels)
            frontier = frozenset(self._bases(frozenset(seen), RefKind.IMPLEMENTS) - seen)
            extended = list(levels)
            for _ in range(MAX_ANCESTRY):
                if not frontier:
                    break
                extended.append(frontier)
                seen |= frontier
                frontier = frozenset(
                    (self._bases(frontier) | self._bases(frontier, RefKind.IMPLEMENTS)) - seen
                )
            self._lineages[holders] = extended
        return self._lineages[holders]

    def _bases(self, own: frozenset[int], kind: RefKind = RefKind.INHERITS) -> set[int]:
        """Uids of the classes the container `own` inherits from (any of its nodes says so), as far
        as the index holds them, with every node of each; beside a Ruby module it mixes in, the
        modules that module's `included` hook extends onto it (mixhosts.py). With
        `RefKind.IMPLEMENTS`, the interfaces it implements instead."""
        out: set[int] = set()
        for uid in own:
            container = self.snap.node(uid)
            if container is None:
                continue
            for r in container.refs:
                if r.kind == kind:
                    for base in self._resolve(container, r)[0]:
                        out.update(self.parts.parts(base))
                        if r.alias == MIXIN:
                            out.update(self._extended_by(base))
        return out

    def _extended_by(self, module: int) -> set[int]:
        """The modules a mixed-in Ruby module's `included` hook extends onto its includer, with
        every node of each (read once per module)."""
        if module not in self._extended:
            self._extended[module] = set()  # a hook reaching its own module ends here
            stored = self.snap.node(module)
            found = (
                extended_onto(self.snap, self._resolve, stored, self.parts.parts(module)) if stored else set()
            )
            self._extended[module] = {u for m in found for u in self.parts.parts(m)}
        return self._extended[module]

    def members(
        self, n: Node, ref: Ref, qualifier: str, cands: list[StoredNode], bound: list[Ref]
    ) -> list[StoredNode]:
        """The candidates that are members of the nearest ancestor of the class `qualifier` names
        in `n` (`Thor.Options` of `Thor::Options.split`), holding any; [] when the qualifier names
        no indexed class, or the class declares the member itself."""
        head, _, name = qualifier.rpartition(".")
        if n.language not in LANGUAGES:
            return []
        if not name[:1].isupper():
            return self._named_variable(n, name, cands)
        if any(owner_name(c) == [name] for c in cands):
            return []  # `Options.parse` that Options declares: the member tiers' answer
        family = family_of(n.language)
        classes = self._classes(name, family)
        if n.language == "ruby":  # `Thor::Options`, `Options`: the constant the nesting finds first
            classes = (
                lexical(n, ref, head, name, classes, builds=True) if constant_path(ref, qualifier, "") else []
            )
        elif bound:  # `from .child import Child`: the class the imported module defines
            files = {p for r in bound for p in self._imported_files(r, n.path, family)}
            classes = [s for s in classes if s.node.path in files]
        else:  # imported by no name: a class of the caller's own module
            classes = [s for s in classes if s.node.path == n.path and not head]
        holders = frozenset(s.node.uid for s in classes)
        return self.inherited(holders, cands) if holders else []

    def _named_variable(self, n: Node, variable: str, cands: list[StoredNode]) -> list[StoredNode]:
        """`@capsule.config` on a variable named after its class (`Capsule`, case aside) that does
        not declare `config` but inherits it or mixes it in (`include Sidekiq::Component`): the
        nearest such ancestor's members, as the class's own answer for it (qualified.named_after).
        [] when a class the name spells declares the member, or none or several classes are named
        so where `n` may see them: a class local to a function (a test's `class App(Starlette)`) is
        no variable's elsewhere, nor a test's class one of code outside tests."""
        spelled = any(named_after(variable, c.node.qualified_name) for c in cands)
        if len(variable) < NAMED_AFTER_MIN or spelled:
            return []
        family = family_of(n.language)
        classes = [
            s.node
            for s in self.snap.lookup("name_exact", variable.lower(), limit=PARTS_CAP)
            if s.node.name.lower() == variable.lower()
            and s.node.kind in CONTAINER_KINDS
            and family_of(s.node.language) == family
            and not self._in_function(s.node)
            and (is_test_path(n.path) or not is_tests_own(s.node.path))
        ]
        if len({c.qualified_name for c in classes}) != 1:
            return []  # `option` of two unrelated `Option` classes: the name says neither
        return self.inherited(frozenset(c.uid for c in classes), cands)

    def _in_function(self, node: Node) -> bool:
        """Whether a class is declared inside a function or method, visible there alone."""
        parent = self.snap.node(node.parent_uid) if node.parent_uid else None
        return parent is not None and parent.node.kind in ("function", "method")

    def _classes(self, name: str, family: str) -> list[StoredNode]:
        """The indexed classes (containers) named `name` in a language family, read once per name:
        a library's `Object.keys()` or `Math.max()` asks for the same few names over and over."""
        key = (name, family)
        if key not in self._named:
            self._named[key] = [
                s
                for s in self.snap.lookup("name_exact", name.lower(), limit=PARTS_CAP)
                if s.node.name == name
                and s.node.kind in CONTAINER_KINDS
                and family_of(s.node.language) == family
            ]
        return self._named[key]

    def _imported_files(self, r: Ref, importer: str, family: str) -> list[str]:
        """The files of the module an import takes a name from: its target's (`./child.js` of
        `import {Child} from './child.js'`) or its target's parent's (`py.child` of `from
        py.child import Child`, whose target is `py.child.Child`)."""
        parent = r.target.rpartition(".")[0]
        modules = [r.target, parent] if parent.strip(".") else [r.target]
        return [p for m in modules for p in self.modules.files(anchored(m, importer), family)]


__all__ = ["LANGUAGES", "Heirs"]
