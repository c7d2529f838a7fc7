"""write_vectors / VectorSegment: both kinds find the right neighbours; bad files are IndexCorrupt."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from indexlib.engines.vectors import EXACT_FILE, HNSW_FILE, KEYS_FILE, VectorSegment, write_vectors
from indexlib.errors import IndexCorrupt


def _clustered(n: int, dim: int = 32, seed: int = 7) -> tuple[list[int], np.ndarray]:
    rng = np.random.default_rng(seed)
    centres = rng.normal(size=(8, dim))
    mat = centres[rng.integers(0, 8, n)] + 0.3 * rng.normal(size=(n, dim))
    mat /= np.linalg.norm(mat, axis=1, keepdims=True)
    uids = [int(u) for u in rng.choice(1 << 62, size=n, replace=False)]
    uids[0] = (1 << 64) - 1  # the largest uint64 must survive as a key
    return uids, mat.astype(np.float32)


def _brute(uids: list[int], mat: np.ndarray, q: np.ndarray, k: int) -> list[int]:
    scores = mat @ (q / np.linalg.norm(q))
    return [uids[i] for i in np.argsort(-scores, kind="stable")[:k]]


@pytest.mark.parametrize("threshold, kind", [(10_000, "exact"), (50, "hnsw")])
def test_write_open_search(tmp_path: Path, threshold: int, kind: str) -> None:
    uids, mat = _clustered(400)
    files = write_vectors(tmp_path / "seg", uids, mat, hnsw_threshold=threshold)
    assert (files.kind, files.count, files.dim) == (kind, 400, 32)
    assert (tmp_path / "seg" / KEYS_FILE).is_file()
    assert (tmp_path / "seg" / (EXACT_FILE if kind == "exact" else HNSW_FILE)).is_file()
    seg = VectorSegment.open(tmp_path / "seg")
    assert (seg.kind, len(seg), seg.dim) == (kind, 400, 32)
    for row in (0, 17, 399):
        hits = seg.search(mat[row], 10)
        assert len(hits) == 10
        assert hits[0][0] == uids[row]
        assert hits[0][1] == pytest.approx(1.0, abs=2e-3)
        scores = [s for _, s in hits]
        assert scores == sorted(scores, reverse=True)
        # On 400 clustered vectors the graph finds (nearly) the true neighbours.
        overlap = len({u for u, _ in hits} & set(_brute(uids, mat, mat[row], 10)))
        # HNSW is approximate: 8 of 10 is the floor.
        assert overlap >= (10 if kind == "exact" else 8)
        stored = seg.vector(uids[row])
        assert stored is not None and stored.dtype == np.float32
        np.testing.assert_allclose(stored, mat[row], atol=2e-3)
    assert seg.vector(12345) is None
    assert seg.vector(-1) is None


def test_exact_scores_are_cosine_and_k_is_capped(tmp_path: Path) -> None:
    uids = [5, 3, 9]
    mat = np.array([[1, 0], [0.6, 0.8], [0, 1]], dtype=np.float32)
    write_vectors(tmp_path, uids, mat)
    seg = VectorSegment.open(tmp_path)
    hits = seg.search(np.array([2.0, 0.0], dtype=np.float32), 10)  # queries are normalised
    assert [u for u, _ in hits] == [5, 3, 9]
    assert [round(s, 5) for _, s in hits] == [1.0, 0.6, 0.0]
    assert seg.search(np.array([1.0, 0.0], dtype=np.float32), 0) == []


def test_hnsw_expansion_override(tmp_path: Path) -> None:
    uids, mat = _clustered(300, seed=3)
    write_vectors(tmp_path, uids, mat, hnsw_threshold=10)
    seg = VectorSegment.open(tmp_path)
    hits = seg.search(mat[5], 100, expansion=400)
    assert len(hits) == 100
    assert len({u for u, _ in hits} & set(_brute(uids, mat, mat[5], 100))) >= 90


def test_empty_segment(tmp_path: Path) -> None:
    files = write_vectors(tmp_path, [], np.zeros((0, 16), dtype=np.float32))
    assert (files.kind, files.count, files.dim) == ("exact", 0, 16)
    seg = VectorSegment.open(tmp_path)
    assert seg.search(np.ones(16, dtype=np.float32), 5) == []
    assert seg.vector(1) is None


def test_rejects_bad_input(tmp_path: Path) -> None:
    with pytest.raises(ValueError):
        write_vectors(tmp_path, [1, 2], np.zeros((3, 4), dtype=np.float32))
    with pytest.raises(ValueError):
        write_vectors(tmp_path, [1, 1], np.ones((2, 4), dtype=np.float32))
    write_vectors(tmp_path, [1], np.ones((1, 4), dtype=np.float32))
    with pytest.raises(ValueError):
        VectorSegment.open(tmp_path).search(np.ones(3, dtype=np.float32), 1)


def test_missing_or_mismatched_files_are_index_corrupt(tmp_path: Path) -> None:
    with pytest.raises(IndexCorrupt):
        VectorSegment.open(tmp_path / "absent")
    write_vectors(tmp_path / "a", [1, 2], np.eye(2, dtype=np.float32))
    (tmp_path / "a" / EXACT_FILE).unlink()
    with pytest.raises(IndexCorrupt):
        VectorSegment.open(tmp_path / "a")
    write_vectors(tmp_path / "b", [1, 2], np.eye(2, dtype=np.float32))
    np.save(tmp_path / "b" / KEYS_FILE, np.array([1], dtype=np.uint64))
    with pytest.raises(IndexCorrupt):
        VectorSegment.open(tmp_path / "b")
    uids, mat = _clustered(60)
    write_vectors(tmp_path / "c", uids, mat, hnsw_threshold=10)
    (tmp_path / "c" / HNSW_FILE).write_bytes(b"truncated")
    with pytest.raises(IndexCorrupt):
        VectorSegment.open(tmp_path / "c")


def test_the_same_vectors_give_the_same_hnsw_file(tmp_path: Path) -> None:
    """Vector files are content: one input, one file, and so one search answer on every machine."""
    uids, mat = _clustered(400)
    write_vectors(tmp_path / "a", uids, mat, hnsw_threshold=50)
    write_vectors(tmp_path / "b", uids, mat, hnsw_threshold=50)
    assert (tmp_path / "a" / HNSW_FILE).read_bytes() == (tmp_path / "b" / HNSW_FILE).read_bytes()
