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
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import msgspec
import xxhash

from indexlib import __version__, lexical
from indexlib.discover import Skipped, SourceFile, discover, load
from indexlib.errors import ModelError, UsageError
from indexlib.parsing import parse_file
from indexlib.records import Node, ParsedFile, Ref
from indexlib.redact import redact
from indexlib.store.lock import writer_lock
from indexlib.store.manifest import FORMAT_VERSION, FileRecord, Manifest, ModelInfo, SegmentEntry, VectorInfo
from indexlib.store.store import Store, is_attachment, vectors_dirname

# Compaction: merge every live node into one segment when a root has more than this many segments, or
# when tombstoned paths pass this share of stored paths. Why: BM25 statistics live per Tantivy index
# (per segment); few segments keep scores comparable, and tombstones cost filter work on every query.
MAX_SEGMENTS = 6
MAX_TOMBSTONE_RATIO = 0.3

Progress = Callable[[str, int, int], None]  # (stage, done, total)


class SegmentTables(msgspec.Struct, gc=False):
    """The logical content of a segment: what its id is the hash of."""

    nodes: list[Node]
    refs: list[Ref]


_TABLE_ENCODER = msgspec.msgpack.Encoder()
_NODES_DECODER = msgspec.msgpack.Decoder(list[Node])
_REFS_DECODER = msgspec.msgpack.Decoder(list[Ref])


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
    threads: int = 1


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


def segment_id_of(tables_bytes: bytes) -> str:
    return xxhash.xxh3_128_hexdigest(tables_bytes)


def _write_segment(store: Store, nodes: list[Node], refs: list[Ref]) -> SegmentEntry:
    """Stage and commit one segment; identical content gives an identical id (and reuses it)."""
    nodes = sorted(nodes, key=lambda n: (n.path, n.start_byte, n.part, n.uid))
    refs = sorted(refs, key=lambda r: (r.src_uid, r.line, r.kind, r.target, r.alias))
    nodes_bytes = _TABLE_ENCODER.encode(nodes)
    refs_bytes = _TABLE_ENCODER.encode(refs)
    seg_id = segment_id_of(nodes_bytes + b"\x00" + refs_bytes)
    staging = store.stage()
    (staging / "nodes.msgpack").write_bytes(nodes_bytes)
    (staging / "refs.msgpack").write_bytes(refs_bytes)
    refs_by_uid: dict[int, list[Ref]] = {}
    for r in refs:
        refs_by_uid.setdefault(r.src_uid, []).append(r)
    lexical.write_segment_index(staging / "tantivy", nodes, refs_by_uid)
    files = store.commit_segment(staging, seg_id)
    return SegmentEntry(
        id=seg_id,
        files=files,
        nodes=len(nodes),
        paths=len({n.path for n in nodes}),
        created_at=int(time.time()),
    )


def read_segment_tables(store: Store, seg_id: str) -> tuple[list[Node], list[Ref]]:
    d = store.segment_dir(seg_id)
    nodes = _NODES_DECODER.decode((d / "nodes.msgpack").read_bytes())
    refs = _REFS_DECODER.decode((d / "refs.msgpack").read_bytes())
    return nodes, refs


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


# Parsing runs in worker processes when enough files changed to pay for them (start-up ~50 ms each).
PARALLEL_MIN_FILES = 64
_PARSED_DECODER = msgspec.msgpack.Decoder(tuple[ParsedFile, int])


def _parse_job(job: tuple[SourceFile, bytes, BuildOptions]) -> bytes:
    """Worker side: parse one file, return msgpack bytes (cheaper to ship than pickled Structs)."""
    src, data, opts = job
    return _TABLE_ENCODER.encode(_parse_one(src, data, opts))


def _parse_all(to_parse: Sequence[tuple[SourceFile, bytes, str]], opts: BuildOptions) -> Iterator[tuple[ParsedFile, int]]:
    """Parse files in order: in this process for a few, in a fork pool of one worker per core for many."""
    workers = min(cpu_count(), 8)
    if len(to_parse) < PARALLEL_MIN_FILES or workers < 2 or not hasattr(os, "fork"):
        for src, data, _digest in to_parse:
            yield _parse_one(src, data, opts)
        return
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    jobs = ((src, data, opts) for src, data, _digest in to_parse)
    # fork: workers inherit the loaded grammars and modules; tree-sitter holds no threads at this point.
    # Workers ignore SIGINT: Ctrl-C is the parent's to handle; it then stops them (below). Inherited
    # writer-lock descriptors are closed in every forked child by indexlib.store.lock.
    pool = ProcessPoolExecutor(
        max_workers=workers,
        mp_context=multiprocessing.get_context("fork"),
        initializer=_worker_init,
        initargs=(os.getpid(),),
    )
    import signal

    # Ctrl-C while the pool forks its workers would land inside multiprocessing's fork bookkeeping and
    # be swallowed there ("Exception ignored ..."): hold SIGINT until every worker exists and every
    # task is queued (map submits eagerly), then let it through to the handler below.
    old_mask = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        results = pool.map(_parse_job, jobs, chunksize=8)
    except BaseException:
        signal.pthread_sigmask(signal.SIG_SETMASK, old_mask)
        pool.shutdown(wait=False, cancel_futures=True)
        raise
    signal.pthread_sigmask(signal.SIG_SETMASK, old_mask)
    try:
        for encoded in results:
            yield _PARSED_DECODER.decode(encoded)
    except BaseException:
        pool.shutdown(wait=False, cancel_futures=True)
        for proc in list(getattr(pool, "_processes", {}).values()):
            proc.terminate()
        raise
    pool.shutdown(wait=True)


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


