"""`qry --help` and every `qry COMMAND --help` work, list what they should, and stay light to load.

`qry search` has two parsers (the argparse fast path and the Typer command); `--help` always goes to
Typer, so its help must list every option of the shared table in cli/options.py.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from cli.main import click_command
from cli.options import SEARCH_OPTIONS
from tests.cli.clikit import RunQry, assert_clean_stderr, cli_env

COMMANDS = sorted(click_command().commands)  # type: ignore[attr-defined]


def test_the_command_list_is_what_docs_and_users_expect() -> None:
    assert (
        sorted(
            [
                *("search", "grep", "index", "status", "roots", "gc", "verify", "related", "graph", "mcp"),
                *("workspace", "route", "serve"),
            ]
        )
        == COMMANDS
    )


def test_top_level_help(qry: RunQry) -> None:
    run = qry("--help")
    assert run.code == 0 and run.err == "", run.describe()
    assert run.out.startswith("Usage: qry [OPTIONS] COMMAND [ARGS]...")
    listed = [line.split()[0] for line in run.out.split("Commands:")[1].splitlines() if line.strip()]
    assert sorted(listed) == COMMANDS


@pytest.mark.parametrize("command", COMMANDS)
def test_command_help(command: str, qry: RunQry, tmp_path: Path) -> None:
    run = qry(command, "--help", cwd=tmp_path)  # no index needed for help
    assert run.code == 0 and run.err == "", run.describe()
    assert run.out.startswith(f"Usage: qry {command} [OPTIONS]")
    assert "--help" in run.out
    assert_clean_stderr(run)


def test_search_help_lists_every_shared_option(qry: RunQry) -> None:
    run = qry("search", "--help")
    assert run.code == 0
    for o in SEARCH_OPTIONS:
        for flag in o.flags:
            assert flag in run.out, f"{flag} missing from qry search --help"
        if o.negatable:
            assert f"--no-{o.flags[0][2:]}" in run.out
        assert o.help.split(" (")[0].split(",")[0][:30] in " ".join(run.out.split()), o.dest
    for o in SEARCH_OPTIONS:
        if o.default not in (None, False):
            assert f"[default: {o.default}]" in " ".join(run.out.split()), o.dest


def test_help_on_the_fast_path_command_line_still_reaches_typer(qry: RunQry) -> None:
    """`qry search charge --help` would parse on the fast path; it must print help, not search."""
    run = qry("search", "charge", "--top-k", "3", "--help")
    assert run.code == 0 and run.out.startswith("Usage: qry search")


HEAVY = ("numpy", "onnxruntime", "usearch", "tokenizers", "tantivy", "tree_sitter", "lark", "rich", "ray")


def _modules_after(argv: list[str], cwd: Path) -> list[str]:
    code = (
        "import sys\n"
        f"sys.argv = ['qry', *{argv!r}]\n"
        "from cli.entry import run\n"
        "try:\n    run()\nexcept SystemExit:\n    pass\n"
        f"sys.stderr.write(' '.join(m for m in {(*HEAVY, 'typer', 'click')!r} if m in sys.modules))\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code], cwd=cwd, env=cli_env(), capture_output=True, text=True, timeout=120
    )
    return proc.stderr.strip().splitlines()[-1].split() if proc.stderr.strip() else []


def test_help_loads_no_engine(tmp_path: Path) -> None:
    for argv in (["--help"], ["search", "--help"], ["index", "--help"], ["serve", "--help"], ["route", "--help"]):
        loaded = _modules_after(argv, tmp_path)
        assert not set(loaded) & set(HEAVY), f"qry {' '.join(argv)} imported {loaded}"


def test_plain_search_skips_typer_rich_and_the_model(repo: Path) -> None:
    loaded = set(_modules_after(["search", "charge", "-k", "1"], repo))
    assert "tantivy" in loaded, "the search really ran"
    assert not loaded & {"typer", "click", "rich", "numpy", "onnxruntime", "usearch", "ray"}, loaded
