"""The on-disk vector cache of one embedder: append-only generation files, checked on read.

Owns: `VectorCache` (lookups by text key over the mapped generation files, appends under the
folder's flock, rotation and least-recently-used eviction for a capped cache) and the record format.
Does not own: which caches are chained or where they live (`embedcache/__init__.py`).

Record format (`vectors-<cache_id>/<generation>.f16`): a 16-byte header (`QRYVEC2\\0`, uint32 dim,
uint32 0), then records of `<u8 text key><u8 embedder tag><dim x <f2 vector><u8 check>`. The tag is
xxh3_64 of the embedder's `cache_id` (model checksum and token limit), the check is xxh3_64 of the
record's other bytes: a record copied from another model's cache, flipped bits or a zero-filled tail
after a crash all fail the check on read and count as absent, so a damaged cache costs re-embedding,
never a wrong vector. float16 halves the file against float32 and moves cosine similarities of this
model's unit vectors by ~1e-4 (bench/embed_throughput.py `--vectors`).

Writers append whole records under an flock of the folder's `lock` file, after cutting a torn tail a
crashed writer left; readers take no lock and map the files, reading only complete records. A capped
cache rotates to a new generation file every 1/8 of the cap and deletes the oldest generations past
the cap, and a hit in an old generation is appended again to the newest, so eviction is
least-recently-used at the grain of a generation.
"""

from __future__ import annotations

import fcntl
import mmap
import os
import struct
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import xxhash

from indexlib.index.cachefiles import private_dir, safe_name

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

_MAGIC = b"QRYVEC2\x00"
_HEADER = struct.Struct("<8sII")
_SUFFIX = ".f16"
_LOCK = "lock"
#: Generation files per cap: the grain of eviction (a smaller grain evicts more precisely and means
#: more files to map per build).
_GENERATIONS = 8


def _record_dtype(dim: int) -> np.dtype[np.void]:
    import numpy as np

    return np.dtype([("key", "<u8"), ("tag", "<u8"), ("vec", "<f2", (dim,)), ("check", "<u8")])


class Generation:
    """One mapped generation file: its complete records, or none if the header is not ours."""

    def __init__(self, path: Path, dim_hint: int | None) -> None:
        self.path = path
        self.dim: int | None = None
        self.size = 0
        self.records: Any = None
        self._map: mmap.mmap | None = None
        try:
            with open(path, "rb") as fh:
                self.size = os.fstat(fh.fileno()).st_size
                if self.size < _HEADER.size:
                    return
                magic, dim, _ = _HEADER.unpack(fh.read(_HEADER.size))
                if magic != _MAGIC or dim == 0 or (dim_hint is not None and dim != dim_hint):
                    return
                self.dim = dim
                if self.size > _HEADER.size:
                    self._map = mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ)
        except (OSError, ValueError):
            self.dim = None
            return
        import numpy as np

        dtype = _record_dtype(dim)
        count = (self.size - _HEADER.size) // dtype.itemsize
        buf: Any = self._map if self._map is not None else b""
        self.records = np.frombuffer(buf, dtype=dtype, count=count, offset=_HEADER.size if count else 0)

    def __len__(self) -> int:
        return 0 if self.records is None else len(self.records)


def check_of(record: Any) -> int:
    """xxh3_64 of a record's bytes before its check field."""
    raw = record.tobytes()
    return xxhash.xxh3_64_intdigest(raw[:-8])


