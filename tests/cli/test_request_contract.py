"""`qry search` at the edge of the library's request contract, as a user meets it in a shell.

A query of exclusions only is an error in every output format; a query of filters lists what they
admit, the same on both parsers (the fast path and Typer); filters that each match files but together match none are named on stderr; the table's
footer says what the route means.
"""

from __future__ import annotations

import json
import os
import pty
import subprocess
import sys
from pathlib import Path

import msgspec
import pytest

from tests.cli.clikit import RunQry, cli_env

FORMATS = [(), ("--json",), ("--jsonl",), ("-l",)]


# query -> (the first stderr line, the start of the hint)
NOTHING_TO_SEARCH = {
    # `-word` after `--` is an exclusion, not a filter: the message says so, and how to search for it.
    "-charge": ("the query only excludes words (-charge): there is nothing to search for", "add a word"),
    '-charge -"failed charge"': (
        'the query only excludes words (-charge -"failed charge"): there is nothing to search for',
        "add a word",
    ),
}
PYTHON_CLASSES = [
    ("python/billing/config.py", "Config"),
    ("python/billing/gateway.py", "DeclinedError"),
    ("python/billing/gateway.py", "Gateway"),
    ("python/billing/gateway.py", "StripeGateway"),
]
LISTING_NOTE = "qry: note: no words to search for: listing what the filters admit, in file order"


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("query", list(NOTHING_TO_SEARCH))
def test_a_query_of_exclusions_only_is_an_error(qry: RunQry, fmt: tuple[str, ...], query: str) -> None:
    run = qry("search", *fmt, "--", query)
    assert run.code == 2, run.describe()
    message, hint = NOTHING_TO_SEARCH[query]
    assert run.err.startswith(f"qry: error: {message}\n"), run.describe()
    assert f"  hint: {hint}" in run.err and "Traceback" not in run.err
    if fmt in (("--json",), ("--jsonl",)):  # the error object is the output's one record
        err = msgspec.json.decode(run.out)
        assert err["isError"] is True and err["code"] == "usage"
    else:
        assert run.out == ""


def test_a_query_of_filters_lists_what_they_admit_in_file_order(qry: RunQry) -> None:
    """`kind:class lang:python` names no word to rank by: every Python class, by path then line, as
    zoekt or Sourcegraph list a filter's matches; the note says it is a listing, in every format."""
    run = qry("search", "--json", "kind:class lang:python")
    assert run.code == 0 and run.err == f"{LISTING_NOTE}: 4 shown\n", run.describe()
    hits = json.loads(run.out)["results"]
    assert [(h["path"], h["symbol"]) for h in hits] == PYTHON_CLASSES, run.describe()
    lines = [(h["path"], h["start_line"]) for h in hits]
    assert lines == sorted(lines)
    piped = qry("search", "-k", "2", "kind:class lang:python")
    assert piped.code == 0 and piped.out.splitlines()[0].startswith("python/billing/config.py:11: Config")
    assert piped.err == f"{LISTING_NOTE}: 2 shown; more match (raise --top-k, or narrow the filters)\n"
    files = qry("search", "-l", "kind:class lang:python")
    assert files.out.splitlines() == ["python/billing/config.py", "python/billing/gateway.py"], (
        files.describe()
    )


def test_a_listing_walks_every_file_in_path_order(qry: RunQry) -> None:
    """The index is read a batch of files at a time: a listing of every method crosses batches
    and stays in path, then line order, with every method once."""
    run = qry("search", "--json", "-k", "1000", "kind:method")
    hits = json.loads(run.out)["results"]
    keys = [(h["path"], h["start_line"]) for h in hits]
    assert keys == sorted(keys) and len(set(keys)) == len(keys), run.describe()
    assert len({h["language"] for h in hits}) >= 6 and len({h["path"] for h in hits}) > 8, run.describe()
    assert run.err == f"{LISTING_NOTE}: {len(hits)} shown\n"


def test_a_listing_packed_into_a_budget_counts_what_it_shows(qry: RunQry) -> None:
    run = qry("search", "--json", "--budget-tokens", "1", "kind:class lang:python")
    assert run.code == 0, run.describe()
    result = json.loads(run.out)
    assert len(result["results"]) == 1 and result["meta"]["truncated_by_budget"] == 3, run.describe()
    assert run.err == f"{LISTING_NOTE}: 1 shown; more match (raise --budget-tokens, or narrow the filters)\n"


def test_a_listing_leaves_out_what_an_exclusion_names(qry: RunQry) -> None:
    run = qry("search", "--json", "--", "kind:class lang:python -stripe")
    assert run.code == 0, run.describe()
    symbols = [h["symbol"] for h in json.loads(run.out)["results"]]
    assert symbols == ["Config", "DeclinedError", "Gateway"], run.describe()


