"""The second newcomer walkthrough's defects, each pinned by the behaviour the user saw.

Each test runs `qry` as a real subprocess over a small repository written here, as a user would.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from indexlib import BuildOptions, build_index
from tests.cli.clikit import Run, run_qry_process


def _repo(root: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    build_index(root, BuildOptions(embed="none", git_times=False))
    return root


def _q(cwd: Path, *args: str) -> Run:
    return run_qry_process(*args, cwd=cwd)


# -- section 1: `--flag` in a sentence is text; `-word` says what it left out ----------------------

FLAG_REPO = {
    "cli/options.py": (
        "def add_help_option(parser):\n"
        '    """Adds the --help option to every command."""\n'
        "    parser.add('--help')\n\n\n"
        "def add_verbose_option(parser):\n"
        '    """Adds the verbose option."""\n'
        "    parser.add('--verbose')\n"
    ),
}


@pytest.fixture(scope="module")
def flag_repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _repo(tmp_path_factory.mktemp("flags"), FLAG_REPO)


def test_a_long_flag_inside_a_search_sentence_is_searched_for(flag_repo: Path) -> None:
    run = _q(flag_repo, "search", "--mode", "lexical", "--json", "--", "where is the --help option added")
    assert run.code == 0, run.describe()
    top = json.loads(run.out)["results"][0]
    assert top["symbol"] == "add_help_option", run.describe()
    assert "left out" not in run.err, run.err


def test_an_exclusion_that_removes_hits_is_said_and_holds_for_the_name_stream(flag_repo: Path) -> None:
    run = _q(flag_repo, "search", "--mode", "lexical", "--json", "--", "add_help_option -help")
    symbols = [h["symbol"] for h in json.loads(run.out)["results"]] if run.code == 0 else []
    assert "add_help_option" not in symbols, run.describe()  # the symbol stream found it by name
    assert "qry: note: left out results containing help (the exclusion -help" in run.err, run.err
    assert any(n.startswith("left out results containing help") for n in json.loads(run.out)["meta"]["notes"])
    quiet = _q(flag_repo, "search", "--mode", "lexical", "--", "option -zzzq")
    assert quiet.code == 0 and "left out" not in quiet.err, quiet.describe()
