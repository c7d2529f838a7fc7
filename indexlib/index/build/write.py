"""The write stage: tombstones, the one new segment, file records, and compaction.

Owns: turning the spill into a segment (streamed chunk by chunk, now with node times), the records of
the files it holds, tombstoning the old copies of changed and removed files, dropping segments no file
owns any more, and the compaction rule. Every run writes at most one new segment (plus, when
compaction triggers, one merged segment instead), so a crash can only leave staging files behind,
which `gc` removes.
Does not own: the segment file format (`indexlib/index/segtables.py`, `indexlib/engines/lexical.py`)
or the manifest that names the segments (`publish.py`).
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import msgspec

from indexlib.index.build.options import BuildOptions, BuildReport, Progress
from indexlib.index.build.parse import Spill, read_spill
from indexlib.index.build.plan import Plan, Previous
from indexlib.index.build.times import NodeTimes
from indexlib.index.gramsource import GramSource, gram_source
from indexlib.index.segtables import FileChunk, SegmentWriter, iter_segment
from indexlib.store.manifest import FileRecord, SegmentEntry
from indexlib.store.store import Store

__all__ = ["MAX_SEGMENTS", "MAX_TOMBSTONE_RATIO", "Layout", "write_stage"]

# Compaction: merge every live node into one segment when a root has more than this many segments, or
# when tombstoned paths pass this share of stored paths. Why: BM25 statistics live per Tantivy index
# (per segment); few segments keep scores comparable, and tombstones cost filter work on every query.
MAX_SEGMENTS = 6
MAX_TOMBSTONE_RATIO = 0.3

FileTimes = dict[str, tuple[int | None, int | None]]  # path -> (earliest created_at, latest changed_at)


@dataclass(slots=True)
class Layout:
    """The new root's segments, file records and tombstones (segment id -> dead paths)."""

    segments: list[SegmentEntry]
    files: dict[str, FileRecord]
    tombstones: dict[str, set[str]]


def write_stage(
    store: Store,
    root: Path,
    opts: BuildOptions,
    prev: Previous,
    plan: Plan,
    spill: Spill,
    times: NodeTimes,
    unchanged: bool,
    report: BuildReport,
    progress: Progress,
) -> Layout:
    """Write what changed (nothing when `unchanged`) and return the layout the new root lists."""
    manifest = prev.manifest
    segments: list[SegmentEntry] = list(manifest.segments) if manifest else []
    tombstones: dict[str, set[str]] = {k: set(v) for k, v in manifest.tombstones.items()} if manifest else {}
    files = plan.files
    if unchanged:
        return Layout(segments=segments, files=files, tombstones=tombstones)
    # Tombstone the old copies of changed and removed files.
    for path in [s_.path for s_, _h in plan.to_parse] + plan.removed:
        old = prev.files.get(path)
        if old is not None:
            tombstones.setdefault(old.segment, set()).add(path)
    if spill.meta:
        entry, file_times = _write_segment(store, spill, times, progress)
        report.nodes_written = entry.nodes
        segments = [s for s in segments if s.id != entry.id] + [entry]
        tombstones.pop(entry.id, None)
        _record_files(files, spill, entry, file_times)
    owners = {rec.segment for rec in files.values()}
    segments = [s for s in segments if s.id in owners]
    tombstones = {s.id: tombstones[s.id] for s in segments if tombstones.get(s.id)}
    stored_paths = sum(s.paths for s in segments) or 1
    if len(segments) > MAX_SEGMENTS or (
        len(segments) > 1 and sum(len(v) for v in tombstones.values()) / stored_paths > MAX_TOMBSTONE_RATIO
    ):
        grams = gram_source(root, redact=opts.redact, max_file_bytes=opts.max_file_bytes)
        segments, files = _compact(store, segments, files, progress, grams)
        tombstones = {}
        report.compacted = True
    return Layout(segments=segments, files=files, tombstones=tombstones)


def _write_segment(
    store: Store, spill: Spill, times: NodeTimes, progress: Progress
) -> tuple[SegmentEntry, FileTimes]:
    """Stream the spilled chunks, now with times, into the new segment; each file's time range too.

    The n-gram text of each file comes from the spill (the parse stage read the file already): the
    writer asks for a path's text while adding its chunk, and `pending` holds just that one.
    """
    pending: dict[str, str | None] = {}
    writer = SegmentWriter(store, grams=pending.pop)
    try:
        file_times: FileTimes = {}
        for i, (chunk, terms, grams) in enumerate(read_spill(spill)):
            pending[chunk.path] = grams
            progress("write", i + 1, len(spill.meta))
            nodes = []
            lo: int | None = None
            hi: int | None = None
            for n in chunk.nodes:
                created, changed = times.get(n.uid, (None, None))
                nodes.append(msgspec.structs.replace(n, created_at=created, changed_at=changed))
                if created is not None:
                    lo = created if lo is None else min(lo, created)
                if changed is not None:
                    hi = changed if hi is None else max(hi, changed)
            file_times[chunk.path] = (lo, hi)
            writer.add(FileChunk(path=chunk.path, nodes=nodes, refs=chunk.refs), terms)
        entry = writer.commit(int(time.time()))
    except BaseException:
        writer.abort()  # stop Tantivy's threads before the staging directory goes
        raise
    return entry, file_times


def _record_files(
    files: dict[str, FileRecord], spill: Spill, entry: SegmentEntry, file_times: FileTimes
) -> None:
    """A record for every parsed file, owned by the new segment."""
    for src, digest, count in spill.meta:
        created, changed = file_times.get(src.path, (None, None))
        files[src.path] = FileRecord(
            hash=digest,
            segment=entry.id,
            size=src.size,
            mtime_ns=src.mtime_ns,
            language=src.language,
            nodes=count,
            created_at=created,
            changed_at=changed,
            generated=src.generated,
        )


def _compact(
    store: Store,
    segments: Sequence[SegmentEntry],
    files: dict[str, FileRecord],
    progress: Progress,
    grams: GramSource,
) -> tuple[list[SegmentEntry], dict[str, FileRecord]]:
    """Merge every live node of `segments` into one new segment, streaming file by file.

    Each segment's chunks are in path order and each path is live in exactly one segment, so a merge of
    the segments' live chunks by path is the whole snapshot in path order: the same chunks a fresh build
    writes, hence the same segment id. Vectors are re-attached from the embedding cache.
    """
    import heapq

    def live(seg: SegmentEntry) -> Iterator[FileChunk]:
        for chunk in iter_segment(store, seg.id):
            rec = files.get(chunk.path)
            if rec is not None and rec.segment == seg.id:
                yield chunk

    writer = SegmentWriter(store, grams=grams)
    try:
        total = sum(1 for rec in files.values() if any(rec.segment == s.id for s in segments))
        for i, chunk in enumerate(heapq.merge(*(live(s) for s in segments), key=lambda c: c.path)):
            writer.add(chunk)
            progress("compact", i + 1, total)
        entry = writer.commit(int(time.time()))
    except BaseException:
        writer.abort()  # stop Tantivy's threads before the staging directory goes
        raise
    new_files = {p: msgspec.structs.replace(r, segment=entry.id) for p, r in files.items()}
    return [entry], new_files
