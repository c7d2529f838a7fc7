"""Tantivy adapter: the schema, the per-segment writer and reader, and term lookups.

Owns: everything that touches `tantivy` (the only module that imports it). Each segment of a publish root
is its own Tantivy index; callers combine segments. Code-aware term splitting happens in Python
(`indexlib.analyzer`) and lands in whitespace-tokenised fields, because Tantivy's regex tokenizer has no
look-around for camelCase. Prose (doc comments, Markdown) goes through Tantivy's English stemmer instead:
stemming mangles identifiers (parser/parsed/parsing) but helps sentences. The whole-node `content` field
holds those code-aware terms stemmed as well (`CONTENT_TOKENIZER`): it is the field a question is scored
on, and a question inflects the words a name holds ("how are blueprints registered" for
`register_blueprint`), while the name fields stay exact for identifier lookups.

Does not own: ranking across streams (fusion.py), liveness decisions (snapshot.py), query syntax (query.py),
or the pure derivation of a node's lookup terms (lexterms.py, re-exported here).
"""

import functools
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NamedTuple, TypeAlias

import msgspec
import tantivy

from indexlib.engines.lexterms import (
    MAX_RAW,
    PROSE_LANGUAGES,
    NodeTerms,
    StoredNode,
    joined_name,
    last_component,
    module_stem,
    node_terms,
    qualified_suffixes,
    uid_hex,
)
from indexlib.errors import DISK_FULL_HINT, DiskFull, IndexCorrupt, disk_full, not_writable
from indexlib.records import Node, Ref

# Field boosts for BM25 when the query names something (an identifier, a signature, a few keywords):
# names dominate because a developer who types a symbol's name almost always wants that symbol; paths
# and signatures come next; bodies, prose and the whole-node `content` field carry recall.
FIELD_BOOSTS: dict[str, float] = {
    "name_terms": 5.0,
    "qname_terms": 3.0,
    "path_terms": 2.0,
    "signature_terms": 2.0,
    "doc_prose": 1.0,
    "body_terms": 1.0,
    "content": 1.0,
}
# Field boosts when the query is prose (a question, a commit title, a doc sentence): one BM25 over the
# whole node, so evidence from the doc comment and the body adds up under one length norm, plus a
# light name term. Measured on the development set: with the identifier boosts above, a short name
# holding one query word outranked the node whose doc comment is the query, word for word.
PROSE_FIELD_BOOSTS: dict[str, float] = {"content": 1.0, "name_terms": 0.5}
TEXT_FIELDS: tuple[str, ...] = tuple(FIELD_BOOSTS)
# `content`'s analyzer: the Python analyzer's terms (already lower-cased, split on whitespace), each
# reduced by Tantivy's English (Porter) stemmer, so `registered` and `register` meet at `regist`.
CONTENT_TOKENIZER = "qry_code_stem"
STEMMED_FIELDS = frozenset({"content"})


@functools.cache
def _content_analyzer() -> tantivy.TextAnalyzer:
    return (
        tantivy.TextAnalyzerBuilder(tantivy.Tokenizer.whitespace())
        .filter(tantivy.Filter.stemmer("english"))
        .build()
    )


def _register_tokenizers(index: tantivy.Index) -> None:
    """Tantivy knows a custom analyzer only per opened `Index`: every open and every writer registers it."""
    index.register_tokenizer(CONTENT_TOKENIZER, _content_analyzer())


def field_term(field: str, term: str) -> str:
    """`term` as `field` indexes it: stemmed for a stemmed field (`registered` -> `regist`), else as is."""
    if field not in STEMMED_FIELDS:
        return term
    tokens = _content_analyzer().analyze(term)
    return tokens[0] if len(tokens) == 1 else term


