"""The speed benchmarks' pure helpers (bench/run_all.py, index_bench.py, query_bench.py): parsing tool output
and rewriting only our section of docs/benchmarks.md. No timing is asserted: timings live in bench/."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench"


@pytest.fixture(scope="module")
def bench() -> Iterator[Any]:
    # bench/ is not a package: its scripts import each other by bare name, as `python bench/run_all.py` does.
    sys.path.insert(0, str(BENCH))
    try:
        import index_bench
        import query_bench
        import run_all

        yield SimpleNamespace(index=index_bench, query=query_bench, run_all=run_all)
    finally:
        sys.path.remove(str(BENCH))


IMPORTTIME = """\
import time: self [us] | cumulative | imported package
import time:       120 |        120 |   _io
import time:        88 |       4300 | cli.fastpath
import time:      4000 |       4000 |   argparse
import time:        30 |         30 |     numpy.core
some other stderr line
import time:      1500 |       1500 | tantivy.tantivy
"""


def test_parse_importtime_reads_self_cumulative_and_depth(bench: Any) -> None:
    lines = bench.query.parse_importtime(IMPORTTIME)
    assert [(ln.module, ln.depth, ln.self_us, ln.cumulative_us) for ln in lines] == [
        ("_io", 1, 120, 120),  # children print before their parent
        ("cli.fastpath", 0, 88, 4300),
        ("argparse", 1, 4000, 4000),
        ("numpy.core", 2, 30, 30),
        ("tantivy.tantivy", 0, 1500, 1500),
    ]


def test_import_profile_flags_heavy_packages_by_top_level_name(bench: Any) -> None:
    q = bench.query
    prof = q.ImportProfile(argv=["search", "x"], total_us=0.0)
    for ln in q.parse_importtime(IMPORTTIME):
        prof.modules[ln.module] = (float(ln.self_us), float(ln.cumulative_us), ln.depth)
    assert prof.heavy() == ["numpy"]
    assert prof.loaded("tantivy") and not prof.loaded("tant")
    assert prof.package_cost("tantivy") == 1500
    assert prof.top_self(1)[0][0] == "argparse"
    assert prof.top_cumulative(1)[0][0] == "cli.fastpath"


def test_parse_hyperfine_keeps_command_order_and_converts_to_ms(bench: Any) -> None:
    data = {
        "results": [
            {"command": "a", "mean": 0.05, "stddev": 0.01, "median": 0.04, "min": 0.03, "user": 0.02,
             "system": 0.005, "times": [0.03, 0.04, 0.08], "exit_codes": [0, 0, 1]},
            {"command": "b", "mean": 1.0, "stddev": None, "median": 1.0, "min": 1.0, "user": 0.5,
             "system": 0.1, "times": [1.0], "exit_codes": [0]},
        ]
    }  # fmt: skip
    t = bench.index.parse_hyperfine(data, ["rg", "qry"], ["rg -n x", "qry search x"])
    assert list(t) == ["rg", "qry"]
    assert t["rg"].median_ms == pytest.approx(40.0)
    assert t["rg"].cpu_ms == pytest.approx(25.0)
    assert t["rg"].runs == 3 and t["rg"].exit_codes == [0, 1]
    assert t["qry"].stddev_ms == 0.0 and t["qry"].command == "qry search x"


def test_write_section_replaces_only_our_block(bench: Any) -> None:
    ra = bench.run_all
    doc = (
        "# Benchmarks\n\nintro\n\n<!-- bench:start -->\nold numbers\n<!-- bench:end -->\n\n"
        "<!-- eval:start -->\nrecall 0.9\n<!-- eval:end -->\n"
    )
    out = ra.write_section(doc, "new numbers\n")
    assert out == doc.replace("old numbers", "new numbers")
    assert ra.write_section(out, "new numbers\n") == out  # idempotent


def test_write_section_creates_both_marker_pairs_when_missing(bench: Any) -> None:
    out = bench.run_all.write_section(None, "numbers")
    assert out.startswith("# Benchmarks\n")
    for marker in ("<!-- bench:start -->", "<!-- bench:end -->", "<!-- eval:start -->", "<!-- eval:end -->"):
        assert out.count(marker) == 1
    assert out.index("numbers") < out.index("<!-- bench:end -->")


def test_write_section_goes_before_an_existing_eval_block(bench: Any) -> None:
    doc = "# Benchmarks\n\n<!-- eval:start -->\nrecall\n<!-- eval:end -->\n"
    out = bench.run_all.write_section(doc, "numbers")
    assert out.index("<!-- bench:end -->") < out.index("<!-- eval:start -->")
    assert "<!-- eval:start -->\nrecall\n<!-- eval:end -->\n" in out


def test_table_aligns_columns(bench: Any) -> None:
    md = bench.index.table(["a", "b"], [["x", 1]])
    assert md.splitlines() == ["| a | b |", "| --- | ---: |", "| x | 1 |"]


def test_pool_rounds_concatenates_runs_and_weights_cpu_means(bench: Any) -> None:
    def doc(times: list[float], user: float) -> dict[str, Any]:
        return {
            "results": [
                {"command": "c", "times": times, "user": user, "system": 0.0, "exit_codes": [0] * len(times)}
            ]
        }

    pooled = bench.index.pool_rounds([doc([0.1, 0.3], 0.2), doc([0.2], 0.5)])
    (r,) = pooled["results"]
    assert r["times"] == [0.1, 0.3, 0.2]
    assert r["median"] == pytest.approx(0.2) and r["min"] == pytest.approx(0.1)
    assert r["user"] == pytest.approx((0.2 * 2 + 0.5) / 3)
    assert r["exit_codes"] == [0, 0, 0]
    t = bench.index.parse_hyperfine(pooled, ["x"], ["c"])
    assert t["x"].runs == 3 and t["x"].median_ms == pytest.approx(200.0)


def test_commit_queries_reads_titles_as_the_dev_set_does() -> None:
    sys.path.insert(0, str(BENCH))
    try:
        import commit_queries
    finally:
        sys.path.remove(str(BENCH))
    q = commit_queries.query_of
    assert q("fix(runtime-core): avoid a leak (#123)") == "runtime-core: avoid a leak"
    assert q("feat: add numCPU func") == "add numCPU func"
    assert q("net: add missing types") == "net: add missing types"
    assert q("chore: bump deps") is None
    assert q("docs(guide): explain x") is None
    assert q("Fix a crash") is None  # not conventional: no scope or type to read
