"""Bounded work per file: the build applies the per-file node cap and a tree-sitter parse timeout.

`parse_file(..., max_nodes=, timeout_ms=)` owns both bounds (tests/unit/test_parsing_robustness.py
checks them on parse_file itself); these tests check that the build's call wires them: the cap comes
from `BuildOptions.max_nodes_per_file`, the timeout is finite (parse_file's default when the build
passes none), and a file that hits either bound is still indexed (first nodes, or line windows) and
counted in the report's skips. Peak memory is measured in bench/memory.py, not here.
"""

from __future__ import annotations

import inspect
from pathlib import Path
from typing import Any

import pytest

import indexlib.index.build.parse as build
from indexlib import BuildOptions, build_index
from indexlib.index.parsing import parse_file
from indexlib.store.store import Store


def _repo(root: Path, functions: int) -> Path:
    root.mkdir(parents=True)
    (root / "many.py").write_text("".join(f"def f{i}():\n    return {i}\n\n" for i in range(functions)))
    (root / "small.py").write_text("def small():\n    return 0\n")
    return root


def _spy(monkeypatch: pytest.MonkeyPatch, **override: Any) -> list[dict[str, Any]]:
    calls: list[dict[str, Any]] = []

    def spy(path: str, data: bytes, language: str, **kwargs: Any) -> Any:
        calls.append(dict(kwargs))
        return parse_file(path, data, language, **{**kwargs, **override})

    monkeypatch.setattr(build, "parse_file", spy)
    return calls


def _effective(calls: list[dict[str, Any]], name: str) -> set[Any]:
    default = inspect.signature(parse_file).parameters[name].default
    return {c.get(name, default) for c in calls}


def test_the_build_passes_the_node_cap_and_a_finite_timeout(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls = _spy(monkeypatch)
    repo = _repo(tmp_path / "repo", 3)
    build_index(
        repo, BuildOptions(index_dir=tmp_path / "i", embed="none", git_times=False, max_nodes_per_file=7)
    )
    assert len(calls) == 2
    assert _effective(calls, "max_nodes") == {7}
    (timeout,) = _effective(calls, "timeout_ms")
    assert isinstance(timeout, int) and 0 < timeout <= 60_000, timeout


def test_a_file_over_the_node_cap_keeps_its_first_nodes(tmp_path: Path) -> None:
    repo = _repo(tmp_path / "repo", 40)
    report = build_index(
        repo, BuildOptions(index_dir=tmp_path / "i", embed="none", git_times=False, max_nodes_per_file=10)
    )
    assert report.skipped == {"node_cap": 1}, report.skipped
    _rid, manifest = Store.open(tmp_path / "i").load()
    assert manifest.files["many.py"].nodes == 10 and manifest.files["small.py"].nodes == 1


def test_a_parse_over_its_time_budget_falls_back_to_line_windows(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A 1 ms budget stands in for the 5 s default on a pathological file (a real one costs 5 s)."""
    _spy(monkeypatch, timeout_ms=1)
    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / "nested.js").write_text("function deep() {\n" + "function g() {\n" * 3000 + "}\n" * 3001)
    report = build_index(repo, BuildOptions(index_dir=tmp_path / "i", embed="none", git_times=False))
    assert report.skipped == {"parse_timeout": 1}, report.skipped
    _rid, manifest = Store.open(tmp_path / "i").load()
    assert manifest.files["nested.js"].nodes >= 1, "the file is still indexed, as line windows"
