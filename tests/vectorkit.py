"""Reading back the vectors an index published, for tests that compare two builds' vectors."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from indexlib.engines.vectors import VectorSegment
from indexlib.store.store import Store


def index_vectors(index_dir: Path) -> dict[int, np.ndarray]:
    """Node uid -> its vector (float32), over every segment of the index's HEAD root."""
    store = Store.open(index_dir)
    _rid, manifest = store.load(None)
    out: dict[int, np.ndarray] = {}
    for seg in manifest.segments:
        assert seg.vectors is not None
        vs = VectorSegment.open(store.segments_dir / seg.id / f"vectors-{seg.vectors.model_id}")
        for uid, row in zip(vs._keys.tolist(), np.asarray(vs._matrix), strict=True):
            out[int(uid)] = np.asarray(row, dtype=np.float32)
    return out
