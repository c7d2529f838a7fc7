"""A `qry.toml` is written by hand: what `load_folder` refuses rather than drop unseen."""

from __future__ import annotations

from pathlib import Path

import pytest

from indexlib.errors import UsageError
from indexlib.workspace.config import load_folder

HEAD = '[workspace]\nname = "org"\n'


def _load(tmp_path: Path, body: str) -> list[tuple[str, Path]]:
    (tmp_path / "qry.toml").write_text(HEAD + body)
    return [(m.name, m.index) for m in load_folder(tmp_path).members]


def test_a_repo_takes_path_and_name(tmp_path: Path) -> None:
    repos = _load(
        tmp_path, '[[workspace.repos]]\npath = "api"\nname = "svc"\n[[workspace.repos]]\npath = "web"\n'
    )
    assert repos == [("svc", tmp_path / "api" / ".qry"), ("web", tmp_path / "web" / ".qry")]


@pytest.mark.parametrize(
    ("body", "message", "hint"),
    [
        (
            '[[workspace.repos]]\npath = "cobra"\nnmae = "ab"\n',
            "the repo at 'cobra' has an unknown key 'nmae'",
            "the keys there are: path, name",
        ),
        ('[[workspace.repo]]\npath = "cobra"\n', "[workspace] has an unknown key 'repo'", "name, repos"),
        ('[[workspace.repos]]\npath = "cobra"\nname = 3\n', "'name' must be a string", 'name = "api"'),
    ],
)
def test_what_a_qry_toml_may_not_hold(tmp_path: Path, body: str, message: str, hint: str) -> None:
    """The trial: `nmae = "ab"` labelled the repository `cobra` (its folder) without a word, and
    `[[workspace.repo]]` said only that the workspace has no indexes."""
    with pytest.raises(UsageError) as err:
        _load(tmp_path, body)
    assert message in err.value.message and str(tmp_path / "qry.toml") in err.value.message
    assert hint in err.value.hint
