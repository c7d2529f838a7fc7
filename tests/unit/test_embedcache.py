"""VectorCache: round trip, identical keys, torn and zero-filled tails after a crash."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

from indexlib.embed import HashEmbedder
from indexlib.embedcache import VectorCache, text_key


def _vectors(texts: list[str]) -> dict[int, np.ndarray]:
    emb = HashEmbedder(dim=32)
    return dict(zip([text_key(t) for t in texts], emb.embed(texts), strict=True))


def test_round_trip_across_instances(tmp_path: Path) -> None:
    items = _vectors(["alpha beta", "gamma", "delta epsilon"])
    cache = VectorCache(tmp_path / "cache", "hash-32")
    assert cache.get_many(list(items)) == {}
    cache.put_many(items)
    # Pending vectors are visible before the flush.
    assert set(cache.get_many(list(items))) == set(items)
    cache.flush()
    reopened = VectorCache(tmp_path / "cache", "hash-32")
    got = reopened.get_many([*items, 12345])
    assert set(got) == set(items)
    for key, vec in items.items():
        assert got[key].dtype == np.float32
        np.testing.assert_allclose(got[key], vec, atol=1e-3)  # float16 storage
    assert len(reopened) == 3


def test_models_do_not_share_vectors(tmp_path: Path) -> None:
    items = _vectors(["alpha"])
    a = VectorCache(tmp_path, "model-a")
    a.put_many(items)
    a.flush()
    assert VectorCache(tmp_path, "model-b").get_many(list(items)) == {}
    assert VectorCache(tmp_path, "model-a").get_many(list(items)).keys() == items.keys()


def test_identical_text_is_one_record(tmp_path: Path) -> None:
    items = _vectors(["same text"])
    cache = VectorCache(tmp_path, "m")
    cache.put_many(items)
    cache.flush()
    cache.put_many(items)
    cache.flush()
    VectorCache(tmp_path, "m").put_many(items)
    size = cache.path.stat().st_size
    assert size == 16 + 8 + 32 * 2  # header + one record


def test_torn_tail_is_ignored_then_cut_before_appending(tmp_path: Path) -> None:
    first = _vectors(["one", "two"])
    cache = VectorCache(tmp_path, "m")
    cache.put_many(first)
    cache.flush()
    whole = cache.path.stat().st_size
    with cache.path.open("ab") as fh:  # a crash midway through appending a record
        fh.write(b"\x01" * 30)
    survivor = VectorCache(tmp_path, "m")
    assert survivor.get_many(list(first)).keys() == first.keys()
    second = _vectors(["three"])
    survivor.put_many(second)
    survivor.flush()
    assert survivor.path.stat().st_size == whole + 8 + 64  # the torn bytes were cut, records stay aligned
    final = VectorCache(tmp_path, "m").get_many([*first, *second])
    assert final.keys() == {*first, *second}


def test_zero_filled_tail_records_are_ignored(tmp_path: Path) -> None:
    items = _vectors(["one"])
    cache = VectorCache(tmp_path, "m")
    cache.put_many(items)
    cache.flush()
    with cache.path.open("ab") as fh:  # a filesystem that extended the file but never wrote the data
        fh.write(b"\x00" * (8 + 64) * 2)
    got = VectorCache(tmp_path, "m").get_many([*items, 0])
    assert got.keys() == items.keys()


def test_foreign_or_truncated_header_starts_over(tmp_path: Path) -> None:
    cache = VectorCache(tmp_path, "m")
    tmp_path.mkdir(exist_ok=True)
    cache.path.write_bytes(b"garbage that is not a cache file")
    assert VectorCache(tmp_path, "m").get_many([1, 2]) == {}
    cache.path.write_bytes(b"QRY")
    fresh = VectorCache(tmp_path, "m")
    items = _vectors(["x"])
    fresh.put_many(items)
    fresh.flush()
    assert VectorCache(tmp_path, "m").get_many(list(items)).keys() == items.keys()


def test_rejects_mixed_widths_and_bad_keys(tmp_path: Path) -> None:
    cache = VectorCache(tmp_path, "m")
    cache.put_many({1: np.ones(4, dtype=np.float32) / 2})
    with pytest.raises(ValueError):
        cache.put_many({2: np.ones(8, dtype=np.float32)})
    with pytest.raises(ValueError):
        cache.put_many({-1: np.ones(4, dtype=np.float32) / 2})
    with pytest.raises(ValueError):
        cache.put_many({1 << 64: np.ones(4, dtype=np.float32) / 2})


def test_text_key_is_a_stable_uint64() -> None:
    key = text_key("def f(): pass")
    assert key == text_key("def f(): pass")
    assert 0 <= key < 1 << 64
    assert key != text_key("def g(): pass")
    assert isinstance(os.fspath(Path(".")), str)
