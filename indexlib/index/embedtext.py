"""What text of a node is embedded: its meaning first, in words, cut to fit the model's tokens.

Owns: `embedding_text`, the one function the vector stage and the benchmarks embed a node through
(the embedding cache keys vectors by a hash of this text, so changing it re-embeds every node), and
`worth_embedding`, which keeps trivial nodes out of the model altogether.
Does not own: the model (`indexlib/engines/embed.py`) or the vector stage (`indexlib/index/build/vectors.py`).
"""

from __future__ import annotations

import re

from indexlib.analyzer import split_identifier
from indexlib.records import VALUE_KINDS, Node, NodeKind

__all__ = ["embedding_text", "worth_embedding"]

#: A line of a file's import block in the indexed languages: an import, include, use or package
#: line, a name or quoted path continuing a bracketed import list, a closing bracket, a comment, a
#: `"use strict"` directive, or the opening of a module that only qualifies names (Ruby `module Rack`
#: around a class, closed by `end`, which the bare-name line matches).
_IMPORT_BLOCK_LINE = re.compile(
    r"""\s*(?:
        (?:from|import|export|package|use|using|require|extern\s+crate|mod|\#\s*include)\b.*
      | module\s+[\w:.]+\s*\{?
      | (?:const|let|var)\s+[\w{}\s,]+=\s*require\(.*
      | [\w.*]+(?:\s+as\s+\w+)?\s*,?
      | ["'][^"']*["']\s*[,;]?
      | [)}\]]+\s*[;,]?
      | (?:\#|//|/\*|\*).*
    )\s*""",
    re.VERBOSE,
)

#: Keywords of the indexed languages that say nothing about what code does: dropped from the body's
#: words so the model's 128 tokens go to names, calls and literals.
_NOISE_WORDS = frozenset(
    [
        "def",
        "fn",
        "func",
        "function",
        "return",
        "self",
        "this",
        "let",
        "const",
        "var",
        "val",
        "pub",
        "public",
        "private",
        "protected",
        "static",
        "final",
        "void",
        "async",
        "await",
        "new",
        "mut",
        "impl",
        "elif",
        "else",
        "if",
        "for",
        "while",
        "in",
        "of",
        "do",
        "end",
        "begin",
        "then",
    ]
)


def embedding_text(
    name: str,
    qualified_name: str,
    signature: str,
    doc: str,
    text: str,
    *,
    max_chars: int = 1500,
    brief: bool = False,
) -> str:
    """The text embedded for a node: what carries meaning first, in words, cut to `max_chars`.

    The model reads words, not code, and only its first 128 tokens, while code spends a token on each
    bracket, colon and dot. So the text is: the qualified name split into words (`billing.
    retry_failed_charge` -> `billing retry failed charge`), the doc comment as written, then the body
    (signature included) as the analyzer's words without punctuation or bare keywords; the doc is not
    repeated from the body. On the dev set this beats the raw source at the same token limit (see
    docs/benchmarks.md, embedding text). `brief` keeps the name, doc and signature and drops the
    body: for test code, whose name says what it checks and whose body is set-up and asserts.

    >>> embedding_text("retryCharge", "billing.retryCharge", "", "Retry it.", "def retryCharge(x): pass")
    'billing retry charge\\nRetry it.\\nretry charge x pass'
    """
    qual_words = _words(qualified_name) or _words(name)
    parts: list[str] = [qual_words] if qual_words else []
    doc = doc.strip()
    body = text
    if doc:
        parts.append(doc)
        body = body.replace(doc, " ", 1)
    if brief:
        body = signature
    elif signature.strip() and signature.strip() not in body:
        body = signature + "\n" + body
    words = [w for w in split_identifier(body[: max_chars * 3]) if w not in _NOISE_WORDS]
    if words:
        parts.append(" ".join(words))
    return "\n".join(parts)[:max_chars]


def _words(identifier: str) -> str:
    """`billing.retryFailedCharge` -> `billing retry failed charge`: the analyzer's split, so the
    model sees the same words the lexical index does."""
    return " ".join(split_identifier(identifier))


def worth_embedding(node: Node) -> bool:
    """Whether a node gets a vector of its own; trivial ones are found by name and words alone.

    Trivial: a module remainder that is nothing but its file's import block (every file has one, and
    its words are other modules' names), and a one-line constant without a doc comment (`DEFAULT_PORT
    = 8080`, a Rust enum variant `Batch`, also under an attribute line `#[default]`: its name says
    all a vector would). They are most of a repository's shortest texts, cost a model call each, and
    as nearest neighbours of a question they crowd out the code that answers it; lexical, symbol and
    graph streams still find them (docs/benchmarks.md, issue 11). So is a method that a one-line
    statement only names, without a doc comment (Ruby `attr_reader :env, :params`, `alias to url`).
    """
    if node.kind == NodeKind.MODULE:
        return not all(_IMPORT_BLOCK_LINE.fullmatch(line) for line in node.text.splitlines() if line.strip())
    if node.kind in VALUE_KINDS:
        if node.doc.strip():
            return True
        lines = node.text.splitlines()
        return sum(1 for line in lines if line.strip() and not _ATTRIBUTE_LINE.fullmatch(line)) > 1
    if node.kind == NodeKind.METHOD and node.language == "ruby" and node.start_line == node.end_line:
        return bool(node.doc.strip()) or not _NAMING_STATEMENT.match(node.signature)
    return True


#: A statement that defines methods by naming them (Ruby accessors and aliases).
_NAMING_STATEMENT = re.compile(r"(?:attr(?:_reader|_writer|_accessor)?|alias(?:_method)?)[\s(]")

#: A line holding only an attribute (Rust and PHP `#[...]`), which says how a definition is built or
#: checked, not what it is.
_ATTRIBUTE_LINE = re.compile(r"\s*#\[.*\]\s*")
