"""Lua definitions' names from table keys: `t["close"] = function`, `{ ui = { open = function } }`,
`{ ["table"] = function(t, stk) }`.

Owns: the name a table key spells, and a table field's name qualified by the tables holding it.
Why a module: Lua names a function by where it is stored, and a key may be written as an identifier
or as a string (lume keys its serializers by type name: `["table"]`, `["number"]`), while a string
that is no name (a busted test title) names nothing.
"""

from __future__ import annotations

import re

from indexlib.engines.treesitter import Node
from indexlib.index.parsing.text import Source, split_name

__all__ = ["key_name", "keyed_name", "table_path"]


def keyed_name(src: Source, target: Node) -> list[str]:
    """`t["close"] = function` defines t.close, as `t.close = function` does; a key that is no name
    (`tests["parses numbers"]`, `t[i]`) names nothing, where the table's own name (`t`) was taken
    and every such function became one more definition of the table."""
    table, key = target.child_by_field_name("table"), target.child_by_field_name("field")
    if table is None or table.type not in _TABLES:
        return []
    word = key_name(src, key)
    return [*split_name(src(table)), word] if word else []


def key_name(src: Source, key: Node | None) -> str:
    """The name a Lua table key spells: an identifier (`open = ...`), or a string holding a name
    (`["table"] = ...`, `t["close"]`); "" for any other key (`["parses numbers"]`, `[i]`)."""
    if key is not None and key.type == "identifier":
        return src(key)
    if key is None or key.type != "string":
        return ""
    content = next((c for c in key.named_children if c.type == "string_content"), None)
    word = src(content) if content is not None else ""
    return word if _NAME.fullmatch(word) else ""


_TABLES = frozenset({"identifier", "dot_index_expression"})
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def table_path(src: Source, field: Node, max_depth: int) -> list[str]:
    """A Lua table field's name qualified by the fields and the variable holding its tables:
    `local M = { ui = { open = function() end } }` -> M, ui, open (the name alone when the
    outermost table is no variable's value; at most `max_depth` tables out). A key may be a string
    holding a name (`{ ["table"] = function(t) }`); a key that is no name defines nothing."""
    name = key_name(src, field.child_by_field_name("name"))
    if not name:
        return []
    names = [name]
    table = field.parent
    for _depth in range(max_depth):
        holder = table.parent if table is not None else None
        if holder is None:
            break
        if holder.type == "field" and (outer := key_name(src, holder.child_by_field_name("name"))):
            names.insert(0, outer)
            table = holder.parent
            continue
        statement = holder.parent if holder.type == "expression_list" else None
        variables = (
            statement.named_child(0) if statement is not None and statement.named_child_count else None
        )
        target = variables.child_by_field_name("name") if variables is not None else None
        if target is not None and statement is not None and statement.type == "assignment_statement":
            names[:0] = split_name(src(target))
        break
    return names
