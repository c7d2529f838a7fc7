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


# -- sections 6, 7, 8: `related` resolves exactly, prefers code, folds overload stubs --------------

RELATED_REPO = {
    "src/pkg/core.py": (
        "import typing\nimport typing as t\n\n\nclass Context:\n"
        "    @t.overload\n    def invoke(self, cb: int) -> int: ...\n\n"
        "    @typing.overload\n    def invoke(self, cb: str) -> str: ...\n\n"
        "    def invoke(self, cb):\n        return helper(cb)\n\n\n"
        "def helper(x):\n    return x\n\n\n"
        "def echo(msg):\n    return helper(msg)\n\n\n"
        "def raise_nonexistent_error():\n    raise KeyError('gone')\n"
    ),
    "src/pkg/parse.py": (
        "class Command:\n    def parse_args(self, args):\n        return args\n\n\n"
        "class Group:\n    def parse_args(self, args):\n        return args\n"
    ),
    "src/pkg/runner.py": (
        "class Runner:\n    def go(self):\n        return self.step()\n\n"
        "    def step(self):\n        return 1\n\n\ndef main():\n    return Runner().step()\n"
    ),
    "tests/test_prompt.py": "def test_prompts_eof():\n    def echo(x):\n        return x\n\n    echo(1)\n",
    "docs/api.md": "# API\n\n## Context\n\nThe context object of a command.\n",
}


@pytest.fixture(scope="module")
def related_repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _repo(tmp_path_factory.mktemp("related"), RELATED_REPO)


@pytest.mark.parametrize("name", ["nonexistent", "parse_args_xyz", "echoo", "Contex"])
def test_related_never_answers_for_another_name(related_repo: Path, name: str) -> None:
    run = _q(related_repo, "related", name)
    assert run.code == 1 and run.out == "", run.describe()
    assert f"qry: no definition named {name!r}" in run.err and "Traceback" not in run.err, run.err
    assert "hint:" in run.err, run.err
    as_json = json.loads(_q(related_repo, "related", name, "--json").out)
    assert as_json["node"] is None and not as_json["ambiguous"] and as_json["candidates"] == []


def test_related_hints_the_closest_names_when_none_is_exact(related_repo: Path) -> None:
    run = _q(related_repo, "related", "nonexistent")
    assert "hint: the closest names: raise_nonexistent_error (src/pkg/core.py:" in run.err, run.err
    closest = json.loads(_q(related_repo, "related", "nonexistent", "--json").out)["closest"]
    assert closest and all(c["match"] == "fuzzy" for c in closest), closest


@pytest.mark.parametrize(
    ("name", "symbol", "path", "line"),
    [
        ("Context", "Context", "src/pkg/core.py", 5),  # not the docs/api.md section
        ("context", "Context", "src/pkg/core.py", 5),  # another case, when none is exact as typed
        ("echo", "echo", "src/pkg/core.py", 20),  # not test_prompts_eof.echo
        ("Context.invoke", "Context.invoke", "src/pkg/core.py", 12),  # the implementation, not a stub
        ("src/pkg/core.py:Context.invoke", "Context.invoke", "src/pkg/core.py", 12),
        ("pkg.core.Context.invoke", "Context.invoke", "src/pkg/core.py", 12),
        ("invoke", "Context.invoke", "src/pkg/core.py", 12),
    ],
)
def test_related_prefers_code_top_level_and_the_implementation(
    related_repo: Path, name: str, symbol: str, path: str, line: int
) -> None:
    run = _q(related_repo, "related", name, "--json")
    assert run.code == 0, run.describe()
    node = json.loads(run.out)["node"]
    assert (node["symbol"], node["path"], node["start_line"]) == (symbol, path, line), run.describe()


def test_related_stays_ambiguous_within_one_class(related_repo: Path) -> None:
    run = _q(related_repo, "related", "parse_args")
    assert run.code == 2 and "'parse_args' names 2 definitions" in run.err, run.describe()
    assert "src/pkg/parse.py:Command.parse_args" in run.err, run.err
    hinted = _q(related_repo, "related", "src/pkg/parse.py:Command.parse_args")
    assert hinted.code == 0, hinted.describe()


# -- section 16: `--callers` lists only callers, `--callees` only callees ---------------------------


@pytest.mark.parametrize(("flag", "edges"), [("--callers", {"<- calls"}), ("--callees", {"-> calls"})])
def test_related_callers_or_callees_leave_out_the_container(
    related_repo: Path, flag: str, edges: set[str]
) -> None:
    name = "Runner.go" if flag == "--callees" else "Runner.step"
    rows = _q(related_repo, "related", name, flag).out.splitlines()[1:]
    assert rows and {r.split("\t")[0] for r in rows} == edges, rows
    both = _q(related_repo, "related", name).out
    assert "<- contains\tRunner" in both, both


# -- section 9: `--show-completion SHELL` prints that shell's script ---------------------------------


@pytest.mark.parametrize(
    ("shell", "marker"),
    [
        ("bash", "complete -o default -F _qry_completion qry"),
        ("zsh", "#compdef qry"),
        ("fish", "complete --command qry"),
        ("powershell", "Register-ArgumentCompleter"),
        ("pwsh", "Register-ArgumentCompleter"),
    ],
)
def test_show_completion_prints_the_named_shells_script(tmp_path: Path, shell: str, marker: str) -> None:
    run = _q(tmp_path, "--show-completion", shell)
    assert run.code == 0 and marker in run.out and run.err == "", run.describe()
    assert _q(tmp_path, f"--show-completion={shell}").out == run.out


def test_show_completion_refuses_an_unknown_shell(tmp_path: Path) -> None:
    run = _q(tmp_path, "--show-completion", "bogus")
    assert run.code == 2 and run.out == "", run.describe()
    assert run.err.startswith("qry: error: --show-completion: unknown shell 'bogus'\n"), run.err
    assert "hint: name one of: bash, zsh, fish" in run.err, run.err


# -- an identifier defined nowhere: the hits only mention its words, and qry says so ----------------


def test_an_identifier_with_no_definition_is_said_to_have_none(flag_repo: Path) -> None:
    missing = _q(flag_repo, "search", "--json", "AddHelpOptionTwice")
    assert missing.code == 0, missing.describe()  # its words still match: results, exit 0
    assert "no definition named 'AddHelpOptionTwice'" in missing.err, missing.describe()
    assert any("no definition named" in n for n in json.loads(missing.out)["meta"]["notes"])
    found = _q(flag_repo, "search", "--json", "add_help_option")
    assert found.code == 0 and "no definition named" not in found.err, found.describe()