class VectorCache:
    """Vectors already computed by one embedder (`cache_id`), looked up by text key.

    Safe for several processes at once (appends are locked and whole; reads are unlocked and check
    each record). Readers see the files as they were when first looked up plus what this object added.

    >>> cache = VectorCache(index_dir / "cache", embedder.cache_id)   # doctest: +SKIP
    >>> known = cache.get_many(keys); cache.put_many(new_vectors); cache.flush()   # doctest: +SKIP
    """

    def __init__(self, cache_dir: Path, cache_id: str, *, max_bytes: int | None = None) -> None:
        self.cache_dir = Path(cache_dir)
        self.cache_id = cache_id
        self.dir = self.cache_dir / f"vectors-{safe_name(cache_id)}"
        self.tag = xxhash.xxh3_64_intdigest(cache_id.encode("utf-8"))
        self.max_bytes = max_bytes
        self.damaged = 0  # records that failed their check when looked up (treated as absent)
        self._dim: int | None = None
        self._gens: list[Generation] | None = None
        self._sorted_keys: Any = None
        self._where: Any = None  # row in the concatenated records -> (generation, row)
        self._added: dict[int, npt.NDArray[np.float16]] = {}
        self._pending: dict[int, npt.NDArray[np.float16]] = {}
        self._refresh: dict[int, npt.NDArray[np.float16]] = {}

    def __len__(self) -> int:
        """How many distinct keys of this embedder the cache holds (unchecked records included)."""
        import numpy as np

        self._load()
        stored = set(np.unique(self._sorted_keys).tolist()) if self._sorted_keys is not None else set()
        return len(stored | set(self._added) | set(self._pending))

    def get_many(self, hashes: Sequence[int]) -> dict[int, npt.NDArray[np.float32]]:
        """The cached vectors (float32 copies) of those `hashes` that are cached and intact."""
        import numpy as np

        self._load()
        found: dict[int, npt.NDArray[np.float32]] = {}
        wanted: list[int] = []
        for h in hashes:
            vec = self._pending.get(h)
            if vec is None:
                vec = self._added.get(h)
            if vec is not None:
                found[h] = vec.astype(np.float32)
            else:
                wanted.append(h)
        for h, vec16 in self._stored(wanted).items():
            found[h] = vec16.astype(np.float32)
        return found

    def _intact(self, hashes: Sequence[int]) -> set[int]:
        return set(self._stored(hashes, refresh=False))

    def _stored(self, wanted: Sequence[int], *, refresh: bool = True) -> dict[int, npt.NDArray[np.float16]]:
        """The intact stored records of `wanted` (float16); hits in old generations are refreshed."""
        import numpy as np

        self._load()
        found: dict[int, npt.NDArray[np.float16]] = {}
        if not wanted or self._sorted_keys is None or not len(self._sorted_keys):
            return found
        assert self._gens is not None and self._where is not None
        query = np.array(wanted, dtype=np.uint64)
        pos = np.searchsorted(self._sorted_keys, query)
        pos = np.minimum(pos, len(self._sorted_keys) - 1)
        newest = len(self._gens) - 1
        for h, p in zip(wanted, pos.tolist(), strict=True):
            # Duplicates of a key sit side by side; take the first intact one.
            while p < len(self._sorted_keys) and int(self._sorted_keys[p]) == h:
                gen_i, row = (int(x) for x in self._where[p])
                record = self._gens[gen_i].records[row]
                if int(record["check"]) == check_of(record):
                    vec16 = np.array(record["vec"], dtype=np.float16)
                    found[h] = vec16
                    if refresh and self.max_bytes is not None and gen_i != newest:
                        self._refresh[h] = vec16
                    break
                if refresh:
                    self.damaged += 1
                p += 1
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
            if key not in self._added:
                self._pending[key] = row

    def flush(self) -> None:
        """Append the pending (and refreshed) vectors to the newest generation, under the folder lock.

        One write per flush, so a crash loses at most the records of that write; callers flush after
        every batch so an interrupted build keeps what it finished.
        """
        import numpy as np

        stored = self._intact(list(self._pending))  # another instance or process wrote them already
        new = dict(self._refresh)
        new.update((k, v) for k, v in self._pending.items() if k not in stored)
        if not new:
            self._added.update(self._pending)
            self._pending.clear()
            return
        assert self._dim is not None
        dim = self._dim
        dtype = _record_dtype(dim)
        records = np.zeros(len(new), dtype=dtype)
        records["key"] = np.fromiter(new.keys(), dtype=np.uint64, count=len(new))
        records["tag"] = self.tag
        records["vec"] = np.stack(list(new.values()))
        raw = bytearray(records.tobytes())
        size = dtype.itemsize
        for i in range(len(records)):
            end = (i + 1) * size
            struct.pack_into("<Q", raw, end - 8, xxhash.xxh3_64_intdigest(bytes(raw[i * size : end - 8])))
        private_dir(self.dir)
        lock_fd = os.open(self.dir / _LOCK, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(lock_fd, fcntl.LOCK_EX)
            self._append_locked(bytes(raw), dim, size)
        finally:
            os.close(lock_fd)  # closing releases the flock
        self._added.update(self._pending)
        self._pending.clear()
        self._refresh.clear()

    def generation_paths(self) -> list[Path]:
        try:
            names = [n for n in os.listdir(self.dir) if n.endswith(_SUFFIX) and n[: -len(_SUFFIX)].isdigit()]
        except OSError:
            return []
        return [self.dir / n for n in sorted(names, key=lambda n: int(n[: -len(_SUFFIX)]))]

    def _append_locked(self, data: bytes, dim: int, record_size: int) -> None:
        paths = self.generation_paths()
        per_gen = None if self.max_bytes is None else max(self.max_bytes // _GENERATIONS, 1 << 16)
        target: Path
        if not paths:
            target = self.dir / f"{1:08d}{_SUFFIX}"
        else:
            target = paths[-1]
            try:
                full = per_gen is not None and target.stat().st_size >= per_gen
            except OSError:
                full = False
            if full:
                target = self.dir / f"{int(target.name[: -len(_SUFFIX)]) + 1:08d}{_SUFFIX}"
        fd = os.open(target, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            size = os.fstat(fd).st_size
            header_ok = False
            if size >= _HEADER.size:
                magic, file_dim, _ = _HEADER.unpack(os.pread(fd, _HEADER.size, 0))
                header_ok = magic == _MAGIC and file_dim == dim
            if not header_ok:
                # Not a file we wrote (or another width): start it over rather than trust it.
                os.ftruncate(fd, 0)
                os.pwrite(fd, _HEADER.pack(_MAGIC, dim, 0), 0)
                size = _HEADER.size
            whole = _HEADER.size + (size - _HEADER.size) // record_size * record_size
            if whole != size:  # a torn record from a crashed writer: cut it so records stay aligned
                os.ftruncate(fd, whole)
            view = memoryview(data)
            offset = whole
            while view:
                written = os.pwrite(fd, view, offset)
                view = view[written:]
                offset += written
        finally:
            os.close(fd)
        if self.max_bytes is not None:
            self._evict_locked()

    def _evict_locked(self) -> None:
        """Delete the oldest generations while the folder holds more than the cap (never the newest)."""
        assert self.max_bytes is not None
        paths = self.generation_paths()
        sizes = []
        for p in paths:
            try:
                sizes.append(p.stat().st_size)
            except OSError:
                sizes.append(0)
        total = sum(sizes)
        for p, s in zip(paths[:-1], sizes[:-1], strict=True):
            if total <= self.max_bytes:
                break
            try:
                p.unlink()  # a reader that mapped it keeps its pages until it is done
            except OSError:
                pass
            total -= s

    def _load(self) -> None:
        """Map every generation once and sort their keys of this embedder for lookups."""
        if self._gens is not None:
            return
        import numpy as np

        self._gens = []
        keys: list[Any] = []
        where: list[Any] = []
        for path in self.generation_paths():
            gen = Generation(path, self._dim)
            if gen.dim is None or gen.records is None:
                continue
            self._dim = gen.dim
            index = len(self._gens)
            self._gens.append(gen)
            if not len(gen):
                continue
            mine = np.flatnonzero(gen.records["tag"] == np.uint64(self.tag))
            keys.append(gen.records["key"][mine])
            where.append(np.stack([np.full(len(mine), index, dtype=np.int64), mine.astype(np.int64)], axis=1))
        if not keys:
            return
        all_keys = np.concatenate(keys)
        all_where = np.concatenate(where)
        order = np.argsort(all_keys, kind="stable")
        self._sorted_keys = all_keys[order]
        self._where = all_where[order]
