"""A persistent cache of computed embeddings, keyed by (model, text hash).

Owns: one append-only file per model under `<index_dir>/cache/`, holding fixed-size records of an
8-byte key and the vector as float16, and reading it back safely after a crash.
Does not own: computing vectors (`indexlib/embed.py`), deciding what text a node embeds
(`embed.embedding_text`), or the per-segment vector files a search reads (`indexlib/vectors.py`).

Why it exists: embedding is by far the slowest step of an index build (~20-45 texts/s per core), so a
re-index must embed only text it has never seen, and identical texts (copied helpers, generated
boilerplate) only once. Keys are xxh3_64 of the embedded text (`text_key`); the model is the file.

File format (`vectors-<cache_id>.f16`): a 16-byte header (`QRYVEC1\\0`, uint32 dim, uint32 0), then
records of `<u8 key><dim x <f2 vector>`. float16 halves the file against float32 at no measurable
cost: on unit vectors of this model it moves cosine similarities by ~1e-4, far below the gaps between
neighbours (see bench/embed_throughput.py `--vectors`). A crash can leave a partial last record (it
is ignored, then cut off before the next append) or a zero-filled tail (records whose vector is not
unit-length are ignored), so the worst outcome of a crash is embedding a few texts again.
"""

from __future__ import annotations

import os
import re
import struct
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import xxhash

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = ["VectorCache", "text_key"]

_MAGIC = b"QRYVEC1\x00"
_HEADER = struct.Struct("<8sII")
# float16 keeps ~3 significant digits: a stored unit vector's norm lands within ~1e-3 of 1.
_NORM_TOLERANCE = 0.02


def text_key(text: str) -> int:
    """The cache key of an embedded text: xxh3_64 of its UTF-8 bytes (a uint64)."""
    return xxhash.xxh3_64_intdigest(text.encode("utf-8", "surrogatepass"))


class VectorCache:
    """Vectors already computed for one embedder, looked up by text hash.

    Not safe for two writers at once: the index lock makes the build the only writer. Readers see
    the file as it was when first read plus what this object added.

    >>> cache = VectorCache(index_dir / "cache", embedder.cache_id)   # doctest: +SKIP
    >>> known = cache.get_many(keys); cache.put_many(new_vectors); cache.flush()   # doctest: +SKIP
    """

    def __init__(self, cache_dir: Path, model_id: str) -> None:
        self.cache_dir = Path(cache_dir)
        self.model_id = model_id
        safe = re.sub(r"[^A-Za-z0-9._-]+", "_", model_id) or "model"
        self.path = self.cache_dir / f"vectors-{safe}.f16"
        self._dim: int | None = None
        self._rows: dict[int, npt.NDArray[np.float16]] | None = None
        self._pending: dict[int, npt.NDArray[np.float16]] = {}

    def __len__(self) -> int:
        return len(self._load()) + sum(1 for k in self._pending if k not in self._load())

    def get_many(self, hashes: Sequence[int]) -> dict[int, npt.NDArray[np.float32]]:
        """The cached vectors (float32 copies) of those `hashes` that are cached; others are absent."""
        import numpy as np

        rows = self._load()
        found: dict[int, npt.NDArray[np.float32]] = {}
        for h in hashes:
            vec = self._pending.get(h)
            if vec is None:
                vec = rows.get(h)
            if vec is not None:
                found[h] = vec.astype(np.float32)
        return found

    def put_many(self, items: Mapping[int, npt.NDArray[np.float32]]) -> None:
        """Remember vectors (written on `flush`). All vectors of one cache share one width."""
        import numpy as np

        for key, vec in items.items():
            if not 0 <= key < 1 << 64:
                raise ValueError(f"cache key {key} is not a uint64")
            row = np.asarray(vec, dtype=np.float16).reshape(-1)
            if self._dim is None:
                self._load()
                if self._dim is None:
                    self._dim = int(row.shape[0])
            if row.shape[0] != self._dim:
                raise ValueError(f"vector of width {row.shape[0]} in a cache of width {self._dim}")
            self._pending[key] = row

    def flush(self) -> None:
        """Append the pending vectors to the file (one write; a crash midway loses only those)."""
        import numpy as np

        if not self._pending:
            return
        rows = self._load()
        assert self._dim is not None
        dim = self._dim
        dtype = _record_dtype(dim)
        new = {k: v for k, v in self._pending.items() if k not in rows}
        records = np.zeros(len(new), dtype=dtype)
        records["key"] = np.fromiter(new.keys(), dtype=np.uint64, count=len(new))
        if new:
            records["vec"] = np.stack(list(new.values()))
        self.cache_dir.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            size = os.fstat(fd).st_size
            if size < _HEADER.size:
                os.ftruncate(fd, 0)
                os.write(fd, _HEADER.pack(_MAGIC, dim, 0))
                size = _HEADER.size
            whole = _HEADER.size + (size - _HEADER.size) // dtype.itemsize * dtype.itemsize
            if whole != size:  # a torn record from a crash: cut it so new records stay aligned
                os.ftruncate(fd, whole)
            os.lseek(fd, whole, os.SEEK_SET)
            data = records.tobytes()
            view = memoryview(data)
            while view:
                written = os.write(fd, view)
                view = view[written:]
        finally:
            os.close(fd)
        rows.update(new)
        self._pending.clear()

    def _load(self) -> dict[int, npt.NDArray[np.float16]]:
        """Read the file once; bad headers, torn tails and non-unit records are treated as absent."""
        if self._rows is not None:
            return self._rows
        import numpy as np

        self._rows = {}
        try:
            raw = self.path.read_bytes()
        except FileNotFoundError:
            return self._rows
        if len(raw) < _HEADER.size:
            return self._rows
        magic, dim, _ = _HEADER.unpack_from(raw)
        if magic != _MAGIC or dim == 0:
            # Not a cache file we wrote: start over rather than trust it.
            self.path.unlink(missing_ok=True)
            return self._rows
        self._dim = dim
        dtype = _record_dtype(dim)
        count = (len(raw) - _HEADER.size) // dtype.itemsize
        records = np.frombuffer(raw, dtype=dtype, count=count, offset=_HEADER.size)
        vecs = records["vec"].astype(np.float32)
        ok = np.abs(np.linalg.norm(vecs, axis=1) - 1.0) <= _NORM_TOLERANCE
        keys = records["key"][ok].tolist()
        kept = records["vec"][ok]
        self._rows = dict(zip(keys, kept, strict=True))
        return self._rows


