"""The on-disk index: content-addressed segments, publish roots, atomic publish, lock, gc, verify.

Modules: `manifest` (what a root says, its format version and encoding), `store` (the directory
and every change to it, through `Store`), `layout` (names and shapes inside it), `history` (the
roots `qry roots` lists), `gc` (collecting old runs), `verify` (checking files against a root),
`lock` (the writer lock), `atomic` (durable file replacement), `files` (checksums and comparisons
of segment files), `locate` (finding `.qry/`).
What is inside a segment's files belongs to `indexlib.engines.lexical` and `indexlib.engines.vectors`.
"""

from __future__ import annotations

from indexlib.store.files import Problem
from indexlib.store.locate import ENV_VAR, INDEX_DIRNAME, default_index_dir, find_index, resolve_index_dir
from indexlib.store.lock import holds_writer_lock, writer_lock
from indexlib.store.manifest import (
    FORMAT_VERSION,
    FileEntry,
    FileRecord,
    Manifest,
    ModelInfo,
    SegmentEntry,
    VectorInfo,
    decode_manifest,
    encode_manifest,
    root_id_of,
)
from indexlib.store.store import Store, is_attachment, vectors_dirname

__all__ = [
    "ENV_VAR",
    "FORMAT_VERSION",
    "INDEX_DIRNAME",
    "FileEntry",
    "FileRecord",
    "Manifest",
    "ModelInfo",
    "Problem",
    "SegmentEntry",
    "Store",
    "VectorInfo",
    "decode_manifest",
    "default_index_dir",
    "encode_manifest",
    "find_index",
    "holds_writer_lock",
    "is_attachment",
    "resolve_index_dir",
    "root_id_of",
    "vectors_dirname",
    "writer_lock",
]