def _build_schema() -> tantivy.Schema:
    sb = tantivy.SchemaBuilder()
    # Keys and filters: raw (one token, case kept) so a term query matches exactly.
    sb.add_text_field("uid", stored=False, tokenizer_name="raw", index_option="basic")
    # The uid again as a u64 fast field: a stream that only needs ids reads this column instead of
    # decompressing stored documents (measured: most of a query's time went to fetching 600 docs).
    sb.add_unsigned_field("uid_u64", stored=False, indexed=False, fast=True)
    sb.add_text_field("path", stored=False, tokenizer_name="raw", index_option="basic")
    sb.add_text_field("lang", stored=False, tokenizer_name="raw", index_option="basic")
    sb.add_text_field("kind", stored=False, tokenizer_name="raw", index_option="basic")
    sb.add_text_field("parent", stored=False, tokenizer_name="raw", index_option="basic")
    # Symbol lookups, lower-cased in Python: exact name, separator-free name, every dotted suffix of the
    # qualified name, name trigrams (for fuzzy matching), and the bare names this node calls (callers lookup).
    sb.add_text_field("name_exact", stored=False, tokenizer_name="raw", index_option="basic")
    sb.add_text_field("name_joined", stored=False, tokenizer_name="raw", index_option="basic")
    sb.add_text_field("qsuffix", stored=False, tokenizer_name="raw", index_option="basic")
    sb.add_text_field("name_tri", stored=False, tokenizer_name="whitespace", index_option="freq")
    sb.add_text_field("calls", stored=False, tokenizer_name="raw", index_option="basic")
    sb.add_text_field("bases", stored=False, tokenizer_name="raw", index_option="basic")
    sb.add_text_field("imports", stored=False, tokenizer_name="raw", index_option="basic")
    # BM25 fields.
    sb.add_text_field("name_terms", stored=False, tokenizer_name="whitespace")
    sb.add_text_field("qname_terms", stored=False, tokenizer_name="whitespace")
    sb.add_text_field("path_terms", stored=False, tokenizer_name="whitespace")
    sb.add_text_field("signature_terms", stored=False, tokenizer_name="whitespace")
    sb.add_text_field("doc_prose", stored=False, tokenizer_name="en_stem")
    sb.add_text_field("body_terms", stored=False, tokenizer_name="whitespace")
    # Everything a reader sees of the node in one field (path, qualified name, signature, doc, body):
    # one BM25 length norm over all of it, so a sentence matching the doc and the body adds up instead
    # of each short field's score swinging on its own length.
    sb.add_text_field("content", stored=False, tokenizer_name=CONTENT_TOKENIZER)
    # Node times (git blame or file times) as fast fields: --since/--until/--as-of are range filters
    # inside the engine, so they apply before the top-k cut.
    sb.add_integer_field("created_at", stored=False, indexed=True, fast=True)
    sb.add_integer_field("changed_at", stored=False, indexed=True, fast=True)
    # Stored payload: the whole Node and its refs, msgpack-encoded in a stored-only bytes field, so a hit
    # decodes to the same typed record the build wrote (one schema, no field-by-field drift).
    sb.add_bytes_field("payload", stored=True, indexed=False)
    return sb.build()


@functools.cache
def schema() -> tantivy.Schema:
    """The node schema, built once per process (a Schema is immutable and shared by every segment)."""
    return _build_schema()


_PAYLOAD_ENCODER = msgspec.msgpack.Encoder()
_PAYLOAD_DECODER = msgspec.msgpack.Decoder(StoredNode)


