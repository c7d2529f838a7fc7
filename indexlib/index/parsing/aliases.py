"""Definitions one statement gives several names: a node per name, and the references of each.

Owns: turning an item with aliases (`a.x = a.y = function ...`, Go `X, Y int`; items.py finds them)
into one item per name, and giving every alias the references its original owns.
Does not own: finding the names (items.py, jsdefs.py) or owning references (extract.py).

Why a node per name rather than one node listing the others: each name is written, called and asked
for on its own (`res.set(...)`, `qry related res.header`), and a symbol lookup, a call's resolution
and `qry related` all match a node's own name. The price is the shared text stored once per name.
"""

from __future__ import annotations

import msgspec

from indexlib.index.parsing.items import Item, classify
from indexlib.index.parsing.text import Source
from indexlib.records import Ref


def with_aliases(src: Source, defs: list[Item], language: str) -> list[Item]:
    """`defs` with, after each item that has aliases, one item per alias: the same span, body, doc
    and nesting under another name, classified as the item was (`res.header` a method of `res`); its
    node is the syntax defining that name (`res.header = function header()`), where its signature
    starts."""
    if not any(item.aliases for item in defs):
        return defs
    out: list[Item] = []
    for item in defs:
        out.append(item)
        for names, node in item.aliases:
            alias = Item(
                node=node,
                capture=item.capture,
                start=item.start,
                end=item.end,
                names=list(names),
                is_scope=False,
                outer=item.outer,
                body=item.body,
                alias_of=item,
            )
            alias.parent = item.parent
            classify(src, alias, language)
            out.append(alias)
    return out


def alias_refs(
    refs: list[Ref], defs: list[Item], windows: dict[int, tuple[list[int], list[int]]]
) -> list[Ref]:
    """`refs` plus, for every alias, a copy of each reference its original owns (window by window
    when the definition is split into windows): what the definition calls, each of its names calls."""
    copies: dict[int, list[int]] = {}
    for item in defs:
        original = item.alias_of
        if original is None:
            continue
        mine = windows.get(original.uid, ([], [original.uid]))[1]
        theirs = windows.get(item.uid, ([], [item.uid]))[1]
        for window, copy in zip(mine, theirs, strict=False):
            copies.setdefault(window, []).append(copy)
    if not copies:
        return refs
    out = list(refs)
    for ref in refs:
        for uid in copies.get(ref.src_uid, ()):
            out.append(msgspec.structs.replace(ref, src_uid=uid))
    out.sort(key=lambda ref: (ref.line, ref.kind, ref.target))
    return out
