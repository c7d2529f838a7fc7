"""Views of a parsed file the parsing tests compare against: definitions by qualified name."""

from __future__ import annotations

from indexlib.records import Node, ParsedFile


def table(parsed: ParsedFile) -> dict[str, tuple[str, int, int, str]]:
    """qualified name -> (kind, start line, end line, parent's qualified name), part 0 definitions."""
    names = {node.uid: node.qualified_name for node in parsed.nodes}
    return {
        n.qualified_name: (n.kind, n.start_line, n.end_line, names.get(n.parent_uid, ""))
        for n in parsed.nodes
        if n.kind != "module" and n.part == 0
    }


def node(parsed: ParsedFile, qualified: str) -> Node:
    """The one part-0 node of that qualified name."""
    (found,) = [n for n in parsed.nodes if n.qualified_name == qualified and n.part == 0]
    return found


def kinds(parsed: ParsedFile) -> list[tuple[str, str]]:
    """(kind, qualified name) of every definition, in source order."""
    return [(n.kind, n.qualified_name) for n in parsed.nodes if n.kind != "module"]


def one(parsed: ParsedFile, kind: str, qualified: str) -> Node:
    """The one part-0 node of that kind and qualified name."""
    found = [n for n in parsed.nodes if (n.kind, n.qualified_name, n.part) == (kind, qualified, 0)]
    assert len(found) == 1, f"{kind} {qualified!r}: {kinds(parsed)}"
    return found[0]


def text_node(text: str, *, language: str, kind: str = "function", qualified: str = "f") -> Node:
    """A node holding `text` alone, for the tests of what a node's own text declares."""
    return Node(
        uid=1,
        content_hash=0,
        path="x",
        language=language,
        kind=kind,
        name=qualified.rsplit(".", 1)[-1],
        qualified_name=qualified,
        start_line=1,
        end_line=text.count("\n") + 1,
        start_byte=0,
        end_byte=0,
        parent_uid=0,
        text=text,
    )
