"""Build or update an index: discover -> parse changed files -> one new segment -> publish -> vectors.

Owns: the write path's orchestration and its incremental rules. Every run writes at most one new segment
(plus, when compaction triggers, one merged segment instead), so a crash can only leave staging files
behind, which `gc` removes; the previous root stays whole because HEAD moves last, atomically.

Incremental rules: a file whose (size, mtime) match the previous root is reused without reading it; a
file whose bytes hash the same is reused (its record gets the new mtime); anything else is re-parsed
whole, so each file's nodes live in exactly one segment and re-parsing a file tombstones its old copy.
Re-indexing an unchanged tree publishes nothing.

Does not own: parsing (parsing/), engines (lexical.py, vectors.py, embed.py), the on-disk format
(store/), or time data (gittimes.py).
"""

from __future__ import annotations

import os
import subprocess
import time
from collections.abc import Callable, Generator, Iterator, Sequence
from contextlib import closing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import msgspec
import xxhash

from indexlib import __version__
from indexlib.errors import FormatVersionError, ModelError, UsageError, disk_full
from indexlib.grep.gramsource import GramSource, gram_source
from indexlib.index.discover import Skipped, SourceFile, discover, load
from indexlib.index.parsing import parse_file
from indexlib.index.redact import redact, redact_path
from indexlib.index.segtables import FileChunk, SegmentWriter, iter_segment, read_chunks, write_chunk
from indexlib.records import Node, ParsedFile, Ref, SkipReason
from indexlib.store.lock import writer_lock
from indexlib.store.manifest import FORMAT_VERSION, FileRecord, Manifest, ModelInfo, SegmentEntry, VectorInfo
from indexlib.store.store import Store, is_attachment, vectors_dirname

# Compaction: merge every live node into one segment when a root has more than this many segments, or
# when tombstoned paths pass this share of stored paths. Why: BM25 statistics live per Tantivy index
# (per segment); few segments keep scores comparable, and tombstones cost filter work on every query.
MAX_SEGMENTS = 6
MAX_TOMBSTONE_RATIO = 0.3

Progress = Callable[[str, int, int], None]  # (stage, done, total)


_TABLE_ENCODER = msgspec.msgpack.Encoder()


@dataclass(slots=True)
class BuildOptions:
    """What `qry index` was asked to do."""

    index_dir: Path | None = None  # default: <root>/.qry
    embed: str = "onnx"  # "onnx" | "none" | "hash" (hash: the deterministic test embedder)
    model_dir: str | None = None
    max_file_bytes: int = 1 << 20
    include_vendored: bool = False
    redact: bool = True
    git_times: bool = True
    rebuild: bool = False
    wait: float = 0.0
    max_nodes_per_file: int = 5000
    threads: int = 0  # embedding model threads; 0: every available core
    shared_cache: bool = True  # also use the user-level vector cache (embedcache.shared_cache_dir)
    background: bool = False  # return after the lexical root; a detached worker computes the vectors


@dataclass(slots=True)
class BuildReport:
    """What a build did, with counts a one-line summary and a closing note can quote."""

    root_id: str = ""
    published: bool = False
    files: int = 0
    changed: int = 0
    added: int = 0
    removed: int = 0
    unchanged: int = 0
    nodes_written: int = 0
    nodes_total: int = 0
    segments: int = 0
    compacted: bool = False
    skipped: dict[str, int] = field(default_factory=dict)
    redacted: int = 0
    embedded: int = 0
    embed_cached: int = 0
    vectors_root: str = ""
    git_commit: str | None = None
    timings: dict[str, float] = field(default_factory=dict)
    index_dir: str = ""
    rebuilt_from_version: int | None = None  # the older on-disk format an index was rebuilt from
    background_pid: int = 0  # the detached worker computing vectors (`BuildOptions.background`)
    repaired: list[str] = field(default_factory=list)  # damaged index files rebuilt from the source

    @property
    def elapsed(self) -> float:
        return sum(self.timings.values())


def default_index_dir(root: Path) -> Path:
    return root / ".qry"


