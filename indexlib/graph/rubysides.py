"""A Ruby class's two sides: its class methods (`def self.push`, a `def` in `class << self`) and its
instance methods (`def push`), which may share a name, and which side a call means.

Owns: whether a Ruby method is a class method, read from its signature (`def self.x`, `def
Config.x`) or from the `class << self` block its class's text holds it in; the side a call's
receiver is on; and, of a tier of candidates, the ones on that side where one class holds both.

Why a rule of its own: both sides qualify their methods alike (`Sidekiq.Client.push` for `def push`
and for the `push` in `class << self`), so every call of either linked to both, ambiguous: on
sidekiq, `Sidekiq::Client.push(msg)` in `SortedEntry#retry` and `@client.push(..)` in the
scheduler alike. And a call on the own class's object from an instance (`self.class.redis_pool`)
or on a new instance from a class method (`new.push(item)`) was read as a call on some other
object, which the own class's methods were left out for.

The rule: a constant path (`Sidekiq::Client.push`), `self.class.x` and `x.class.y` call the class
side; `Foo.new.x`, a variable, an instance variable (`@client.push`) and, in a class method,
`new.x` call the instance side; a bare name and `self.x` call the side of the code they are in (a
class body is the class side). Only between the two sides of one class does the side pick: a
variable may hold a class (`klass.client_push`), so methods of different classes stay as found.

Approximation, said plainly: a `class << self` block is read from its class's text by indentation
(its `end` is the first line below as indented as `class << self`), as code formatted the usual way.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from enum import Enum

from indexlib.engines.lexical import StoredNode
from indexlib.graph.rubyconst import lexical
from indexlib.records import CONTAINER_KINDS, Node, Ref
from indexlib.snapshot import Snapshot

_SINGLETON_DEF = re.compile(r"def\s+(?:self|[A-Z][\w:]*)\s*\.")  # `def self.via`, `def Config.load`
_OPENS = re.compile(r"(\s*)class\s*<<\s*self\b")
_ONE_LINE = re.compile(r"\bend\s*$")  # `class << self; attr_reader :x; end`
_OWN_OBJECT = frozenset({"", "self"})
_NEW = frozenset({"new", "self.new"})  # in a class method: an instance of the own class
_WRITER = re.compile(r"[A-Za-z_]\w*=")  # `url_prefix=`: what `x.url_prefix = v` calls (references.py)


class Side(Enum):
    """Which side of a class a method is on, or a call means ('' when the caller cannot tell)."""

    UNKNOWN = ""
    CLASS = "class"
    INSTANCE = "instance"


class RubySides:
    """The side of Ruby methods and calls over one snapshot, caching each class's `class << self`
    lines; one instance per Resolver."""

    def __init__(
        self, snap: Snapshot, defined: Callable[[str], tuple[StoredNode, ...]] = lambda _: ()
    ) -> None:
        self.snap = snap
        self._defined = defined  # the callable definitions of a name (Resolver._defs), for `scoped`
        self._spans: dict[int, list[tuple[int, int]]] = {}

    def of_method(self, n: Node) -> Side:
        """A Ruby method's side: CLASS for `def self.x` or a `def` inside `class << self`."""
        if _SINGLETON_DEF.match(n.signature):
            return Side.CLASS
        inside = any(a <= n.start_line <= b for a, b in self._singleton_spans(n.parent_uid))
        return Side.CLASS if inside else Side.INSTANCE

    def of_caller(self, n: Node) -> Side:
        """The side code in `n` runs on, its `self`: a method's own, a class or module body's class."""
        if n.kind == "method":
            return self.of_method(n)
        return Side.CLASS if n.kind in CONTAINER_KINDS else Side.UNKNOWN

    def meant(self, n: Node, qualifier: str) -> Side:
        """The side a call in `n` on the receiver `qualifier` is on (module doc: the rule)."""
        if qualifier in _OWN_OBJECT:
            return self.of_caller(n)
        if qualifier in _NEW:
            return Side.INSTANCE if self.of_caller(n) is Side.CLASS else Side.UNKNOWN
        if qualifier == "self.class" or qualifier.endswith(".class"):
            return Side.CLASS
        if qualifier.endswith(".new"):
            return Side.INSTANCE
        if qualifier.startswith("super"):
            return Side.UNKNOWN
        parts = qualifier.split(".")
        return Side.CLASS if all(p[:1].isupper() for p in parts) else Side.INSTANCE

    @staticmethod
    def own_object(qualifier: str, side: Side) -> str:
        """`self` for a receiver that is the own class (`self.class`) or, from a class method, a new
        instance of it (`new`): the resolver's own-class tiers then answer, and `side` picks in them."""
        own = qualifier == "self.class" or (qualifier in _NEW and side is Side.INSTANCE)
        return "self" if own else qualifier

    def scoped(
        self, n: Node, ref: Ref, qualifier: str, last: str, cands: list[StoredNode], builds: bool
    ) -> list[StoredNode]:
        """rubyconst.lexical's candidates, where a `.new` builds a class that defines its own class
        method `new` (`def self.new`, a `def new` in `class << self`) that method: Ruby runs it for
        `Faraday.new(url)` instead of `Class#new`, so it is the call's target, not the class. In an
        instance method `self.class.new(..)` builds the method's own class."""
        found = lexical(n, ref, qualifier, last, cands, builds)
        if builds and qualifier == "self" and n.kind == "method" and self.of_method(n) is Side.INSTANCE:
            # `self.class.new(..)` (own_object made it `self`; constructs leaves `self.new` out)
            found = [
                s for s in [self.snap.node(n.parent_uid)] if s is not None and s.node.kind in CONTAINER_KINDS
            ]
        if not builds or not found:
            return found
        classes = {c.node.uid for c in found}
        own = [
            d
            for d in self._defined("new")
            if d.node.parent_uid in classes
            and d.node.kind == "method"
            and self.of_method(d.node) is Side.CLASS
        ]
        return own or found

    def pick(self, tier: list[StoredNode], side: Side) -> list[StoredNode]:
        """The candidates of `tier` on `side` where one class holds methods on both sides of the
        name (one qualified name, in one file or in a reopened class's parts); the others as found."""
        if side is Side.UNKNOWN or len(tier) < 2:
            return tier
        sides = {
            c.node.uid: self.of_method(c.node)
            for c in tier
            if c.node.language == "ruby" and c.node.kind == "method"
        }
        on = {c.node.qualified_name for c in tier if sides.get(c.node.uid) is side}
        off = {c.node.qualified_name for c in tier if sides.get(c.node.uid) not in (side, None)}
        return [c for c in tier if c.node.qualified_name not in on & off or sides.get(c.node.uid) is side]

    def _singleton_spans(self, container: int) -> list[tuple[int, int]]:
        """The file lines of each `class << self` block in a container's text (every window of it),
        from its opening line to its `end`."""
        if container not in self._spans:
            stored = self.snap.node(container) if container else None
            lines: list[tuple[int, str]] = []
            if stored is not None and stored.node.kind in CONTAINER_KINDS:
                for part in [stored, *self.snap.later_parts(stored.node)]:
                    start = part.node.start_line
                    lines += [(start + i, line) for i, line in enumerate(part.node.text.split("\n"))]
            self._spans[container] = _blocks(lines)
        return self._spans[container]


def _blocks(lines: list[tuple[int, str]]) -> list[tuple[int, int]]:
    """The (first, last) line numbers of each `class << self` ... `end` block among `lines`."""
    out: list[tuple[int, int]] = []
    for i, (number, line) in enumerate(lines):
        opened = _OPENS.match(line)
        if opened is None or _ONE_LINE.search(line):
            continue
        closing = re.compile(re.escape(opened.group(1)) + r"end\b")
        last = next((n for n, text in lines[i + 1 :] if closing.match(text)), lines[-1][0])
        out.append((number, last))
    return out


def writer(last: str, defined: Callable[[str], tuple[StoredNode, ...]]) -> str:
    """The method a Ruby attribute assignment (`self.url_prefix = url`, parsed as a call of
    `url_prefix=`) calls: `url_prefix=` where some `def url_prefix=` is indexed, else `url_prefix`,
    the one name `attr_writer` or `attr_accessor :url_prefix` gives its reader and writer alike."""
    if not _WRITER.fullmatch(last) or defined(last):
        return last
    return last[:-1]


__all__ = ["RubySides", "Side", "writer"]
