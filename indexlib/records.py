"""Typed records that cross module boundaries or touch disk.

Owns: the msgspec Structs and string enums every other module speaks (nodes, references, edges,
hits, skip reasons). Imports nothing internal, so any module may depend on it.
JSON output encodes these same Structs, so the API and `--json` share one schema.
"""

import re
from enum import StrEnum
from typing import Any

import msgspec


class NodeKind(StrEnum):
    """What a node is. Containers (class and friends) own members through `parent_uid`."""

    FUNCTION = "function"
    METHOD = "method"
    CLASS = "class"
    STRUCT = "struct"
    INTERFACE = "interface"
    ENUM = "enum"
    TRAIT = "trait"
    TYPE = "type"  # a type alias or other named type: `type X = ...` (TS, Go, Rust)
    CONSTANT = "constant"  # a module-level constant or variable: `DEFAULT = 5`, `const K = ...`
    FIELD = "field"  # a value member of a type: a Go struct field, a Kotlin, Swift or Scala property
    MODULE = "module"  # module-level remainder: code of a file outside any symbol
    SECTION = "section"  # a Markdown section, split by heading
    CHUNK = "chunk"  # a line window of a text file tree-sitter does not parse


DEFINITION_KINDS = frozenset(
    {
        NodeKind.FUNCTION,
        NodeKind.METHOD,
        NodeKind.CLASS,
        NodeKind.STRUCT,
        NodeKind.INTERFACE,
        NodeKind.ENUM,
        NodeKind.TRAIT,
        NodeKind.TYPE,
        NodeKind.CONSTANT,
        NodeKind.FIELD,
    }
)
# Kinds that name a value, not code: ranking lets them yield to a function or type of their name,
# and one line of one is too little text to embed. A field is ranked as a constant is.
VALUE_KINDS = frozenset({NodeKind.CONSTANT, NodeKind.FIELD})
ROUTINE_KINDS = frozenset({NodeKind.FUNCTION, NodeKind.METHOD})  # what a call or an overload may be
CONTAINER_KINDS = frozenset(
    {NodeKind.CLASS, NodeKind.STRUCT, NodeKind.INTERFACE, NodeKind.ENUM, NodeKind.TRAIT}
)


class RefKind(StrEnum):
    """The true kind of an edge. Nothing is labelled `calls` that is not a call."""

    CALLS = "calls"
    IMPORTS = "imports"
    CONTAINS = "contains"
    INHERITS = "inherits"
    IMPLEMENTS = "implements"


# The `alias` of a `calls` Ref written as a member access without arguments (Scala `Lib.size`,
# `OParser.builder[Config]`): Scala calls a parameterless `def` so (uniform access), but the same
# syntax reads a `val`, so the reference is a call only when its name resolves to a function or
# method, never to a field or a type (graph/resolve.py).
UNIFORM_ACCESS = "<access>"

# The `alias` of a `calls` Ref that constructs an object (C# `new LogEvent(..)`, a target-typed
# `new(..)`): it calls a class or one of its constructors, never a method that shares the class's
# name (a test helper's `static LogEvent LogEvent(..)` around `return new(..)`; graph/parts.of_arity).
CONSTRUCTS = "<new>"

# The `alias` of a Swift `calls` Ref written as an implicit member expression (`.retry(userInfo:
# nil)`, `.custom(block: f)`): a member of the type the context expects, never the caller's own
# object's, so it may name a static member or initializer alone (graph/qualified.py `as_written`).
IMPLICIT_MEMBER = "<implicit>"


# The `alias` of an `inherits` Ref that a statement of a type's body makes, not its header: a PHP
# trait use (`use FormattableHandlerTrait;`) or a Ruby mixin (`include Helpers`, `extend`,
# `prepend`). The class gets the trait's or module's methods as it gets a base class's, so the
# resolver walks it as a base; a Ruby constant written in the body is looked up from inside the
# class, where a superclass is looked up around it (graph/rubyconst.py).
MIXIN = "<mixin>"

# The `alias` of an `imports` Ref that passes on every name of its module: a JavaScript or
# TypeScript barrel's `export * from "./core.js"` (a named re-export is aliased by its name). A
# call through the barrel (`core.$constructor()` after `import * as core from "./index.js"`) is
# the module's definition (graph/reexports.py).
REEXPORT_ALL = "<all>"

