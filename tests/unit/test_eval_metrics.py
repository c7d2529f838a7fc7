"""The evaluation's metrics (bench/eval/metrics.py) on hand-computed examples."""

from __future__ import annotations

import importlib.util
import math
import sys
from pathlib import Path
from types import ModuleType

import pytest


def _load() -> ModuleType:
    # bench/ is not a package: load the file by path, as `python bench/eval/run.py` would find it.
    path = Path(__file__).resolve().parents[2] / "bench" / "eval" / "metrics.py"
    spec = importlib.util.spec_from_file_location("qry_eval_metrics", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


m = _load()


@pytest.mark.parametrize(
    ("rank", "k", "expected"),
    [(1, 1, 1.0), (2, 1, 0.0), (5, 5, 1.0), (6, 5, 0.0), (10, 10, 1.0), (None, 10, 0.0), (0, 10, 0.0)],
)
def test_recall_at(rank: int | None, k: int, expected: float) -> None:
    assert m.recall_at(rank, k) == expected


def test_reciprocal_rank_is_cut_at_k() -> None:
    assert m.reciprocal_rank(1) == 1.0
    assert m.reciprocal_rank(4) == 0.25
    assert m.reciprocal_rank(10) == 0.1
    assert m.reciprocal_rank(11) == 0.0  # MRR@10: rank 11 earns nothing
    assert m.reciprocal_rank(None) == 0.0
    assert m.reciprocal_rank(3, k=2) == 0.0


def test_ndcg_with_one_relevant_item() -> None:
    assert m.ndcg_at(1) == 1.0
    assert m.ndcg_at(2) == pytest.approx(1 / math.log2(3))  # 0.6309...
    assert m.ndcg_at(3) == pytest.approx(0.5)  # 1/log2(4)
    assert m.ndcg_at(7) == pytest.approx(1 / 3)  # 1/log2(8)
    assert m.ndcg_at(11) == 0.0
    assert m.ndcg_at(None) == 0.0


def test_first_relevant() -> None:
    assert m.first_relevant([False, False, True, True]) == 3
    assert m.first_relevant([True]) == 1
    assert m.first_relevant([False, False]) is None
    assert m.first_relevant([]) is None


def test_summarize_hand_computed() -> None:
    # Ranks 1, 3, 7, missing: R@1 = 1/4, R@5 = 2/4, R@10 = 3/4,
    # MRR@10 = (1 + 1/3 + 1/7 + 0) / 4, nDCG@10 = (1 + 1/2 + 1/3 + 0) / 4.
    s = m.summarize([1, 3, 7, None])
    assert s["n"] == 4
    assert s["R@1"] == pytest.approx(0.25)
    assert s["R@5"] == pytest.approx(0.5)
    assert s["R@10"] == pytest.approx(0.75)
    assert s["MRR@10"] == pytest.approx((1 + 1 / 3 + 1 / 7) / 4)
    assert s["nDCG@10"] == pytest.approx((1 + 0.5 + 1 / 3) / 4)


def test_summarize_empty_is_zero() -> None:
    s = m.summarize([])
    assert s["n"] == 0
    assert all(s[name] == 0.0 for name in m.METRIC_NAMES)


def test_metrics_are_monotone_in_rank() -> None:
    # A better (smaller) rank never scores lower on any metric.
    for k in (1, 5, 10):
        for r in range(1, 15):
            assert m.recall_at(r, k) >= m.recall_at(r + 1, k)
    for r in range(1, 15):
        assert m.reciprocal_rank(r) >= m.reciprocal_rank(r + 1)
        assert m.ndcg_at(r) >= m.ndcg_at(r + 1)
