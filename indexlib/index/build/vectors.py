"""The vector stage: embed every segment of HEAD that lacks vectors, then publish a root naming them.

Owns: refusing to mix models in one index, streaming each segment's live nodes through the vector
caches and the model in batches, writing the vector files, the progress file while it runs, and the
root that carries the vectors. It runs after the lexical root is published (or in the background
worker), so the index is searchable while the model works.
Does not own: the model and choosing it (`indexlib/engines/embed.py`, `indexlib/engines/embedders.py`),
the vector files (`indexlib/engines/vectors.py`), the caches (`indexlib/index/embedcache.py`), or what
text a node embeds (`indexlib/index/embedtext.py`).
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

import msgspec

from indexlib.errors import ModelError
from indexlib.index.build.options import BuildOptions, BuildReport, EmbedderFactory, Progress
from indexlib.index.segtables import iter_segment
from indexlib.records import Node
from indexlib.store.manifest import Manifest, ModelInfo, SegmentEntry, VectorInfo
from indexlib.store.store import Store, is_attachment, vectors_dirname

if TYPE_CHECKING:
    from indexlib.index.build.prefetch import VectorPrefetch

__all__ = [
    "CHUNKS_PER_WORKER",
    "EMBED_BATCH",
    "PROGRESS_EVERY",
    "attach_vectors",
    "batch_texts",
    "file_texts",
    "node_texts",
    "vector_caches",
]

EMBED_BATCH = 256  # texts handed to the embedder at once: it sorts them by length into model batches,
# so a larger batch pads less; the caches are appended after each one
CHUNKS_PER_WORKER = 4  # a batch gives each of the embedder's workers at least this many chunks, so
# the wait for a batch's last chunk idles few of a cluster's many actors
PROGRESS_EVERY = 0.5  # seconds between rewrites of the progress file (cache hits come file by file)


def batch_texts(workers: int) -> int:
    """Texts per batch for an embedder with `workers` workers (or actors): EMBED_BATCH, or enough
    that each one takes CHUNKS_PER_WORKER chunks of the batch."""
    from indexlib.engines.embedders import WORKER_CHUNK

    return max(EMBED_BATCH, workers * WORKER_CHUNK * CHUNKS_PER_WORKER)


def attach_vectors(
    store: Store,
    report: BuildReport,
    opts: BuildOptions,
    progress: Progress,
    prefetch: VectorPrefetch | None = None,
    make_embedder: EmbedderFactory | None = None,
) -> None:
    """Compute vectors for every segment of HEAD that lacks them, then publish a root naming them.

    The progress file says how far it is (`qry status`, and a search meanwhile, quote it). Vectors go
    to the caches after every batch, so an interrupted build keeps what it finished. A `prefetch`
    (vectors begun while the files parsed) hands over its embedder, with its workers running, and
    the keys it embedded, which count as embedded here, not as cached. `make_embedder` makes the
    embedder instead of this machine's (a cluster's).
    """
    from indexlib.engines.embedders import build_embedder
    from indexlib.index.embedprogress import EmbedProgress, clear_progress, write_progress

    root_id, manifest = store.load(None)
    early: set[int] = set()
    cache = None
    if prefetch is not None:
        embedder, cache, early = prefetch.handoff()
    elif make_embedder is not None:
        embedder = make_embedder(opts)
    else:
        # The ONNX model loads on the first text no cache holds: an unchanged clone costs no model start-up.
        embedder = build_embedder(opts.embedder_name, opts.model_dir, workers=opts.threads)
    info = ModelInfo(model_id=embedder.model_id, checksum=embedder.checksum, dim=0, name=embedder.name)
    if manifest.model is not None and manifest.model.model_id != info.model_id and not opts.rebuild:
        embedder.close()
        raise ModelError(
            f"this index was embedded with {manifest.model.name} ({manifest.model.model_id}), "
            f"not {info.name} ({info.model_id})",
            hint="pass the same --model as before, or switch models with: qry index --rebuild --model DIR",
        )
    pending = [s for s in manifest.segments if s.vectors is None or s.vectors.model_id != info.model_id]
    if not pending:
        embedder.close()  # a prefetch's workers, a cluster's actors: nothing is left to embed
        report.vectors_root = root_id
        return
    pending_ids = {s.id for s in pending}
    total = sum(rec.nodes for rec in manifest.files.values() if rec.segment in pending_ids)
    state = EmbedProgress(pid=os.getpid(), root=root_id, total=total, started=time.time())
    state.updated = state.started
    write_progress(store.cache_dir, state)

    def advance(done: int) -> None:
        progress("embed", done, total)
        now = time.time()
        if now - state.updated >= PROGRESS_EVERY or done >= total:
            state.done, state.updated = done, now
            write_progress(store.cache_dir, state)

    try:
        if cache is None:
            cache = vector_caches(store, embedder.cache_id, shared=opts.shared_cache)
        new_manifest = _embed_pending(
            store, root_id, manifest, pending_ids, info, embedder, cache, report, advance, early
        )
        report.vectors_root = store.publish(new_manifest)
        report.root_id = report.vectors_root
        report.published = True
    except KeyboardInterrupt:
        # Ctrl-C: the lexical root stays, the vectors computed so far stay in the cache; the progress
        # file says where they stopped (`qry status`, a search's note) until a build finishes them.
        state.error = "interrupted"
        write_progress(store.cache_dir, state)
        raise
    finally:
        embedder.close()
        if not state.error:
            clear_progress(store.cache_dir, os.getpid())


def _embed_pending(
    store: Store,
    root_id: str,
    manifest: Manifest,
    pending_ids: set[str],
    info: ModelInfo,
    embedder: Any,
    cache: Any,
    report: BuildReport,
    progress_to: Callable[[int], None],
    early: set[int],
) -> Manifest:
    """The manifest of `root_id` with vectors attached to every segment of `pending_ids`."""
    from indexlib.engines.vectors import write_vectors

    new_segments: list[SegmentEntry] = []
    dim = 0
    done = 0

    def advance(n: int) -> None:
        nonlocal done
        done += n
        progress_to(done)

    for seg in manifest.segments:
        if seg.id not in pending_ids:
            new_segments.append(seg)
            continue
        live = {p: rec.generated for p, rec in manifest.files.items() if rec.segment == seg.id}
        uids, matrix = _embed_segment(store, seg.id, live, embedder, cache, report, advance, early)
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
    return msgspec.structs.replace(
        manifest, segments=new_segments, model=info, parent=root_id, created_at=time.time()
    )


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


def node_texts(
    store: Store, seg_id: str, live: dict[str, bool]
) -> Iterator[tuple[list[Node], list[str], int]]:
    """`file_texts` of each live file of a segment, file by file. `live` maps each live path of the
    segment to whether its file is generated code."""
    for chunk in iter_segment(store, seg_id):
        if chunk.path in live:
            yield file_texts(chunk.path, chunk.nodes, live[chunk.path])


def file_texts(path: str, nodes: Sequence[Node], generated: bool) -> tuple[list[Node], list[str], int]:
    """A file's nodes that are worth a vector, the text each one embeds, and how many trivial nodes
    were left out. Definitions in test, example and generated code embed their name, doc and
    signature only (`embedding_text(brief=True)`): the ranking demotes them unless a query asks for
    tests, and their bodies were a third of a repository's tokens, so of the model's time
    (docs/benchmarks.md, issue 11). The one rule for the vector stage and the build's early vectors
    (`prefetch.py`), so both key the same texts."""
    from indexlib.index.embedtext import embedding_text, worth_embedding
    from indexlib.pathroles import is_test_code
    from indexlib.records import DEFINITION_KINDS

    kept = [n for n in nodes if worth_embedding(n)]
    texts = [
        embedding_text(
            n.name,
            n.qualified_name,
            n.signature,
            n.doc,
            n.text,
            brief=n.kind in DEFINITION_KINDS and (generated or is_test_code(path, n.qualified_name)),
        )
        for n in kept
    ]
    return kept, texts, len(nodes) - len(kept)


def _embed_segment(
    store: Store,
    seg_id: str,
    live: dict[str, bool],
    embedder: Any,
    cache: Any,
    report: BuildReport,
    advance: Callable[[int], None],
    early: set[int],
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
    limit = batch_texts(embedder.workers)
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

    for nodes, texts, trivial in node_texts(store, seg_id, live):
        report.embed_skipped += trivial
        keys = [text_key(t) for t in texts]
        known = cache.get_many(keys)
        hits = trivial  # counted as done for the progress file
        for n, key, text in zip(nodes, keys, texts, strict=True):
            uids.append(n.uid)
            if key in known:
                vectors.append(known[key])
                if key in early:  # made by this build's prefetch: embedded, not found
                    early.discard(key)
                    report.embedded += 1
                else:
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
        if len(batch) >= limit:
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