def node_document(node: Node, refs: Sequence[Ref], terms: NodeTerms | None = None) -> tantivy.Document:
    """Build the Tantivy document of one node: analysed fields for BM25, raw fields for lookups.

    `terms` is the node's analysed text when the parse stage computed it (`lexterms.node_terms`).
    """
    if terms is None:
        terms = node_terms(node)
    doc = tantivy.Document()
    doc.add_text("uid", uid_hex(node.uid))
    doc.add_unsigned("uid_u64", node.uid)
    doc.add_text("path", node.path)
    doc.add_text("lang", node.language)
    doc.add_text("kind", node.kind)
    doc.add_text("parent", uid_hex(node.parent_uid) if node.parent_uid else "")
    lname = node.name.lower()[:MAX_RAW]
    doc.add_text("name_exact", lname)
    doc.add_text("name_joined", joined_name(node.name)[:MAX_RAW])
    for suffix in qualified_suffixes(node.qualified_name, node.language):
        doc.add_text("qsuffix", suffix)
    doc.add_text("name_tri", terms.name_tri)
    called = sorted({last_component(r.target) for r in refs if r.kind == "calls" and r.target})
    for c in called:
        doc.add_text("calls", c[:MAX_RAW])
    bases = sorted({last_component(r.target) for r in refs if r.kind in ("inherits", "implements")})
    for b in bases:
        doc.add_text("bases", b[:MAX_RAW])
    for imp in sorted({module_stem(r.target) for r in refs if r.kind == "imports" and r.target}):
        doc.add_text("imports", imp[:MAX_RAW])
    doc.add_text("name_terms", terms.name)
    doc.add_text("qname_terms", terms.qname)
    doc.add_text("path_terms", terms.path)
    doc.add_text("signature_terms", terms.signature)
    prose = node.doc
    if node.language in PROSE_LANGUAGES:
        prose = f"{prose}\n{node.text}" if prose else node.text
    doc.add_text("doc_prose", prose)
    doc.add_text("body_terms", terms.body)
    doc.add_text("content", terms.content)
    # Unknown times index as 0 ("long ago"), so a time filter never silently keeps undated code.
    doc.add_integer("created_at", node.created_at or 0)
    doc.add_integer("changed_at", node.changed_at or 0)
    doc.add_bytes("payload", _PAYLOAD_ENCODER.encode(StoredNode(node=node, refs=list(refs))))
    return doc


_WRITER_HEAP_BYTES = 64_000_000


def _writer_failure(exc: ValueError, out_dir: Path) -> DiskFull | None:
    """The DiskFull to raise for a failed Tantivy write, or None to let the error stand.

    When a background indexing thread dies of ENOSPC, the next `add_document` reports only "An index
    writer was killed", without the OS error. A flush writes up to the heap budget at once, so with
    less than that free on the segment's file system the death is taken for a full disk; otherwise
    the original error stands.
    """
    full = disk_full(exc, str(out_dir))
    if full is not None or "killed" not in str(exc):
        return full
    try:
        stats = os.statvfs(out_dir)
    except OSError:
        return None
    if stats.f_bavail * stats.f_frsize < _WRITER_HEAP_BYTES:
        return DiskFull(f"no space left on device writing {out_dir}", hint=DISK_FULL_HINT)
    return None


class _DocumentWriter:
    """A Tantivy index written document by document, in bounded memory, that dies cleanly.

    One writer thread with a 64 MB heap: the machine has two cores and parsing runs beside us, and
    Tantivy flushes to disk whenever the heap fills, so memory stays bounded however large the segment.
    """

    def __init__(self, out_dir: Path, index_schema: tantivy.Schema) -> None:
        out_dir.mkdir(parents=True, exist_ok=True)
        self._dir = out_dir
        self._index = tantivy.Index(index_schema, path=str(out_dir), reuse=False)

    def _open_writer(self) -> None:
        """Called once the tokenizers are registered: a writer uses those known when it opens."""
        self._writer = self._index.writer(_WRITER_HEAP_BYTES, 1)

    def _add(self, doc: tantivy.Document) -> None:
        try:
            self._writer.add_document(doc)
        except ValueError as exc:
            full = _writer_failure(exc, self._dir)
            if full is None:
                raise
            raise full from exc

    def close(self) -> None:
        try:
            self._writer.commit()
            self._writer.wait_merging_threads()
        except ValueError as exc:
            full = _writer_failure(exc, self._dir)
            if full is None:
                raise
            raise full from exc

    def abort(self) -> None:
        """Give up the index: roll back and drop the writer, so its threads stop writing into the
        staging directory before the caller deletes it. Never raises (it runs on failure paths)."""
        writer = getattr(self, "_writer", None)
        if writer is None:
            return
        del self._writer
        try:
            writer.rollback()
        except Exception:  # a writer that died of ENOSPC may refuse even this
            pass
        del writer


