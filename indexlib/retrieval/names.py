"""Qualified names across languages: one separator, the last part, qualifiers matched against paths.

Owns: `dotted` (`std::fs::read`, `obj->next`, `Klass#meth`, `Slim\\App` as dotted names),
`last_name_part`, and `qualified_by_path` (whether a qualifier names a container or a folder). Pure
string functions: no engine, no I/O.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from itertools import pairwise

from indexlib.analyzer import split_identifier
from indexlib.records import NAME_SEPARATOR

MIN_FOLDER_SUFFIX = 4  # a qualifier may end in a folder name this long (`grep_searcher`, `searcher/`)

# Go's method expression `(*Context).Next` (or `(Context).Next`) names the method `Context.Next`.
_GO_METHOD_EXPRESSION = re.compile(r"^\(\*?([\w.]+)\)(?=\.)")
# `View.prototype.render`: JavaScript's spelling of the method `View.render` (not a lone `Foo.prototype`).
_PROTOTYPE = re.compile(r"(?<=[\w$])\.prototype(?=\.[\w$#])")


def dotted(name: str) -> str:
    """A qualified name with every language's separator as a dot, without a leading one; a
    JavaScript method named through its constructor's prototype (`View.prototype.render`, as the
    code assigning it and its docs write it) is the method the index names (`View.render`).

    >>> [dotted(n) for n in ("std::fs::read", "obj->next", "Klass#meth", "\\Slim\\App", "(*Context).Next")]
    ['std.fs.read', 'obj.next', 'Klass.meth', 'Slim.App', 'Context.Next']
    >>> dotted("View.prototype.render"), dotted("Foo.prototype")
    ('View.render', 'Foo.prototype')
    """
    name = _PROTOTYPE.sub("", _GO_METHOD_EXPRESSION.sub(r"\1", name))
    return NAME_SEPARATOR.sub(".", name).lstrip(".")


def last_name_part(name: str) -> str:
    """The last part of a qualified name, whatever the language's separator.

    >>> [last_name_part(n) for n in ("Server.Handle", "std::fs::read", "obj->next", "Klass#meth", "Slim\\App")]
    ['Handle', 'read', 'next', 'meth', 'App']
    """
    return dotted(name).split(".")[-1]


def qualified_by_path(path: str, qualified_name: str, ident: str) -> bool:
    """True when every qualifier of `ident` (`clap_builder::builder` of `clap_builder::builder::Command`,
    `helpers` of `helpers.get_root_path`) is a container in `qualified_name` or a folder or file name
    of `path`.
    A Rust or C++ path names the crate and modules a type lives in, a Python dotted name its module,
    and a re-export (`pub use`, `from .x import y`) lets it skip modules, while the node's qualified
    name holds its containers only. A workspace crate is often its project's name and its folder's
    (`grep_searcher` in `crates/searcher/`), and a facade crate re-exports it as a module
    (`grep::searcher`), so a qualifier, or one joined with the qualifiers before it that matched
    nothing, may end in a folder name of at least MIN_FOLDER_SUFFIX characters, starting at a word a
    `_` or `-` begins or at a qualifier (`grep_searcher`, `grep::searcher`), never inside a
    camelCase word (`HTTPAdapter::send` is not a `send` under `adapter/`). A Go file at the
    root of the tree is in the package its module is named after (`gin.Context` in `context.go`):
    one lower-case qualifier, a Go package's spelling, names it; a Go method is named only with its
    type among the qualifiers (`logrus.Entry.WithField`), never by its package alone."""
    qualifiers = [q for q in dotted(ident).split(".")[:-1] if q]
    if not qualifiers:
        return False
    containers = {"".join(split_identifier(x)) for x in dotted(qualified_name).lower().split(".")[:-1]}
    if path.endswith(".go") and not containers <= {"".join(split_identifier(q)) for q in qualifiers}:
        return False  # `logrus.WithField` is no method `Entry.WithField`: Go reaches one through its type
    if "/" not in path and path.endswith(".go") and len(qualifiers) == 1 and qualifiers[0].islower():
        return True  # `gin.Context`: a root Go file's package is the module's, which no folder names
    folders = {"".join(split_identifier(part.rsplit(".", 1)[0])) for part in path.lower().split("/")}
    pending: list[str] = []  # the words of the qualifiers so far that matched nothing
    for q in qualifiers:
        words = pending + _crate_words(q)
        joined = "".join(words)
        known = joined in ("crate", "self", "super") or joined in containers or joined in folders
        tails = ("".join(words[i:]) for i in range(1, len(words)))
        if known or any(len(t) >= MIN_FOLDER_SUFFIX and t in folders for t in tails):
            pending = []
        else:
            pending = words
    return not pending


def _crate_words(qualifier: str) -> list[str]:
    """A qualifier's words where a folder name may start: after a `_` or `-` (`grep_searcher` ->
    grep, searcher), never inside a camelCase or PascalCase run, which names one thing: `HTTPAdapter`
    is a type, not a project prefix before a folder `adapter/`.

    >>> _crate_words("grep_searcher"), _crate_words("HTTPAdapter"), _crate_words("clap-builder")
    (['grep', 'searcher'], ['httpadapter'], ['clap', 'builder'])
    """
    return ["".join(split_identifier(w)) for w in re.split(r"[_-]+", qualifier) if w]


_SEPARATOR_SPELLINGS = r"(?:\.|::|->|#|\\)"


_FRAGMENT_TOKEN = re.compile(r"[\w$]+|[^\w\s]")


def fragment_pattern(text: str) -> re.Pattern[str] | None:
    """A code fragment as code may space it: its tokens in order, any spacing around punctuation, some
    between two words, no identifier character around it; None for fewer than two tokens. Smart
    case, as the definition match: typed in lower case, any case.

    >>> bool(fragment_pattern("cacheCleared := false").search("\\tcacheCleared:=false\\n"))
    True
    >>> bool(fragment_pattern("return &t, nil").search("return &tt, nil"))
    False
    """
    tokens = _FRAGMENT_TOKEN.findall(text)
    if len(tokens) < 2:
        return None
    body = re.escape(tokens[0])
    for prev, tok in pairwise(tokens):
        words = _IDENTIFIER_CHAR.match(prev[-1]) and _IDENTIFIER_CHAR.match(tok[0])
        body += (r"\s+" if words else r"\s*") + re.escape(tok)
    head = r"(?<![\w$])" if _IDENTIFIER_CHAR.match(tokens[0][0]) else ""
    tail = r"(?![\w$])" if _IDENTIFIER_CHAR.match(tokens[-1][-1]) else ""
    flags = re.IGNORECASE if text == text.lower() else 0
    return re.compile(head + body + tail, flags)


_LONG_FLAG_TERM = re.compile(r"--([A-Za-z][\w-]*[\w])(?:=.*)?")


def literal_pattern(text: str, terms: Sequence[str], *, fragment: bool) -> re.Pattern[str] | None:
    """What a node's text must hold to count as holding the query as typed: a code fragment's tokens
    (`fragment`: a signature query without phrases), or, for a query of long flags alone, where code
    names them. A sentence naming a flag (a commit title's "under --skip-magic-trailing-comma") asks
    about the behaviour, which the docs name too: none."""
    if fragment:
        return fragment_pattern(text)
    if terms and all(t.startswith("--") for t in terms):
        return flag_literal_pattern(terms)
    return None


def flag_literal_pattern(terms: Sequence[str]) -> re.Pattern[str] | None:
    """Where code names a query's long flags (`--paging`): the flag as written anywhere in a node's
    text (`add_argument("--paging")`, `names = {"-p", "--paging"}`, `.option('-p, --paging <mode>')`,
    a help text or comment), or its bare name given as a `long` (clap's `.long("paging")`,
    `#[arg(long = "paging")]`). The flag's words alone rank a long builder function low, and a bare
    `"paging"` elsewhere is as often a feature or a key as the flag. None when no term is a long flag.

    >>> bool(flag_literal_pattern(["--paging"]).search('Arg::new("paging").long("paging")'))
    True
    >>> bool(flag_literal_pattern(["--paging"]).search('#[cfg(feature = "paging")]'))
    False
    >>> bool(flag_literal_pattern(["--paging"]).search('"--paging-mode"'))
    False
    """
    names = sorted({m.group(1) for t in terms if (m := _LONG_FLAG_TERM.fullmatch(t))})
    if not names:
        return None
    alt = "|".join(map(re.escape, names))
    return re.compile(rf"(?<![\w-])--(?:{alt})(?![\w-])|\blong\s*(?:\(\s*|=\s*)([\"'])(?:{alt})\1")


_IDENTIFIER_CHAR = re.compile(r"[\w$]")


def spelling_pattern(name: str) -> re.Pattern[str] | None:
    """A qualified name as code spells it, with any language's separator between its parts and no
    identifier character around it (`module.exports` in `module.exports = x`, not `amodule.exportsX`);
    None for a name of one part. Smart case, as the definition match: typed in lower case, any case.

    >>> bool(spelling_pattern("res.set").search("res.set = res.header = function"))
    True
    >>> bool(spelling_pattern("std::fs::read").search("let s = std.fs.readable"))
    False
    """
    parts = [p for p in dotted(name).split(".") if p]
    if len(parts) < 2:
        return None
    flags = re.IGNORECASE if name == name.lower() else 0
    body = _SEPARATOR_SPELLINGS.join(re.escape(p) for p in parts)
    return re.compile(rf"(?<![\w$]){body}(?![\w$])", flags)
