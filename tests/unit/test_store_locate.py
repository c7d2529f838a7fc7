"""Finding the index: walk up like git, with explicit path > QRY_INDEX_DIR > walk-up precedence."""

from __future__ import annotations

from pathlib import Path

import pytest

from indexlib.errors import IndexNotFound
from indexlib.store.locate import ENV_VAR, default_index_dir, find_index, resolve_index_dir


def _published(repo: Path) -> Path:
    index = default_index_dir(repo)
    index.mkdir(parents=True)
    (index / "HEAD").write_text("0" * 32 + "\n")
    return index


def test_find_index_walks_up_from_a_nested_dir_or_file(tmp_path: Path) -> None:
    index = _published(tmp_path / "repo")
    nested = tmp_path / "repo" / "src" / "pkg"
    nested.mkdir(parents=True)
    (nested / "mod.py").write_text("x = 1\n")
    assert find_index(nested) == index.resolve()
    assert find_index(nested / "mod.py") == index.resolve()
    assert find_index(tmp_path / "repo") == index.resolve()


def test_find_index_prefers_the_nearest_and_ignores_unpublished(tmp_path: Path) -> None:
    outer = _published(tmp_path)
    inner_repo = tmp_path / "inner"
    default_index_dir(inner_repo).mkdir(parents=True)  # created but never published: no HEAD
    assert find_index(inner_repo) == outer.resolve()
    inner = default_index_dir(inner_repo)
    (inner / "HEAD").write_text("1" * 32 + "\n")
    assert find_index(inner_repo / "x") == inner.resolve()


def test_find_index_returns_none_without_an_index(tmp_path: Path) -> None:
    assert find_index(tmp_path) is None


def test_resolve_precedence_explicit_then_env_then_walk(tmp_path: Path) -> None:
    walked = _published(tmp_path / "repo")
    env_dir = tmp_path / "from-env"
    explicit = tmp_path / "explicit"
    env = {ENV_VAR: str(env_dir)}
    start = tmp_path / "repo"
    assert resolve_index_dir(explicit, start=start, environ=env) == explicit
    assert resolve_index_dir(None, start=start, environ=env) == env_dir
    assert resolve_index_dir(None, start=start, environ={}) == walked.resolve()


def test_resolve_without_any_index_raises_with_hint(tmp_path: Path) -> None:
    with pytest.raises(IndexNotFound) as info:
        resolve_index_dir(None, start=tmp_path, environ={})
    assert "qry index" in info.value.hint


def test_an_unpublished_first_build_is_named_instead_of_no_index(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    default_index_dir(repo).mkdir(parents=True)  # an interrupted first build leaves .qry without HEAD
    with pytest.raises(IndexNotFound) as info:
        resolve_index_dir(None, start=repo / "src", environ={})
    assert "has no published root yet" in info.value.message
    assert info.value.hint == f"finish it: qry index {repo.resolve()}"
    outer = _published(tmp_path)  # a published index further up still wins, as find_index says
    assert resolve_index_dir(None, start=repo, environ={}) == outer.resolve()
