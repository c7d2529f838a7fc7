"""VectorCache and QueryVectorCache: round trip, per-record checks (model tag, damage), torn and
zero-filled tails, the shared cache's cap and permissions, concurrent writers."""

from __future__ import annotations

import multiprocessing
import os
import stat
from pathlib import Path

import numpy as np
import pytest

from indexlib.embedding import HashEmbedder
from indexlib.index.embedcache import QueryVectorCache, VectorCache, text_key, verify_cache_dir

DIM = 32
RECORD = 8 + 8 + DIM * 2 + 8
HEADER = 16


def _vectors(texts: list[str]) -> dict[int, np.ndarray]:
    emb = HashEmbedder(dim=DIM)
    return dict(zip([text_key(t) for t in texts], emb.embed(texts), strict=True))


def _files(cache: VectorCache) -> list[Path]:
    return sorted(cache.dir.glob("*.f16"))


def _stored(
    tmp_path: Path, texts: list[str], cache_id: str = "m"
) -> tuple[VectorCache, dict[int, np.ndarray]]:
    items = _vectors(texts)
    cache = VectorCache(tmp_path, cache_id)
    cache.put_many(items)
    cache.flush()
    return cache, items


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


def test_models_do_not_share_vectors_even_when_files_are_copied(tmp_path: Path) -> None:
    a, items = _stored(tmp_path, ["alpha"], "model-a")
    b = VectorCache(tmp_path, "model-b")
    assert b.get_many(list(items)) == {}
    # A file of model a copied into model b's folder: every record carries its model tag.
    b.dir.mkdir(parents=True)
    (b.dir / "00000001.f16").write_bytes(_files(a)[0].read_bytes())
    assert VectorCache(tmp_path, "model-b").get_many(list(items)) == {}
    assert VectorCache(tmp_path, "model-a").get_many(list(items)).keys() == items.keys()


def test_identical_text_is_one_record(tmp_path: Path) -> None:
    cache, items = _stored(tmp_path, ["same text"])
    cache.put_many(items)
    cache.flush()
    other = VectorCache(tmp_path, "m")
    other.put_many(items)
    other.flush()
    assert _files(cache)[0].stat().st_size == HEADER + RECORD


def test_flipped_sign_bits_are_never_served_and_verify_names_the_file(tmp_path: Path) -> None:
    """Flipping the float16 sign bits keeps every norm at 1: only the record check can tell."""
    cache, items = _stored(tmp_path, ["one", "two", "three"])
    path = _files(cache)[0]
    raw = bytearray(path.read_bytes())
    first_vec = HEADER + 16
    for i in range(first_vec + 1, first_vec + DIM * 2, 2):  # the high byte of each float16
        raw[i] ^= 0x80
    path.write_bytes(bytes(raw))
    fresh = VectorCache(tmp_path, "m")
    got = fresh.get_many(list(items))
    assert len(got) == 2 and fresh.damaged == 1
    for key, vec in got.items():
        np.testing.assert_allclose(vec, items[key], atol=1e-3)
    report = verify_cache_dir(tmp_path)
    assert report == [(str(path.relative_to(tmp_path)), 1, 3)]
    # The damaged vector is computed again and appended: the next reader finds an intact copy.
    fresh.put_many(items)
    fresh.flush()
    again = VectorCache(tmp_path, "m").get_many(list(items))
    assert again.keys() == items.keys()


def test_torn_tail_is_ignored_then_cut_before_appending(tmp_path: Path) -> None:
    cache, first = _stored(tmp_path, ["one", "two"])
    path = _files(cache)[0]
    whole = path.stat().st_size
    with path.open("ab") as fh:  # a crash midway through appending a record
        fh.write(b"\x01" * 30)
    survivor = VectorCache(tmp_path, "m")
    assert survivor.get_many(list(first)).keys() == first.keys()
    second = _vectors(["three"])
    survivor.put_many(second)
    survivor.flush()
    assert path.stat().st_size == whole + RECORD  # the torn bytes were cut, records stay aligned
    final = VectorCache(tmp_path, "m").get_many([*first, *second])
    assert final.keys() == {*first, *second}


def test_zero_filled_tail_records_are_ignored(tmp_path: Path) -> None:
    cache, items = _stored(tmp_path, ["one"])
    with _files(cache)[0].open("ab") as fh:  # a filesystem that extended the file but never wrote it
        fh.write(b"\x00" * RECORD * 2)
    got = VectorCache(tmp_path, "m").get_many([*items, 0])
    assert got.keys() == items.keys()


