"""The package names a repository declares (indexlib/retrieval/projectname.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from indexlib.retrieval.projectname import project_names


@pytest.mark.parametrize(
    ("name", "text", "language", "expected"),
    [
        ("Cargo.toml", '[package]\nname = "serde-json"\n', "rust", {"serde_json"}),
        ("package.json", '{"name": "@vue/runtime-core", "version": "3"}', "typescript", {"runtime_core"}),
        ("pyproject.toml", '[project]\nname = "Black"\n', "python", {"black"}),
        ("go.mod", "module github.com/go-task/task/v3\n\ngo 1.22\n", "go", {"task"}),
        ("Cargo.toml", '[workspace]\nmembers = ["a"]\n', "rust", set()),  # a workspace declares no package
        ("package.json", "{ not json", "javascript", set()),
        ("pyproject.toml", "[project\nname =", "python", set()),
        # go-task's package.json names its npm wrapper (`@go-task/cli`): a Go project is its go.mod's
        ("package.json", '{"name": "@go-task/cli"}', "go", set()),
        ("pom.xml", "<project><artifactId>jsoup</artifactId></project>", "java", set()),
    ],
)
def test_the_package_name_the_main_languages_manifest_declares_is_read(
    tmp_path: Path, name: str, text: str, language: str, expected: set[str]
) -> None:
    (tmp_path / name).write_text(text)
    assert project_names(str(tmp_path), language) == expected


def test_a_folder_name_is_no_project_name(tmp_path: Path) -> None:
    folder = tmp_path / "json"  # a clone of serde-rs/json: `json` is a word of every question
    folder.mkdir()
    assert project_names(str(folder), "rust") == frozenset()
