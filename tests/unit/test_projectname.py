"""The package names a repository declares (indexlib/retrieval/projectname.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from indexlib.retrieval.projectname import project_names


@pytest.mark.parametrize(
    ("name", "text", "expected"),
    [
        ("Cargo.toml", '[package]\nname = "serde-json"\n', {"serde_json"}),
        ("package.json", '{"name": "@vue/runtime-core", "version": "3"}', {"runtime_core"}),
        ("pyproject.toml", '[project]\nname = "Black"\n', {"black"}),
        ("go.mod", "module github.com/go-task/task/v3\n\ngo 1.22\n", {"task"}),
        ("Cargo.toml", '[workspace]\nmembers = ["a"]\n', set()),  # a workspace declares no package
        ("package.json", "{ not json", set()),
        ("pyproject.toml", "[project\nname =", set()),
    ],
)
def test_the_declared_package_name_is_read(tmp_path: Path, name: str, text: str, expected: set[str]) -> None:
    (tmp_path / name).write_text(text)
    assert project_names(str(tmp_path)) == expected


def test_a_folder_name_is_no_project_name(tmp_path: Path) -> None:
    folder = tmp_path / "json"  # a clone of serde-rs/json: `json` is a word of every question
    folder.mkdir()
    assert project_names(str(folder)) == frozenset()
