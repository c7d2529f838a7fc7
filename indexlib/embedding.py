"""What build and search need of an embedding model, and the deterministic stand-in tests use.

Owns: the `Embedder` protocol, `HashEmbedder` (words hashed into signed buckets: no model, no files)
and `normalise` (rows to unit length), which every embedder applies last.
Does not own: the ONNX model (`indexlib/engines/embed.py`), choosing an embedder by name or model id
(`indexlib/engines/embedders.py`), or what text a node embeds (`indexlib/index/embedtext.py`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, ClassVar, Protocol, runtime_checkable

import xxhash

from indexlib.analyzer import split_identifier

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    Matrix = npt.NDArray[np.float32]

__all__ = ["Embedder", "HashEmbedder", "normalise"]


@runtime_checkable
class Embedder(Protocol):
    """Anything that turns texts into L2-normalised float32 rows of one fixed width.

    `model_id` names the vector space: vectors of two embedders are comparable only if their ids are
    equal, so an index records it and a query refuses to mix spaces. `cache_id` additionally names
    everything else that changes a stored vector (such as the token limit); key cached vectors by it.
    `caches_queries` says whether a query's vector is worth keeping on disk (not when embedding is
    cheaper than reading it back).
    """

    model_id: str
    cache_id: str
    caches_queries: ClassVar[bool]

    @property
    def dim(self) -> int:
        """Width of the vectors."""
        ...

    def embed(self, texts: Sequence[str]) -> Matrix:
        """float32 `[len(texts), dim]`, rows L2-normalised, in the order of `texts`."""
        ...

    def embed_query(self, text: str) -> Matrix:
        """float32 `[dim]`, L2-normalised."""
        ...


def normalise(matrix: Matrix) -> Matrix:
    """`matrix` with every row scaled to unit length (an all-zero row stays zero)."""
    import numpy as np

    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    result: Matrix = (matrix / np.maximum(norms, 1e-12)).astype(np.float32, copy=False)
    return result


class HashEmbedder:
    """A deterministic stand-in for unit tests: words hashed into `dim` signed buckets, normalised.

    Texts that share words get closer vectors, which is all ranking tests need, and nothing is
    loaded. Identifiers are split like the analyzer splits them, so `retryCharge` meets `retry`.
    """

    #: Model ids of this embedder are `hash-<dim>`.
    ID_PREFIX: ClassVar[str] = "hash-"
    #: `qry index --embed` value that builds with it.
    build_name: ClassVar[str] = "hash"
    #: Embedding a query costs microseconds: no cache.
    caches_queries: ClassVar[bool] = False
    #: What an index records of it (`ModelInfo.name` and `.checksum`): there is no model file.
    name: ClassVar[str] = "hash"
    checksum: ClassVar[str] = "hash"
    #: It embeds in the calling process (a build sizes its batches by its embedder's workers).
    workers: ClassVar[int] = 1

    def __init__(self, dim: int = 64) -> None:
        self.dim = dim
        self.model_id = f"{self.ID_PREFIX}{dim}"
        self.cache_id = self.model_id

    @classmethod
    def claims(cls, model_id: str) -> bool:
        """Whether `model_id` names a hash embedder's vector space."""
        return model_id.startswith(cls.ID_PREFIX)

    @classmethod
    def for_model_id(cls, model_id: str) -> HashEmbedder:
        """The hash embedder whose vectors an index recorded as `model_id` (`hash-<dim>`)."""
        return cls(dim=int(model_id.split("-")[1]))

    def embed(self, texts: Sequence[str]) -> Matrix:
        import numpy as np

        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for row, text in enumerate(texts):
            words = split_identifier(text)
            for word in words or ["\x00empty"]:
                h = xxhash.xxh3_64_intdigest(word.encode("utf-8"))
                out[row, h % self.dim] += 1.0 if (h >> 63) else -1.0
            if not out[row].any():  # opposite signs cancelled out: fall back to a fixed bucket
                out[row, 0] = 1.0
        return normalise(out)

    def close(self) -> None:
        """Nothing to stop (the ONNX build embedder has workers to stop)."""

    def embed_query(self, text: str) -> Matrix:
        return self.embed([text])[0]
