"""The parse stage: read, redact, parse and analyse each changed file, in a fork pool when there are many,
and spill the results to disk file by file.

Owns: the per-file work (`_read_and_parse`), running it in a pool (`indexlib/workers.py`), and
the spill file: each file's nodes, references, analysed node text (`lexterms.NodeTerms`) and n-gram
text (`gramsource.gram_text`: None for a file that held a secret), computed here so the
analyzer runs on every core rather than in the one process that writes the segment, go to
`parsed.msgpack` in a staging folder as they come, and only a light copy of each node (no text) stays
in memory, for the git-times pass that needs every node's line range. Memory is bounded by a file's
nodes, not the change's.
Does not own: the parsers (`indexlib/index/parsing/`), redaction rules (`redact.py`), which files
changed (`plan.py`), or the segment the spill becomes (`write.py`).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Generator, Iterator, Sequence
from contextlib import closing
from dataclasses import dataclass, field
from pathlib import Path

import msgspec
import xxhash

from indexlib.engines.lexterms import NodeTerms, node_terms
from indexlib.errors import IndexCorrupt
from indexlib.index.build.options import BuildOptions, BuildReport, ParseMap, Progress
from indexlib.index.build.skips import SkipLog
from indexlib.index.discover import Skipped, SourceFile, load
from indexlib.index.gramsource import gram_text
from indexlib.index.parsing import parse_file
from indexlib.index.redact import redact
from indexlib.index.segtables import FileChunk
from indexlib.records import Node, ParsedFile
from indexlib.store.store import Store
from indexlib.workers import available_cores, start_pool

__all__ = ["PARALLEL_MIN_FILES", "PARSE_WORKERS_MAX", "Spill", "parse_and_spill", "parse_cores", "read_spill"]

# Parsing runs in worker processes when enough files changed to pay for them (start-up ~50 ms each).
PARALLEL_MIN_FILES = 64
PARSE_WORKERS_MAX = 8  # past this, more parse workers mostly contend for the spill and the disk

# (parsed, secrets redacted, file hash, each node's analysed text, the file's n-gram text) or the
# reason the file was skipped
ParseOutcome = tuple[ParsedFile, int, str, list[NodeTerms], str | None] | str

_TABLE_ENCODER = msgspec.msgpack.Encoder()
_PARSED_DECODER = msgspec.msgpack.Decoder(ParseOutcome)


class _SpillRecord(msgspec.Struct, array_like=True, gc=False):
    """One parsed file in the spill: its chunk, its nodes' analysed text (in `chunk.nodes` order) and
    its n-gram text."""

    chunk: FileChunk
    terms: list[NodeTerms]
    grams: str | None


_SPILL_DECODER = msgspec.msgpack.Decoder(_SpillRecord)
_LEN = 4  # bytes of the little-endian length before each record


@dataclass(slots=True)
class Spill:
    """The parse stage's output: the spill file, a text-free copy of every node, and per parsed file
    (file, content hash, node count), in the order the chunks were spilled."""

    dir: Path  # the staging folder holding `path`; removed once the segment is written
    path: Path
    light: list[Node] = field(default_factory=list)
    meta: list[tuple[SourceFile, str, int]] = field(default_factory=list)


def parse_and_spill(
    store: Store,
    to_parse: Sequence[tuple[SourceFile, str]],
    opts: BuildOptions,
    report: BuildReport,
    skipped: SkipLog,
    progress: Progress,
    parse_map: ParseMap | None = None,
    on_file: Callable[[str, list[Node], bool], None] | None = None,
) -> Spill:
    """Parse every file of `to_parse` into the spill file; skips are counted into `skipped`.
    `on_file(path, nodes, generated)` sees each parsed file's nodes (redacted) once spilled."""
    spill_dir = store.stage()
    out = Spill(dir=spill_dir, path=spill_dir / "parsed.msgpack")
    # closing(): a Ctrl-C in this loop's body stops the parse pool at once, not when the suspended
    # generator is collected after the error was reported.
    with open(out.path, "wb") as spill, closing(_parse_all(to_parse, opts, parse_map)) as outcomes:
        for i, (src, outcome) in enumerate(outcomes):
            progress("parse", i + 1, len(to_parse))
            if isinstance(outcome, str):  # skipped when read again (it changed or vanished meanwhile)
                skipped.add(src.path, outcome, "when read again to parse")
                continue
            parsed, red, digest, terms, grams = outcome
            report.redacted += red
            if parsed.skip:
                skipped.add(src.path, parsed.skip, parsed.note)
            chunk = FileChunk(path=src.path, nodes=parsed.nodes, refs=parsed.refs)
            data = _TABLE_ENCODER.encode(_SpillRecord(chunk=chunk, terms=terms, grams=grams))
            spill.write(len(data).to_bytes(_LEN, "little"))
            spill.write(data)
            out.light.extend(msgspec.structs.replace(n, text="", doc="", signature="") for n in parsed.nodes)
            out.meta.append((src, digest, len(parsed.nodes)))
            if on_file is not None:
                on_file(src.path, parsed.nodes, src.generated)
    return out


