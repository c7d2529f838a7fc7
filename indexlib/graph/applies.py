"""A Scala call of an `object` is a call of its `apply`: `os.move(a, b)` with `object move { def
apply(from: Path, to: Path) }` runs `move.apply`, as `Config(..)` runs `object Config`'s `apply`.

Owns: turning a call's resolved `object` into the `apply` methods it declares (those admitting the
arguments written), and, the other way, which name a call of an `apply` is written with (its
object's), so callers are found from either end.
Why: the resolver names what the call spells, the object; os-lib's API is objects with `apply`s
(`os.move`, `os.read`, `os.list`), and `qry related move.apply --callers` listed only the two
calls inside `move` itself that spell `move(..)`... through the enclosing object, not the tests'
and the library's own `os.move(from, dest)`.
Does not own: resolving the call to the object (resolve.py) or a class's constructor (`new
Foo(..)`, a case class's `Foo(..)` names the class, which declares no `apply`).
"""

from __future__ import annotations

import re

from indexlib.engines.lexical import StoredNode
from indexlib.graph.callarity import of_call_arity
from indexlib.records import UNIFORM_ACCESS, Node, Ref, RefKind
from indexlib.snapshot import Snapshot

__all__ = ["applied", "object_of_apply"]

APPLY = "apply"
# A Scala `object` (also `case object`, `private object`), not a class or trait of the name.
_OBJECT = re.compile(r"^(?:[a-z]+(?:\[[^\]]*\])?\s+)*object\b")
# Most members of one object read to find its `apply`s.
MAX_MEMBERS = 500


def _is_object(n: Node) -> bool:
    return n.language == "scala" and bool(_OBJECT.match(n.signature))


def _applies(snap: Snapshot, uid: int) -> list[StoredNode]:
    return [
        m
        for m in snap.lookup("parent", f"{uid:016x}", limit=MAX_MEMBERS)
        if m.node.name == APPLY and m.node.kind == "method" and m.node.part == 0
    ]


def applied(
    snap: Snapshot, src: Node, ref: Ref, targets: list[int], ambiguous: bool
) -> tuple[list[int], bool]:
    """`targets` of a Scala call with each `object` among them that declares `apply` replaced by
    those of its `apply`s admitting the arguments written, when the parser counted them (all of
    them when none does: ambiguous when more than one is left). A name read without parentheses
    (`UNIFORM_ACCESS`: the object as a value) and any other language are left as they are."""
    if src.language != "scala" or ref.kind != RefKind.CALLS or ref.alias == UNIFORM_ACCESS:
        return targets, ambiguous
    out: list[int] = []
    for t in targets:
        stored = snap.node(t)
        methods = _applies(snap, t) if stored is not None and _is_object(stored.node) else []
        if not methods:
            out.append(t)
            continue
        chosen = of_call_arity(methods, ref.args, ref.labels) if ref.args >= 0 else methods
        ambiguous = ambiguous or len(chosen) > 1
        out.extend(m.node.uid for m in chosen if m.node.uid not in out)
    return out, ambiguous


def object_of_apply(snap: Snapshot, n: Node) -> str:
    """The name a call of `n` is written with when it is a Scala object's `apply` (`move` for
    `move.apply`); "" otherwise."""
    if n.language != "scala" or n.name != APPLY or not n.parent_uid:
        return ""
    holder = snap.node(n.parent_uid)
    return holder.node.name if holder is not None and _is_object(holder.node) else ""