class SegmentIndexWriter(_DocumentWriter):
    """Writes one segment's Tantivy index of nodes."""

    def __init__(self, out_dir: Path) -> None:
        super().__init__(out_dir, schema())
        _register_tokenizers(self._index)
        self._open_writer()
        self.content_terms = 0  # analysed `content` terms over every document added (its length norm)

    def add(self, node: Node, refs: Sequence[Ref], terms: NodeTerms | None = None) -> None:
        if terms is None:
            terms = node_terms(node)
        self.content_terms += len(terms.content.split())
        self._add(node_document(node, refs, terms))


_CORRUPT_HINT = "run `qry verify`, then `qry index --rebuild`"


def _is_read_failure(exc: BaseException) -> bool:
    """Whether an exception from tantivy-py means a file could not be read.

    Tantivy reports an unreadable file as ValueError ("An IO error occurred: ...", a bad decompression)
    or OSError, and some damaged files (a fast-field column) make it panic: pyo3's PanicException, a
    BaseException subclass that no module exports, so it is recognised by name. Queries are built by this
    module, so none of these are errors of the caller's text.
    """
    return isinstance(exc, (ValueError, OSError)) or type(exc).__name__ == "PanicException"


def _open_index(directory: Path, what: str, index_dir: Path) -> tuple[tantivy.Index, tantivy.Searcher]:
    """Open a segment's Tantivy index and its searcher; an unreadable one is IndexCorrupt.

    Opening a reader takes Tantivy's `.tantivy-meta.lock` in `directory`, created and opened for
    writing (tantivy-py 0.27 has no read-only open), so a folder qry may not write to fails here
    whole as it is: that is IndexNotWritable naming `index_dir`, not damage.
    """
    try:
        index = tantivy.Index.open(str(directory))
        _register_tokenizers(index)
        return index, index.searcher()
    except BaseException as exc:
        if not _is_read_failure(exc):
            raise
        refused = not_writable(exc, index_dir, path=directory, reading=True)
        if refused is not None:
            raise refused from exc
        raise IndexCorrupt(f"cannot open the {what} in {directory}: {exc}", hint=_CORRUPT_HINT) from exc


class DocHit(NamedTuple):
    """A matching document of one segment: its BM25 (or lookup) score and stored address."""

    score: float
    address: tantivy.DocAddress


