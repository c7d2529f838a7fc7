"""The logical content of a segment, written and read one file at a time.

Owns: `tables.msgpack`, the record of every node and reference a segment holds, as a stream of
length-prefixed `FileChunk`s in path order, and the streaming writer that builds a whole segment (that
file plus the Tantivy index) without holding it in memory. The segment id is the xxh3_128 of the chunk
bytes in order, each followed by its nodes' analysed terms, so identical content gives an identical id
whether it came from a fresh build or a compaction. The terms count because the Tantivy index is made
of them: when only the analyzer changed (a parser version's new terms for the same nodes), an id of
the nodes alone named the segment already stored, which the store then kept, old terms and all.
Readers that need every node (compaction, embedding) stream the chunks.

Does not own: what goes into a chunk (parsing, build.py), the Tantivy schema (lexical.py), or
committing the staged directory (store/).
"""

from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import BinaryIO

import msgspec
import xxhash

from indexlib.engines import lexical
from indexlib.engines.lexterms import NodeTerms, node_terms
from indexlib.errors import IndexCorrupt
from indexlib.records import Node, Ref
from indexlib.store.manifest import SegmentEntry
from indexlib.store.store import Store

TABLES = "tables.msgpack"
GRAMS = "grams"  # the n-gram index (`lexical.GramIndexWriter`), one document per file, for `qry grep`
GRAM_PATHS = "grams.paths"  # msgpack list of the segment's paths, in the n-gram index's `ord` order
_LEN = 4  # bytes of the little-endian length before each chunk


class FileChunk(msgspec.Struct, gc=False):
    """Every node and outgoing reference of one file, in a stable order."""

    path: str
    nodes: list[Node]
    refs: list[Ref]

    def normalised(self) -> "FileChunk":
        """The same chunk in the order the id is computed over (source order, then uid)."""
        return FileChunk(
            path=self.path,
            nodes=sorted(self.nodes, key=lambda n: (n.start_byte, n.part, n.uid)),
            refs=sorted(self.refs, key=lambda r: (r.src_uid, r.line, r.kind, r.target, r.alias)),
        )


_ENCODER = msgspec.msgpack.Encoder()
_DECODER = msgspec.msgpack.Decoder(FileChunk)


def write_chunk(out: BinaryIO, chunk: FileChunk) -> bytes:
    """Append one length-prefixed chunk; return its bytes (what the segment id hashes)."""
    data = _ENCODER.encode(chunk)
    out.write(len(data).to_bytes(_LEN, "little"))
    out.write(data)
    return data


def read_chunks(path: Path) -> Iterator[FileChunk]:
    """Stream the chunks of a tables file (a segment's, or a build's spill file)."""
    try:
        with open(path, "rb") as fh:
            while True:
                head = fh.read(_LEN)
                if not head:
                    return
                size = int.from_bytes(head, "little")
                data = fh.read(size)
                if len(head) < _LEN or len(data) < size:
                    raise IndexCorrupt(
                        f"{path} is truncated", hint="run `qry verify`, then `qry index --rebuild`"
                    )
                yield _DECODER.decode(data)
    except (OSError, msgspec.DecodeError) as exc:
        raise IndexCorrupt(
            f"cannot read {path}: {exc}", hint="run `qry verify`, then `qry index --rebuild`"
        ) from exc


def iter_segment(store: Store, segment_id: str) -> Iterator[FileChunk]:
    return read_chunks(store.segment_dir(segment_id) / TABLES)


class SegmentWriter:
    """Stage one new segment chunk by chunk (chunks must come in path order), then commit it."""

    def __init__(self, store: Store, grams: Callable[[str], str | None] | None = None) -> None:
        """`grams` gives each file's normalised text for the n-gram index (`grep.gramsource`)."""
        self._store = store
        self._staging = store.stage()
        self._grams_text = grams
        self._grams = lexical.GramIndexWriter(self._staging / GRAMS) if grams else None
        self._gram_paths: list[str] = []
        self._tables = open(self._staging / TABLES, "wb")  # noqa: SIM115 - closed in commit/abort
        self._index = lexical.SegmentIndexWriter(self._staging / "tantivy")
        self._hash = xxhash.xxh3_128()
        self._last_path: str | None = None
        self.nodes = 0
        self.paths = 0

    def add(self, chunk: FileChunk, terms: Sequence[NodeTerms] | None = None) -> None:
        """Add one file's chunk; `terms`, when given, is each node's analysed text, in `chunk.nodes` order."""
        if self._last_path is not None and chunk.path <= self._last_path:
            raise ValueError(f"chunks out of order: {chunk.path!r} after {self._last_path!r}")
        if terms is not None and len(terms) != len(chunk.nodes):
            raise ValueError(f"{len(terms)} analysed texts for {len(chunk.nodes)} nodes of {chunk.path!r}")
        if terms is None:  # analysed here, not in the index writer, so that the id covers them
            terms = [node_terms(n) for n in chunk.nodes]
        by_uid = dict(zip((n.uid for n in chunk.nodes), terms, strict=True))
        chunk = chunk.normalised()
        self._hash.update(write_chunk(self._tables, chunk))
        refs_by_uid: dict[int, list[Ref]] = {}
        for r in chunk.refs:
            refs_by_uid.setdefault(r.src_uid, []).append(r)
        for node in chunk.nodes:
            analysed = by_uid[node.uid]
            self._hash.update(_ENCODER.encode(analysed))
            self._index.add(node, refs_by_uid.get(node.uid, ()), analysed)
        if self._grams is not None and self._grams_text is not None:
            self._grams.add(self._grams_text(chunk.path))
            self._gram_paths.append(chunk.path)
        self._last_path = chunk.path
        self.nodes += len(chunk.nodes)
        self.paths += 1

    def abort(self) -> None:
        """Give up this segment (after a failed add or commit): close the table file and the Tantivy
        writer; the caller removes the staging directory. Never raises."""
        try:
            self._tables.close()
        except OSError:
            pass
        self._index.abort()
        if self._grams is not None:
            self._grams.abort()

    def commit(self, created_at: int) -> SegmentEntry:
        self._tables.close()
        self._index.close()
        if self._grams is not None:
            self._grams.close()
            (self._staging / GRAM_PATHS).write_bytes(_ENCODER.encode(self._gram_paths))
        segment_id = self._hash.hexdigest()
        files = self._store.commit_segment(self._staging, segment_id)
        return SegmentEntry(
            id=segment_id,
            files=files,
            nodes=self.nodes,
            paths=self.paths,
            created_at=created_at,
            content_terms=self._index.content_terms,
        )
