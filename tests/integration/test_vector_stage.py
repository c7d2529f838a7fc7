"""The vector stage of a build: the shared cache, checked caches, interrupted builds that keep their
work, progress that status and search quote, `--background`, and live vector counts."""

from __future__ import annotations

import os
import time
from pathlib import Path

import numpy as np
import pytest

import indexlib.embedding as embed
from indexlib import (
    BuildOptions,
    SearchOptions,
    build_index,
    index_status,
    open_engine,
    query_notes,
    verify_caches,
)
from indexlib.index.build.vectors import EMBED_BATCH
from indexlib.index.embedcache import VectorCache, shared_cache_dir
from indexlib.index.embedprogress import EmbedProgress, read_progress, write_progress
from indexlib.retrieval.signals import Signals
from indexlib.store.store import Store
from tests.vectorkit import index_vectors


def _repo(root: Path, functions: int = 40, files: int = 5) -> Path:
    root.mkdir(parents=True)
    for f in range(files):
        body = "\n\n".join(
            f"def step_{f}_{i}(value):\n    '''Advance stage {i} of pipeline {f}.'''\n    return value + {i}"
            for i in range(functions)
        )
        (root / f"mod_{f}.py").write_text(body + "\n")
    return root


@pytest.fixture()
def shared(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A private user cache folder for this test."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    return shared_cache_dir()


def test_a_second_clone_embeds_nothing_and_no_shared_cache_embeds_all(tmp_path: Path, shared: Path) -> None:
    first = build_index(_repo(tmp_path / "a"), BuildOptions(embed="hash"))
    assert first.embedded > 0 and first.embed_cached == 0
    clone = build_index(_repo(tmp_path / "b"), BuildOptions(embed="hash"))
    assert clone.embedded == 0 and clone.embed_cached == first.embedded
    assert (shared / "vectors-hash-64").is_dir()
    private = build_index(_repo(tmp_path / "c"), BuildOptions(embed="hash", shared_cache=False))
    assert private.embedded == first.embedded
    for key, vec in index_vectors(tmp_path / "a" / ".qry").items():
        np.testing.assert_allclose(index_vectors(tmp_path / "b" / ".qry")[key], vec, atol=1e-3)


def test_an_interrupted_build_keeps_the_batches_it_finished(
    tmp_path: Path, shared: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = _repo(tmp_path / "r", functions=60, files=20)
    calls = {"n": 0}
    real = embed.HashEmbedder.embed

    def dying(self: embed.HashEmbedder, texts: list[str]) -> np.ndarray:
        calls["n"] += 1
        if calls["n"] == 3:
            raise KeyboardInterrupt  # Ctrl-C (or a kill) during the third batch
        return real(self, texts)

    monkeypatch.setattr(embed.HashEmbedder, "embed", dying)
    with pytest.raises(KeyboardInterrupt):
        build_index(repo, BuildOptions(embed="hash", shared_cache=False))
    kept = len(VectorCache(repo / ".qry" / "cache", "hash-64"))
    assert 2 * EMBED_BATCH <= kept < 1200  # two whole batches (batches close at file ends)
    # status (and a search's note) says where the vectors stopped, not just "vectors 0"
    stopped = index_status(repo / ".qry").vectors_progress
    assert stopped is not None and stopped.startswith("vectors stopped at ") and "interrupted" in stopped
    monkeypatch.setattr(embed.HashEmbedder, "embed", real)
    again = build_index(repo, BuildOptions(embed="hash", shared_cache=False))
    assert again.embed_cached == kept
    assert again.embedded == again.nodes_total - kept - again.embed_skipped
    assert index_status(repo / ".qry").vectors_progress is None  # finished: the record is gone


def test_damaged_cache_records_are_embedded_again_on_rebuild_and_verify_names_them(
    tmp_path: Path, shared: Path
) -> None:
    repo = _repo(tmp_path / "r", functions=4, files=2)
    build_index(repo, BuildOptions(embed="hash", shared_cache=False))
    good = index_vectors(repo / ".qry")
    assert verify_caches(repo / ".qry") == []
    [cache_file] = (repo / ".qry" / "cache" / "vectors-hash-64").glob("*.f16")
    raw = bytearray(cache_file.read_bytes())
    record = 8 + 8 + 64 * 2 + 8
    for start in range(16, len(raw), record):  # every float16 sign bit of every record: norms stay 1
        for i in range(start + 17, start + 16 + 128, 2):
            raw[i] ^= 0x80
    cache_file.write_bytes(bytes(raw))
    problems = verify_caches(repo / ".qry")
    assert len(problems) == 1 and problems[0].path.startswith("cache/vectors-hash-64/")
    rebuilt = build_index(repo, BuildOptions(embed="hash", rebuild=True, shared_cache=False))
    assert rebuilt.embed_cached == 0 and rebuilt.embedded == len(good)
    for uid, vec in index_vectors(repo / ".qry").items():
        np.testing.assert_allclose(vec, good[uid], atol=1e-6)


def test_status_counts_live_vectors_after_edits(tmp_path: Path, shared: Path) -> None:
    repo = _repo(tmp_path / "r", functions=6, files=10)
    build_index(repo, BuildOptions(embed="hash"))
    for f in (0, 1):
        path = repo / f"mod_{f}.py"
        path.write_text(path.read_text() + "\n\ndef extra():\n    return 1\n")
        build_index(repo, BuildOptions(embed="hash"))
    st = index_status(repo / ".qry")
    assert st.tombstones > 0  # the old copies of the edited files are still stored
    assert st.vectors == st.nodes == 62


def test_status_and_search_say_vectors_are_in_progress(tmp_path: Path, shared: Path) -> None:
    repo = _repo(tmp_path / "r", functions=3, files=2)
    report = build_index(repo, BuildOptions(embed="none"))
    index_dir = repo / ".qry"
    cache_dir = Store.open(index_dir).cache_dir
    now = time.time()
    write_progress(
        cache_dir,
        EmbedProgress(pid=os.getpid(), root=report.root_id, done=2, total=6, started=now - 4, updated=now),
    )
    st = index_status(index_dir)
    assert st.vectors_progress == "vectors in progress: 2/6 (33%), about 8 s left"
    res = open_engine(index_dir).search("advance the pipeline stage", SearchOptions())
    assert "dense stream skipped: vectors in progress: 2/6 (33%), about 8 s left" in res.meta.notes
    # ... and a person is told, in every output format (the answer is lexical only for now).
    told = query_notes(
        open_engine(index_dir),
        "advance the pipeline stage",
        SearchOptions(),
        found=True,
        search_notes=res.meta.notes,
    )
    assert told == ["dense stream skipped: vectors in progress: 2/6 (33%), about 8 s left"]
    # A build that died mid-way: its pid is gone, and status says the vectors stopped.
    write_progress(cache_dir, EmbedProgress(pid=2**22 + 12345, root=report.root_id, done=2, total=6))
    stopped = index_status(index_dir).vectors_progress
    assert stopped is not None and stopped.startswith("vectors stopped at 2/6")
    # Progress about another root (an older lexical root) is not this root's.
    write_progress(cache_dir, EmbedProgress(pid=os.getpid(), root="0" * 64, done=2, total=6))
    assert index_status(index_dir).vectors_progress is None


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="zombies are read from /proc")
def test_a_killed_build_not_yet_reaped_has_stopped(tmp_path: Path) -> None:
    # A build killed with SIGKILL is a zombie until its parent reaps it (for ever under a PID 1 that
    # reaps nothing, as in a container without --init); os.kill(pid, 0) still succeeds on it.
    import subprocess
    import sys

    child = subprocess.Popen([sys.executable, "-c", "pass"])
    try:
        deadline = time.monotonic() + 30
        while b") Z" not in Path(f"/proc/{child.pid}/stat").read_bytes() and time.monotonic() < deadline:
            time.sleep(0.01)  # exited, not reaped: Popen waits only when asked
        write_progress(tmp_path, EmbedProgress(pid=child.pid, root="r", done=2, total=6))
        progress = read_progress(tmp_path)
        assert progress is not None and not progress.running
        assert progress.describe().startswith("vectors stopped at 2/6")
    finally:
        child.wait()
    write_progress(tmp_path, EmbedProgress(pid=os.getpid(), root="r", done=2, total=6))
    alive = read_progress(tmp_path)
    assert alive is not None and alive.running  # this process runs, and is no zombie


def test_background_returns_after_the_lexical_root_and_a_worker_finishes(
    tmp_path: Path, shared: Path
) -> None:
    repo = _repo(tmp_path / "r", functions=10, files=3)
    report = build_index(repo, BuildOptions(embed="hash", background=True))
    assert report.background_pid > 0 and "embed" not in report.timings
    index_dir = repo / ".qry"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            os.waitpid(report.background_pid, os.WNOHANG)
        except ChildProcessError:
            pass
        st = index_status(index_dir)
        if st.vectors == st.nodes and st.vectors_progress is None:
            break
        time.sleep(0.1)
    st = index_status(index_dir)
    assert st.vectors == st.nodes == 30 and st.vectors_progress is None
    assert read_progress(Store.open(index_dir).cache_dir) is None
    # The hash test embedder's cosines are not calibrated: the dense floor is for the real model.
    semantic = SearchOptions(mode="semantic", signals=Signals().without("dense_floor"))
    res = open_engine(index_dir).search("advance the pipeline stage", semantic)
    assert res.results


def test_a_batch_gives_every_worker_of_a_large_cluster_several_chunks() -> None:
    from indexlib.engines.embedders import WORKER_CHUNK
    from indexlib.index.build.vectors import CHUNKS_PER_WORKER, batch_texts

    assert batch_texts(1) == batch_texts(2) == EMBED_BATCH  # this machine's workers: unchanged
    assert batch_texts(64) == 64 * WORKER_CHUNK * CHUNKS_PER_WORKER > EMBED_BATCH  # 64 actors


def test_a_semantic_miss_does_not_claim_no_file_holds_the_words(tmp_path: Path, shared: Path) -> None:
    repo = _repo(tmp_path / "a", functions=5, files=2)
    build_index(repo, BuildOptions(embed="hash"))
    res = open_engine(repo / ".qry").search("advance pipeline", SearchOptions(mode="semantic", top_k=5))
    assert not res.results  # the hash test embedder's cosines stay under the real model's floor
    notes = " ".join(res.meta.notes)
    assert "mode='semantic'" in notes and "holds the query's words" not in notes, notes  # the library's words