# The `alias` of an `imports` Ref of a wildcard import, as the parsers write it (Python `from ._api
# import *`, Java `import a.b.*`, Rust `use a::*`, Scala, Kotlin). In a package file (`pkg/__init__.py`,
# a Rust `lib.rs`) it passes on every public name of the module, as REEXPORT_ALL does a barrel's
# (graph/reexports.py): `import httpx; httpx.get()` is `get` of `httpx/_api.py`.
WILDCARD_IMPORT = "*"


# The qualifier of a call on a value no name holds, a literal or a bracketed expression
# (`", ".join(parts)`, `(a or b).strip()`, `[a, b].each`): the resolver reads it as a receiver of
# unknown type, as it reads an untyped variable (a method, marked ambiguous, or no edge for a
# builtin's method). Written bare, such a call was read as a call of a function `join` and linked
# to one, unambiguously (index/parsing/text.py `callee_target`).
EXPRESSION_RECEIVER = "<expr>"
# The mark of a name a call's receiver indexes (`xs[i].close()` -> `xs[].close`): the method is read
# on an element, so it is the element type's (the collection's declaration says it, where the graph
# reads one), never the collection's own. Written bare, `self.items[k].close()` in `Bag.close` was
# read as `self.items.close`, and `err[i].Error()` in a Go method of `err`'s slice type as a call
# of that method itself (index/parsing/text.py `normalize_target`).
INDEXED = "[]"
# The mark of a Rust receiver that is a call's result (`self.inner().lock()` -> `self.inner().lock`):
# written bare it read as the field `self.inner`, whose name guessed its type (a struct `Inner`), so
# the call linked, certain, to `Inner.lock` (index/parsing/rustvalues.py `called_receiver`).
CALLED = "()"


# The ignore files discovery reads in every folder, lowest precedence first (a later kind outranks an
# earlier one at any depth: `index/discover/ignore.py`). Here, not there, so the grep walk cache can
# name them without loading discovery (and pathspec) on a cache hit.
IGNORE_FILES = (".gitignore", ".ignore", ".rgignore", ".qryignore")


class SkipReason(StrEnum):
    """Why discovery or parsing left a file out; counted in the build report."""

    IGNORED = "ignored"  # an ignore file or info/exclude (counted only for files, not pruned dirs)
    BINARY = "binary"
    TOO_LARGE = "too_large"
    MINIFIED = "minified"  # very long lines: minified or generated
    LOCK_FILE = "lock_file"  # a package manager's lock file (go.sum, package-lock.json): no code
    VENDORED = "vendored"
    UNREADABLE = "unreadable"
    ENCODING = "encoding"  # not valid UTF-8 (after BOM handling)
    SYMLINK_OUTSIDE = "symlink_outside"
    VANISHED = "vanished"  # listed, then gone before it could be read
    UNSUPPORTED = "unsupported"  # no language and not text we chunk
    PARSE_TIMEOUT = "parse_timeout"
    NODE_CAP = "node_cap"  # a file produced more nodes than the per-file cap; the rest were dropped