class LexicalSegment:
    """An opened, read-only Tantivy index of one segment.

    Every read turns a Tantivy failure into IndexCorrupt naming the segment directory: checksums are
    not read per query, so a flipped byte shows only when Tantivy reads it (the doc store is decompressed
    when a document is fetched), and it must stop the search with `qry verify`'s hint rather than pass as
    a failed stream, a wrong "no match" or a traceback.
    """

    def __init__(self, directory: Path, index_dir: Path | None = None) -> None:
        """`index_dir` is the index the segment belongs to, named when it cannot be opened."""
        self.directory = directory
        self._index, self._searcher = _open_index(directory, "text index", index_dir or directory)

    def _corrupt(self, what: str, exc: BaseException) -> IndexCorrupt:
        return IndexCorrupt(
            f"the text index in {self.directory} is damaged ({what}: {exc})", hint=_CORRUPT_HINT
        )

    @property
    def num_docs(self) -> int:
        return int(self._searcher.num_docs)

    def parse(self, text: str, fields: Sequence[str], boosts: dict[str, float]) -> tantivy.Query:
        """Parse already-escaped query text (see query.py) against fields with boosts."""
        query, _errors = self._index.parse_query_lenient(text, list(fields), field_boosts=boosts)
        return query

    def search(self, query: tantivy.Query, limit: int, newest: bool = False) -> list[DocHit]:
        """The best `limit` matches; with `newest`, the most recently changed, keyed by that time."""
        if limit <= 0:
            return []
        order = "changed_at" if newest else None
        try:
            result = self._searcher.search(query, limit, count=False, order_by_field=order)
        except BaseException as exc:
            if not _is_read_failure(exc):
                raise
            raise self._corrupt("search", exc) from exc
        return [DocHit(float(score), addr) for score, addr in result.hits]

    def stored(self, address: tantivy.DocAddress) -> StoredNode:
        """Decode the node and refs stored with a document."""
        try:
            payload = self._searcher.doc(address)["payload"][0]
            return _PAYLOAD_DECODER.decode(payload)
        except (KeyError, IndexError, TypeError, msgspec.DecodeError) as exc:
            raise self._corrupt("a stored document does not decode", exc) from exc
        except BaseException as exc:
            if not _is_read_failure(exc):
                raise
            raise self._corrupt("a stored document does not decode", exc) from exc

    def uids(self, hits: Sequence[DocHit]) -> list[int]:
        """The node uids of hits, read from the fast-field column (no stored-document fetch)."""
        if not hits:
            return []
        try:
            values = self._searcher.fast_field_values("uid_u64", [h.address for h in hits])
        except BaseException as exc:
            if not _is_read_failure(exc):
                raise
            raise self._corrupt("uid column", exc) from exc
        return [int(v or 0) for v in values]

    def terms_with_prefix(self, field: str, prefix: str, limit: int) -> list[str]:
        try:
            return [t for t, _n in self._searcher.terms_with_prefix(field, prefix, limit=limit)]
        except BaseException as exc:
            if not _is_read_failure(exc):
                raise
            raise self._corrupt("term dictionary", exc) from exc

    def doc_freq(self, field: str, term: str) -> int:
        """How many documents hold `term` in `field` (the term dictionary only, no postings); `term`
        as the query side has it, so a stemmed field is asked for its stem."""
        try:
            return int(self._searcher.doc_freq(field, field_term(field, term)))
        except BaseException as exc:
            if not _is_read_failure(exc):
                raise
            raise self._corrupt("term dictionary", exc) from exc

    def count(self, query: tantivy.Query) -> int:
        """How many documents match (no scoring, no fetching)."""
        try:
            return int(getattr(self._searcher.search(query, 1, count=True), "count", 0) or 0)
        except BaseException as exc:
            if not _is_read_failure(exc):
                raise
            raise self._corrupt("count", exc) from exc


# Query construction helpers, kept here so no other module needs `tantivy` (the alias: for callers).
Query: TypeAlias = Any


def term(field: str, value: str) -> tantivy.Query:
    return tantivy.Query.term_query(schema(), field, value)


def term_set(field: str, values: Sequence[str]) -> tantivy.Query:
    return tantivy.Query.term_set_query(schema(), field, list(values))


def boolean(clauses: Sequence[tuple[str, tantivy.Query]]) -> tantivy.Query:
    """clauses: ("must" | "should" | "must_not", query)."""
    occ = {"must": tantivy.Occur.Must, "should": tantivy.Occur.Should, "must_not": tantivy.Occur.MustNot}
    return tantivy.Query.boolean_query([(occ[o], q) for o, q in clauses])


def int_range(field: str, lower: int | None, upper: int | None) -> tantivy.Query:
    """Inclusive integer range over a fast field; None leaves a side open."""
    return tantivy.Query.range_query(schema(), field, tantivy.FieldType.Integer, lower, upper)


def boost(query: tantivy.Query, factor: float) -> tantivy.Query:
    return tantivy.Query.boost_query(query, factor)


