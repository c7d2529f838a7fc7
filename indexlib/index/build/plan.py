"""The first stages of a build: what the previous root holds, which files exist now, which changed.

Owns: loading the previous root (an older format is rebuilt, damaged files are set aside), discovery
with path redaction, and the incremental rules that classify each file. A file whose (size, mtime)
match the previous root is reused without reading it; a file whose bytes hash the same is reused (its
record gets the new mtime); anything else is re-parsed whole, so each file's nodes live in exactly one
segment and re-parsing a file tombstones its old copy.
Does not own: parsing (`parse.py`), writing segments (`write.py`), the walk's rules (`discover.py`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import msgspec
import xxhash

from indexlib.errors import FormatVersionError
from indexlib.index.build.options import BuildOptions, BuildReport
from indexlib.index.build.skips import SkipLog
from indexlib.index.discover import Skipped, SourceFile, discover, load
from indexlib.index.parsing import PARSER_VERSION
from indexlib.index.redact import redact_path
from indexlib.records import SkipReason
from indexlib.store.manifest import FORMAT_VERSION, FileRecord, Manifest, SegmentEntry
from indexlib.store.store import Store, is_attachment

__all__ = ["Plan", "Previous", "classify", "discover_sources", "load_previous"]


@dataclass(slots=True)
class Previous:
    """The root this build starts from: its id and manifest (None for a first or rebuilt index) and
    the file records that may be reused (fewer than the manifest's when some must be parsed again)."""

    id: str | None = None
    manifest: Manifest | None = None
    files: dict[str, FileRecord] = field(default_factory=dict)


@dataclass(slots=True)
class Plan:
    """What the build will do with each file: reuse its record, parse it, or drop it."""

    files: dict[str, FileRecord]  # reused records now; the build adds the parsed files' records
    to_parse: list[tuple[SourceFile, str]]  # (file, content hash), in path order
    removed: list[str]  # paths of the previous root that no longer exist (or are skipped now)
    skipped: SkipLog


def load_previous(store: Store, opts: BuildOptions, report: BuildReport) -> Previous:
    """The previous root to build on, checked; `report` learns of a format rebuild and of repairs."""
    prev_id = None if opts.rebuild else store.head()
    prev: Manifest | None = None
    if prev_id is not None:
        try:
            prev_id, prev = store.load(prev_id)
        except FormatVersionError as exc:
            # An index is a cache: one an older qry wrote is rebuilt in the current format. One a newer
            # qry wrote is left alone (this qry cannot know what it would destroy).
            if not (isinstance(exc.found, int) and exc.found < FORMAT_VERSION):
                raise
            prev_id, prev = None, None
            report.rebuilt_from_version = exc.found
    prev_files = prev.files if prev else {}
    if prev is not None:
        prev, prev_files, report.repaired = _set_aside_damage(store, prev)
    if prev is not None and prev.settings.get("redact", "true") != str(opts.redact).lower():
        # Redaction changed: unchanged files were stored under the other setting (secrets kept, or
        # redacted), so every file is parsed again; the old segments all become tombstones.
        prev_files = {}
    elif prev is not None and prev.settings.get("parser") != str(PARSER_VERSION):
        # Another qry parsed these files differently (a language added, a definition read anew): the
        # same, so that an unchanged file does not keep what the old parser made of it.
        prev_files = {}
        report.reparsed = True
    return Previous(id=prev_id, manifest=prev, files=prev_files)


def _set_aside_damage(store: Store, prev: Manifest) -> tuple[Manifest, dict[str, FileRecord], list[str]]:
    """Check every file of the previous root by checksum before any of it is reused or rewritten.

    Why: compaction and re-embedding copy what they read, so a damaged byte would be laundered into
    a new segment with a fresh, matching checksum (and `qry verify` would then say ok). A segment whose
    base files (tables, Tantivy) are damaged is rebuilt from the source: its files are dropped from
    the previous file list, so they are parsed again into the new segment and the damaged one loses
    its last owner (a rebuilt segment of the same id replaces the damaged files, see
    `Store.commit_segment`). Damaged vector files are dropped from the segment entry, so they are
    embedded again. Returns the manifest to build on, its file list and the damaged paths.
    """
    damaged: list[str] = []
    rebuilt: set[str] = set()
    segments: list[SegmentEntry] = []
    for seg in prev.segments:
        problems = store.check_contents(seg)
        if not problems:
            segments.append(seg)
            continue
        damaged += [p.path for p in problems]
        label = f"segments/{seg.id}/"
        in_vectors = [p.path.startswith(label) and is_attachment(p.path[len(label) :]) for p in problems]
        if all(in_vectors):
            base = [f for f in seg.files if not is_attachment(f.name)]
            segments.append(msgspec.structs.replace(seg, files=base, vectors=None))
        else:
            rebuilt.add(seg.id)
            segments.append(seg)
    if not damaged:
        return prev, prev.files, []
    files = {path: rec for path, rec in prev.files.items() if rec.segment not in rebuilt}
    return msgspec.structs.replace(prev, segments=segments), files, damaged


def discover_sources(root: Path, opts: BuildOptions, report: BuildReport) -> tuple[list[SourceFile], SkipLog]:
    """The files to index (path-redacted, in stored-path order) and the skips so far."""
    sources: list[SourceFile] = []
    skipped = SkipLog()
    # read=False: only stat now; files whose (size, mtime) differ from the previous root are loaded
    # (read once, content-checked) by `classify`, so an unchanged tree costs a directory walk and no reads.
    for item in discover(
        root, max_file_bytes=opts.max_file_bytes, include_vendored=opts.include_vendored, read=False
    ):
        if isinstance(item, Skipped):
            if opts.redact:  # a path or a symlink's target may name a secret, as indexed paths may
                item = Skipped(
                    path=redact_path(item.path), reason=item.reason, detail=redact_path(item.detail)
                )
            skipped.add(item.path, item.reason, item.detail)
        else:
            sources.append(item)
    if opts.redact:
        sources, report.redacted = _redact_paths(sources, skipped)
    return sources, skipped


def _redact_paths(sources: list[SourceFile], skipped: SkipLog) -> tuple[list[SourceFile], int]:
    """Replace secrets in file paths (the file is still read through its real path, `src.real`).

    A redacted path that equals another file's path is skipped (`ignored`): two files cannot share a
    path in the index, and naming the secret to tell them apart would defeat the redaction. Returns
    the sources (sorted by their stored path) and how many paths were redacted.
    """
    taken = {src.path for src in sources}
    out: list[SourceFile] = []
    redacted = 0
    for src in sources:
        clean = redact_path(src.path)
        if clean != src.path:
            if clean in taken:
                skipped.add(
                    clean, SkipReason.IGNORED.value, "its path with secrets redacted is another file's"
                )
                continue
            taken.add(clean)
            redacted += 1
            src = msgspec.structs.replace(src, path=clean, abspath=redact_path(src.abspath))
        out.append(src)
    out.sort(key=lambda src: src.path)
    return out, redacted


def classify(
    sources: list[SourceFile],
    skipped: SkipLog,
    prev_files: dict[str, FileRecord],
    opts: BuildOptions,
    report: BuildReport,
) -> Plan:
    """Sort `sources` into reused and to-parse files; `report` gets the added/changed/removed counts."""
    files: dict[str, FileRecord] = {}
    # Changed files are hashed now and read again by the parser: holding every changed file's bytes
    # until parsing would make memory grow with the size of the change.
    to_parse: list[tuple[SourceFile, str]] = []
    for src in sources:
        old = prev_files.get(src.path)
        if old is not None and old.size == src.size and old.mtime_ns == src.mtime_ns:
            files[src.path] = old
            continue
        loaded = load(src, max_file_bytes=opts.max_file_bytes)
        if isinstance(loaded, Skipped):
            skipped.add(src.path, loaded.reason, loaded.detail)
            continue
        src, data = loaded, loaded.data or b""
        digest = xxhash.xxh3_128_hexdigest(data)
        if old is not None and old.hash == digest:
            files[src.path] = msgspec.structs.replace(old, mtime_ns=src.mtime_ns, size=src.size)
            continue
        to_parse.append((msgspec.structs.replace(src, data=None), digest))
    removed = [p for p in prev_files if p not in files and p not in {s.path for s, _h in to_parse}]
    report.removed = len(removed)
    report.added = sum(1 for s, _h in to_parse if s.path not in prev_files)
    report.changed = len(to_parse) - report.added
    report.unchanged = len(files)
    return Plan(files=files, to_parse=to_parse, removed=removed, skipped=skipped)
