"""One opened publish root: its segments, which of their nodes are live, and node lookups.

Owns: the read side of the segment model. A node of segment S is live iff the manifest says S owns the
node's file (`manifest.files[path].segment == S`); everything else in S is a tombstone. Liveness is
applied inside each Tantivy query (a path filter) so tombstones never take a top-k slot.
Readers take no lock: HEAD is read once and segments are immutable, so a snapshot stays whole even if a
writer publishes meanwhile.

Also the lexical side of the read path's engine calls: a filter spec compiled into Tantivy clauses,
query text parsed, term prefixes expanded, so no stream reaches into a segment's engine.

Does not own: ranking (fusion.py, search.py), or writing anything (index/, store/).
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO

import indexlib.engines.lexical as lexical
from indexlib.engines.lexical import LexicalSegment, StoredNode
from indexlib.engines.lexical import Query as LexQuery
from indexlib.errors import IndexCorrupt
from indexlib.records import (
    CHUNK_LINES,
    OTHER_BODY,
    REDACTED,
    WINDOW_LINES,
    Node,
    NodeKind,
    Ref,
    RefKind,
)
from indexlib.store.manifest import Manifest, SegmentEntry
from indexlib.store.store import Store, vectors_dirname
from indexlib.store.verify import check_openable

if TYPE_CHECKING:
    from indexlib.engines.vectors import VectorSegment

_INDENT_CHECK = 32  # characters of a node's first line its file line must go on with
_INDENT_READ = 256  # bytes read before a node's offset to find its line's start


# Tantivy files whose damage can panic the reader, checked on open: term dictionaries, fast fields,
# and the doc store (an altered byte in a compressed block decompresses into a document whose
# lengths run past its buffer: "range end index 4278205855 out of range"). The doc store is the
# largest of them: its checksum costs about 11 ms per process for vuejs/core's 5.9 MB.
PANIC_PRONE = (".term", ".fast", ".store")
_REPAIR_HINT = "run `qry verify`; `qry index` rebuilds damaged files from the source"


class SegmentHandle:
    """A segment of the snapshot with its lazily opened engines and liveness filter."""

    __slots__ = ("_dead_query", "_lexical", "_vectors", "dead_paths", "directory", "entry", "store")

    def __init__(self, store: Store, entry: SegmentEntry, directory: Path, dead_paths: list[str]) -> None:
        self.store = store
        self.entry = entry
        self.directory = directory
        self.dead_paths = dead_paths  # this segment's paths now owned elsewhere: its tombstones
        self._dead_query: LexQuery | None = None
        self._lexical: LexicalSegment | None = None
        self._vectors: Any = None

    @property
    def id(self) -> str:
        return self.entry.id

    def lexical(self) -> LexicalSegment:
        """The Tantivy index of this segment. Its term dictionaries, fast fields and doc store are
        checksummed the first time this process opens it: an altered byte there makes Tantivy panic,
        and Rust's panic hook prints `thread ... panicked at ...` on stderr before qry can say what
        broke."""
        if self._lexical is None:
            problems = self.store.check_contents(self.entry, prefix="tantivy/", suffixes=PANIC_PRONE)
            if problems:
                raise IndexCorrupt(
                    f"index file {problems[0].path} is damaged: {problems[0].detail}", hint=_REPAIR_HINT
                )
            self._lexical = LexicalSegment(self.directory / "tantivy", self.store.path)
        return self._lexical

    def vectors(self, model_id: str) -> VectorSegment | None:
        """The vector index of this segment for `model_id`, or None if it has none yet.

        The vector files are checksummed against the manifest the first time this process opens them
        (xxh3 reads a few GB/s: ~1 ms per 3 MB of vectors): a flipped sign or a changed key would
        still load and give other answers with no error, so a damaged file is IndexCorrupt naming it.
        """
        if self._vectors is None:
            dirname = vectors_dirname(model_id)
            vdir = self.directory / dirname
            if not vdir.is_dir():
                return None
            problems = self.store.check_contents(self.entry, prefix=dirname + "/")
            if problems:
                raise IndexCorrupt(
                    f"index file {problems[0].path} is damaged: {problems[0].detail}", hint=_REPAIR_HINT
                )
            from indexlib.engines.vectors import VectorSegment

            self._vectors = VectorSegment.open(vdir)
        vec: VectorSegment = self._vectors
        return vec

    def liveness(self) -> tuple[str, LexQuery] | None:
        """The clause that hides this segment's tombstones (built once), or None if it has none."""
        if not self.dead_paths:
            return None
        if self._dead_query is None:
            self._dead_query = lexical.term_set("path", self.dead_paths)
        return ("must_not", self._dead_query)


