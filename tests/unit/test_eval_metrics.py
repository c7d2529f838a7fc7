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


# --- the query generator's pure helpers (bench/eval/make_queries.py) -------------------------------


def _load_generator() -> ModuleType:
    here = Path(__file__).resolve().parents[2] / "bench" / "eval"
    if str(here) not in sys.path:
        sys.path.insert(0, str(here))  # make_queries imports its sibling `corpora`
    spec = importlib.util.spec_from_file_location("qry_eval_make_queries", here / "make_queries.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


g = _load_generator()


@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("parse_config", ["parse", "config"]),
        ("ParseConfig", ["parse", "config"]),
        ("HTTPServer2", ["http", "server", "2"]),
        ("_EndRecData64", ["end", "rec", "data", "64"]),
        ("getLogger", ["get", "logger"]),
    ],
)
def test_split_words(name: str, words: list[str]) -> None:
    assert g.split_words(name) == words


def test_first_sentence_strips_markup_and_stops_at_the_first_period() -> None:
    doc = "Applies a given `project` function to each value, e.g. a {@link map}.\n\nMore text."
    assert g.first_sentence(doc) == "Applies a given project function to each value, e.g. a map."
    assert g.first_sentence("Return :meth:`foo` of the thing.  Then more.") == "Return foo of the thing."


def _node(name: str, start: int, end: int, doc: str = "", language: str = "go") -> object:
    from indexlib.records import Node

    return Node(uid=1, content_hash=1, path="a", language=language, kind="function", name=name,
                qualified_name=name, doc=doc, start_line=start, end_line=end, start_byte=0, end_byte=0,
                text="")  # fmt: skip


def test_concept_text_drops_go_style_leading_name_and_short_docs() -> None:
    assert g.concept_text(_node("NoArgs", 1, 2, doc="NoArgs returns an error if any args are included.")) == (
        "returns an error if any args are included."
    )
    assert g.concept_text(_node("f", 1, 2, doc="Does a thing.")) is None  # fewer than five words
    assert g.concept_text(_node("f", 1, 2, doc="TODO: make this much faster later on please.")) is None


def test_strip_docs_blanks_comment_block_above_and_keeps_line_count() -> None:
    src = b"package a\n\n// Keep me: not a doc of f.\n\n// F does the work for the caller today.\n// More.\nfunc F() {}\n"
    out = g.strip_docs(src, "go", [_node("F", 7, 7)])
    assert out.count(b"\n") == src.count(b"\n")
    assert b"F does the work" not in out and b"More." not in out
    assert b"Keep me" in out  # separated by a blank line: not part of F's comment block


def test_strip_docs_python_docstring_keeps_a_valid_body() -> None:
    import ast

    src = b'def f(x):\n    """Only a docstring here, nothing else."""\n\ndef g():\n    """Doc."""\n    return 1\n'
    out = g.strip_docs(
        src, "python", [_node("f", 1, 2, language="python"), _node("g", 4, 6, language="python")]
    )
    assert out.count(b"\n") == src.count(b"\n")
    assert b"docstring" not in out and b"Doc." not in out
    tree = ast.parse(out)  # still valid Python: a docstring-only body became `pass`
    assert [type(s).__name__ for s in tree.body[0].body] == ["Pass"]
    assert [type(s).__name__ for s in tree.body[1].body] == ["Return"]