def _record_dtype(dim: int) -> np.dtype[np.void]:
    import numpy as np

    return np.dtype([("key", "<u8"), ("vec", "<f2", (dim,))])


class QueryVectorCache:
    """Query vectors by normalised query text, one small file each, so a repeated question skips the
    model entirely (the model's one-shot cost, ~130 ms here, is most of a hybrid query's time).

    One file per query, written to a temporary name and renamed, because searches run concurrently and
    take no lock; a read-only index directory simply gets no cache (errors are ignored).
    """

    def __init__(self, cache_dir: Path, model_id: str) -> None:
        safe = re.sub(r"[^A-Za-z0-9._-]+", "_", model_id) or "model"
        self.dir = Path(cache_dir) / f"queries-{safe}"

    @staticmethod
    def _key(text: str) -> str:
        return xxhash.xxh3_128_hexdigest(" ".join(text.split()).encode("utf-8", "replace"))

    def get(self, text: str) -> npt.NDArray[np.float32] | None:
        import numpy as np

        path = self.dir / f"{self._key(text)}.npy"
        try:
            vec = np.load(path, allow_pickle=False)
        except (OSError, ValueError):
            return None
        if vec.ndim != 1 or vec.dtype != np.float32 or not np.isfinite(vec).all():
            return None
        return vec

    def put(self, text: str, vec: npt.NDArray[np.float32]) -> None:
        import numpy as np

        path = self.dir / f"{self._key(text)}.npy"
        tmp = path.with_name(f".{path.stem}.{os.getpid()}.tmp")
        try:
            self.dir.mkdir(mode=0o700, parents=True, exist_ok=True)
            with open(tmp, "wb") as fh:
                np.save(fh, np.asarray(vec, dtype=np.float32).reshape(-1), allow_pickle=False)
            os.replace(tmp, path)
        except OSError:
            try:
                tmp.unlink()
            except OSError:
                pass