def parse_cores(files: int, parse_map: ParseMap | None = None) -> int:
    """How many of this machine's cores the parse of `files` files keeps busy: one when it runs in
    this process, a worker per core (up to PARSE_WORKERS_MAX) for many, all of them when
    `parse_map` runs it (Ray's local workers share these cores)."""
    cores = available_cores()
    if parse_map is not None:
        return cores
    workers = min(cores, PARSE_WORKERS_MAX)
    if files < PARALLEL_MIN_FILES or workers < 2 or not hasattr(os, "fork"):
        return 1
    return workers


def read_spill(spill: Spill) -> Iterator[tuple[FileChunk, list[NodeTerms], str | None]]:
    """Stream the spilled files in the order they were parsed: each chunk, its analysed node text and
    its n-gram text."""
    try:
        with open(spill.path, "rb") as fh:
            while head := fh.read(_LEN):
                size = int.from_bytes(head, "little")
                data = fh.read(size)
                if len(head) < _LEN or len(data) < size:
                    raise IndexCorrupt(f"{spill.path} is truncated", hint="run `qry index` again")
                record = _SPILL_DECODER.decode(data)
                yield record.chunk, record.terms, record.grams
    except (OSError, msgspec.DecodeError) as exc:
        raise IndexCorrupt(f"cannot read {spill.path}: {exc}", hint="run `qry index` again") from exc


def _parse_one(src: SourceFile, data: bytes, opts: BuildOptions) -> tuple[ParsedFile, int]:
    """Redact the file's text once (lines are preserved, so line numbers stay true), then parse it.

    Redacting before parsing, rather than per node, is cheaper and catches a key block that spans
    two nodes; byte offsets then refer to the redacted text, which is the text we store.
    """
    redacted = 0
    if opts.redact:
        text, redacted = redact(data.decode("utf-8", errors="replace"))
        if redacted:
            data = text.encode("utf-8")
    parsed = parse_file(src.path, data, src.language, max_nodes=opts.max_nodes_per_file)
    return parsed, redacted


def _read_and_parse(src: SourceFile, opts: BuildOptions) -> ParseOutcome:
    """Read a changed file (again: its bytes were not kept since hashing), check it, redact, parse,
    and analyse its text for the lexical and n-gram indexes.

    The hash is taken of the bytes actually parsed, so a file edited between the two reads is
    recorded as what was indexed. A file redaction changed gets no n-gram text: its trigrams would
    spell the secret out (the rule of `gramsource.py`).
    """
    loaded = load(src, max_file_bytes=opts.max_file_bytes)
    if isinstance(loaded, Skipped):
        return loaded.reason
    data = loaded.data or b""
    parsed, redacted = _parse_one(loaded, data, opts)
    terms = [node_terms(n) for n in parsed.nodes]
    grams = gram_text(data, redacted)
    return parsed, redacted, xxhash.xxh3_128_hexdigest(data), terms, grams


def _parse_job(job: tuple[SourceFile, BuildOptions]) -> bytes:
    """Worker side: read and parse one file, return msgpack bytes (cheaper to ship than pickles)."""
    src, opts = job
    return _TABLE_ENCODER.encode(_read_and_parse(src, opts))


def _parse_all(
    to_parse: Sequence[tuple[SourceFile, str]], opts: BuildOptions, parse_map: ParseMap | None = None
) -> Generator[tuple[SourceFile, ParseOutcome], None, None]:
    """Parse files in order: in this process for a few, in a fork pool of one worker per core for many,
    or through `parse_map` when one is given (every file, so the result never depends on counts)."""
    if parse_map is not None:
        mapped = parse_map(_parse_job, [(src, opts) for src, _digest in to_parse])
        for (src, _digest), encoded in zip(to_parse, mapped, strict=True):
            yield src, _PARSED_DECODER.decode(encoded)
        return
    workers = parse_cores(len(to_parse))
    if workers < 2:
        for src, _digest in to_parse:
            yield src, _read_and_parse(src, opts)
        return
    jobs = ((src, opts) for src, _digest in to_parse)
    # fork: workers inherit the loaded grammars and modules; tree-sitter holds no threads at this point.
    pool = start_pool(workers)
    try:
        results = pool.imap(_parse_job, jobs, chunksize=8)
        for (src, _digest), encoded in zip(to_parse, results, strict=True):
            yield src, _PARSED_DECODER.decode(encoded)
    finally:  # done, Ctrl-C here, or the caller closed us (GeneratorExit) after its own Ctrl-C
        pool.terminate()  # workers stop mid-file; the pool's threads are joined
