"""Node identity: the uid and content hash every stream and segment agrees on.

Owns: the one formula for a node's uid and the one for its content hash. It does not decide what a
node is (extract.py, markdown.py, chunks.py do).

The uid hashes where the node is and what it is called, never its text, so editing a function's
body keeps its uid (search results, vector keys and graph edges stay attached) and changes only its
content hash (which tells the build the node must be re-embedded).
"""

from __future__ import annotations

import xxhash


def node_uid(path: str, qualified_name: str, kind: str, ordinal: int, part: int) -> int:
    """xxh3_64 of the UTF-8 of (path, qualified name, kind, overload ordinal, window part), NUL-separated.

    `ordinal` tells apart same-named definitions of one file (Java overloads, a TS overload list,
    two `impl` blocks with the same method) in source order; `part` numbers the windows of a node
    too large to keep whole.
    """
    key = f"{path}\0{qualified_name}\0{kind}\0{ordinal}\0{part}"
    return xxhash.xxh3_64_intdigest(key.encode("utf-8", "surrogatepass"))


def content_hash(text: str) -> int:
    """xxh3_64 of the node text's UTF-8 bytes."""
    return xxhash.xxh3_64_intdigest(text.encode("utf-8", "surrogatepass"))
