"""One query model per process: shared by engines, a question embedded once however many ask at once."""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

from indexlib.errors import ModelError
from indexlib.retrieval import querymodel
from indexlib.retrieval.querymodel import RECENT_QUESTIONS, SharedQueryEmbedder, query_model


class _Counting:
    """An embedder that counts its runs and takes a while, so concurrent callers overlap."""

    def __init__(self) -> None:
        self.runs: list[str] = []
        self._lock = threading.Lock()

    def embed_query(self, text: str) -> np.ndarray:
        time.sleep(0.02)
        with self._lock:
            self.runs.append(text)
        return np.full(4, float(len(text)), dtype=np.float32)


def test_a_question_asked_by_eight_threads_at_once_is_embedded_once() -> None:
    inner = _Counting()
    shared = SharedQueryEmbedder(inner)
    with ThreadPoolExecutor(max_workers=8) as pool:
        vecs = list(pool.map(lambda _i: shared.embed_query("retry a failed charge"), range(8)))
    assert inner.runs == ["retry a failed charge"]
    assert all(v is vecs[0] for v in vecs)


def test_only_the_last_questions_are_kept() -> None:
    inner = _Counting()
    shared = SharedQueryEmbedder(inner)
    texts = [f"question {i}" for i in range(RECENT_QUESTIONS + 1)]
    for t in texts:
        shared.embed_query(t)
    shared.embed_query(texts[-1])  # still kept: not embedded again
    assert len(inner.runs) == len(texts)
    shared.embed_query(texts[0])  # the oldest was let go: embedded again
    assert inner.runs[-1] == texts[0] and len(inner.runs) == len(texts) + 1


def test_engines_asking_for_one_model_share_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(querymodel, "_LOADED", {})
    a = query_model(None, "hash-64")
    assert query_model(None, "hash-64") is a
    assert query_model(None, "hash-32") is not a
    assert a.inner.dim == 64


def test_a_model_that_does_not_match_the_index_is_refused_and_not_kept(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(querymodel, "_LOADED", {})
    with pytest.raises(ModelError):
        query_model(None, "all-MiniLM-L6-v2-not-this-one")
    assert querymodel._LOADED == {}