def test_filter_options_without_a_query_list_too(qry: RunQry) -> None:
    """No QUERY at all, only `--kind` and `--path` (Typer's path: the fast path takes a query)."""
    run = qry("search", "--json", "--kind", "class", "--path", "python/billing/gateway.py")
    assert run.code == 0, run.describe()
    symbols = [h["symbol"] for h in json.loads(run.out)["results"]]
    assert symbols == ["DeclinedError", "Gateway", "StripeGateway"], run.describe()
    bare = qry("search")
    assert bare.code == 2 and bare.err.startswith("qry: error: the query is empty\n"), bare.describe()


def test_a_time_window_alone_lists_the_newest_change_first(qry: RunQry) -> None:
    run = qry("search", "--json", "-k", "50", "--since", "2000-01-01")
    assert run.code == 0, run.describe()
    assert run.err.startswith(
        "qry: note: no words to search for: listing what the filters admit, newest change first"
    )
    times = [h["last_changed"] for h in json.loads(run.out)["results"]]
    assert len(times) > 10 and times == sorted(times, reverse=True), times


def test_a_quoted_dash_word_is_searched_as_the_exclusion_hint_says(qry: RunQry) -> None:
    """The hint for `-charge` alone says to quote it; doing so searches for the word with its dash (a
    phrase, required of every hit): `"-memory"` finds the `in-memory` of a comment, `"-charge"` is
    in no file (exit 1, no error, a note naming the phrase)."""
    hint = qry("search", "--", "-charge").err.splitlines()[1]
    assert hint.endswith("""qry search -- '"-charge"'"""), hint
    quoted = qry("search", "-k", "3", "--json", "--", '"-memory"')
    assert quoted.code == 0 and quoted.err == "", quoted.describe()
    hits = json.loads(quoted.out)["results"]
    assert hits and all("-memory" in h["snippet"]["text"] for h in hits), quoted.describe()
    absent = qry("search", "-k", "3", "--", '"-charge"')
    assert absent.code == 1 and absent.out == "", absent.describe()
    assert absent.err.startswith('qry: note: no result: no indexed text holds "-charge" as written'), (
        absent.err
    )


def test_a_listing_is_the_same_on_the_typer_path(repo: Path, qry: RunQry) -> None:
    fast = qry("search", "path:python/**")
    assert fast.code == 0 and fast.err.startswith(LISTING_NOTE), fast.describe()
    typer_main = "import sys; from cli.main import main; sys.argv[0] = 'qry'; main()"
    typer_path = subprocess.run(
        [sys.executable, "-c", typer_main, "search", "path:python/**"],
        cwd=repo,
        env=cli_env(),
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert (typer_path.returncode, typer_path.stdout, typer_path.stderr) == (fast.code, fast.out, fast.err)


@pytest.mark.parametrize("fmt", FORMATS)
def test_filters_that_together_match_no_file_are_named_in_every_format(
    qry: RunQry, fmt: tuple[str, ...]
) -> None:
    run = qry("search", "charge path:python/** -path:python", *fmt)
    assert run.code == 1, run.describe()
    note = "qry: note: the filters path:python/** -path:python together match no indexed file\n"
    assert run.err == note, run.describe()
    alone = qry("search", "charge path:python/**", *fmt)
    assert alone.code == 0 and "together" not in alone.err, alone.describe()


def _on_a_terminal(repo: Path, *args: str) -> str:
    """stdout of `qry ARGS` run on a pseudo-terminal (so qry draws its table), as text."""
    main, follower = pty.openpty()
    proc = subprocess.Popen(
        [sys.executable, "-m", "cli", *args],
        cwd=repo,
        env=cli_env(),
        stdin=subprocess.DEVNULL,
        stdout=follower,
        stderr=subprocess.PIPE,
    )
    os.close(follower)
    chunks: list[bytes] = []
    while True:
        try:
            data = os.read(main, 65536)
        except OSError:  # EIO: the process closed the terminal
            break
        if not data:
            break
        chunks.append(data)
    os.close(main)
    assert proc.wait(timeout=120) == 0, proc.stderr.read() if proc.stderr else ""
    return b"".join(chunks).decode("utf-8", "replace").replace("\r\n", "\n")


@pytest.mark.parametrize(
    ("query", "footer"),
    [
        ("charge", "route identifier (one name: its definitions first)"),
        ("retry charge", "route keywords (a few words: names and terms first)"),
        ("how is a failed charge retried later", "route natural (a sentence: words and meaning)"),
    ],
)
def test_the_table_footer_says_what_the_route_means(repo: Path, query: str, footer: str) -> None:
    out = _on_a_terminal(repo, "search", query, "-k", "1")
    assert footer in " ".join(out.split()), out