def test_foreign_or_truncated_header_starts_over(tmp_path: Path) -> None:
    cache = VectorCache(tmp_path, "m")
    cache.dir.mkdir(parents=True)
    path = cache.dir / "00000001.f16"
    path.write_bytes(b"garbage that is not a cache file")
    assert VectorCache(tmp_path, "m").get_many([1, 2]) == {}
    path.write_bytes(b"QRY")
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


def test_files_and_folders_are_owner_only_under_any_umask(tmp_path: Path) -> None:
    old = os.umask(0)
    try:
        cache, _ = _stored(tmp_path / "shared", ["alpha"])
        QueryVectorCache(tmp_path / "shared", "m").put("a query", np.ones(4, dtype=np.float32) / 2)
    finally:
        os.umask(old)
    for path in [cache.dir, *cache.dir.iterdir(), *(tmp_path / "shared").glob("queries-*/**/*")]:
        mode = stat.S_IMODE(path.stat().st_mode)
        assert mode & 0o077 == 0, f"{path} is {oct(mode)}"


def test_capped_cache_evicts_the_least_recently_used_generation(tmp_path: Path) -> None:
    cap = 8 * (1 << 16)  # the smallest generation is 64 KiB: 8 generations of ~780 records each
    per_gen = (1 << 16) // RECORD + 1
    old_texts = [f"old {i}" for i in range(per_gen)]
    kept_texts = [f"kept {i}" for i in range(per_gen)]
    cache = VectorCache(tmp_path, "m", max_bytes=cap)
    cache.put_many(_vectors(old_texts))
    cache.flush()
    cache.put_many(_vectors(kept_texts))
    cache.flush()
    # Use the first generation's twin: "kept" is in generation 2, refreshed when read from it later.
    for round_ in range(12):
        reader = VectorCache(tmp_path, "m", max_bytes=cap)
        assert reader.get_many([text_key(t) for t in kept_texts[:50]]).keys() == {
            text_key(t) for t in kept_texts[:50]
        }
        reader.put_many(_vectors([f"filler {round_} {i}" for i in range(per_gen)]))
        reader.flush()
    total = sum(p.stat().st_size for p in _files(cache))
    assert total <= cap
    final = VectorCache(tmp_path, "m", max_bytes=cap)
    assert final.get_many([text_key(t) for t in old_texts[:50]]) == {}  # never used again: evicted
    assert len(final.get_many([text_key(t) for t in kept_texts[:50]])) == 50  # used: still there


def _append_many(args: tuple[str, int]) -> None:
    folder, worker = args
    for round_ in range(20):
        cache = VectorCache(Path(folder), "m", max_bytes=1 << 30)
        cache.put_many(_vectors([f"w{worker} r{round_} t{i}" for i in range(30)] + ["shared text"]))
        cache.flush()


def test_two_writers_at_once_leave_every_record_intact(tmp_path: Path) -> None:
    with multiprocessing.get_context("fork").Pool(2) as pool:
        pool.map(_append_many, [(str(tmp_path), 0), (str(tmp_path), 1)])
    cache = VectorCache(tmp_path, "m")
    keys = [text_key(f"w{w} r{r} t{i}") for w in (0, 1) for r in range(20) for i in range(30)]
    got = cache.get_many([*keys, text_key("shared text")])
    assert len(got) == len(keys) + 1 and cache.damaged == 0
    assert all(bad == 0 for _p, bad, _n in verify_cache_dir(tmp_path))


def test_query_cache_checks_what_a_file_is_for(tmp_path: Path) -> None:
    cache = QueryVectorCache(tmp_path, "m")
    a, b = np.ones(4, dtype=np.float32) / 2, -np.ones(4, dtype=np.float32) / 2
    cache.put("retry a charge", a)
    cache.put("parse the config", b)
    np.testing.assert_array_equal(cache.get("retry  a charge"), a)  # normalised spacing
    files = {p.name: p for p in cache.dir.iterdir()}
    assert len(files) == 2
    path_a = cache._path(cache._ident("retry a charge"))
    path_b = cache._path(cache._ident("parse the config"))
    path_a.write_bytes(path_b.read_bytes())  # another query's file copied over this one
    assert cache.get("retry a charge") is None
    raw = bytearray(path_b.read_bytes())
    raw[30] ^= 0x80  # a sign bit of the vector
    path_b.write_bytes(bytes(raw))
    assert cache.get("parse the config") is None
    assert QueryVectorCache(tmp_path, "other-model").get("parse the config") is None
    assert verify_cache_dir(tmp_path) == [("queries-m", 2, 2)]
