"""Rust `impl` blocks: the type their members are qualified by.

Owns: the name an `impl` block's methods and associated items are qualified by, and whether the
block is a blanket implementation (`impl<M: Matcher> Matcher for &M`). Does not own: the query
capturing `impl` blocks (specs.py), nesting (items.py), the `implements` references (extract.py).

Why: a blanket implementation's type is one of its own type parameters, a name nothing else
declares; its methods were `M.find_at` and `S.matched` (ripgrep). They implement the trait for any
type it bounds, so they are the trait's (`Matcher.find_at`), as a Kotlin extension on a type
parameter is its bound's.
"""

from __future__ import annotations

from indexlib.engines.treesitter import Node
from indexlib.index.parsing.text import Source, split_name

_INDIRECT = ("reference_type", "pointer_type")
# A type written by its shape, not a name (`impl IntoResponse for ()`, `for (StatusCode, R)`): its
# methods are qualified by the primitive's name as rustdoc names it (`unit.into_response`), not left
# without a container; an array with no length is a slice (`&'static [u8]`).
_SHAPES = {"unit_type": "unit", "tuple_type": "tuple", "function_type": "fn", "never_type": "never"}


def self_type(src: Source, node: Node) -> list[str]:
    """The last component of the type an `impl` block is for (`impl Sink for &'a mut S` -> S: the
    reference's sigils, lifetime and `mut` are not part of the name); for a blanket implementation,
    the trait's name."""
    ty = _written_type(node)
    if ty is None:
        return []
    trait = node.child_by_field_name("trait")
    if trait is not None and _is_parameter(src, node, ty):
        return split_name(src(trait))[-1:]
    if ty.type == "array_type":
        return ["array" if ty.child_by_field_name("length") is not None else "slice"]
    if ty.type in _SHAPES:
        return [_SHAPES[ty.type]]
    while ty.type == "bounded_type" and ty.named_children:  # `dyn Error + Send`: its first bound
        ty = ty.named_children[0]
    if ty.type == "dynamic_type":  # `impl Tr for dyn Error`: the trait object's trait
        ty = ty.child_by_field_name("trait") or ty
    return split_name(src(ty))[-1:]


def blanket(src: Source, node: Node) -> bool:
    """Whether `node` implements a trait for one of its own type parameters (`impl<T: Tr> Tr for T`)."""
    ty = _written_type(node)
    return ty is not None and node.child_by_field_name("trait") is not None and _is_parameter(src, node, ty)


def _written_type(node: Node) -> Node | None:
    ty = node.child_by_field_name("type")
    while ty is not None and ty.type in _INDIRECT:
        ty = ty.child_by_field_name("type")
    return ty


def _is_parameter(src: Source, node: Node, ty: Node) -> bool:
    if ty.type != "type_identifier":
        return False
    parameters = node.child_by_field_name("type_parameters")
    for parameter in parameters.named_children if parameters is not None else []:
        name = parameter.child_by_field_name("name")
        if parameter.type == "type_parameter" and name is not None and src(name) == src(ty):
            return True
    return False
