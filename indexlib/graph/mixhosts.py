"""The classes that mix a module in: who a Ruby module's `self` is.

Owns: the reverse of a mixin reference (`include Helpers`, `extend`, `prepend`, marked MIXIN at
parsing): for a module, the classes and modules whose bodies mix it in, every part of each.

Why: a module's methods run on the objects of the classes that mix it in, so a bare call in one
(`halt code` in Sinatra's `Helpers#error`) means a method of such a class (`Base#halt`, Base
including Helpers) or of what that class inherits or mixes in besides (`Templates`). Looked up
only among the module's own methods and its ancestors, the call found nothing and made no edge:
`qry related Sinatra::Base#halt --callers` missed every helper calling it. The resolver
(resolve.py) reads the classes found here, and their ancestors, as ones a bare name may reach.

A module's `included` hook (`def self.included(base); base.extend ClassMethods; end`, thor's
`Thor::Base`, and a Rails concern's `ClassMethods` that `extend ActiveSupport::Concern` extends so)
adds a module's methods to the class side of each class including it: `extended_onto` names them,
and the ancestry walk (heirs.py) reads them as bases of the includer beside the module itself.
Without it a bare `all_commands` in `Thor.dispatch` (Thor including Thor::Base) reached nothing.

Does not own: what a reference resolves to (resolve.py), the forward walk up a class's bases.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from indexlib.engines.lexical import StoredNode
from indexlib.graph.parts import PARTS_CAP, TypeParts
from indexlib.graph.targets import split_target
from indexlib.records import CONTAINER_KINDS, MIXIN, Node, Ref, RefKind
from indexlib.snapshot import Snapshot

Resolve = Callable[[StoredNode, Ref], tuple[list[int], bool]]
_HOOK = re.compile(r"\bdef\s+(?:self\.)?included\s*\(?\s*(\w+)")  # `def self.included(base)`
_CONCERN = "Concern"  # `extend ActiveSupport::Concern`: its `ClassMethods` go to the class side
_CLASS_METHODS = "ClassMethods"


class MixinHosts:
    """The classes mixing a module in, cached per container; one instance per Resolver."""

    def __init__(self, snap: Snapshot, resolve: Resolve, parts: TypeParts) -> None:
        self.snap = snap
        self._resolve = resolve
        self._parts = parts
        self._hosts: dict[frozenset[int], frozenset[int]] = {}

    def of(self, own: frozenset[int]) -> frozenset[int]:
        """Every node of each container whose body mixes in one of the nodes `own` (a module and
        its reopened parts), as far as the index holds them; empty for a module nothing mixes in."""
        if own not in self._hosts:
            self._hosts[own] = frozenset()  # a module mixing itself in ends here, not in a loop
            nodes = [s.node for s in (self.snap.node(u) for u in own) if s is not None]
            # Only Ruby's `include`, `extend` and `prepend` mix a module into a class whose methods
            # its bare calls reach; a Java or Swift class's subclasses are no hosts to look up.
            names = {n.name.lower() for n in nodes if n.language == "ruby"}
            found: set[int] = set()
            for name in names:
                for host in self.snap.lookup("bases", name, limit=PARTS_CAP):
                    if host.node.kind in CONTAINER_KINDS and self._mixes_in(host, name, own):
                        found |= self._parts.parts(host.node.uid)
            self._hosts[own] = frozenset(found - own)
        return self._hosts[own]

    def _mixes_in(self, host: StoredNode, name: str, own: frozenset[int]) -> bool:
        """Whether a mixin reference of `host` written with the last name `name` resolves into `own`."""
        return any(
            r.kind == RefKind.INHERITS
            and r.alias == MIXIN
            and split_target(r.target)[1].lower() == name
            and not own.isdisjoint(self._resolve(host, r)[0])
            for r in host.refs
        )


def extended_onto(snap: Snapshot, resolve: Resolve, module: StoredNode, parts: frozenset[int]) -> set[int]:
    """The modules a Ruby module (`parts`: every node of it) extends onto each class including it:
    those its `included(base)` hook writes `base.extend X` of, and its nested `ClassMethods` when it
    extends `ActiveSupport::Concern`; every node of each, as far as the index holds them."""
    if module.node.language != "ruby":
        return set()
    written: list[tuple[StoredNode, str]] = []
    for s in snap.lookup("name_exact", "included", limit=PARTS_CAP):
        hook = _HOOK.search(s.node.text) if s.node.parent_uid in parts else None
        if hook is not None:
            extend = re.compile(rf"\b{re.escape(hook.group(1))}\.extend[\s(]+([A-Z][\w:]*)")
            written += [(s, m.group(1)) for m in extend.finditer(s.node.text)]
    holders = [n for n in (snap.node(u) for u in parts) if n is not None]
    if any(_concern(n.node, r) for n in holders for r in n.refs):
        written += [(n, _CLASS_METHODS) for n in holders]
    found: set[int] = set()
    for src, constant in written:
        ref = Ref(src_uid=src.node.uid, kind=RefKind.INHERITS.value, target=constant, line=0, alias=MIXIN)
        found.update(resolve(src, ref)[0])
    return found - parts


def _concern(n: Node, r: Ref) -> bool:
    """Whether `r` of module `n` is its `extend ActiveSupport::Concern`."""
    return r.kind == RefKind.INHERITS and r.alias == MIXIN and split_target(r.target)[1] == _CONCERN


__all__ = ["MixinHosts", "extended_onto"]