class Snapshot:
    """A read-only view of one publish root."""

    __slots__ = ("_addr", "_by_path", "_cache", "manifest", "root_id", "segments", "store")

    def __init__(self, store: Store, root_id: str, manifest: Manifest, segments: list[SegmentHandle]) -> None:
        self.store = store
        self.root_id = root_id
        self.manifest = manifest
        self.segments = segments
        self._cache: dict[int, StoredNode | None] = {}
        # Where a live node was last seen by a search: `node(uid)` fetches it there instead of
        # searching every segment for its uid again.
        self._addr: dict[int, tuple[SegmentHandle, lexical.DocHit]] = {}
        self._by_path: dict[str, list[StoredNode]] = {}

    @classmethod
    def open(cls, store: Store, root: str | None = None) -> Snapshot:
        root_id, manifest = store.load(root)
        check_openable(store, root_id, manifest)
        handles = [
            SegmentHandle(
                store=store,
                entry=entry,
                directory=store.segment_dir(entry.id),
                dead_paths=manifest.tombstones.get(entry.id, []),
            )
            for entry in manifest.segments
        ]
        return cls(store=store, root_id=root_id, manifest=manifest, segments=handles)

    # -- lookups --------------------------------------------------------------------------------

    def is_live(self, segment_id: str, path: str) -> bool:
        rec = self.manifest.files.get(path)
        return rec is not None and rec.segment == segment_id

    def is_generated(self, path: str) -> bool:
        """Whether the indexed file `path` carries a generated-code marker (ranked as supporting code)."""
        rec = self.manifest.files.get(path)
        return rec is not None and rec.generated

    def parse_terms(self, text: str, fields: Sequence[str], boosts: dict[str, float]) -> LexQuery | None:
        """`text` (quoted terms) as one Tantivy query over `fields`, or None if the root has no segment.
        Every segment shares the schema, so the first one's parser serves them all."""
        if not self.segments:
            return None
        return self.segments[0].lexical().parse(text, list(fields), boosts)

    def terms_with_prefix(self, fields: Sequence[str], prefix: str, limit: int) -> set[str]:
        """The indexed terms of `fields` starting with `prefix`, up to `limit` per segment and field."""
        found: set[str] = set()
        for seg in self.segments:
            for field in fields:
                found.update(seg.lexical().terms_with_prefix(field, prefix, limit))
        return found

    def term_stats(self, field: str, terms: Sequence[str]) -> tuple[int, dict[str, int]]:
        """(documents, document frequency of each term in `field`), summed over the root's segments
        (tombstoned documents included: the term dictionary does not know liveness)."""
        docs = 0
        df = dict.fromkeys(terms, 0)
        for seg in self.segments:
            lex = seg.lexical()
            docs += lex.num_docs
            for t in df:
                df[t] += lex.doc_freq(field, t)
        return docs, df

    def content_length(self) -> float | None:
        """Mean analysed `content` terms per stored node, over the root's segments (tombstoned nodes
        included, as each segment's BM25 length norm counts them); None when a segment predates the
        count (SegmentEntry.content_terms) or the root is empty."""
        nodes = terms = 0
        for seg in self.segments:
            if seg.entry.nodes and not seg.entry.content_terms:
                return None
            nodes += seg.entry.nodes
            terms += seg.entry.content_terms
        return terms / nodes if nodes else None

    def search(
        self,
        query: lexical.Query,
        limit: int,
        *,
        filters: Sequence[tuple[str, lexical.Query]] = (),
        newest: bool = False,
    ) -> list[tuple[float, SegmentHandle, lexical.DocHit]]:
        """Run one Tantivy query on every segment (live nodes only), merged by score, best first
        (with `newest`: by the time each node last changed, newest first)."""
        out: list[tuple[float, SegmentHandle, lexical.DocHit]] = []
        for seg in self.segments:
            clauses: list[tuple[str, lexical.Query]] = [("must", query), *filters]
            live = seg.liveness()
            if live is not None:
                clauses.append(live)
            q = lexical.boolean(clauses) if len(clauses) > 1 else query
            for hit in seg.lexical().search(q, limit, newest):
                out.append((hit.score, seg, hit))
        out.sort(key=lambda t: -t[0])
        return out[:limit]

    def search_uids(
        self, query: lexical.Query, limit: int, *, filters: Sequence[tuple[str, lexical.Query]] = ()
    ) -> list[tuple[float, int, str]]:
        """Like `search`, but only (score, uid, segment id): no stored document is fetched."""
        hits = self.search(query, limit, filters=filters)
        by_seg: dict[str, list[int]] = {}
        for i, (_s, seg, _h) in enumerate(hits):
            by_seg.setdefault(seg.id, []).append(i)
        uids = [0] * len(hits)
        for idxs in by_seg.values():
            seg = hits[idxs[0]][1]
            for i, uid in zip(idxs, seg.lexical().uids([hits[i][2] for i in idxs]), strict=True):
                uids[i] = uid
                self._addr.setdefault(uid, (seg, hits[i][2]))
        return [(score, uids[i], seg.id) for i, (score, seg, _h) in enumerate(hits)]

    def stored(self, seg: SegmentHandle, hit: lexical.DocHit) -> StoredNode:
        node = seg.lexical().stored(hit.address)
        self._cache[node.node.uid] = node
        return node

    def node(self, uid: int) -> StoredNode | None:
        """The live node with this uid, or None."""
        if uid in self._cache:
            return self._cache[uid]
        found: StoredNode | None = None
        if uid in self._addr:
            seg, hit = self._addr[uid]
            return self.stored(seg, hit)
        q = lexical.term("uid", f"{uid:016x}")
        for _score, seg, hit in self.search(q, 4):
            found = self.stored(seg, hit)
            break
        self._cache[uid] = found
        return found

    def lookup(self, field: str, value: str, limit: int = 200) -> list[StoredNode]:
        """Live nodes whose raw field equals value (e.g. name_exact, calls, parent, path)."""
        return [self.stored(seg, hit) for _s, seg, hit in self.search(lexical.term(field, value), limit)]

    def nodes_in_file(self, path: str) -> list[StoredNode]:
        if path not in self._by_path:
            nodes = self.lookup("path", path, limit=10_000)
            nodes.sort(key=lambda s: (s.node.start_byte, s.node.part))
            self._by_path[path] = nodes
        return self._by_path[path]

    def file_imports(self, path: str) -> list[Ref]:
        """The imports a file makes (every node's `imports` references, as written)."""
        return [r for s in self.nodes_in_file(path) for r in s.refs if r.kind == RefKind.IMPORTS]

    def first_part(self, node: Node) -> Node:
        """The definition a window of a split node belongs to: its part 0 (`node` itself when it is)."""
        if node.part == 0:
            return node
        before = [
            s.node
            for s in self.nodes_in_file(node.path)
            if s.node.part == 0
            and s.node.qualified_name == node.qualified_name
            and s.node.kind == node.kind
            and s.node.start_line < node.start_line
        ]
        return max(before, key=lambda m: m.start_line) if before else node

    def later_parts(self, node: Node) -> list[StoredNode]:
        """The windows that follow `node` of the definition it is a part of (parts node.part + 1, ...),
        in order, up to the next same-named definition (an overload), whose parts are its own. A node
        shorter than any window has none, and its file is not read for them."""
        if node.end_line - node.start_line + 1 < min(WINDOW_LINES, CHUNK_LINES):
            return []
        out: list[StoredNode] = []
        for s in sorted(self.nodes_in_file(node.path), key=lambda s: s.node.start_line):
            m = s.node
            if (
                m.start_line <= node.start_line
                or m.qualified_name != node.qualified_name
                or m.kind != node.kind
            ):
                continue
            if m.part == 0:
                break  # a same-named overload begins
            if m.part == node.part + len(out) + 1:
                out.append(s)
        return out

    def hidden_lines(self, node: Node) -> frozenset[int]:
        """For a module remainder, the lines other nodes own (its text keeps only their line breaks,
        so it has nothing of its own there); empty for any other node, whose text elides only the
        bodies of the definitions nested in it (`nested`, retrieval/elision.py)."""
        if node.kind != NodeKind.MODULE:
            return frozenset()
        lines: set[int] = set()
        for stored in self.nodes_in_file(node.path):
            other = stored.node
            if other.kind != NodeKind.MODULE and other.uid != node.uid:
                lines.update(range(other.start_line, other.end_line + 1))
        return frozenset(lines)

    def nested(self, node: Node) -> list[Node]:
        """The nodes of `node`'s file inside its span (none for a module remainder, whose span is
        the file's): the definitions whose bodies its text elides, and theirs. A text holding no
        elision marker elides nothing, and its file's nodes are not fetched."""
        if node.kind == NodeKind.MODULE or OTHER_BODY not in node.text:  # in every marker
            return []
        return [
            other
            for stored in self.nodes_in_file(node.path)
            if (other := stored.node).kind != NodeKind.MODULE
            and other.uid != node.uid
            and node.start_line <= other.start_line <= other.end_line <= node.end_line
        ]

    def first_line_indent(self, node: Node) -> str:
        """The whitespace before `node` on its first line, read from the source file ("" when unknown).

        Node text starts at the node's first character (a method's `def`, not its indentation). Only a
        file unchanged since the root (size and mtime as recorded) is read, and only if its line holds
        the node's text after the whitespace, so a snippet never shows what the file does not hold.
        The line is looked for at `start_byte` first (one short read), then by its number: redaction
        replaces secrets before parsing, so byte offsets count the redacted text (a node after a
        shortened secret is bytes away from where its offset says), while line numbers are the
        file's (redact.py).
        """
        rec = self.manifest.files.get(node.path)
        if rec is None or node.start_line < 1:
            return ""
        # The text the file's line must go on with: the first line, up to any redaction in it.
        head = node.text.split("\n", 1)[0].split(REDACTED, 1)[0][:_INDENT_CHECK].encode("utf-8")
        if not head:
            return ""
        try:
            with open(Path(self.manifest.source_root) / node.path, "rb") as f:
                st = os.fstat(f.fileno())
                if st.st_size != rec.size or st.st_mtime_ns != rec.mtime_ns:
                    return ""
                line = _line_at(f, node.start_byte, head)
                if line is None:  # the offset is the redacted text's: find the line by its number
                    line = next(itertools.islice(f, node.start_line - 1, None), b"")
        except OSError:
            return ""
        rest = line.lstrip(b" \t")
        if not rest.startswith(head):
            return ""
        return line[: len(line) - len(rest)].decode("ascii")

    def iter_live_nodes(self) -> Iterator[tuple[SegmentHandle, StoredNode]]:
        """Every live node (used by compaction, status and evaluation, not by queries)."""
        for seg in self.segments:
            q = lexical.all_docs()
            live = seg.liveness()
            if live is not None:
                q = lexical.boolean([("must", q), live])
            lex = seg.lexical()
            for hit in lex.search(q, max(lex.num_docs, 1)):
                yield seg, lex.stored(hit.address)

    @property
    def node_count(self) -> int:
        return sum(rec.nodes for rec in self.manifest.files.values())


def _line_at(f: BinaryIO, offset: int, head: bytes) -> bytes | None:
    """The start of the file line holding byte `offset`, through `head`, when the file holds `head`
    at `offset` after blanks only (a seek and one short read, where finding the line by its number
    reads the file up to it); None otherwise, with `f` back at its start."""
    before = max(0, offset - _INDENT_READ)
    f.seek(before)
    data = f.read(offset - before + len(head))
    f.seek(0)
    line_start = data.rfind(b"\n", 0, offset - before) + 1
    if line_start == 0 and before > 0:
        return None  # a longer run than was read: not only blanks
    line = data[line_start:]
    return line if line.lstrip(b" \t") == head else None
