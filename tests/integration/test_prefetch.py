"""Early vectors: with cores idle beside the parse, the model starts while files parse, its vectors
are the ones the vector stage would have made, they count as embedded, and no worker outlives the
build, whether it succeeds or fails."""

from __future__ import annotations

import multiprocessing
import shutil
from pathlib import Path

import numpy as np
import pytest

import indexlib.index.build.prefetch as prefetch_mod
import indexlib.index.build.run as run_mod
from indexlib import BuildOptions, build_index
from indexlib.store.store import Store
from tests.vectorkit import index_vectors


def _write(root: Path, files: int, functions: int, flavour: str) -> None:
    root.mkdir(parents=True, exist_ok=True)
    for f in range(files):
        body = "\n\n".join(
            f"def {flavour}_{f}_{i}(value):\n    '''Advance the {flavour} stage {i} of pipeline {f}.'''\n"
            f"    return value * {i} + {f}"
            for i in range(functions)
        )
        (root / f"mod_{f}.py").write_text(body + "\n")


def _qry_workers() -> list[multiprocessing.process.BaseProcess]:
    return [p for p in multiprocessing.active_children() if p.name == "qry-worker"]


@pytest.fixture()
def idle_cores(monkeypatch: pytest.MonkeyPatch) -> None:
    """The build sees four cores, so an in-process parse leaves three idle (the model runs on two)."""
    monkeypatch.setattr(run_mod, "available_cores", lambda: 4)


def _edited_pair(tmp_path: Path) -> tuple[Path, Path]:
    """Two copies of one repository, each indexed with vectors, then both edited the same way."""
    first = tmp_path / "a"
    _write(first, files=4, functions=6, flavour="parse")
    build_index(first, BuildOptions(embed="onnx", threads=2))
    second = tmp_path / "b"
    shutil.copytree(first, second)
    for root in (first, second):
        _write(root, files=2, functions=9, flavour="render")  # mod_0 and mod_1 change: new texts
    return first, second


def test_early_vectors_equal_the_vector_stage_s_and_count_as_embedded(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, idle_cores: None
) -> None:
    with_early, without = _edited_pair(tmp_path)
    made_early: list[int] = []
    handoff = prefetch_mod.VectorPrefetch.handoff

    def spy(self: prefetch_mod.VectorPrefetch) -> object:
        out = handoff(self)
        made_early.append(len(self.embedded))
        return out

    monkeypatch.setattr(prefetch_mod.VectorPrefetch, "handoff", spy)
    # Each build with a user cache of its own, so neither finds the other's new texts cached.
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg-early"))
    early = build_index(with_early, BuildOptions(embed="onnx", threads=2))
    assert made_early and made_early[0] > 0, "no text was embedded before the lexical root"
    assert not _qry_workers()

    monkeypatch.setattr(prefetch_mod, "PREFETCH_MIN_IDLE", 99)  # the same build without early vectors
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg-late"))
    late = build_index(without, BuildOptions(embed="onnx", threads=2))
    assert len(made_early) == 1  # the second build had no prefetch

    assert (early.embedded, early.embed_cached) == (late.embedded, late.embed_cached)
    assert early.embedded >= made_early[0]
    a, b = index_vectors(with_early / ".qry"), index_vectors(without / ".qry")
    assert a.keys() == b.keys()
    for uid, row in a.items():  # batches of other lengths pad differently: equal up to the model's noise
        cosine = float(row @ b[uid]) / float(np.linalg.norm(row) * np.linalg.norm(b[uid]))
        assert cosine > 0.9999, uid


def test_a_build_that_fails_after_the_model_started_leaves_no_worker_and_the_old_root(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, idle_cores: None
) -> None:
    repo, _other = _edited_pair(tmp_path)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    store = Store.open(repo / ".qry")
    before = store.head()
    started: list[bool] = []
    begin = prefetch_mod.VectorPrefetch.pump

    def pump(self: prefetch_mod.VectorPrefetch) -> None:
        begin(self)
        started.append(self._started)

    def broken_write(*_args: object, **_kw: object) -> None:
        assert any(started) and _qry_workers(), "the model's workers should be running by now"
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(prefetch_mod.VectorPrefetch, "pump", pump)
    monkeypatch.setattr(run_mod, "write_stage", broken_write)
    with pytest.raises(Exception, match="space"):
        build_index(repo, BuildOptions(embed="onnx", threads=2))
    assert not _qry_workers()
    assert store.head() == before


def test_no_prefetch_without_idle_cores_or_with_everything_cached(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    calls: list[int] = []
    import indexlib.engines.embedders as embedders

    begin = embedders.LazyOnnxEmbedder.begin

    def counting(self: embedders.LazyOnnxEmbedder, workers: int) -> None:
        calls.append(workers)
        begin(self, workers)

    monkeypatch.setattr(embedders.LazyOnnxEmbedder, "begin", counting)
    repo = tmp_path / "r"
    _write(repo, files=3, functions=5, flavour="scan")
    monkeypatch.setattr(run_mod, "available_cores", lambda: 2)  # in-process parse: one core idle
    build_index(repo, BuildOptions(embed="onnx", threads=2))
    _write(repo, files=1, functions=7, flavour="emit")
    build_index(repo, BuildOptions(embed="onnx", threads=2))
    assert calls == []  # one idle core is not enough (PREFETCH_MIN_IDLE)

    monkeypatch.setattr(run_mod, "available_cores", lambda: 4)
    clone = tmp_path / "clone"
    shutil.copytree(repo, clone, ignore=shutil.ignore_patterns(".qry"))
    report = build_index(clone, BuildOptions(embed="onnx", threads=2))
    assert report.embedded == 0 and report.embed_cached > 0
    assert calls == []  # every text was in the shared cache: no model started


def test_an_early_worker_killed_gives_the_prefetch_up_and_the_build_still_embeds(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, idle_cores: None
) -> None:
    import os
    import signal

    repo, other = _edited_pair(tmp_path)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    killed: list[int] = []
    pump = prefetch_mod.VectorPrefetch._pump

    def kill_after_start(self: prefetch_mod.VectorPrefetch) -> None:
        pump(self)
        pool = self.embedder._pool
        if pool is not None and not killed:
            for proc in pool._procs:
                os.kill(proc.pid, signal.SIGKILL)
                killed.append(proc.pid)

    monkeypatch.setattr(prefetch_mod.VectorPrefetch, "_pump", kill_after_start)
    report = build_index(repo, BuildOptions(embed="onnx", threads=2))
    assert killed, "the early workers never started"
    assert report.vectors_root == report.root_id and report.embedded > 0
    assert not _qry_workers()
    monkeypatch.setattr(prefetch_mod, "PREFETCH_MIN_IDLE", 99)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg-plain"))
    plain = build_index(other, BuildOptions(embed="onnx", threads=2))
    assert (report.embedded, report.embed_cached) == (plain.embedded, plain.embed_cached)
    assert index_vectors(repo / ".qry").keys() == index_vectors(other / ".qry").keys()
