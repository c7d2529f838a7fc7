"""`qry --help` and every `qry COMMAND --help` work, list what they should, and stay light to load.

`qry search` has two parsers (the argparse fast path and the Typer command); `--help` always goes to
Typer, so its help must list every option of the shared table in cli/options.py.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import click
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


def _all_commands() -> list[tuple[str, click.Command]]:
    """Every command of the app with its full name, nested ones too (`workspace add`)."""
    out: list[tuple[str, click.Command]] = []
    pending: list[tuple[str, click.Command]] = [("", click_command())]
    while pending:
        name, cmd = pending.pop()
        if name:
            out.append((name, cmd))
        for sub_name, sub in getattr(cmd, "commands", {}).items():
            pending.append((f"{name} {sub_name}".strip(), sub))
    return sorted(out, key=lambda item: item[0])


ALL_COMMANDS = dict(_all_commands())


@pytest.mark.parametrize("name", sorted(ALL_COMMANDS))
def test_help_shows_placeholders_never_python_types(name: str) -> None:
    """`qry grep --help` showed `-A, --after-context <int>`, `-g, --glob <list[str]>`, `--index-dir
    <str>` and `Usage: qry grep [OPTIONS] pattern paths`; `qry workspace add` showed `NAME <str>` and
    `{NAME} {PATH...}...`: Typer's type names where a metavar was missing, and only the top-level
    commands' arguments were converted. Every option and argument row, at every depth, names its
    value in capitals, and no usage line braces or types anything."""
    command = ALL_COMMANDS[name]
    ctx = click.Context(command, info_name=name, parent=click.Context(click_command(), info_name="qry"))
    usage = command.get_usage(ctx)
    assert not re.search(r"[{}<>]", usage), usage
    for param in command.get_params(ctx):
        record = param.get_help_record(ctx)
        if record is None:
            continue
        flags = record[0]
        assert "<" not in flags and "{" not in flags, f"qry {name}: {flags}"
        if isinstance(param, click.Argument):
            assert flags.strip("[].") == flags.strip("[].").upper(), f"qry {name}: {flags}"


@pytest.mark.parametrize("table", ["SEARCH_OPTIONS", "GREP_OPTIONS", "INDEX_OPTIONS"])
def test_every_option_that_takes_a_value_declares_its_metavar(table: str) -> None:
    """The option tables are the one place the shared options are declared; a value-taking row
    without a metavar is what made Typer print `<int>` (the grep table had none)."""
    from cli import grepopts, indexopts, options

    rows = {"SEARCH_OPTIONS": options, "GREP_OPTIONS": grepopts, "INDEX_OPTIONS": indexopts}[table]
    missing = [o.dest for o in getattr(rows, table) if o.type is not bool and not o.metavar]
    assert missing == [], f"{table}: no metavar for {missing}"
    metavars = {o.metavar for o in getattr(rows, table)} - {""}
    assert all(m == m.upper() or "|" in m for m in metavars), metavars


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
    for argv in (
        ["--help"],
        ["search", "--help"],
        ["index", "--help"],
        ["serve", "--help"],
        ["route", "--help"],
    ):
        loaded = _modules_after(argv, tmp_path)
        assert not set(loaded) & set(HEAVY), f"qry {' '.join(argv)} imported {loaded}"


def test_plain_search_skips_typer_rich_and_the_model(repo: Path) -> None:
    loaded = set(_modules_after(["search", "charge", "-k", "1"], repo))
    assert "tantivy" in loaded, "the search really ran"
    assert not loaded & {"typer", "click", "rich", "numpy", "onnxruntime", "usearch", "ray"}, loaded
