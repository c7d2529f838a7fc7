"""The build's history reader starts a worker only where there may be history to read."""

from __future__ import annotations

from pathlib import Path

import pytest

from indexlib.index.build.times import _may_have_history


def test_a_worker_only_inside_a_git_work_tree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("GIT_DIR", raising=False)
    plain = tmp_path / "plain" / "src"
    plain.mkdir(parents=True)
    assert not _may_have_history(plain)
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    (repo / "pkg" / "sub").mkdir(parents=True)
    assert _may_have_history(repo) and _may_have_history(repo / "pkg" / "sub")
    (tmp_path / "worktree").mkdir()
    (tmp_path / "worktree" / ".git").write_text("gitdir: /elsewhere\n")  # a linked worktree's .git file
    assert _may_have_history(tmp_path / "worktree")
    monkeypatch.setenv("GIT_DIR", str(repo / ".git"))
    assert _may_have_history(plain)
