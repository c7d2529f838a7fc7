"""Ruby constants looked up as Ruby looks them up: through the lexical nesting, innermost first.

Why a rule of its own: a class is a constant, and a bare `Base` inside `module Rack; module
Protection` means `Rack::Protection::Base` when that exists, before any other `Base`. Resolved by
name alone, `class PathTraversal < Base` inherited from Sinatra's `Base` as much as from Rack's
(every `Rack::Protection` class then overrode `Sinatra::Base.call`), and `Base.new` called every
class named `Base`.

The rule: a constant path written in code (`Base`, `Protection::Base`, the receiver of
`Base.settings`) is looked up in each scope enclosing the reference, innermost first, down to the
top level: the definitions whose qualified name is that scope's followed by the path as written
(qualified names hold the nesting: `Rack.Protection.Base`). The first scope holding one decides.
A class's superclass is read in the scope around the class; a module its body mixes in (`include
Helpers`) and a method's constants in its class and the scopes around it (a `def` opens no scope
for constants). None in any scope (a constant of a
gem, or one found through the ancestors) leaves the reference to the resolver's other tiers.

Approximation, said plainly: the nesting is read from the qualified name, so a class written
compactly (`class Rack::Protection::Foo`, whose body Ruby nests in the top level only) is taken as
nested in `Rack::Protection` too. A name that resolves there also exists nested; the rule then
prefers the nested definition, as the fully nested spelling would.

`Foo.new` (`Jekyll::Site.new(config)`, a call written `Jekyll.Site` at parsing) constructs the
class the constant path names: it is a call of that class, as `Foo()` is in Python and `new Foo()` in Java, found by the same lookup. A path no
enclosing scope defines is a class of Ruby or of a gem (`File.new`): no edge, never a guess at an
indexed class of that name.
"""

from __future__ import annotations

from indexlib.engines.lexical import StoredNode
from indexlib.records import CONTAINER_KINDS, MIXIN, Node, Ref, RefKind

OWN_OBJECT = frozenset({"self", "super"})


def constant_path(ref: Ref, qualifier: str, last: str) -> str:
    """The constant path a Ruby reference writes (`Protection.Base` for `< Protection::Base`,
    `Base` for `Base.settings`), or '' when it names none (`helper`, `settings.x`, `self.y`)."""
    if ref.kind in (RefKind.INHERITS.value, RefKind.IMPLEMENTS.value):
        return f"{qualifier}.{last}" if qualifier else last
    head = qualifier.split(".", 1)[0]
    return qualifier if head[:1].isupper() and head not in OWN_OBJECT else ""


def constructs(ref: Ref, qualifier: str, last: str) -> bool:
    """Whether a Ruby call builds an object: `Site` for `Site.new` (references.py writes it so), or
    `.new` on a value no constant names (`klass.new`, `described_class.new`): Ruby's `Class#new` of
    a class unknown here, no call of a `def self.new` found by its name (`self.class.new` is the
    own class's: rubysides.py `scoped`). A bare `new` and `self.new` are calls in a class method."""
    if ref.kind != RefKind.CALLS.value:
        return False
    return last[:1].isupper() or (last == "new" and qualifier not in ("", "self"))


def scopes(n: Node, ref: Ref) -> list[str]:
    """The scopes enclosing `ref` in `n`, innermost first, the top level ('') last: a class's
    superclass is read around the class; code in a class's body (a call, or a mixin: `include
    Helpers` in `class Rack::Request` is `Rack::Request::Helpers` first) or a method within the class.
    A path written from the top level (`::Logger.new`, `\\Logger` from references.py) has that one."""
    if ref.target.startswith("\\"):
        return [""]
    in_body = ref.kind == RefKind.CALLS.value or ref.alias == MIXIN
    name = n.qualified_name if n.kind in CONTAINER_KINDS and in_body else ""
    if not name and n.kind != "module":
        name = n.qualified_name.rsplit(".", 1)[0] if "." in n.qualified_name else ""
    parts = name.split(".") if name else []
    return [".".join(parts[:i]) for i in range(len(parts), -1, -1)]


def lexical(
    n: Node, ref: Ref, qualifier: str, last: str, cands: list[StoredNode], builds: bool = False
) -> list[StoredNode]:
    """The candidates a Ruby constant reference means by the lexical lookup: the definitions of the
    path as written in the innermost enclosing scope holding any; [] when none does or `ref`
    names no constant. `builds`: `qualifier.last` is the class a `.new` builds. (A class
    reopened in several files is several nodes here, and one class to the resolver: parts.py.)"""
    if builds and last == "new":  # `klass.new`: a class no constant names (constructs)
        return []
    if builds:
        path = f"{qualifier}.{last}" if qualifier else last
    else:
        path = constant_path(ref, qualifier, last)
    if not path:
        return []
    # `Base.settings` (a call on a constant): the method `settings` of the constant found.
    member = f".{last}" if ref.kind == RefKind.CALLS.value and not builds else ""
    for scope in scopes(n, ref):
        meant = f"{scope}.{path}{member}" if scope else f"{path}{member}"
        found = [c for c in cands if c.node.qualified_name.replace("::", ".") == meant]
        if found:
            return found
    return []


__all__ = ["constant_path", "constructs", "lexical", "scopes"]