def _git(root: Path, *args: str) -> str | None:
    """A git answer about `root` (which may be a subfolder of a work tree), or None outside git."""
    try:
        out = subprocess.run(
            ["git", "-C", str(root), *args], capture_output=True, text=True, timeout=10, check=False
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.strip() or None if out.returncode == 0 else None


def read_segment_tables(store: Store, seg_id: str) -> tuple[list[Node], list[Ref]]:
    """Every node and reference of a segment, in memory (small segments and tools only: the build
    itself streams them with `segtables.iter_segment`)."""
    nodes: list[Node] = []
    refs: list[Ref] = []
    for chunk in iter_segment(store, seg_id):
        nodes.extend(chunk.nodes)
        refs.extend(chunk.refs)
    return nodes, refs


def _redact_paths(sources: list[SourceFile], skipped: dict[str, int]) -> tuple[list[SourceFile], int]:
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
                skipped[SkipReason.IGNORED.value] = skipped.get(SkipReason.IGNORED.value, 0) + 1
                continue
            taken.add(clean)
            redacted += 1
            src = msgspec.structs.replace(src, path=clean, abspath=redact_path(src.abspath))
        out.append(src)
    out.sort(key=lambda src: src.path)
    return out, redacted


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


EMBED_BATCH = 256  # texts handed to the embedder at once: it sorts them by length into model batches,
# so a larger batch pads less; the caches are appended after each one

PROGRESS_EVERY = 0.5  # seconds between rewrites of the progress file (cache hits come file by file)

# Parsing runs in worker processes when enough files changed to pay for them (start-up ~50 ms each).
PARALLEL_MIN_FILES = 64
_PARSED_DECODER = msgspec.msgpack.Decoder(tuple[ParsedFile, int, str] | str)

ParseOutcome = tuple[ParsedFile, int, str] | str  # (parsed, secrets redacted, file hash) or a skip reason


def _read_and_parse(src: SourceFile, opts: BuildOptions) -> ParseOutcome:
    """Read a changed file (again: its bytes were not kept since hashing), check it, redact, parse.

    The hash is taken of the bytes actually parsed, so a file edited between the two reads is
    recorded as what was indexed.
    """
    loaded = load(src, max_file_bytes=opts.max_file_bytes)
    if isinstance(loaded, Skipped):
        return loaded.reason
    data = loaded.data or b""
    parsed, redacted = _parse_one(loaded, data, opts)
    return parsed, redacted, xxhash.xxh3_128_hexdigest(data)


def _parse_job(job: tuple[SourceFile, BuildOptions]) -> bytes:
    """Worker side: read and parse one file, return msgpack bytes (cheaper to ship than pickles)."""
    src, opts = job
    return _TABLE_ENCODER.encode(_read_and_parse(src, opts))


def _parse_all(
    to_parse: Sequence[tuple[SourceFile, str]], opts: BuildOptions
) -> Generator[tuple[SourceFile, ParseOutcome], None, None]:
    """Parse files in order: in this process for a few, in a fork pool of one worker per core for many."""
    workers = min(cpu_count(), 8)
    if len(to_parse) < PARALLEL_MIN_FILES or workers < 2 or not hasattr(os, "fork"):
        for src, _digest in to_parse:
            yield src, _read_and_parse(src, opts)
        return
    import multiprocessing
    import signal

    jobs = ((src, opts) for src, _digest in to_parse)
    # fork: workers inherit the loaded grammars and modules; tree-sitter holds no threads at this point.
    # Workers ignore SIGINT: Ctrl-C is the parent's to handle; it then stops them (below). Inherited
    # writer-lock descriptors are closed in every forked child by indexlib.store.lock.
    # multiprocessing.Pool, not concurrent.futures: Pool.terminate() is the public way to stop workers
    # mid-task, while stopping a ProcessPoolExecutor's workers races its manager thread in Python 3.11
    # (AttributeError, InvalidStateError or OSError tracebacks, or a hang, a few runs in 20).
    # Ctrl-C while the pool forks its workers would land inside multiprocessing's fork bookkeeping and
    # be swallowed there ("Exception ignored ..."): hold SIGINT until every worker and the pool's
    # threads exist (they inherit the mask, so the signal always reaches this thread), then let it
    # through to the handler below.
    old_mask = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        pool = multiprocessing.get_context("fork").Pool(
            workers, initializer=_worker_init, initargs=(os.getpid(),)
        )
    except BaseException:
        signal.pthread_sigmask(signal.SIG_SETMASK, old_mask)
        raise
    try:
        results = pool.imap(_parse_job, jobs, chunksize=8)
        # A Ctrl-C held since the forks arrives right here: inside the block that stops the pool.
        signal.pthread_sigmask(signal.SIG_SETMASK, old_mask)
        for (src, _digest), encoded in zip(to_parse, results, strict=True):
            yield src, _PARSED_DECODER.decode(encoded)
    except BaseException:  # Ctrl-C here, or the caller closed us (GeneratorExit) after its own Ctrl-C
        signal.pthread_sigmask(signal.SIG_SETMASK, old_mask)
        pool.terminate()  # workers stop mid-file; the pool's threads are joined
        raise
    pool.close()
    pool.join()


def _worker_init(parent_pid: int) -> None:
    """Parse workers ignore Ctrl-C (the parent handles it) and exit when the parent dies.

    A killed parent cannot stop its pool, and idle workers would wait on the task queue forever.
    """
    import signal
    import threading

    signal.signal(signal.SIGINT, signal.SIG_IGN)

    def watch() -> None:
        while os.getppid() == parent_pid:
            time.sleep(0.5)
        os._exit(1)

    threading.Thread(target=watch, name="qry-parent-watch", daemon=True).start()


def build_index(
    root: Path, options: BuildOptions | None = None, progress: Progress | None = None
) -> BuildReport:
    """Index `root` incrementally and publish a new root if anything changed.

    Raises UsageError for a root that is not a directory, LockBusy when another writer runs.
    """
    opts = options or BuildOptions()
    root = root.resolve()
    if not root.is_dir():
        raise UsageError(f"{root} is not a directory", hint="pass the folder of a repository: qry index PATH")
    index_dir = (opts.index_dir or default_index_dir(root)).resolve()
    store = Store.open(index_dir, create=True)
    report = BuildReport(index_dir=str(index_dir))
    with writer_lock(index_dir, wait=opts.wait):
        try:
            _build_locked(root, store, opts, report, progress or (lambda _s, _d, _t: None))
        except BaseException as exc:
            # Whatever failed (a full disk, Ctrl-C, a bug), nothing this run staged is of use, and HEAD
            # still names the previous root: the staging files go now, not at the next gc (on a full
            # disk they are the space the user needs back). We hold the lock, so no other writer
            # is staging in tmp/.
            store.discard_staging()
            full = disk_full(exc, str(index_dir)) if isinstance(exc, Exception) else None
            if full is not None:
                raise full from exc
            raise
        if opts.background and opts.embed != "none":
            from indexlib.index.background import start_vector_worker

            # Started while this process still holds the lock: the worker waits for it, so the
            # vectors follow this root before any other writer's.
            report.background_pid = start_vector_worker(store, index_dir, opts)
    return report


def _build_locked(
    root: Path, store: Store, opts: BuildOptions, report: BuildReport, progress: Progress
) -> None:
    t0 = time.perf_counter()
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

    # 1. Discover and classify files as unchanged / changed.
    sources: list[SourceFile] = []
    skipped: dict[str, int] = {}
    # read=False: only stat now; files whose (size, mtime) differ from the previous root are loaded
    # (read once, content-checked) below, so an unchanged tree costs a directory walk and no reads.
    for item in discover(
        root, max_file_bytes=opts.max_file_bytes, include_vendored=opts.include_vendored, read=False
    ):
        if isinstance(item, Skipped):
            skipped[item.reason] = skipped.get(item.reason, 0) + 1
        else:
            sources.append(item)
    if opts.redact:
        sources, report.redacted = _redact_paths(sources, skipped)
    report.timings["discover"] = time.perf_counter() - t0

    t1 = time.perf_counter()
    files: dict[str, FileRecord] = {}
    # Changed files are hashed now and read again by the parser: holding every changed file's bytes
    # until parsing would make memory grow with the size of the change.
    to_parse: list[tuple[SourceFile, bytes, str]] = []
    for src in sources:
        old = prev_files.get(src.path)
        if old is not None and old.size == src.size and old.mtime_ns == src.mtime_ns:
            files[src.path] = old
            continue
        loaded = load(src, max_file_bytes=opts.max_file_bytes)
        if isinstance(loaded, Skipped):
            skipped[loaded.reason] = skipped.get(loaded.reason, 0) + 1
            continue
        src, data = loaded, loaded.data or b""
        digest = xxhash.xxh3_128_hexdigest(data)
        if old is not None and old.hash == digest:
            files[src.path] = msgspec.structs.replace(old, mtime_ns=src.mtime_ns, size=src.size)
            continue
        to_parse.append((msgspec.structs.replace(src, data=None), b"", digest))
    removed = [p for p in prev_files if p not in files and p not in {s.path for s, _d, _h in to_parse}]
    report.removed = len(removed)
    report.added = sum(1 for s, _d, _h in to_parse if s.path not in prev_files)
    report.changed = len(to_parse) - report.added
    report.unchanged = len(files)
    report.timings["hash"] = time.perf_counter() - t1

    # 2. Parse what changed, spilling each file's nodes to disk as it comes: only a light copy of each
    #    node (no text) stays in memory, for the git-times pass that needs every node's line range.
    t2 = time.perf_counter()
    spill_dir = store.stage()
    spill_path = spill_dir / "parsed.msgpack"
    light: list[Node] = []
    parsed_meta: list[tuple[SourceFile, str, int]] = []
    # closing(): a Ctrl-C in this loop's body stops the parse pool at once, not when the suspended
    # generator is collected after the error was reported.
    with (
        open(spill_path, "wb") as spill,
        closing(_parse_all([(s_, h) for s_, _d, h in to_parse], opts)) as outcomes,
    ):
        for i, (src, outcome) in enumerate(outcomes):
            progress("parse", i + 1, len(to_parse))
            if isinstance(outcome, str):  # skipped when read again (it changed or vanished meanwhile)
                skipped[outcome] = skipped.get(outcome, 0) + 1
                continue
            parsed, red, digest = outcome
            report.redacted += red
            if parsed.skip:
                skipped[parsed.skip] = skipped.get(parsed.skip, 0) + 1
            write_chunk(spill, FileChunk(path=src.path, nodes=parsed.nodes, refs=parsed.refs))
            light.extend(msgspec.structs.replace(n, text="", doc="", signature="") for n in parsed.nodes)
            parsed_meta.append((src, digest, len(parsed.nodes)))
    to_parse_paths = [s_.path for s_, _d, _h in to_parse]
    report.timings["parse"] = time.perf_counter() - t2

    t_times = time.perf_counter()
    from indexlib.index import gittimes

    # annotate finds the enclosing work tree itself (a subfolder of a repository gets git times too).
    timed, times_from = gittimes.annotate(
        root, light, {s_.path: s_.mtime_ns for s_, _d, _h in parsed_meta}, use_git=opts.git_times
    )
    del light
    times: dict[int, tuple[int | None, int | None]] = {n.uid: (n.created_at, n.changed_at) for n in timed}
    del timed
    report.timings["times"] = time.perf_counter() - t_times

    git_commit = _git(root, "rev-parse", "HEAD")
    git_branch = _git(root, "rev-parse", "--abbrev-ref", "HEAD")
    report.git_commit = git_commit
    settings = {"redact": str(opts.redact).lower(), "root": str(root), "times": times_from}
    if prev is not None and not to_parse and "times" in prev.settings:
        settings["times"] = prev.settings["times"]  # nothing re-annotated: the root's source stands
    nothing_changed = (
        prev is not None
        and not to_parse
        and not removed
        and prev.git_commit == git_commit
        and prev.skipped == skipped
        and prev.settings == settings
        and not report.repaired
    )

    t3 = time.perf_counter()
    segments: list[SegmentEntry] = list(prev.segments) if prev else []
    tombstones: dict[str, set[str]] = {k: set(v) for k, v in prev.tombstones.items()} if prev else {}
    if not nothing_changed:
        # Tombstone the old copies of changed and removed files.
        for path in to_parse_paths + removed:
            old = prev_files.get(path)
            if old is not None:
                tombstones.setdefault(old.segment, set()).add(path)
        if parsed_meta:
            # 3. Stream the spilled chunks, now with times, into the new segment.
            writer = SegmentWriter(store, grams=gram_source(root, redact=opts.redact))
            try:
                node_times: dict[str, tuple[int | None, int | None]] = {}
                for i, chunk in enumerate(read_chunks(spill_path)):
                    progress("write", i + 1, len(parsed_meta))
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
                    node_times[chunk.path] = (lo, hi)
                    writer.add(FileChunk(path=chunk.path, nodes=nodes, refs=chunk.refs))
                entry = writer.commit(int(time.time()))
            except BaseException:
                writer.abort()  # stop Tantivy's threads before the staging directory goes
                raise
            report.nodes_written = entry.nodes
            segments = [s for s in segments if s.id != entry.id] + [entry]
            tombstones.pop(entry.id, None)
            for src, digest, count in parsed_meta:
                created, changed = node_times.get(src.path, (None, None))
                files[src.path] = FileRecord(
                    hash=digest,
                    segment=entry.id,
                    size=src.size,
                    mtime_ns=src.mtime_ns,
                    language=src.language,
                    nodes=count,
                    created_at=created,
                    changed_at=changed,
                )
        owners = {rec.segment for rec in files.values()}
        segments = [s for s in segments if s.id in owners]
        tombstones = {s.id: tombstones[s.id] for s in segments if tombstones.get(s.id)}
        stored_paths = sum(s.paths for s in segments) or 1
        if len(segments) > MAX_SEGMENTS or (
            len(segments) > 1
            and sum(len(v) for v in tombstones.values()) / stored_paths > MAX_TOMBSTONE_RATIO
        ):
            segments, files = _compact(
                store, segments, files, progress, gram_source(root, redact=opts.redact)
            )
            tombstones = {}
            report.compacted = True
    report.timings["write"] = time.perf_counter() - t3
    _remove_tree(spill_dir)

    report.files = len(files)
    report.skipped = skipped
    report.nodes_total = sum(r.nodes for r in files.values())
    model: ModelInfo | None = prev.model if prev else None
    if nothing_changed:
        assert prev_id is not None
        report.root_id = prev_id
        report.segments = len(segments)
    else:
        if model is not None and opts.embed != "none":
            # Keep vector attachments of reused segments; drop the model record if none remain.
            if not any(s.vectors for s in segments):
                model = None
        manifest = Manifest(
            format_version=FORMAT_VERSION,
            qry_version=__version__,
            created_at=time.time(),
            parent=prev_id,
            segments=segments,
            files=files,
            tombstones={k: sorted(v) for k, v in sorted(tombstones.items())},
            skipped=skipped,
            git_commit=git_commit,
            git_branch=git_branch,
            model=model if opts.embed != "none" else (prev.model if prev else None),
            source_root=str(root),
            settings=settings,
        )
        report.root_id = store.publish(manifest)
        report.published = True
        report.segments = len(segments)

    if opts.embed != "none" and not opts.background:
        t5 = time.perf_counter()
        _attach_vectors(store, report, opts, progress)
        report.timings["embed"] = time.perf_counter() - t5


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


def _remove_tree(path: Path) -> None:
    import shutil

    shutil.rmtree(path, ignore_errors=True)


def _attach_vectors(store: Store, report: BuildReport, opts: BuildOptions, progress: Progress) -> None:
    """Compute vectors for every segment of HEAD that lacks them, then publish a root naming them.

    Runs after the lexical root is published, so the index is searchable while the model works; the
    progress file says how far it is (`qry status`, and a search meanwhile, quote it). Vectors go to the
    caches after every batch, so an interrupted build keeps what it finished.
    """
    from indexlib.engines.embed import HashEmbedder, OnnxEmbedder, resolve_model, verify_model
    from indexlib.engines.vectors import write_vectors
    from indexlib.index.embedprogress import EmbedProgress, clear_progress, write_progress

    root_id, manifest = store.load(None)
    if opts.embed == "hash":
        embedder: Any = HashEmbedder()
        info = ModelInfo(model_id=embedder.model_id, checksum="hash", dim=embedder.dim, name="hash")
    elif opts.embed == "onnx":
        spec = resolve_model(opts.model_dir)
        info = ModelInfo(model_id=spec.model_id, checksum=spec.checksum, dim=0, name=spec.name)
    else:
        raise UsageError(f"unknown embedder {opts.embed!r}", hint="use --embed onnx or --embed none")
    if manifest.model is not None and manifest.model.model_id != info.model_id and not opts.rebuild:
        raise ModelError(
            f"this index was embedded with {manifest.model.name} ({manifest.model.model_id}), "
            f"not {info.name} ({info.model_id})",
            hint="pass the same --model as before, or switch models with: qry index --rebuild --model DIR",
        )
    pending = [s for s in manifest.segments if s.vectors is None or s.vectors.model_id != info.model_id]
    if not pending:
        report.vectors_root = root_id
        return
    pending_ids = {s.id for s in pending}
    total = sum(rec.nodes for rec in manifest.files.values() if rec.segment in pending_ids)
    state = EmbedProgress(pid=os.getpid(), root=root_id, total=total, started=time.time())
    state.updated = state.started
    write_progress(store.cache_dir, state)
    try:
        if opts.embed == "onnx":
            # Loaded on the first text no cache holds: an unchanged clone costs no model start-up.
            embedder = _LazyOnnx(spec, opts.threads, verify_model, OnnxEmbedder)
        cache = vector_caches(store, embedder.cache_id, shared=opts.shared_cache)
        new_segments: list[SegmentEntry] = []
        dim = 0
        done = 0

        def advance(n: int) -> None:
            nonlocal done
            done += n
            progress("embed", done, total)
            now = time.time()
            if now - state.updated >= PROGRESS_EVERY or done >= total:
                state.done, state.updated = done, now
                write_progress(store.cache_dir, state)

        for seg in manifest.segments:
            if seg.id not in pending_ids:
                new_segments.append(seg)
                continue
            live_paths = {p for p, rec in manifest.files.items() if rec.segment == seg.id}
            uids, matrix = _embed_segment(store, seg.id, live_paths, embedder, cache, report, advance)
            dim = matrix.shape[1] if matrix.ndim == 2 and matrix.shape[0] else embedder.dim
            staging = store.stage()
            vf = write_vectors(staging / vectors_dirname(info.model_id), uids, matrix)
            files = store.add_files(seg.id, staging)
            new_segments.append(
                msgspec.structs.replace(
                    seg,
                    files=[f for f in seg.files if not is_attachment(f.name)] + files,
                    vectors=VectorInfo(model_id=info.model_id, dim=dim, kind=vf.kind, count=vf.count),
                )
            )
        info = msgspec.structs.replace(info, dim=dim or embedder.dim)
        # Re-read HEAD: we hold the writer lock, so it is still the root we started from.
        new_manifest = msgspec.structs.replace(
            manifest, segments=new_segments, model=info, parent=root_id, created_at=time.time()
        )
        report.vectors_root = store.publish(new_manifest)
        report.root_id = report.vectors_root
        report.published = True
    finally:
        clear_progress(store.cache_dir, os.getpid())


class _LazyOnnx:
    """The ONNX embedder, verified and loaded when it first embeds (`cache_id` and `dim` need no model:
    the dimension is read from the graph only if a segment has no vectors at all)."""

    def __init__(
        self, spec: Any, threads: int, verify: Callable[[Any], None], make: Callable[..., Any]
    ) -> None:
        from indexlib.engines.embed import onnx_cache_id

        self.spec = spec
        self.model_id = spec.model_id
        self.cache_id = onnx_cache_id(spec)
        self._threads = threads
        self._verify = verify
        self._make = make
        self._loaded: Any = None

    def _model(self) -> Any:
        if self._loaded is None:
            self._verify(self.spec)  # once per build that embeds: queries trust the recorded checksum
            self._loaded = self._make(self.spec, threads=self._threads)
        return self._loaded

    @property
    def dim(self) -> int:
        return int(self._model().dim)

    def embed(self, texts: Sequence[str]) -> Any:
        return self._model().embed(texts)


def vector_caches(store: Store, cache_id: str, *, shared: bool) -> Any:
    """The index's own vector cache, followed by the user-level shared one unless `shared` is off."""
    from indexlib.index.embedcache import CacheChain, VectorCache, shared_cache_dir, shared_cache_max_bytes

    for legacy in store.cache_dir.glob("vectors-*.f16"):  # the unchecked format of earlier builds
        legacy.unlink(missing_ok=True)
    caches = [VectorCache(store.cache_dir, cache_id)]
    if shared:
        try:
            folder = shared_cache_dir()
        except RuntimeError:  # no home directory to put it in: the index's own cache still works
            return CacheChain(caches)
        caches.append(VectorCache(folder, cache_id, max_bytes=shared_cache_max_bytes()))
    return CacheChain(caches)


def node_texts(store: Store, seg_id: str, live_paths: set[str]) -> Iterator[tuple[list[Node], list[str]]]:
    """Each live file's nodes of a segment with the text each one embeds, file by file."""
    from indexlib.engines.embed import embedding_text

    for chunk in iter_segment(store, seg_id):
        if chunk.path in live_paths:
            yield (
                chunk.nodes,
                [embedding_text(n.name, n.qualified_name, n.signature, n.doc, n.text) for n in chunk.nodes],
            )


def _embed_segment(
    store: Store,
    seg_id: str,
    live_paths: set[str],
    embedder: Any,
    cache: Any,
    report: BuildReport,
    advance: Callable[[int], None],
) -> tuple[list[int], Any]:
    """Vectors of every live node of one segment: from the caches, else embedded in batches.

    Streams the segment file by file, so only vectors (and the texts of one batch) stay in memory.
    The cache key is the hash of the text actually embedded, so a renamed or moved node with unchanged
    code does not reuse a stale vector; the embedder's cache id names the model and the token limit.
    """
    import numpy as np

    from indexlib.index.embedcache import text_key

    uids: list[int] = []
    vectors: list[Any] = []
    batch: dict[int, str] = {}
    batch_rows: list[tuple[int, int]] = []  # (row in `vectors`, key) still waiting for a vector

    def flush_batch() -> None:
        if not batch:
            return
        waiting = len(batch_rows)
        embedded_now = _embed_batch(embedder, cache, batch, batch_rows, vectors)
        cache.flush()  # after every batch: a kill keeps what was finished
        report.embedded += embedded_now
        advance(waiting)

    for nodes, texts in node_texts(store, seg_id, live_paths):
        keys = [text_key(t) for t in texts]
        known = cache.get_many(keys)
        hits = 0
        for n, key, text in zip(nodes, keys, texts, strict=True):
            uids.append(n.uid)
            if key in known:
                vectors.append(known[key])
                report.embed_cached += 1
                hits += 1
                continue
            if key in batch:  # the same text twice in one batch: embedded once
                report.embed_cached += 1
            else:
                batch[key] = text
            vectors.append(None)
            batch_rows.append((len(vectors) - 1, key))
        if hits:
            advance(hits)
        if len(batch) >= EMBED_BATCH:
            flush_batch()
    flush_batch()
    cache.flush()  # copies of shared-cache hits into the index's own cache
    if uids:
        return uids, np.stack(vectors).astype(np.float32)
    return uids, np.zeros((0, embedder.dim), dtype=np.float32)


def _embed_batch(
    embedder: Any, cache: Any, batch: dict[int, str], rows: list[tuple[int, int]], vectors: list[Any]
) -> int:
    """Embed the waiting texts, cache them, fill their rows of `vectors`; return how many were embedded."""
    if not batch:
        return 0
    items = list(batch.items())
    vecs = embedder.embed([t for _k, t in items])
    fresh = {k: vecs[j] for j, (k, _t) in enumerate(items)}
    cache.put_many(fresh)
    for row, key in rows:
        vectors[row] = fresh[key]
    batch.clear()
    rows.clear()
    return len(items)


def cpu_count() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
