"""The publish-root manifest: its Structs, its format version, and its byte encoding.

Owns: what a root says (segments, which segment owns each file, model, settings), how it is encoded
deterministically (so the same content always hashes to the same root id) and decoded fast, and the
format-version check. Does not own: where manifests are stored or how they are published
(`store.py`), nor what is inside a segment's files (lexical, vectors).

Liveness rule: a node of segment S is live iff `manifest.files[node.path].segment == S.id`. A
re-index re-parses whole files, so each file's nodes live in exactly one segment; older copies are
tombstoned simply by the path now naming another segment.
"""

import gc
import os
import shlex
from pathlib import Path
from typing import Any

import msgspec
import xxhash

from indexlib.errors import FormatVersionError, IndexCorrupt
from indexlib.store.locate import INDEX_DIRNAME

# On-disk format version of manifests and segment layout. Bump on any change a reader of the previous
# version would misread, and log it here and in docs/design.md ("Format version log"):
#   1  first format: roots/<id>.json (JSON, FileRecord as arrays), segments/<id>/ with tantivy/,
#      nodes.msgpack, refs.msgpack and optional vectors-<model>/ attachments.
#   2  the Tantivy schema gained the `uid_u64` fast field and `$`-padded trigram terms in `name_tri`;
#      a version-1 segment lacks both, so its roots are refused (rebuild) rather than half-working.
#   3  `tombstones` lists each segment's dead paths instead of counting them, so readers filter with a
#      short exclusion list rather than every live path.
#   4  a segment's nodes and references are one `tables.msgpack` of length-prefixed per-file chunks in
#      path order (was nodes.msgpack + refs.msgpack), so builds, compaction and embedding stream them.
#   5  every segment carries an n-gram index for `qry grep` (`grams/`, a Tantivy index of one trigram
#      document per file, and `grams.paths`); a version-4 segment has none, so its roots are rebuilt.
#      and nodes carry their leading doc comment in their range and text; bodiless declarations, type
#      aliases (kind `type`) and module-level constants (kind `constant`) are nodes; the Tantivy schema
#      gained the whole-node `content` field. Older roots are rebuilt by `qry index`.
#   6  the `content` field's terms are stemmed (Tantivy's English stemmer over the code-aware terms), so
#      a version-5 segment's unstemmed terms would not match the stems a query is parsed into.
#   7  what a file parses into changed, so unchanged files must be parsed again: Ruby modules are
#      `class` nodes (their methods `method`s) and Ruby constants, C# `const` fields, PHP `const`s
#      are `constant` nodes; C# properties and events are `method` nodes; a C# file the grammar
#      misreads for its `#if`/`#else` is parsed with the first branch of each conditional; a
#      JavaScript call of a private method keeps its `#` (`this.#retry`), so it resolves.
#   8  what a C or C++ file parses into changed: declaration and statement macros (`class FOO_API
#      Widget`, `FOO_INLINE int f() FOO_NOEXCEPT`) are blanked before parsing, functions returning a
#      reference and out-of-class operators keep their names, `#define`s at any depth are nodes
#      (function-like ones `function`s), `using` aliases and typedefs are `type` nodes, and a `.h`
#      file is C++ on more evidence (`enum class`, `#include <string>`, `A::b(`).
#      JavaScript and Go: every name of a chained JS assignment is a node
#      (`a.x = a.y = function`), `exports.X = value` is a constant, `Object.defineProperty(o, 'x',
#      {get})` and `defineGetter(o, 'x', fn)` define `o.x`, a member assigned to a module-level JS
#      object or constructor is its member, a JSDoc block documents the definition below it across
#      blank lines, and Go struct fields are `constant` members of their struct.
#      Rust and Ruby: a Ruby body's elision starts at the comments above its first statement; a
#      Ruby module holding only classes and modules is a namespace, not a node; `attr_reader`
#      (`attr_writer`, `attr_accessor`, `attr`), `alias`, `alias_method` and `define_method` in a Ruby
#      class body define `method`s; Rust `macro_rules!` are `function`s and enum variants `constant`
#      members of their enum. Kotlin, Swift, Scala, Lua and shell files, and the `<script>`
#      blocks of Vue and Svelte components, text before, are parsed into definitions. C++ member
#      function declarations in a class body are `method` nodes; a Rust
#      macro invocation calls its `macro_rules!`.
FORMAT_VERSION = 8

REBUILD_HINT = "rebuild the index: qry index --rebuild"


def rebuild_hint(index_dir: Path) -> str:
    """REBUILD_HINT naming the index: where it is read from elsewhere (a workspace reports it), a bare
    `qry index --rebuild` would rebuild whatever index is around the working directory."""
    if index_dir.name == INDEX_DIRNAME:
        return f"{REBUILD_HINT} {shlex.quote(str(index_dir.parent))}"
    return f"{REBUILD_HINT} --index-dir {shlex.quote(str(index_dir))} FOLDER"


