"""Which embedder: by the name a build is given (`--embed onnx|hash`) or by the model id an index records.

Owns: the one table of embedders, so no caller tests a model id's spelling: `build_embedder` (an
index build's embedder, the ONNX model loaded only when it first embeds), `query_embedder` (the one
that matches an index, or a clear error), `build_name` (the `--embed` value that rebuilds an index),
and `caches_query_vectors` (read from the embedder's class, so no model loads to answer).
Does not own: the embedders themselves (`indexlib/engines/embed.py`, `indexlib/embedding.py`).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from indexlib.embedding import Embedder, HashEmbedder
from indexlib.errors import ModelError, UsageError
from indexlib.workers import ForkPool, available_cores, grow_pool, start_pool

if TYPE_CHECKING:
    from indexlib.engines.embed import ModelSpec, OnnxEmbedder

__all__ = [
    "LazyOnnxEmbedder",
    "build_embedder",
    "build_name",
    "build_names",
    "caches_query_vectors",
    "check_build_name",
    "gather_chunks",
    "length_chunks",
    "query_embedder",
]


#: Texts a worker embeds per task: small enough that the last task of a batch is short, large
#: enough that its round trip (pickled texts out, 384 floats per text back) is noise.
WORKER_CHUNK = 16
#: Fewer texts than this, with no workers started yet, are embedded in the build's own process: the
#: workers' start (a fork and a model load each, ~0.3 s) pays from about this many texts on two cores.
POOL_MIN_TEXTS = 32


class LazyOnnxEmbedder:
    """The ONNX embedder of a build, verified and loaded when it first embeds, on every core.

    With `workers` of 2 or more the model runs in that many forked processes of one intra-op thread
    each, and each batch is cut into chunks of similar length that free workers take in turn. A
    first batch of fewer than POOL_MIN_TEXTS (an edit of a file or two) runs in this process on one
    thread instead: starting the workers would load the model once per core for a few texts.
    `cache_id` needs no model; `dim` is read from the graph (or a worker's vector) only when a
    segment has no vectors at all. `close()` stops the workers: call it on every way out.
    """

    def __init__(self, spec: ModelSpec, workers: int) -> None:
        from indexlib.engines.embed import onnx_cache_id

        self.spec = spec
        self.name = spec.name
        self.checksum = spec.checksum
        self.model_id = spec.model_id
        self.cache_id = onnx_cache_id(spec)
        self.workers = workers if workers > 0 else available_cores()
        if not hasattr(os, "fork"):
            self.workers = 1
        self._loaded: OnnxEmbedder | None = None
        self._pool: ForkPool | None = None

    def _model(self) -> OnnxEmbedder:
        # Looked up now, not at import: benchmarks substitute these names to vary the model's settings.
        from indexlib.engines.embed import OnnxEmbedder, verify_model

        if self._loaded is None:
            verify_model(self.spec)  # once per build that embeds: queries trust the recorded checksum
            self._loaded = OnnxEmbedder(self.spec, threads=1)
        return self._loaded

    def _workers(self) -> ForkPool:
        self.grow()
        assert self._pool is not None
        return self._pool

    def begin(self, workers: int) -> None:
        """Start `workers` of the model's workers now (at most `self.workers`), for `post`; the
        rest start with `grow` or the first `embed`. The build does this while its files parse, on
        the cores the parse leaves idle."""
        from indexlib.engines.embed import verify_model

        if self._pool is None:
            verify_model(self.spec)
            self._pool = start_pool(max(1, min(workers, self.workers)), _load_worker_model, (self.spec,))

    def grow(self) -> None:
        """Bring the workers to `self.workers` (starting them all if none runs yet)."""
        if self._pool is None:
            self.begin(self.workers)
        assert self._pool is not None
        if self._pool.workers < self.workers:
            grow_pool(self._pool, self.workers - self._pool.workers, _load_worker_model, (self.spec,))

    def post(self, texts: Sequence[str]) -> int:
        """Send `texts` to a started worker at once and return a ticket; `collect` gives the vectors.
        Every posted batch must be collected before `embed` runs."""
        if self._pool is None:
            raise RuntimeError("post before begin")
        return self._pool.post(_embed_in_worker, list(texts))

    def collect(self, timeout: float | None = 0.0) -> list[tuple[int, Any]]:
        """(ticket, vectors) of the posted batches finished so far (`ForkPool.collect`)."""
        return self._pool.collect(timeout) if self._pool is not None else []

    @property
    def dim(self) -> int:
        if self._pool is None:
            return int(self._model().dim)
        return int(self.embed(["dimension probe"]).shape[1])

    def embed(self, texts: Sequence[str]) -> Any:
        if self._pool is None and (self.workers < 2 or len(texts) < POOL_MIN_TEXTS):
            return self._model().embed(texts)
        # Pulled by whichever worker is free: a worker slowed by other load on its core does not
        # hold the others at the barrier.
        chunks = length_chunks(texts)
        parts = self._workers().map(_embed_in_worker, [[texts[i] for i in c] for c in chunks], chunksize=1)
        return gather_chunks(len(texts), chunks, parts)

    def close(self) -> None:
        """Stop the workers (idle between batches, or mid-batch after a Ctrl-C)."""
        if self._pool is not None:
            self._pool.terminate()
            self._pool = None


def length_chunks(texts: Sequence[str], size: int = WORKER_CHUNK) -> list[list[int]]:
    """Indexes of `texts` in chunks of `size` texts of similar length (little padding in a model
    batch), longest first: how a batch is spread over workers, here or on a cluster, so every
    worker embeds the same chunks a given batch would give any other."""
    order = sorted(range(len(texts)), key=lambda i: -len(texts[i]))
    return [order[i : i + size] for i in range(0, len(order), size)]


def gather_chunks(n: int, chunks: Sequence[Sequence[int]], parts: Sequence[Any]) -> Any:
    """The `n` rows of a batch from its chunks' vectors (`length_chunks` order)."""
    import numpy as np

    out = np.empty((n, parts[0].shape[1]), dtype=np.float32)
    for chunk, part in zip(chunks, parts, strict=True):
        out[list(chunk)] = part
    return out


_WORKER_MODEL: list[OnnxEmbedder] = []  # the model of this worker process, loaded once by its pool


def _load_worker_model(spec: ModelSpec) -> None:
    """Worker side: load the model with one intra-op thread (the pool has a worker per core)."""
    from indexlib.engines.embed import OnnxEmbedder

    _WORKER_MODEL.append(OnnxEmbedder(spec, threads=1))


def _embed_in_worker(texts: list[str]) -> Any:
    """Worker side: the vectors of `texts` (float32, one row each)."""
    return _WORKER_MODEL[0].embed(texts)


def build_embedder(name: str, model_dir: str | None, *, workers: int) -> HashEmbedder | LazyOnnxEmbedder:
    """The embedder `qry index --embed NAME` builds with; it carries what the index records of the model
    (`name`, `checksum`, `model_id`). `workers` is how many cores run the model (0: every available
    one). Raises UsageError for an unknown name, ModelError for a missing model (before anything
    loads)."""
    from indexlib.engines.embed import OnnxEmbedder, resolve_model

    if name == HashEmbedder.build_name:
        return HashEmbedder()
    if name == OnnxEmbedder.build_name:
        return LazyOnnxEmbedder(resolve_model(model_dir), workers)
    raise _unknown_embedder(name)


#: The `--embed` value of a lexical build (no vectors): a name a build takes, not an embedder.
NO_EMBED = "none"


def build_names() -> tuple[str, ...]:
    """Every `--embed` value a build takes, from the embedder classes themselves (no model loads)."""
    from indexlib.engines.embed import OnnxEmbedder

    return (OnnxEmbedder.build_name, NO_EMBED, HashEmbedder.build_name)


def check_build_name(name: str) -> None:
    """Refuse an `--embed` value no build knows, before the build reads a file. The lexical root is
    published before the vector stage makes its embedder, and it records the name: checked only
    there, a typo (`--embed onxx`) published a root, exited 2, and left every later plain
    `qry index` (which builds as the index was last built) failing on the recorded typo."""
    if name not in build_names():
        raise _unknown_embedder(name)


def _unknown_embedder(name: str) -> UsageError:
    """The one wording of the refusal, whether the name is checked up front or when building."""
    return UsageError(f"unknown embedder {name!r}", hint="use --embed onnx or --embed none")


def _kind(model_id: str) -> type[HashEmbedder] | type[OnnxEmbedder]:
    from indexlib.engines.embed import OnnxEmbedder

    return HashEmbedder if HashEmbedder.claims(model_id) else OnnxEmbedder


def build_name(model_id: str) -> str:
    """The `--embed` value that rebuilds an index whose vectors are `model_id`'s."""
    return _kind(model_id).build_name


def caches_query_vectors(model_id: str) -> bool:
    """Whether a query vector of `model_id` is worth keeping on disk (no model is loaded to answer)."""
    return _kind(model_id).caches_queries


def query_embedder(model_dir: str | None, manifest_model_id: str) -> Embedder:
    """Load the embedder that matches the index, or fail with a hint."""
    if HashEmbedder.claims(manifest_model_id):
        return HashEmbedder.for_model_id(manifest_model_id)
    from indexlib.engines.embed import OnnxEmbedder, resolve_model

    spec = resolve_model(model_dir)
    if spec.model_id != manifest_model_id:
        raise ModelError(
            f"the index was embedded with model {manifest_model_id}, but the query model is {spec.model_id}",
            hint="pass the same --model DIR used for `qry index`, or re-index: qry index --rebuild --model DIR",
        )
    return OnnxEmbedder(spec, for_query=True)