def build_index(root: Path, options: BuildOptions | None = None, progress: Progress | None = None) -> BuildReport:
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
        _build_locked(root, store, opts, report, progress or (lambda _s, _d, _t: None))
    return report


def _build_locked(root: Path, store: Store, opts: BuildOptions, report: BuildReport, progress: Progress) -> None:
    t0 = time.perf_counter()
    prev_id = None if opts.rebuild else store.head()
    prev: Manifest | None = None
    if prev_id is not None:
        prev_id, prev = store.load(prev_id)
    prev_files = prev.files if prev else {}
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
    report.timings["discover"] = time.perf_counter() - t0

    t1 = time.perf_counter()
    files: dict[str, FileRecord] = {}
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
        to_parse.append((src, data, digest))
    removed = [p for p in prev_files if p not in files and p not in {s.path for s, _d, _h in to_parse}]
    report.removed = len(removed)
    report.added = sum(1 for s, _d, _h in to_parse if s.path not in prev_files)
    report.changed = len(to_parse) - report.added
    report.unchanged = len(files)
    report.timings["hash"] = time.perf_counter() - t1

    # 2. Parse what changed into one new segment.
    t2 = time.perf_counter()
    new_nodes: list[Node] = []
    new_refs: list[Ref] = []
    parsed_meta: list[tuple[SourceFile, str, int]] = []
    for i, (parsed, red) in enumerate(_parse_all(to_parse, opts)):
        src, _data, digest = to_parse[i]
        progress("parse", i + 1, len(to_parse))
        report.redacted += red
        if parsed.skip:
            skipped[parsed.skip] = skipped.get(parsed.skip, 0) + 1
        new_nodes.extend(parsed.nodes)
        new_refs.extend(parsed.refs)
        parsed_meta.append((src, digest, len(parsed.nodes)))
    to_parse_paths = [s.path for s, _d, _h in to_parse]
    to_parse = [(s, b"", h) for s, _d, h in to_parse]  # drop the bytes: nodes hold what we keep
    report.timings["parse"] = time.perf_counter() - t2

    t_times = time.perf_counter()
    from indexlib import gittimes

    # annotate finds the enclosing work tree itself (a subfolder of a repository gets git times too).
    new_nodes, times_from = gittimes.annotate(
        root, new_nodes, {s.path: s.mtime_ns for s, _d, _h in to_parse}, use_git=opts.git_times
    )
    node_times: dict[str, tuple[int | None, int | None]] = {}
    for n in new_nodes:
        lo, hi = node_times.get(n.path, (None, None))
        if n.created_at is not None:
            lo = n.created_at if lo is None else min(lo, n.created_at)
        if n.changed_at is not None:
            hi = n.changed_at if hi is None else max(hi, n.changed_at)
        node_times[n.path] = (lo, hi)
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
        if to_parse:
            progress("write", 0, 1)
            entry = _write_segment(store, new_nodes, new_refs)
            report.nodes_written = entry.nodes
            segments = [s for s in segments if s.id != entry.id] + [entry]
            tombstones.pop(entry.id, None)
            for src, digest, count in parsed_meta:
                files[src.path] = FileRecord(
                    hash=digest,
                    segment=entry.id,
                    size=src.size,
                    mtime_ns=src.mtime_ns,
                    language=src.language,
                    nodes=count,
                    created_at=node_times.get(src.path, (None, None))[0],
                    changed_at=node_times.get(src.path, (None, None))[1],
                )
        owners = {rec.segment for rec in files.values()}
        segments = [s for s in segments if s.id in owners]
        tombstones = {s.id: tombstones[s.id] for s in segments if tombstones.get(s.id)}
        stored_paths = sum(s.paths for s in segments) or 1
        if len(segments) > MAX_SEGMENTS or (
            len(segments) > 1 and sum(len(v) for v in tombstones.values()) / stored_paths > MAX_TOMBSTONE_RATIO
        ):
            segments, files = _compact(store, segments, files, progress)
            tombstones = {}
            report.compacted = True
    report.timings["write"] = time.perf_counter() - t3

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

    if opts.embed != "none":
        t5 = time.perf_counter()
        _attach_vectors(store, report, opts, progress)
        report.timings["embed"] = time.perf_counter() - t5


