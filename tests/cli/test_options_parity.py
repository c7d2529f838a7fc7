"""The Typer `search` and `index` commands and their fast paths accept exactly the same options."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from cli.fastpath import parse_search_args
from cli.flagparse import flag_table
from cli.main import click_command
from cli.options import SEARCH_OPTIONS


def test_fast_path_and_typer_expose_the_same_search_options() -> None:
    command = click_command()
    search = command.commands["search"]  # type: ignore[attr-defined]
    typer_flags = {f for p in search.params for f in (*p.opts, *p.secondary_opts) if f.startswith("-")}
    assert typer_flags - {"--help"} == set(flag_table(SEARCH_OPTIONS))
    assert {p.name for p in search.params} - {"query"} == {o.dest for o in SEARCH_OPTIONS}


def test_fast_parser_reads_every_form() -> None:
    parsed = parse_search_args(
        [
            "parse config",
            "-k",
            "5",
            "--lang=go",
            "--lang",
            "rust",
            "--json",
            "--no-graph",
            "--snippet-chars",
            "120",
        ]
    )
    assert parsed is not None
    query, v = parsed
    assert query == "parse config"
    assert v["top_k"] == 5 and v["lang"] == ["go", "rust"] and v["json"] is True and v["graph"] is False
    assert v["snippet_chars"] == 120 and v["mode"] == "hybrid"
    assert parse_search_args(["--", "-weird query"]) == ("-weird query", parse_search_args(["x"])[1])  # type: ignore[index]


def test_fast_parser_defers_to_typer_on_anything_unusual() -> None:
    for argv in (["q", "--bogus"], ["q", "--top-k", "many"], [], ["q", "--top-k"], ["q", "--json=1"]):
        assert parse_search_args(argv) is None, argv


def test_several_query_words_are_one_query() -> None:
    parsed = parse_search_args(["parse", "config", "-k", "3", "lang:go"])
    assert parsed is not None and parsed[0] == "parse config lang:go" and parsed[1]["top_k"] == 3


def test_both_parsers_read_a_dash_led_filter_or_quoted_query_as_the_query() -> None:
    """Click read `-path:tests` as `-p ath:tests`; a quoted query with spaces is never an option. An
    option's value that looks the same stays the option's."""
    from cli.main import _dashed_query_words_last

    parsed = parse_search_args(["charge", "-path:tests/**", "-k", "3"])
    assert parsed is not None and parsed[0] == "charge -path:tests/**" and parsed[1]["top_k"] == 3
    quoted = parse_search_args(["-kind:test charge", "--json"])
    assert quoted is not None and quoted[0] == "-kind:test charge" and quoted[1]["json"] is True
    assert parse_search_args(["charge", "-kx"]) is None  # an unknown short option is still Typer's to refuse
    command = click_command()
    line = ["search", "charge", "-path:tests/**", "--path", "-odd name", "-k", "3", "--", "x"]
    assert _dashed_query_words_last(line, command) == [
        "search",
        "charge",
        "--path",
        "-odd name",
        "-k",
        "3",
        "--",
        "-path:tests/**",
        "x",
    ]
    assert _dashed_query_words_last(["search", "charge"], command) == ["search", "charge"]


def test_fast_path_and_typer_expose_the_same_index_options_with_the_builds_defaults() -> None:
    from cli.indexopts import INDEX_OPTIONS
    from indexlib import BuildOptions

    index = click_command().commands["index"]  # type: ignore[attr-defined]
    typer_flags = {f for p in index.params for f in (*p.opts, *p.secondary_opts) if f.startswith("-")}
    assert typer_flags - {"--help"} == set(flag_table(INDEX_OPTIONS))
    assert {p.name for p in index.params} - {"path"} == {o.dest for o in INDEX_OPTIONS}
    build = BuildOptions()
    shared = {o.dest: o.default for o in INDEX_OPTIONS if hasattr(build, o.dest)}
    assert len(shared) >= 10
    assert shared == {dest: getattr(build, dest) for dest in shared}
    assert next(o for o in INDEX_OPTIONS if o.dest == "model").default == build.model_dir


def test_the_index_fast_path_defers_to_typer_on_anything_unusual(monkeypatch: pytest.MonkeyPatch) -> None:
    import cli.indexcmd as indexcmd

    ran: list[tuple[Path | None, dict[str, Any]]] = []
    monkeypatch.setattr(indexcmd, "index_command", lambda _env, path, v: ran.append((path, v)) or 0)
    for argv in (
        ["index", "--bogus"],
        ["index", "a", "b"],
        ["index", "--threads", "many"],
        ["index", "-h"],
        ["index", "--json=1"],
        ["search", "x"],
    ):
        assert indexcmd.try_fast_index(argv) is None, argv
    assert not ran
    assert (
        indexcmd.try_fast_index(["index", "repo", "--embed", "none", "--no-redact", "-q", "--index-dir=ix"])
        == 0
    )
    ((path, v),) = ran
    assert path == Path("repo") and v["index_dir"] == Path("ix")
    assert v["embed"] == "none" and v["redact"] is False and v["quiet"] is True and v["git_times"] is True
