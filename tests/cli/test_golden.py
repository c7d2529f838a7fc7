"""Golden tests of what `qry` prints, so any change in ranking, snippets or layout shows up as a diff.

The CLI runs as a subprocess over an index of fixtures/polyglot built without vectors, with no tty,
NO_COLOR=1 and COLUMNS=100; volatile fields (root ids, times, elapsed ms, the temporary path) are
normalised. `QRY_UPDATE_GOLDENS=1 pytest tests/cli` rewrites the files under tests/cli/golden/.
The Rich table is rendered in-process through `cli.render.render_table` with a pinned Env.
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable
from pathlib import Path

import msgspec
import pytest

from tests.cli.clikit import BAD_INPUT, Normaliser, Run, RunQry

Golden = Callable[[str, str], None]

# name -> the search arguments; each golden holds stdout, then stderr and the exit status
PLAIN_SEARCHES: dict[str, tuple[str, ...]] = {
    "search_charge.txt": ("search", "charge"),
    "search_phrase.txt": ("search", '"failed charge"', "-k", "3"),
    "search_prefix_lang.txt": ("search", "comput* lang:go"),
    "search_negated_path_kind.txt": ("search", "retry -path:python/** kind:function", "-k", "4"),
    "search_graph_explain.txt": ("search", "compute_backoff", "--graph", "--explain", "-k", "2"),
    "search_context.txt": ("search", "charge", "-k", "3", "-C", "2"),
    "search_files.txt": ("search", "charge", "-l"),
    "search_options.txt": (
        "search",
        "backoff",
        "--mode",
        "lexical",
        "--lang",
        "python",
        "--lang",
        "typescript",
        "--exclude",
        "ts/ChargeButton.tsx",
        "--snippet-chars",
        "80",
        "-k",
        "3",
    ),
}


def _transcript(run: Run, norm: Normaliser) -> str:
    return norm.text(f"$ qry {' '.join(run.args)}\n{run.out}--- stderr\n{run.err}--- exit {run.code}\n")


@pytest.mark.parametrize("name", sorted(PLAIN_SEARCHES))
def test_plain_search_output(name: str, qry: RunQry, norm: Normaliser, golden: Golden) -> None:
    run = qry(*PLAIN_SEARCHES[name])
    assert run.code == 0, run.describe()
    assert "\x1b[" not in run.out, "no colour codes when piped"
    golden(name, _transcript(run, norm))


def test_plain_output_is_grep_friendly(qry: RunQry) -> None:
    """Piped, one `path:line: symbol<TAB>text` line per hit (as `rg -n`, plus what the hit is); with
    -C N, a header per hit, then snippet lines as `path:line:text`, and hits separated by `--` (so
    grep -c ^-- counts them)."""
    lines = qry("search", "charge", "-k", "4").out.splitlines()
    assert len(lines) == 4 and all(re.fullmatch(r"[^:\t]+:\d+: [^\t]+\t.*", line) for line in lines), lines
    run = qry("search", "charge", "-k", "4", "-C", "2")
    blocks = run.out.rstrip("\n").split("\n--\n")
    assert len(blocks) == 4
    for block in blocks:
        header, *lines = block.split("\n")
        location, kind, symbol, score = header.split("\t")
        path = location.rsplit(":", 1)[0]
        assert kind and symbol and float(score) > 0
        assert lines and all(line.startswith(f"{path}:") for line in lines)


def test_jsonl_lines(qry: RunQry, norm: Normaliser, golden: Golden) -> None:
    run = qry("search", "retry_failed_charge", "--jsonl", "-k", "3")
    assert run.code == 0 and run.err == "", run.describe()
    golden("search_retry_failed_charge.jsonl", norm.jsonl(run.out))


def test_json_object(qry: RunQry, norm: Normaliser, golden: Golden) -> None:
    run = qry("search", "parse_config", "--json", "-k", "2", "--no-graph")
    assert run.code == 0 and run.err == "", run.describe()
    golden("search_parse_config.json", norm.jsonl(run.out))


def test_status(qry: RunQry, norm: Normaliser, golden: Golden) -> None:
    plain = qry("status")
    as_json = qry("status", "--json")
    assert plain.code == 0 and as_json.code == 0, plain.describe() + as_json.describe()
    golden("status.txt", _transcript(plain, norm))
    golden("status.json", norm.jsonl(as_json.out))


def test_roots(qry: RunQry, norm: Normaliser, golden: Golden) -> None:
    run = qry("roots")
    assert run.code == 0, run.describe()
    golden("roots.txt", _transcript(run, norm))


def test_related(qry: RunQry, norm: Normaliser, golden: Golden) -> None:
    plain = qry("related", "python/billing/gateway.py:Gateway.charge", "--depth", "2")
    callees = qry("related", "retry_failed_charge", "--callees")  # ambiguous: candidates on stderr, exit 2
    as_json = qry("related", "ChargeButton.onClick", "--json")
    golden("related.txt", _transcript(plain, norm) + _transcript(callees, norm))
    golden("related_onclick.json", norm.jsonl(as_json.out))
    assert (plain.code, callees.code, as_json.code) == (0, 2, 0)


def test_graph(qry: RunQry, norm: Normaliser, golden: Golden) -> None:
    query = (
        "MATCH (c:function)-[:calls]->(f:function {name: $n}) "
        "RETURN c.qualified_name AS caller, c.path AS path, c.start_line AS line ORDER BY path, line"
    )
    plain = qry("graph", query, "--param", "n=compute_backoff")
    as_json = qry("graph", query, "--param", "n=compute_backoff", "--json")
    assert plain.code == 0 and as_json.code == 0, plain.describe() + as_json.describe()
    golden("graph.txt", _transcript(plain, norm) + norm.jsonl(as_json.out))


def test_error_messages(qry: RunQry, norm: Normaliser, golden: Golden) -> None:
    """The exact wording of errors and hints is part of the interface: people and agents read it."""
    text = ""
    for args, _ in BAD_INPUT.values():
        run = qry(*args)
        assert run.code == 2, run.describe()
        text += _transcript(run, norm)
    golden("errors.txt", text)


def test_rich_table(repo: Path, golden: Golden) -> None:
    """The terminal table, pinned: width 100, no colour, as if stdout were a tty."""
    from cli.console import Env
    from cli.render import render_table
    from indexlib import SearchOptions, open_engine

    result = open_engine(repo / ".qry").search("charge", SearchOptions(top_k=3, graph=True))
    result.meta = msgspec.structs.replace(result.meta, elapsed_ms=12.0, root="0123456789abcdef" * 2)
    out = io.StringIO()
    env = Env(stdout=out, stderr=io.StringIO(), stdout_tty=True, stderr_tty=False, color=False, width=100)
    render_table(env, result, explain=False)
    text = out.getvalue()
    assert "\x1b[" not in text, "color=False must not emit escape codes"
    assert all(len(line) <= 100 for line in text.splitlines())
    golden("table_charge.txt", text)


def test_fast_path_and_typer_print_the_same(repo: Path, qry: RunQry) -> None:
    """A plain `qry search` skips Typer (cli/fastpath.py); the Typer command must print the same bytes."""
    import subprocess
    import sys

    from tests.cli.clikit import cli_env

    args = ["search", "retry", "-k", "3", "--lang", "go", "--jsonl"]
    fast = qry(*args)
    typer_path = subprocess.run(
        [sys.executable, "-c", "import sys; from cli.main import main; sys.argv[0] = 'qry'; main()", *args],
        cwd=repo,
        env=cli_env(),
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert fast.code == typer_path.returncode == 0, fast.describe() + typer_path.stderr
    strip = Normaliser(repo, "x" * 32)
    assert strip.jsonl(fast.out) == strip.jsonl(typer_path.stdout)
    assert fast.out.count("\n") == 3


def test_rich_table_shows_a_run_of_blank_lines_as_one(repo: Path) -> None:
    """A class outline keeps its members' lines as blank ones (line numbers stay right in `-C`
    output); the table draws a run of them as a single blank line."""
    from cli.console import Env
    from cli.render import render_table
    from indexlib import SearchOptions, open_engine

    result = open_engine(repo / ".qry").search("charge", SearchOptions(top_k=1))
    hit = result.results[0]
    text = "class Gateway:\n    def charge(self):\n        ...\n\n\n\n\n    def refund(self):\n        ..."
    snippet = msgspec.structs.replace(hit.snippet, text=text, highlights=[])
    result.results = [msgspec.structs.replace(hit, snippet=snippet)]
    out = io.StringIO()
    render_table(Env(stdout=out, stderr=io.StringIO(), stdout_tty=True, color=False, width=100), result)
    rows = [line.strip("│ ").strip() for line in out.getvalue().splitlines()]
    at = rows.index("...")
    assert rows[at + 1 : at + 3] == ["", "def refund(self):"], rows