def all_docs() -> tantivy.Query:
    return tantivy.Query.all_query()


# ---------------------------------------------------------------------------------------------------
# The n-gram index of a segment (`qry grep`): one document per file, its normalised text
# (`gramtext.normalise`) split into every 3-character gram by Tantivy's ngram tokenizer, postings
# without frequencies or positions (a file either has a trigram or not). `ord` is the file's position
# in the segment's path list (`grams.paths`, written beside the index), read from a fast column, so a
# candidate costs no stored-document fetch. `always` marks files the index must not describe (their
# text held a secret that redaction would remove): every query matches them, and they are verified.

GRAMS_TOKENIZER = "qry_trigram"


def _grams_schema() -> tantivy.Schema:
    sb = tantivy.SchemaBuilder()
    sb.add_unsigned_field("ord", stored=False, indexed=False, fast=True)
    sb.add_text_field("grams", stored=False, tokenizer_name=GRAMS_TOKENIZER, index_option="basic")
    sb.add_text_field("always", stored=False, tokenizer_name="raw", index_option="basic")
    return sb.build()


@functools.cache
def _grams_schema_once() -> tantivy.Schema:
    return _grams_schema()


class GramIndexWriter(_DocumentWriter):
    """Writes a segment's n-gram index, one file document at a time (files in path order)."""

    def __init__(self, out_dir: Path) -> None:
        super().__init__(out_dir, _grams_schema_once())
        analyzer = tantivy.TextAnalyzerBuilder(tantivy.Tokenizer.ngram(3, 3, False)).build()
        self._index.register_tokenizer(GRAMS_TOKENIZER, analyzer)
        self._open_writer()
        self._ord = 0

    def add(self, normalised_text: str | None) -> None:
        """The next file's normalised text, or None for a file every query must return."""
        doc = tantivy.Document()
        doc.add_unsigned("ord", self._ord)
        if normalised_text is None:
            doc.add_text("always", "1")
        else:
            doc.add_text("grams", normalised_text)
        self._add(doc)
        self._ord += 1


GramTree: TypeAlias = "str | tuple[str, tuple[GramTree, ...]] | None"


class GramIndex:
    """An opened n-gram index of one segment: a trigram query -> the ordinals of candidate files."""

    def __init__(self, directory: Path, index_dir: Path | None = None) -> None:
        """`index_dir` is the index the segment belongs to, named when it cannot be opened."""
        self.directory = directory
        self._index, self._searcher = _open_index(directory, "n-gram index", index_dir or directory)

    def _query(self, tree: GramTree) -> tantivy.Query:
        if tree is None:
            return tantivy.Query.all_query()
        if isinstance(tree, str):
            return tantivy.Query.term_query(_grams_schema_once(), "grams", tree)
        occur = tantivy.Occur.Must if tree[0] == "and" else tantivy.Occur.Should
        return tantivy.Query.boolean_query([(occur, self._query(child)) for child in tree[1]])

    def candidates(self, tree: GramTree) -> list[int]:
        """Ordinals of the files that may match (all of them for `None`), plus every `always` file."""
        n = int(self._searcher.num_docs)
        if n == 0:
            return []
        q = self._query(tree)
        if tree is not None:
            always = tantivy.Query.term_query(_grams_schema_once(), "always", "1")
            q = tantivy.Query.boolean_query([(tantivy.Occur.Should, q), (tantivy.Occur.Should, always)])
        try:
            hits = self._searcher.search(q, n, count=False).hits
            if not hits:
                return []
            values = self._searcher.fast_field_values("ord", [addr for _score, addr in hits])
        except BaseException as exc:
            if not _is_read_failure(exc):
                raise
            raise IndexCorrupt(
                f"the n-gram index in {self.directory} is damaged ({exc})", hint=_CORRUPT_HINT
            ) from exc
        return [int(v or 0) for v in values]
