"""Computed embeddings, kept so that no text is embedded twice: per index, and per user across indexes.

Owns: the vector cache files (`VectorCache`, store.py: one folder per embedder of append-only
generation files, each record checked on read), the chain of the index's own cache and the user-level
shared cache (`CacheChain`, `shared_cache_dir`), their check for `qry verify` (`verify_cache_dir`),
and the cache of query vectors (`QueryVectorCache`, queries.py).
Does not own: computing vectors (`indexlib/engines/embed.py`), deciding what text a node embeds
(`indexlib/index/embedtext.py`), or the per-segment vector files a search reads (`indexlib/engines/vectors.py`).

Why it exists: embedding is by far the slowest step of an index build, so a re-index, a second clone, a
worktree or a rebuilt index must embed only text this machine has never seen. Keys are xxh3_64 of the
embedded text (`text_key`); texts are built from nodes after redaction, and only hashes and vectors are
stored, never text.

Parts: store.py holds one embedder's generation files (`VectorCache`: format, appends, eviction);
queries.py the query vectors; `indexlib/index/cachefiles.py` what both (and the vector stage's
progress file) share. This module holds the text key, the chain, the shared cache's place and cap,
and the check of a cache folder.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import xxhash

from indexlib.index.embedcache.queries import QueryVectorCache
from indexlib.index.embedcache.store import Generation, VectorCache, check_of

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = [
    "SHARED_CACHE_MAX_BYTES",
    "CacheChain",
    "QueryVectorCache",
    "VectorCache",
    "shared_cache_dir",
    "shared_cache_max_bytes",
    "text_key",
    "verify_cache_dir",
]

#: Size cap of the user-level shared cache (~660k vectors of 384 dimensions); `QRY_SHARED_CACHE_MB`
#: overrides it. An index's own cache is not capped: it holds what that index's segments need.
SHARED_CACHE_MAX_BYTES = 512 << 20


def text_key(text: str) -> int:
    """The cache key of an embedded text: xxh3_64 of its UTF-8 bytes (a uint64)."""
    return xxhash.xxh3_64_intdigest(text.encode("utf-8", "surrogatepass"))


def shared_cache_dir() -> Path:
    """The user-level cache folder (`$XDG_CACHE_HOME/qry/shared`, default `~/.cache/qry/shared`)."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "qry" / "shared"


def shared_cache_max_bytes() -> int:
    """The shared cache's cap: `QRY_SHARED_CACHE_MB` if set to a positive number, else the default."""
    raw = os.environ.get("QRY_SHARED_CACHE_MB", "")
    try:
        mb = float(raw) if raw else 0.0
    except ValueError:
        mb = 0.0
    return int(mb * (1 << 20)) if mb > 0 else SHARED_CACHE_MAX_BYTES


class CacheChain:
    """The index's own cache first, then the user-level shared cache: a hit in the shared cache is
    copied into the index's cache, and new vectors go to both."""

    def __init__(self, caches: Sequence[VectorCache]) -> None:
        self.caches = list(caches)

    @property
    def damaged(self) -> int:
        return sum(c.damaged for c in self.caches)

    def get_many(self, hashes: Sequence[int]) -> dict[int, npt.NDArray[np.float32]]:
        found: dict[int, npt.NDArray[np.float32]] = {}
        missing = list(hashes)
        earlier: list[VectorCache] = []
        for cache in self.caches:
            if not missing:
                break
            got = cache.get_many(missing)
            for prior in earlier:
                prior.put_many(got)
            found.update(got)
            missing = [h for h in missing if h not in got]
            earlier.append(cache)
        return found

    def put_many(self, items: Mapping[int, npt.NDArray[np.float32]]) -> None:
        for cache in self.caches:
            cache.put_many(items)

    def flush(self) -> None:
        for cache in self.caches:
            try:
                cache.flush()
            except OSError:
                if cache is self.caches[0]:
                    raise  # the index's own cache lives in the index: its failure is the build's
                # The shared cache is a convenience: a full or read-only home only costs re-embedding.


def verify_cache_dir(cache_dir: Path) -> list[tuple[str, int, int]]:
    """Check every cache file under `cache_dir`: (folder or file relative to it, damaged, checked).

    Vector caches are checked record by record (a file with a foreign header counts as one damaged
    item), query caches file by file. Damaged entries are never served (they fail the same check on
    read, and are computed again); this is what `qry verify` reports about caches.
    """
    out: list[tuple[str, int, int]] = []
    try:
        folders = sorted(p for p in Path(cache_dir).iterdir() if p.is_dir())
    except OSError:
        return out
    for folder in folders:
        if folder.name.startswith("queries-"):
            probe_q = QueryVectorCache(folder.parent, "")
            probe_q.dir = folder
            bad, total = probe_q.verify()
            out.append((folder.name, bad, total))
            continue
        if not folder.name.startswith("vectors-"):
            continue
        probe = VectorCache(folder.parent, "")
        probe.dir = folder
        for path in probe.generation_paths():
            gen = Generation(path, None)
            rel = str(path.relative_to(cache_dir))
            if gen.dim is None:
                if gen.size:
                    out.append((rel, 1, 1))
                continue
            bad = sum(1 for record in gen.records if int(record["check"]) != check_of(record))
            out.append((rel, bad, len(gen)))
    return out
