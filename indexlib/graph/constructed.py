"""A constructor's callers: the calls that make its class (`new Gadget(1)`, `Widget("a")`, Swift's
`SplitArguments(arguments: a)`), as many of them as its parameters admit.

Owns: whether a method is its class's constructor (a member named as its class in Java, C#, C++ and
PHP's old style; Swift's `init`, Python's `__init__`, JavaScript's and TypeScript's `constructor`,
PHP's `__construct`, Ruby's `initialize` and a Ruby class's own `def self.new`), the class it makes
(every part of it), and whether a call's arguments fit it.

Why: a call that makes an object names the class, and the resolver links it to the class, so the
constructor itself had no callers: on MediatR `qry related Mediator.Mediator --callers` answered
"no callers" beside the tests' `new Mediator(serviceProvider)`, and on swift-argument-parser
`qry related SplitArguments.init --callers` missed `CommandParser`'s `SplitArguments(arguments:
arguments)`. Does not own: the call's resolution to the class (resolve.py), which stays as it is.
"""

from __future__ import annotations

from indexlib.graph.callarity import (
    admits_labels,
    declared_signature,
    parameter_range,
    parameters,
    swift_parameters,
)
from indexlib.graph.parts import TypeParts
from indexlib.records import CONTAINER_KINDS, Node, Ref, is_constructor
from indexlib.snapshot import Snapshot

__all__ = ["admits", "made_class"]

# The name a language gives every constructor (beside Java's, C#'s and C++'s, named as the class).
_INITIALIZERS = {
    "swift": "init",
    "python": "__init__",
    "javascript": "constructor",
    "jsx": "constructor",
    "typescript": "constructor",
    "tsx": "constructor",
    "php": "__construct",
    "ruby": "initialize",
}
_RECEIVERS = frozenset({"self", "cls"})  # a Python method's first parameter, which no call writes


def made_class(snap: Snapshot, parts: TypeParts, n: Node) -> tuple[str, frozenset[int]]:
    """(the class's name, every part of it) when `n` is its class's constructor; ("", empty) else."""
    if n.kind != "method" or not n.parent_uid:
        return "", frozenset()
    holder = snap.node(n.parent_uid)
    if n.language == "ruby" and n.name == "new" and holder is not None:
        # A class's own `def self.new`: `Faraday.new(..)` names the class, and resolves to this
        # method where it is the class's (rubysides.py `scoped`), never by being its class's part.
        return holder.node.name, frozenset()
    if not is_constructor(n.qualified_name) and _INITIALIZERS.get(n.language) != n.name:
        return "", frozenset()
    if holder is None or holder.node.kind not in CONTAINER_KINDS:
        return "", frozenset()
    return holder.node.name, parts.parts(parts.home(holder.node))


def admits(n: Node, ref: Ref) -> bool:
    """Whether the arguments a call of `n`'s class writes (their count, Swift's labels) fit the
    constructor `n`'s parameters; True when the call's or the declaration's are not known."""
    if ref.args < 0:
        return True
    signature = declared_signature(n)
    if n.language == "swift" and ref.labels:
        params = swift_parameters(signature)
        return params is None or admits_labels(params, ref.labels)
    got = parameter_range(signature)
    if got is None:
        return True
    fewest, most = got
    written = parameters(signature) or []
    if n.language == "python" and written and written[0].split(":")[0].strip() in _RECEIVERS:
        fewest, most = fewest - 1, None if most is None else most - 1
    return fewest <= ref.args and (most is None or ref.args <= most)