def _compact(
    store: Store, segments: Sequence[SegmentEntry], files: dict[str, FileRecord], progress: Progress
) -> tuple[list[SegmentEntry], dict[str, FileRecord]]:
    """Merge every live node of `segments` into one new segment (vectors are re-attached from cache)."""
    progress("compact", 0, len(segments))
    nodes: list[Node] = []
    refs: list[Ref] = []
    for i, seg in enumerate(segments):
        seg_nodes, seg_refs = read_segment_tables(store, seg.id)
        live = {n.uid for n in seg_nodes if (rec := files.get(n.path)) is not None and rec.segment == seg.id}
        nodes.extend(n for n in seg_nodes if n.uid in live)
        refs.extend(r for r in seg_refs if r.src_uid in live)
        progress("compact", i + 1, len(segments))
    entry = _write_segment(store, nodes, refs)
    new_files = {p: msgspec.structs.replace(r, segment=entry.id) for p, r in files.items()}
    return [entry], new_files


def _attach_vectors(store: Store, report: BuildReport, opts: BuildOptions, progress: Progress) -> None:
    """Compute vectors for every segment of HEAD that lacks them, then publish a root naming them.

    Runs after the lexical root is published, so the index is searchable while the model works.
    """
    from indexlib.embed import HashEmbedder, OnnxEmbedder, embedding_text, resolve_model, verify_model
    from indexlib.embedcache import VectorCache, text_key
    from indexlib.vectors import write_vectors

    root_id, manifest = store.load(None)
    if opts.embed == "hash":
        embedder: HashEmbedder | OnnxEmbedder = HashEmbedder()
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
    if opts.embed == "onnx":
        verify_model(spec)  # once per build that embeds: the query path trusts the recorded checksum
        embedder = OnnxEmbedder(spec, threads=opts.threads)
    # The cache key is the hash of the text actually embedded (name, signature, doc, body), so a renamed
    # or moved node with unchanged code does not reuse a stale vector; the cache id names the token limit.
    cache = VectorCache(store.cache_dir, embedder.cache_id)
    new_segments: list[SegmentEntry] = []
    dim = 0
    pending_ids = {s.id for s in pending}
    live = {s.id: [p for p, rec in manifest.files.items() if rec.segment == s.id] for s in pending}
    total = sum(rec.nodes for rec in manifest.files.values() if rec.segment in pending_ids)
    done = 0
    for seg in manifest.segments:
        if seg.id not in pending_ids:
            new_segments.append(seg)
            continue
        live_paths = set(live[seg.id])
        nodes = [n for n in read_segment_tables(store, seg.id)[0] if n.path in live_paths]
        texts = [embedding_text(n.name, n.qualified_name, n.signature, n.doc, n.text) for n in nodes]
        keys = [text_key(t) for t in texts]
        cached = cache.get_many(keys)
        todo: dict[int, str] = {}
        for k, t in zip(keys, texts, strict=True):
            if k not in cached:
                todo.setdefault(k, t)
        report.embed_cached += len(nodes) - len(todo)
        done += len(nodes) - len(todo)
        items = list(todo.items())
        batch = 64
        for i in range(0, len(items), batch):
            chunk = items[i : i + batch]
            vecs = embedder.embed([t for _k, t in chunk])
            fresh = {k: vecs[j] for j, (k, _t) in enumerate(chunk)}
            cache.put_many(fresh)
            cached.update(fresh)
            report.embedded += len(chunk)
            done += len(chunk)
            progress("embed", done, total)
        cache.flush()
        import numpy as np

        if nodes:
            matrix = np.stack([cached[k] for k in keys]).astype(np.float32)
        else:
            matrix = np.zeros((0, embedder.dim), dtype=np.float32)
        dim = matrix.shape[1] if matrix.ndim == 2 and matrix.shape[0] else embedder.dim
        staging = store.stage()
        vf = write_vectors(staging / vectors_dirname(info.model_id), [n.uid for n in nodes], matrix)
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


def check_model(manifest: Manifest, model_id: str) -> None:
    """Refuse to query vectors built with another model: cosine between two models' spaces is noise."""
    if manifest.model is not None and manifest.model.model_id != model_id:
        raise ModelError(
            f"the index was embedded with model {manifest.model.name} ({manifest.model.model_id}), "
            f"not {model_id}",
            hint="query with the same --model, or re-index with this one: qry index --rebuild --model DIR",
        )


def cpu_count() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
