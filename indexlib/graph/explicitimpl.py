"""C#'s explicit interface implementations (`TypeMap IGlobalConfiguration.FindTypeMapFor(..) => ..`).

Owns: telling such a member apart by its declaration (the interface's name written before its own),
and what that means for a call: no call names one. C# reaches an explicit implementation only
through a value of the interface's type (`((IGlobalConfiguration)c).FindTypeMapFor(..)`,
`config.Internal().FindTypeMapFor(..)`), and such a call names the interface's method, which the
implementation is linked to by `implements`; a bare `FindTypeMapFor(..)` in the class, `this.X()`
or a call on a value of the class's type is one of the class's other members or an extension method.

Why: on AutoMapper, whose `MapperConfiguration` implements 30 members of `IGlobalConfiguration`
explicitly and forwards each to a private overload of its name, `TypeMap
IGlobalConfiguration.FindTypeMapFor(TypePair p) => FindTypeMapFor(p);` was read as calling itself
or the private one (ambiguous), and a test's `config.ResolveTypeMap(..)` on a `MapperConfiguration`,
which calls an extension method of the tests, linked certainly to the explicit implementation.
Does not own: which of the remaining candidates a call means (resolve.py).
"""

from __future__ import annotations

import re

from indexlib.engines.lexical import StoredNode
from indexlib.records import CONTAINER_KINDS, Node

# What a declaration's head ends with when it implements a member explicitly: the interface's name
# (generic arguments, a namespace allowed) then `.` and the member's own name, its type parameters
# after it (`IGlobalConfiguration.GetExecutionPlan<TSource, TDestination>`).
_QUALIFIED_TAIL = r"[\w>]\s*\.\s*{name}\s*(?:<[^()]*>)?\s*$"
# Where a declaration's head ends: its parameters, `=>`, a body or accessors, a field's value.
_HEAD_END = re.compile(r"[(={;]")
_TYPE_ARGUMENTS = re.compile(r"<[^<>]*>")  # innermost first: `IList<List<T>>` takes two rounds


def is_explicit(n: Node) -> bool:
    """Whether `n` is a C# member implementing an interface's member explicitly: the head of its
    declaration (before its parameters, `=>`, body or value) names it `Interface.Name`, a method
    (`TypeMap IGlobalConfiguration.ResolveTypeMap(TypePair p)`) or a property (`Factory
    IInternalRuntimeMapper.ServiceCtor => _serviceCtor;`).

    A constructor, an ordinary member or an operator (`operator +`) is none: its name stands alone.
    """
    if n.language != "csharp" or n.kind in CONTAINER_KINDS:
        return False
    head = _HEAD_END.split(n.signature, maxsplit=1)[0]
    return re.search(_QUALIFIED_TAIL.format(name=re.escape(n.name)), head) is not None


def callable_by_name(cands: list[StoredNode]) -> list[StoredNode]:
    """The candidates a call written with a name may mean: a C# explicit implementation left out."""
    return [c for c in cands if not is_explicit(c.node)]


def interface_named(n: Node) -> str:
    """The interface an explicit implementation names, without its namespace or type arguments
    (`IEnumerable` of `IEnumerator System.Collections.IEnumerable.GetEnumerator()`); '' for any
    other member."""
    if not is_explicit(n):
        return ""
    head = _HEAD_END.split(n.signature, maxsplit=1)[0]
    qualified = head[: head.rindex(n.name)].rstrip().removesuffix(".")
    bare = qualified
    while _TYPE_ARGUMENTS.search(bare):
        bare = _TYPE_ARGUMENTS.sub("", bare)
    return re.split(r"[\s.]", bare.strip())[-1]


def may_implement(member: Node, siblings: list[Node], interface: str) -> bool:
    """Whether C# `member` may implement the same-named member of the type named `interface`, given
    its container's members of its name (`siblings`, of its shape): an explicit implementation only
    the interface it names, and another member none that a sibling implements explicitly (C# calls
    the explicit one through the interface). Any other language's member may."""
    if member.language != "csharp":
        return True
    named = interface_named(member)
    if named:
        return named == interface
    return not any(interface_named(s) == interface for s in siblings if s.uid != member.uid)