class Node(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """One searchable unit: a symbol, a module remainder, a doc section or a line window.

    `uid` is xxh3_64 of (path, qualified name, kind, overload ordinal, part) so the same symbol keeps
    its uid across re-indexes; `content_hash` changes when its text does. Lines are 1-based and
    inclusive, bytes are 0-based offsets into the file's UTF-8 bytes, end exclusive.
    """

    uid: int
    content_hash: int
    path: str  # POSIX path relative to the indexed root
    language: str
    kind: str  # a NodeKind value
    name: str
    qualified_name: str
    signature: str = ""
    doc: str = ""
    start_line: int
    end_line: int
    start_byte: int
    end_byte: int
    parent_uid: int = 0  # 0: top level of the file
    text: str  # the node's source (after secret redaction)
    part: int = 0  # window number when a very large node is split (0 = first or only)
    created_at: int | None = None  # unix seconds the node's lines first appeared (git, else file time)
    changed_at: int | None = None  # unix seconds of the last change to the node's lines


# `Ref.labels` of a Swift call: the label of an argument written without one (`f(x)`, as Swift declares
# such a parameter, `_ x: T`), and of a trailing closure written without one (`f(x) { ... }`), which
# may fill any parameter left, so it matches every label (graph/callarity.py).
UNLABELED = "_"
TRAILING = ""


class Ref(msgspec.Struct, frozen=True, kw_only=True, gc=False, omit_defaults=True):
    """An outgoing reference as written in the source, resolved to nodes at query time.

    Resolution is late on purpose: a call into another file keeps pointing at whatever definition
    the current snapshot holds, so after a re-index no edge can point at a node that is gone.
    `target` is the name as written (`charge`, `self.retry`, `billing.retry.charge`, `os.path`);
    for imports `alias` is the local name bound (`np` for `import numpy as np`). `args` is the
    number of arguments a call writes, where overloads tell methods apart by it (Java, C#, C++,
    Kotlin, Swift; parsing/arguments.py), else -1; `labels` a Swift call's argument labels, one per
    argument (`_` for none, "" for an unlabeled trailing closure), since Swift overloads differ by
    them (`adapt(_:for:)`, `adapt(_:using:)`), else empty.
    """

    src_uid: int
    kind: str  # a RefKind value (never CONTAINS: containment is parent_uid)
    target: str
    line: int
    alias: str = ""
    args: int = -1
    labels: tuple[str, ...] = ()


class ParsedFile(msgspec.Struct, kw_only=True, gc=False):
    """Everything parsing learned about one file."""

    path: str
    language: str
    nodes: list[Node]
    refs: list[Ref]
    skip: str | None = None  # a SkipReason when the file was (partly) skipped
    note: str = ""


class Edge(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """A resolved edge between two live nodes of one snapshot."""

    src: int
    dst: int
    kind: str  # a RefKind value
    line: int = 0
    ambiguous: bool = False  # the name could mean several definitions; every candidate is kept


class StreamHit(msgspec.Struct, frozen=True, kw_only=True):
    """One candidate from one retrieval stream, before fusion."""

    uid: int
    score: float
    segment: str = ""


# What stands in for a secret in stored text (index/redact.py replaces each before parsing).
REDACTED = "[REDACTED]"

# What stands in for a member's body elided in its container's text: a braced body, a C#
# expression body, any other (an indented Python or Ruby body).
BRACED_BODY, EXPRESSION_BODY, OTHER_BODY = "{ ... }", "=> ...", "..."
# A line holding nothing but the edge of a block (`{`, `}`, `});`, `end`) or an elided body: it opens
# or finishes what the lines around it hold and says nothing of its own, so no window of a node
# starts with it and no hit is shown by it.
BLOCK_EDGE_LINE = re.compile(
    r"\s*(?:end|[{}\[\]()]+[;,]?|"
    + "|".join(re.escape(m) for m in (BRACED_BODY, EXPRESSION_BODY, OTHER_BODY))
    + r")\s*$"
)


# A signature is cut at this many characters (a Swift initializer of a dozen defaulted parameters is
# longer): what needs all of its parameters reads them from the node's text (graph/callarity.py).
MAX_SIGNATURE_CHARS = 500

# A definition, module remainder or section longer than WINDOW_LINES non-blank lines is indexed as
# consecutive windows of it (parts 0, 1, ...); a text file as overlapping CHUNK_LINES-line windows.
# Either way a node followed by more parts of it spans at least the smaller of the two.
WINDOW_LINES = 200
CHUNK_LINES = 60

# Languages whose files are single-file components (Vue, Svelte): the module node is the component.
COMPONENT_LANGUAGES = frozenset({"vue", "svelte"})


def is_component(n: Node) -> bool:
    """A Vue or Svelte component: its module node, what a name or a template's `<Name />` means."""
    return n.kind == NodeKind.MODULE.value and n.language in COMPONENT_LANGUAGES


def is_prototype(language: str, kind: str, text: str, path: str) -> bool:
    """A function declared without its body: a C or C++ header's `int f(void);`, or any function or
    method of a TypeScript declaration file (`index.d.ts`, the typings a JavaScript package ships
    beside its code) or a Python stub file (`__init__.pyi`, its `@overload`s included). The
    definition is where the body is, and the declaration yields to it. A function-like `#define` is
    no prototype: it is the only definition its name has."""
    if kind not in ("function", "method"):
        return False
    if language == "typescript":
        return bool(_DECLARATION_FILE.search(path))
    if language == "python":
        return path.endswith(".pyi")
    return language in ("c", "cpp") and "{" not in text and not _DEFINE_LINE.search(text)


# A Kotlin declaration's modifiers before its keyword (`@JvmField internal actual var head`, `actual
# override fun readUtf8()`): `actual` among them makes it one platform's body of an `expect`.
_KOTLIN_ACTUAL = re.compile(
    r"^(?:@[\w.]+(?:\([^)]*\))?\s+|[a-z]+\s+)*?actual\s+(?:[a-z]+\s+)*"
    r"(?:fun|val|var|class|object|interface|constructor|typealias)\b"
)


def is_actual(language: str, signature: str) -> bool:
    """A Kotlin Multiplatform `actual` declaration: one platform's body (`jvmMain`, `nativeMain`) of
    what common code declares `expect` (or as a member of an `expect class`). Common code calls the
    declaration, every platform supplies it, and as a call's target or a name's definition an
    `actual` yields to the declaration of its name, as a C body's prototype does the other way."""
    return language == "kotlin" and bool(_KOTLIN_ACTUAL.match(signature))


def is_constructor(qualified_name: str) -> bool:
    """A member named as its container (`LogEvent.LogEvent`, `Widget::Widget`): a constructor of
    its class in Java, C#, C++ or PHP's old style. A call of it is the class's (`new Widget()`), and
    as a definition it yields to its class."""
    parts = NAME_SEPARATOR.sub(".", qualified_name).split(".")
    return len(parts) >= 2 and parts[-1] == parts[-2]


def without_companion(qualified_name: str, language: str) -> str:
    """A Kotlin member of an unnamed `companion object` as its class's code names it: Kotlin calls
    `JsonReader.Options.Companion.of` as `JsonReader.Options.of` (Java too, with `@JvmStatic`), the
    way Java calls a static method. The companion object itself keeps its name (it is not its
    class); other names, and other languages', are returned unchanged."""
    if language != "kotlin" or f"{KOTLIN_COMPANION}." not in qualified_name:
        return qualified_name
    *owners, last = qualified_name.split(".")
    return ".".join([p for p in owners if p != KOTLIN_COMPANION] + [last])


KOTLIN_COMPANION = "Companion"  # the name Kotlin gives a `companion object` declared without one
# Every language's separator of qualified names other than `.`; `#` separates Ruby's `Klass#meth`
# but begins JavaScript's private `Ky.#retry`.
NAME_SEPARATOR = re.compile(r"::|->|(?<=[\w$])#|\\")
_DECLARATION_FILE = re.compile(r"\.d\.[cm]?ts$")  # index.d.ts, index.d.mts, index.d.cts
_DEFINE_LINE = re.compile(r"^[ \t]*#[ \t]*define\b", re.MULTILINE)


def is_deprecated(name: str, text: str, doc: str) -> bool:
    """A definition marked deprecated where it is declared: an annotation or attribute before its
    name (`@Deprecated`, `#[deprecated]`, `@available(*, deprecated)`, `[Obsolete]`, a Python
    `@deprecated`), or its doc says so (`@deprecated`, Go's `Deprecated:` paragraph). Where a
    current definition shares its name, it is the one meant."""
    at = text.find(name)
    return bool(_DEPRECATED.search(text[: at if at > 0 else 0])) or bool(_DEPRECATED_DOC.search(doc))


_DEPRECATED = re.compile(
    r"@Deprecated\b|@deprecated\b|#\[deprecated\b|@available\([^)]*\bdeprecated\b|\[Obsolete\b"
)
_DEPRECATED_DOC = re.compile(r"@deprecated\b|^Deprecated:", re.MULTILINE)


# The symbol stream's score of a name spelled as the query spells it (joined words, a qualified
# suffix or the exact name score above it); fuzzy matches score their similarity, below 1.
NAME_SPELLED_SCORE = 3.0
# Its score of the definitions a dotted name names as typed (`flask.url_for`: a module path, or what a
# package passes on), above a qualified suffix matched in any case; the definition signal then counts
# only those as the name's definitions.
NAME_LOCATED_SCORE = 3.75
TYPO_SIMILARITY = 0.75  # a fuzzy name match this alike is taken for what a typo meant


class Provenance(msgspec.Struct, kw_only=True):
    """Where a fused hit came from: per stream its 1-based rank and raw score."""

    bm25_rank: int | None = None
    bm25_score: float | None = None
    vector_rank: int | None = None
    vector_score: float | None = None
    symbol_rank: int | None = None
    symbol_score: float | None = None

    @property
    def named(self) -> bool:
        """The hit is a definition whose name the query spells, or misspells by a typo: it is shown
        by its declaration."""
        return (self.symbol_score or 0.0) >= TYPO_SIMILARITY


class Related(msgspec.Struct, kw_only=True):
    """A node reached from a hit through the graph. Uids are hex strings, as in `Hit.uid`, so JSON
    consumers keep all 64 bits and can pass them back (`qry related UID`)."""

    uid: str
    edge: str  # a RefKind value
    direction: str  # "in" (it points at the hit: a caller) or "out" (the hit points at it: a callee)
    path: str
    start_line: int
    end_line: int
    kind: str
    symbol: str
    via: str = ""  # uid of the hit this was reached from
    line: int = 0  # line of the reference (the call site, import or base-class list); 0 for contains
    decl_line: int = 0  # the line the related node declares itself on (past its doc comment)
    depth: int = 1
    ambiguous: bool = False


class Snippet(msgspec.Struct, kw_only=True):
    """A bounded excerpt of a node's text."""

    text: str
    start_line: int
    end_line: int
    truncated: bool
    highlights: list[tuple[int, int]] = []  # character spans within `text` that matched query terms
    # Lines from start_line to end_line that `text` leaves out: a nested definition's body, whose
    # text in the outline is not the file's (`...`, the blank lines it kept; retrieval/elision.py).
    # Line i of `text` is the i-th of the others (`line_of`).
    elided: list[int] = []
    # Lines the excerpt shows only part of: its first, starting mid-line, or its last, ending mid-line
    # (a line longer than the width); `path:line:` output marks them, the text is not the whole line.
    cut: list[int] = []

    def line_of(self, at: int) -> int:
        """The file line of line `at` (from 0) of `text`: the lines `elided` names are not in it, so a
        class's outline is its members' heads one after another, not a blank line per body line."""
        if not self.elided:
            return self.start_line + at
        gone = set(self.elided)
        line = self.start_line - 1
        for _ in range(at + 1):
            line += 1
            while line in gone:
                line += 1
        return line

    def index_of(self, line: int) -> int | None:
        """The line of `text` (from 0) that is file line `line`; None when the text does not hold it."""
        if line < self.start_line or line > self.end_line or line in self.elided:
            return None
        return line - self.start_line - sum(1 for e in self.elided if e < line)


class Hit(msgspec.Struct, kw_only=True):
    """One result row, as the API returns it and `--json` prints it."""

    uid: str  # hex of the uint64, so JSON consumers never lose precision
    path: str
    start_line: int
    end_line: int
    kind: str
    symbol: str  # the qualified name
    language: str
    score: float
    snippet: Snippet
    signature: str = ""
    provenance: Provenance = msgspec.field(default_factory=Provenance)
    explain: list[str] = []
    related: list[Related] = []
    context: bool = False  # True for on-path nodes added by diffusion, never a fused hit
    stale: bool = False  # the file changed on disk since the root was published
    last_changed: int | None = None  # unix seconds, from git or file times
    generated: bool = False  # the file carries a generated-code marker: edit its generator, not it
    # The file line the hit is shown by (the piped `path:line:`): its declaration when the query
    # names it, else the snippet line holding the most query words; 0 until the search sets it.
    line: int = 0

    @classmethod
    def of_node(cls, n: Node, *, score: float, snippet: Snippet, **extra: Any) -> "Hit":
        """The result row of node `n` (every surface builds hits this one way)."""
        return cls(
            uid=f"{n.uid:016x}",
            path=n.path,
            start_line=n.start_line,
            end_line=n.end_line,
            kind=n.kind,
            symbol=n.qualified_name,
            language=n.language,
            score=round(score, 6),
            snippet=snippet,
            signature=n.signature,
            **extra,
        )


class SearchMeta(msgspec.Struct, kw_only=True):
    """Facts about the answer: which snapshot, how fresh, how long, what was skipped."""

    root: str
    published_at: int
    indexed_commit: str | None
    elapsed_ms: float
    mode: str
    route: str = ""  # the query class the router chose
    streams: dict[str, int] = {}  # candidates per stream
    weights: dict[str, float] = {}  # the RRF weight of each stream fused, or wanted but unavailable
    unavailable: list[str] = []  # streams the route wants that this index cannot run ("vector": no vectors)
    model_loaded: bool = False
    total_candidates: int = 0
    truncated_by_budget: int = 0
    notes: list[str] = []
    # each stream's candidate scores, best first (rank i + 1 at i); only when the request asks for them,
    # and absent from the encoded answer otherwise (UNSET fields are not written)
    stream_scores: dict[str, list[float]] | msgspec.UnsetType = msgspec.UNSET


class SearchResult(msgspec.Struct, kw_only=True):
    query: str
    results: list[Hit]
    meta: SearchMeta
