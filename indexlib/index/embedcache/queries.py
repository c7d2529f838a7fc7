"""The query vector cache: a repeated question skips the model.

Owns: `QueryVectorCache`, one small checksummed file per (model, normalised query text), and its
check for `qry verify`. Does not own: the vectors of indexed text (store.py).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

import xxhash

from indexlib.index.cachefiles import private_dir, replace_file, safe_name

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt


class QueryVectorCache:
    """Query vectors by normalised query text, one small file each, so a repeated question skips the
    model entirely (the model's one-shot cost, ~130 ms here, is most of a hybrid query's time).

    One file per query, written to a temporary name and renamed, because searches run concurrently and
    take no lock; a read-only index directory simply gets no cache (errors are ignored). Each file
    holds what it is for (the 128-bit hash of model id and query) and a checksum of its bytes, so a
    file copied over another query's, or damaged, is a miss and never another query's vector.
    """

    _MAGIC = b"QRYQV2\x00\x00"

    def __init__(self, cache_dir: Path, model_id: str) -> None:
        self.dir = Path(cache_dir) / f"queries-{safe_name(model_id)}"
        self.model_id = model_id

    def _ident(self, text: str) -> bytes:
        normalised = " ".join(text.split())
        return xxhash.xxh3_128_digest(f"{self.model_id}\x00{normalised}".encode("utf-8", "replace"))

    def _path(self, ident: bytes) -> Path:
        return self.dir / f"{ident.hex()}.qv"

    def get(self, text: str) -> npt.NDArray[np.float32] | None:
        import numpy as np

        ident = self._ident(text)
        try:
            raw = self._path(ident).read_bytes()
        except OSError:
            return None
        head = len(self._MAGIC) + 16
        if len(raw) < head + 4 + 8 or (len(raw) - head - 8) % 4:
            return None
        body, check = raw[:-8], raw[-8:]
        if raw[: len(self._MAGIC)] != self._MAGIC or raw[len(self._MAGIC) : head] != ident:
            return None
        if xxhash.xxh3_64_digest(body) != check:
            return None
        vec = np.frombuffer(body, dtype="<f4", offset=head).astype(np.float32)
        if not np.isfinite(vec).all():
            return None
        return vec

    def put(self, text: str, vec: npt.NDArray[np.float32]) -> None:
        import numpy as np

        ident = self._ident(text)
        path = self._path(ident)
        body = self._MAGIC + ident + np.asarray(vec, dtype="<f4").reshape(-1).tobytes()
        replace_file(path, body + xxhash.xxh3_64_digest(body), make_dir=private_dir)

    def verify(self) -> tuple[int, int]:
        """(damaged files, files): a file is damaged when its magic or checksum does not hold."""
        bad = total = 0
        try:
            names = [n for n in os.listdir(self.dir) if n.endswith(".qv")]
        except OSError:
            return 0, 0
        for name in names:
            total += 1
            try:
                raw = (self.dir / name).read_bytes()
            except OSError:
                bad += 1
                continue
            ok = (
                len(raw) > len(self._MAGIC) + 24
                and raw.startswith(self._MAGIC)
                and raw[len(self._MAGIC) : len(self._MAGIC) + 16].hex() == name[:-3]
                and xxhash.xxh3_64_digest(raw[:-8]) == raw[-8:]
            )
            bad += 0 if ok else 1
        return bad, total
