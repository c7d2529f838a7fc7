"""Per-segment vector files: write them, open them, nearest-neighbour search over them.

Owns: the only import of usearch, and the on-disk layout of a segment's vectors: `keys.u64.npy` (node
uids) plus either `vectors.f32.npy` (exact search over a memory-mapped matrix) or `vectors.usearch`
(an HNSW graph, float16, cosine, keyed by row number into `keys.u64.npy`) for segments of more than
`hnsw_threshold` vectors.
Does not own: computing vectors (`indexlib/engines/embed.py`), the embedding cache (`indexlib/index/embedcache.py`),
liveness (callers over-fetch and drop tombstoned uids), or publishing the staging directory.

Why two kinds: below ~20k vectors one matrix-vector product over a mapped float32 matrix takes about
a millisecond and is exact, while building a graph costs seconds (1-4k vectors/s here); above it the
graph answers in well under a millisecond. The exact matrix stays float32 because numpy has no fast
float16 product (converting a 50k float16 matrix costs ~30 ms per query, the float32 product 1-4 ms);
HNSW stores float16 because it loses no measurable recall against float32 at half the size
(recall@10 0.993 vs 0.995 on 50k vectors; int8 drops to 0.93: bench/embed_throughput.py --vectors).

Import order: usearch 2.26.2-2.26.6 imported before onnxruntime 1.32 crashes the process inside
onnxruntime's init, so `_usearch()` imports onnxruntime first (tests/unit/test_import_order.py).
Nothing heavy is imported when this module is: numpy and usearch load on first use.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

import msgspec

from indexlib.errors import IndexCorrupt
from indexlib.store.atomic import fsync_file

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = ["HNSW_THRESHOLD", "VectorFiles", "VectorSegment", "write_vectors"]

HNSW_THRESHOLD = 20_000
KEYS_FILE = "keys.u64.npy"
EXACT_FILE = "vectors.f32.npy"
HNSW_FILE = "vectors.usearch"


class VectorFiles(msgspec.Struct, frozen=True, kw_only=True):
    """What `write_vectors` wrote: the kind of search structure, how many vectors, their width."""

    kind: Literal["exact", "hnsw"]
    count: int
    dim: int


def _usearch() -> Any:
    """The `usearch.index` module, imported only after onnxruntime (see the module docstring)."""
    import onnxruntime  # noqa: F401  (must precede usearch: usearch 2.26.2+ first segfaults)
    import usearch.index

    return usearch.index


def write_vectors(
    out_dir: Path,
    uids: Sequence[int],
    matrix: npt.NDArray[np.float32],
    *,
    hnsw_threshold: int = HNSW_THRESHOLD,
) -> VectorFiles:
    """Write the vectors of one segment into `out_dir` (a staging directory the caller publishes).

    `uids[i]` is the node uid of row `i` of `matrix`; uids must be distinct uint64s. Rows are
    normalised again (cheap), so cosine similarity is a dot product. Writes `keys.u64.npy` (sorted
    uids) and `vectors.f32.npy` in the same order when there are at most `hnsw_threshold` vectors,
    else a float16 cosine HNSW index `vectors.usearch`. Files are written fully before returning
    and fsynced.
    """
    import numpy as np

    out_dir = Path(out_dir)
    keys = np.asarray(uids, dtype=np.uint64).reshape(-1)
    mat = np.asarray(matrix, dtype=np.float32)
    if mat.ndim != 2 or mat.shape[0] != keys.shape[0]:
        raise ValueError(f"{keys.shape[0]} uids for a matrix of shape {mat.shape}")
    if np.unique(keys).shape[0] != keys.shape[0]:
        raise ValueError("uids passed to write_vectors must be distinct")
    dim = int(mat.shape[1])
    order = np.argsort(keys, kind="stable")
    keys = keys[order]
    mat = _normalise_rows(mat[order])
    out_dir.mkdir(parents=True, exist_ok=True)
    _save_npy(out_dir / KEYS_FILE, keys)
    if keys.shape[0] <= hnsw_threshold:
        _save_npy(out_dir / EXACT_FILE, mat)
        return VectorFiles(kind="exact", count=int(keys.shape[0]), dim=dim)
    index = _usearch().Index(ndim=dim, metric="cos", dtype="f16")
    # The graph is keyed by row number, not uid: usearch reserves the all-ones uint64 as its free-slot
    # marker, and a uid may legitimately be any uint64. `keys.u64.npy` maps rows back to uids.
    # One thread: usearch's multi-threaded insert builds a different graph on every run, so the same
    # vectors gave different files and, now and then, a query that missed its own vector (72 of
    # 16,000 self-queries over 40 builds of 400 vectors; none single-threaded). The price, measured
    # on 25k x 384 here: 40 s instead of 20 s, against ~250 s to embed those nodes.
    index.add(np.arange(keys.shape[0], dtype=np.uint64), mat, threads=1)
    path = out_dir / HNSW_FILE
    index.save(str(path))
    fsync_file(path)
    return VectorFiles(kind="hnsw", count=int(keys.shape[0]), dim=dim)


class VectorSegment:
    """One segment's vectors, opened read-only (memory-mapped in both kinds: opening is cheap)."""

    def __init__(self, directory: Path, kind: Literal["exact", "hnsw"], keys: Any, matrix: Any, index: Any):
        self.directory = directory
        self.kind = kind
        self._keys = keys  # sorted uint64 uids (memory-mapped); in HNSW, row i is graph key i
        self._matrix = matrix  # exact: float32 [count, dim] aligned with _keys (memory-mapped)
        self._index = index  # hnsw: a usearch Index viewing the file
        self.count = int(keys.shape[0])
        self.dim = int(matrix.shape[1]) if matrix is not None else int(index.ndim)

    @classmethod
    def open(cls, directory: Path) -> VectorSegment:
        """Open the vector files `write_vectors` wrote in `directory`; IndexCorrupt if they are not there."""
        import numpy as np

        directory = Path(directory)
        try:
            keys = np.load(directory / KEYS_FILE, mmap_mode="r")
            if (directory / HNSW_FILE).exists():
                index = _usearch().Index.restore(str(directory / HNSW_FILE), view=True)
                if index is None or index.size != keys.shape[0]:
                    raise ValueError("the HNSW index does not match its keys")
                return cls(directory, "hnsw", keys, None, index)
            matrix = np.load(directory / EXACT_FILE, mmap_mode="r")
        except (OSError, ValueError, RuntimeError) as exc:
            raise IndexCorrupt(
                f"vector files of segment {str(directory)!r} are missing or unreadable: {exc}",
                hint="run `qry verify`, or re-index with embeddings to rebuild them",
            ) from exc
        if matrix.ndim != 2 or matrix.shape[0] != keys.shape[0] or keys.dtype != np.uint64:
            raise IndexCorrupt(
                f"vector files of segment {str(directory)!r} disagree: {keys.shape} keys, {matrix.shape} matrix",
                hint="run `qry verify`, or re-index with embeddings to rebuild them",
            )
        return cls(directory, "exact", keys, matrix, None)

    def __len__(self) -> int:
        return self.count

    def search(
        self, query: npt.NDArray[np.float32], k: int, *, expansion: int | None = None
    ) -> list[tuple[int, float]]:
        """The `k` nearest uids to `query` with their cosine similarity, best first.

        Exact segments compute every similarity; HNSW segments search with `expansion_search` =
        `expansion` or max(64, 4k) (recall@100 is ~0.75 at the default 64, ~0.9 at 4x). Callers
        over-fetch and drop tombstoned uids themselves.
        """
        import numpy as np

        if k <= 0 or self.count == 0:
            return []
        q = np.asarray(query, dtype=np.float32).reshape(-1)
        if q.shape[0] != self.dim:
            raise ValueError(f"query of width {q.shape[0]} against vectors of width {self.dim}")
        norm = float(np.linalg.norm(q))
        if norm > 0:
            q = q / norm
        k = min(k, self.count)
        if self.kind == "exact":
            # einsum, not `@`: `@` goes to OpenBLAS, whose threads make a 20k x 384 product take 6 ms
            # instead of 1 when the other core is busy; einsum's loop is single-threaded and steady.
            scores = np.einsum("ij,j->i", self._matrix, q)
            top = np.argpartition(-scores, k - 1)[:k] if k < self.count else np.arange(self.count)
            # Ties are broken by uid so the order is the same on every run and platform.
            top = top[np.lexsort((self._keys[top], -scores[top]))]
            return [(int(u), float(s)) for u, s in zip(self._keys[top], scores[top], strict=True)]
        self._index.expansion_search = expansion if expansion is not None else max(64, 4 * k)
        matches = self._index.search(q, k, threads=1)
        rows = np.asarray(matches.keys, dtype=np.int64)
        uids = self._keys[rows]
        return [(int(u), float(1.0 - d)) for u, d in zip(uids, matches.distances, strict=True)]

    def vector(self, uid: int) -> npt.NDArray[np.float32] | None:
        """The stored (unit) vector of `uid` as float32, or None if this segment has none for it."""
        import numpy as np

        if not 0 <= uid < 1 << 64 or self.count == 0:
            return None
        row = int(np.searchsorted(self._keys, np.uint64(uid)))
        if row >= self.count or int(self._keys[row]) != uid:
            return None
        if self.kind == "exact":
            return np.array(self._matrix[row], dtype=np.float32)
        found = self._index.get(row)
        return None if found is None else np.asarray(found, dtype=np.float32)


def _normalise_rows(mat: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
    import numpy as np

    norms = np.linalg.norm(mat, axis=1, keepdims=True)
    out: npt.NDArray[np.float32] = (mat / np.maximum(norms, 1e-12)).astype(np.float32, copy=False)
    return out


def _save_npy(path: Path, array: Any) -> None:
    import numpy as np

    with path.open("wb") as fh:
        np.save(fh, np.ascontiguousarray(array), allow_pickle=False)
        fh.flush()
        os.fsync(fh.fileno())