class FileEntry(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """One file of a segment, as committed: for `verify` and the cheap open-time size check."""

    name: str  # POSIX path relative to the segment directory
    size: int
    xxh3: str  # xxh3_128 hex of the file's bytes


class VectorInfo(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """The vectors attached to a segment; their files are also listed in `SegmentEntry.files`."""

    model_id: str
    dim: int
    kind: str  # "exact" | "hnsw"
    count: int


class SegmentEntry(msgspec.Struct, frozen=True, kw_only=True):
    """One live segment of a root."""

    id: str
    files: list[FileEntry]
    nodes: int  # all nodes stored in the segment, tombstoned or not
    paths: int  # distinct file paths stored in the segment
    created_at: int  # unix seconds
    vectors: VectorInfo | None = None
    # analysed `content` terms over all its nodes: with `nodes`, the mean length BM25 normalises by,
    # which a workspace compares across indexes (workspace/collection.py); 0 in roots written before
    content_terms: int = 0


class FileRecord(msgspec.Struct, frozen=True, kw_only=True, array_like=True, gc=False):
    """What a root knows about one indexed file. Encoded as a JSON array: 100k of these per manifest
    must stay small and decode fast."""

    hash: str  # xxh3_128 hex of the file's bytes
    segment: str  # the segment owning this path's nodes
    size: int
    mtime_ns: int
    language: str
    nodes: int
    created_at: int | None = None  # unix seconds (git or file times)
    changed_at: int | None = None
    generated: bool = False  # a generated-code marker in its first lines: ranked as supporting code


SKIPPED_LIST_CAP = 2000  # skipped paths a root lists (the counts cover every one)


class SkippedFile(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """A file (or pruned folder) the build left out: its path, a SkipReason value, and why in words."""

    path: str
    reason: str
    detail: str = ""


class ModelInfo(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """The embedding model the root's vectors were computed with."""

    model_id: str
    checksum: str
    dim: int
    name: str


class Manifest(msgspec.Struct, frozen=True, kw_only=True):
    """A publish root: one complete, immutable snapshot of the index."""

    format_version: int
    qry_version: str
    created_at: float  # unix seconds
    parent: str | None  # the root this one was built from
    segments: list[SegmentEntry]
    files: dict[str, FileRecord]  # POSIX path relative to source_root -> record
    # segment id -> its paths now owned by another segment (or deleted), sorted. Readers exclude these
    # paths inside each query (a short MUST_NOT list), so a tombstone never costs a top-k slot.
    tombstones: dict[str, list[str]]
    skipped: dict[str, int]  # SkipReason value -> count
    git_commit: str | None
    git_branch: str | None
    model: ModelInfo | None
    source_root: str  # as built; `Store.load` gives the folder it describes now (`source_root_of`)
    settings: dict[str, str] = {}
    skipped_files: list[SkippedFile] = []  # the first SKIPPED_LIST_CAP of them, by path


class _VersionOnly(msgspec.Struct):
    """Reads just the version of a manifest whose full schema may differ from ours."""

    format_version: Any = None


# `deterministic` sorts dict keys, so equal manifests give equal bytes and equal root ids.
_ENCODER = msgspec.json.Encoder(order="deterministic")
_DECODER = msgspec.json.Decoder(Manifest)
_VERSION_DECODER = msgspec.json.Decoder(_VersionOnly)


#: The `settings` key saying whether the build's index was the source root's own `.qry` ("true") or
#: an index kept elsewhere ("false"); roots of older builds lack it.
IN_ROOT_SETTING = "index_in_root"


def source_root_of(manifest: Manifest, index_dir: Path) -> str:
    """The folder whose files the index at `index_dir` describes: the one place this is decided.

    An index built as its repository's own `.qry` belongs to the folder holding it, wherever that
    folder is now: a repository copied or moved with its `.qry` is read (stale checks, snippets, git
    HEAD, grep, the next build) at its new place, not at the path recorded when it was built, which
    may be gone or hold other text. An index kept elsewhere (`--index-dir`: not named `.qry`, or
    recorded as not the source's own) describes the recorded root. A root without the record (an older
    build) counts as its folder's own when named `.qry`, the rule workspaces always used. The recorded
    string is kept when it names the same folder, so paths printed stay as they were.
    """
    recorded = manifest.source_root
    index = Path(os.path.abspath(index_dir))
    if index.name != INDEX_DIRNAME or manifest.settings.get(IN_ROOT_SETTING, "true") != "true":
        return recorded
    folder = str(index.parent)
    if folder == recorded or os.path.realpath(folder) == os.path.realpath(recorded):
        return recorded
    return folder


def placed(manifest: Manifest, index_dir: Path) -> Manifest:
    """`manifest` as read from `index_dir`: its `source_root` is `source_root_of` it, so every
    reader of an opened index (`Store.load`) reads the files of the same folder."""
    root = source_root_of(manifest, index_dir)
    return manifest if root == manifest.source_root else msgspec.structs.replace(manifest, source_root=root)


def encode_manifest(manifest: Manifest) -> bytes:
    """Deterministic JSON bytes of a manifest (the bytes its root id is the hash of)."""
    return _ENCODER.encode(manifest)


def root_id_of(data: bytes) -> str:
    """A root id: xxh3_128 hex of the manifest bytes."""
    return xxhash.xxh3_128_hexdigest(data)


def decode_manifest(data: bytes, *, where: str = "manifest") -> Manifest:
    """Decode manifest bytes, raising FormatVersionError for another format and IndexCorrupt for junk.

    The cyclic GC is paused while decoding: 100k records allocate enough containers to trigger
    several full collections otherwise (~3x slower, measured in TECH.md).
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        manifest = _DECODER.decode(data)
    except (msgspec.DecodeError, msgspec.ValidationError) as exc:
        _check_version(_peek_version(data), where)
        raise IndexCorrupt(f"{where} cannot be decoded: {exc}", hint=REBUILD_HINT) from exc
    finally:
        if was_enabled:
            gc.enable()
    _check_version(manifest.format_version, where)
    return manifest


def _peek_version(data: bytes) -> Any:
    try:
        return _VERSION_DECODER.decode(data).format_version
    except (msgspec.DecodeError, msgspec.ValidationError):
        return None


def _check_version(version: Any, where: str) -> None:
    if version is None or version == FORMAT_VERSION:
        return
    err = FormatVersionError(
        f"{where} has on-disk format version {version!r}; this qry reads version {FORMAT_VERSION}",
        hint=REBUILD_HINT,
    )
    err.found = version
    raise err
