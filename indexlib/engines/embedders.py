"""Which embedder: by the name a build is given (`--embed onnx|hash`) or by the model id an index records.

Owns: the one table of embedders, so no caller tests a model id's spelling: `build_embedder` (an
index build's embedder, the ONNX model loaded only when it first embeds), `query_embedder` (the one
that matches an index, or a clear error), `build_name` (the `--embed` value that rebuilds an index),
and `caches_query_vectors` (read from the embedder's class, so no model loads to answer).
Does not own: the embedders themselves (`indexlib/engines/embed.py`, `indexlib/embedding.py`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from indexlib.embedding import Embedder, HashEmbedder
from indexlib.errors import ModelError, UsageError

if TYPE_CHECKING:
    from indexlib.engines.embed import ModelSpec, OnnxEmbedder

__all__ = ["LazyOnnxEmbedder", "build_embedder", "build_name", "caches_query_vectors", "query_embedder"]


class LazyOnnxEmbedder:
    """The ONNX embedder, verified and loaded when it first embeds (`cache_id` and `dim` need no model:
    the dimension is read from the graph only if a segment has no vectors at all)."""

    def __init__(self, spec: ModelSpec, threads: int) -> None:
        from indexlib.engines.embed import onnx_cache_id

        self.spec = spec
        self.name = spec.name
        self.checksum = spec.checksum
        self.model_id = spec.model_id
        self.cache_id = onnx_cache_id(spec)
        self._threads = threads
        self._loaded: OnnxEmbedder | None = None

    def _model(self) -> OnnxEmbedder:
        # Looked up now, not at import: benchmarks substitute these names to vary the model's settings.
        from indexlib.engines.embed import OnnxEmbedder, verify_model

        if self._loaded is None:
            verify_model(self.spec)  # once per build that embeds: queries trust the recorded checksum
            self._loaded = OnnxEmbedder(self.spec, threads=self._threads)
        return self._loaded

    @property
    def dim(self) -> int:
        return int(self._model().dim)

    def embed(self, texts: Sequence[str]) -> Any:
        return self._model().embed(texts)


def build_embedder(name: str, model_dir: str | None, *, threads: int) -> HashEmbedder | LazyOnnxEmbedder:
    """The embedder `qry index --embed NAME` builds with; it carries what the index records of the model
    (`name`, `checksum`, `model_id`). Raises UsageError for an unknown name, ModelError for a missing
    model (before anything loads)."""
    from indexlib.engines.embed import OnnxEmbedder, resolve_model

    if name == HashEmbedder.build_name:
        return HashEmbedder()
    if name == OnnxEmbedder.build_name:
        return LazyOnnxEmbedder(resolve_model(model_dir), threads)
    raise UsageError(f"unknown embedder {name!r}", hint="use --embed onnx or --embed none")


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
