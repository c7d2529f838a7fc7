"""The terms a node is indexed under, derived in pure Python (no `tantivy`): the lexical adapter's helpers.

Owns: the lower-cased qualified-name suffixes, name trigrams and joined names a symbol lookup
matches, the stem of an import target, the whole-node content text, the languages indexed as prose,
`StoredNode` (what a document stores), and `NodeTerms`, a node's analysed text. Does not own: building
documents, anything of Tantivy (lexical.py).
"""

from __future__ import annotations

import msgspec

from indexlib.analyzer import code_terms, split_identifier, trigrams
from indexlib.records import Node, Ref, without_companion

PROSE_LANGUAGES = frozenset({"markdown", "text"})
# Raw fields must stay under Tantivy's term length limit; texts are stored, not indexed, in raw fields.
MAX_RAW = 200


def uid_hex(uid: int) -> str:
    return f"{uid:016x}"


def qualified_suffixes(qualified_name: str, language: str = "") -> list[str]:
    """`pkg.Server.handle` -> [`pkg.server.handle`, `server.handle`, `handle`], lower-cased; a Kotlin
    companion's member also without `Companion` (`JsonReader.Options.of`, records.without_companion).

    Why: a developer types `Server.Handle` or `handle`, rarely the whole package path, and a Kotlin
    companion's member as the class's code calls it.
    """
    out: list[str] = []
    for name in dict.fromkeys((qualified_name, without_companion(qualified_name, language))):
        parts = [p for p in name.replace("::", ".").lower().split(".") if p]
        out.extend(s for s in (".".join(parts[i:])[:MAX_RAW] for i in range(len(parts))) if s not in out)
    return out


def trigram_terms(name: str) -> list[str]:
    """pg_trgm trigrams as whitespace-safe terms: padding spaces become `$` (`  j` -> `$$j`)."""
    return sorted(t.replace(" ", "$") for t in trigrams(name))


def joined_name(name: str) -> str:
    """The name with separators and case removed: `parse_config`, `ParseConfig` -> `parseconfig`."""
    return "".join(split_identifier(name)) or name.lower()


class NodeTerms(msgspec.Struct, array_like=True, frozen=True, gc=False):
    """A node's analysed text for the whitespace-tokenised fields, each a space-joined term list.

    Why a record: the Python analyzer is most of the cost of writing a segment, and it depends only on
    the node's text, so the parse stage computes it in its worker processes (on every core) and the
    write stage, which must run in one process, only adds the strings to Tantivy documents.
    """

    name: str
    qname: str
    path: str
    signature: str
    body: str
    content: str
    name_tri: str


def node_terms(node: Node) -> NodeTerms:
    """Analyse a node's name, qualified name, path, signature, body and whole text (`code_terms`).

    `content` is the node as one text: path words, qualified name, then its text (doc comment
    included). Each piece is analysed once: a newline always ends a token, so the terms of
    "path words\nqualified name\ntext" are the pieces' terms one after the other.
    """
    stem = node.path.rsplit("/", 1)[-1].rsplit(".", 1)[0]
    path_words = code_terms(node.path.replace("/", " "))
    qname = code_terms(node.qualified_name)
    body = code_terms(node.text)
    return NodeTerms(
        name=" ".join(code_terms(node.name)),
        qname=" ".join(qname),
        path=" ".join(path_words + code_terms(stem)),
        signature=" ".join(code_terms(node.signature)),
        body=" ".join(body),
        content=" ".join(path_words + qname + body),
        name_tri=" ".join(trigram_terms(node.name)),
    )


class StoredNode(msgspec.Struct, frozen=True, gc=False):
    """What a Tantivy document stores: the node and its outgoing references."""

    node: Node
    refs: list[Ref]


def module_stem(target: str) -> str:
    """The last component of an import target: `billing.retry` / `./retry.js` / `net/http` -> `retry`/`http`.

    Why: it is what a file's stem is, so "who imports this file" is one term lookup.
    """
    t = target.strip().strip("\"'<>").replace("\\", "/").replace("::", "/")
    last = t.rstrip("/").rsplit("/", 1)[-1]
    if "." in last and "/" in t:  # ./retry.js, pkg/x.h
        last = last.rsplit(".", 1)[0]
    elif "." in last:  # dotted module path
        last = last.rsplit(".", 1)[-1]
    return last.lower()


def last_component(target: str) -> str:
    """The name a reference target calls or extends, lowercased: `a.b.Run` -> `run`; a PHP name
    written fully qualified (`\\Exception`) is its name without the backslash, a C# type's without
    its arity (`Policy`1` -> `policy`)."""
    return target.replace("::", ".").rsplit(".", 1)[-1].lstrip("\\").split("`", 1)[0].lower()
