"""docs/cli.md documents every command and option exactly as `--help` shows them, and the JSON schema.

The option tables in docs/cli.md are generated from the Typer app (the same click help records
`qry COMMAND --help` prints) between `<!-- BEGIN GENERATED: qry NAME -->` and `<!-- END GENERATED: qry
NAME -->` markers; this test regenerates them and fails on any difference, so a new option, a renamed
flag or a changed default cannot ship undocumented. `QRY_UPDATE_GOLDENS=1 pytest tests/cli/test_docs.py`
rewrites the generated blocks in place (the prose around them is left alone).

The JSON schema tables (`<!-- schema: Hit -->` ...) are checked row by row against the msgspec Structs
of indexlib/records.py: field names in order and their JSON types; the meaning column is prose.
"""

from __future__ import annotations

import os
import re
import types
import typing
from pathlib import Path
from typing import Any

import click
import msgspec
import pytest

from cli.main import click_command
from cli.options import SEARCH_OPTIONS
from indexlib.records import Hit, Provenance, Related, SearchMeta, SearchResult, Snippet
from indexlib.workspace.federate import IndexAnswer, WorkspaceMeta, WorkspaceResult

DOC = Path(__file__).resolve().parents[2] / "docs" / "cli.md"
UPDATE = os.environ.get("QRY_UPDATE_GOLDENS") == "1"
GROUP = click_command()
COMMANDS: dict[str, click.Command] = dict(GROUP.commands)  # type: ignore[attr-defined]
SCHEMA_STRUCTS = (
    SearchResult,
    Hit,
    Snippet,
    Provenance,
    Related,
    SearchMeta,
    WorkspaceResult,
    WorkspaceMeta,
    IndexAnswer,
)


def _md(text: str) -> str:
    """Help text made safe for a Markdown table cell (no emphasis from globs, no tags, no cell breaks)."""
    text = " ".join(text.split())
    return text.replace("\\", "\\\\").replace("|", "\\|").replace("*", "\\*").replace("<", "&lt;")


def generated_block(name: str) -> str:
    """The usage line, the help text and the argument/option table of `qry NAME`, from the Typer app."""
    cmd = COMMANDS[name]
    ctx = click.Context(cmd, info_name=name, parent=click.Context(GROUP, info_name="qry"))
    rows = []
    for param in cmd.get_params(ctx):
        record = param.get_help_record(ctx)
        if record is None:
            continue
        flags, help_text = record
        default = ""
        m = re.search(r"\s*\[(default: (.*?)|required)\]$", help_text)
        if m:
            default = "*required*" if m.group(1) == "required" else f"`{m.group(2)}`"
            help_text = help_text[: m.start()]
        rows.append(f"| `{flags}` | {default} | {_md(help_text)} |")
    usage = cmd.get_usage(ctx)
    return "\n".join(
        [
            f"<!-- BEGIN GENERATED: qry {name} (tests/cli/test_docs.py; QRY_UPDATE_GOLDENS=1 rewrites) -->",
            "```",
            usage,
            "```",
            "",
            _md(cmd.help or ""),
            "",
            "| argument / option | default | description |",
            "|---|---|---|",
            *rows,
            f"<!-- END GENERATED: qry {name} -->",
        ]
    )


_BLOCK = re.compile(r"<!-- BEGIN GENERATED: qry (\S+) .*?-->.*?<!-- END GENERATED: qry \1 -->", re.S)


def _doc() -> str:
    return DOC.read_text(encoding="utf-8")


def _section(doc: str, name: str) -> str:
    """The text under `### qry NAME` up to the next heading of that level or above."""
    m = re.search(rf"^### `qry {re.escape(name)}`.*?$(.*?)(?=^#{{1,3}} |\Z)", doc, re.S | re.M)
    assert m, f"docs/cli.md has no '### `qry {name}`' section"
    return m.group(1)


def test_update_generated_blocks() -> None:
    """With QRY_UPDATE_GOLDENS=1, rewrite every generated block (and fail on a missing marker pair)."""
    doc = _doc()
    found = {m.group(1) for m in _BLOCK.finditer(doc)}
    missing = set(COMMANDS) - found
    assert not missing, f"docs/cli.md has no generated block for: {sorted(missing)}"
    if UPDATE:
        new = _BLOCK.sub(lambda m: generated_block(m.group(1)), doc)
        if new != doc:
            DOC.write_text(new, encoding="utf-8")


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_generated_block_matches_the_app(name: str) -> None:
    blocks = {m.group(1): m.group(0) for m in _BLOCK.finditer(_doc())}
    assert name in blocks, f"qry {name} is not documented in docs/cli.md"
    assert blocks[name] == generated_block(name), (
        f"docs/cli.md is out of date for `qry {name}`: run QRY_UPDATE_GOLDENS=1 pytest tests/cli/test_docs.py"
    )


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_every_command_and_option_is_documented(name: str) -> None:
    """Belt and braces beside the generated blocks: a heading per command, every flag in its section."""
    section = _section(_doc(), name)
    for param in COMMANDS[name].params:
        for flag in (*param.opts, *param.secondary_opts):
            if flag.startswith("-"):
                assert f"{flag}" in section, f"{flag} of qry {name} is missing from docs/cli.md"


def test_commands_overview_lists_every_command() -> None:
    doc = _doc()
    overview = doc.split("## Commands", 1)[1].split("\n### ", 1)[0]
    listed = re.findall(r"^\| \[`qry (\S+)`\]", overview, re.M)
    assert sorted(listed) == sorted(COMMANDS)


def test_search_section_mentions_every_shared_option() -> None:
    section = _section(_doc(), "search")
    for o in SEARCH_OPTIONS:
        assert all(f in section for f in o.flags), o.dest


def test_query_syntax_exit_codes_environment_are_documented() -> None:
    doc = _doc()
    for needle in ('`"failed charge"`', "`pars*`", "lang:", "path:", "kind:", "-path:", "exclude:"):
        assert needle in doc.split("## Query syntax", 1)[1].split("\n## ", 1)[0], needle
    codes = doc.split("## Exit codes", 1)[1].split("\n## ", 1)[0]
    for code in ("| 0 |", "| 1 |", "| 2 |", "| 130 |"):
        assert code in codes, code
    env = doc.split("## Environment", 1)[1].split("\n## ", 1)[0]
    for var in ("QRY_INDEX_DIR", "NO_COLOR", "COLUMNS"):
        assert f"`{var}`" in env, var


def json_type(tp: Any) -> str:
    """The JSON type of a Struct field as docs/cli.md writes it."""
    origin = typing.get_origin(tp)
    args = typing.get_args(tp)
    if origin in (typing.Union, types.UnionType):
        present = [a for a in args if a is not msgspec.UnsetType]  # UNSET: the field is left out, not null
        inner = [a for a in present if a is not type(None)]
        return " or ".join(json_type(a) for a in inner) + (" or null" if len(inner) < len(present) else "")
    if origin is list:
        return f"array of {json_type(args[0])}"
    if origin is tuple:
        return "[" + ", ".join(json_type(a) for a in args) + "]"
    if origin is dict:
        return f"object of {json_type(args[1])}"
    if isinstance(tp, type) and issubclass(tp, msgspec.Struct):
        return tp.__name__
    return {str: "string", int: "integer", float: "number", bool: "boolean"}[tp]


@pytest.mark.parametrize("struct", SCHEMA_STRUCTS, ids=lambda s: s.__name__)
def test_json_schema_tables_match_the_structs(struct: type[msgspec.Struct]) -> None:
    doc = _doc()
    marker = f"<!-- schema: {struct.__name__} -->"
    assert marker in doc, f"docs/cli.md has no schema table for {struct.__name__}"
    table = doc.split(marker, 1)[1].strip().split("\n\n", 1)[0]
    rows = [r for r in table.splitlines() if r.startswith("| `")]
    documented = [tuple(c.strip().strip("`") for c in r.strip("|").split("|")[:2]) for r in rows]
    actual = [(f.encode_name, json_type(f.type)) for f in msgspec.structs.fields(struct)]
    assert documented == actual, f"schema table of {struct.__name__} in docs/cli.md differs from records.py"


def test_every_node_kind_is_in_every_kind_list() -> None:
    """The query syntax's `kind:` row, the graph's labels and the Hit schema's `kind` row each list
    the kinds; `type` and `constant` were missing from all three (and `type` was called an alias)."""
    from indexlib.records import NodeKind
    from indexlib.retrieval.query import KIND_ALIASES

    doc = _doc()
    lists = {
        "kind: filter": next(line for line in doc.splitlines() if line.startswith("| `kind:function` |")),
        "graph labels": doc.split("Node labels are node kinds", 1)[1].split("for any", 1)[0],
        "Hit.kind": next(line for line in doc.splitlines() if line.startswith("| `kind` | string |")),
    }
    for where, text in lists.items():
        missing = [k.value for k in NodeKind if f"`{k.value}`" not in text]
        assert not missing, f"docs/cli.md {where} misses {missing}"
    aliases = lists["kind: filter"].split("(aliases", 1)[1]
    for alias, kind in KIND_ALIASES.items():
        if alias != kind:
            assert f"`{alias}`" in aliases, alias
    assert "`type` for" not in aliases and "`alias` for `type`" in aliases


def test_every_error_code_is_documented() -> None:
    """`code` in an error object names the rule broken; each code the library raises is listed."""
    import indexlib.errors as errors

    codes = {
        cls.code
        for cls in vars(errors).values()
        if isinstance(cls, type)
        and issubclass(cls, errors.QryError)
        and cls not in (errors.QryError, errors.GraphQueryError)  # a graph error's code is its rule
    }
    listed = _doc().split("`code` names the rule broken:", 1)[1].split("\n\n", 1)[0]
    assert {"index_not_writable", "permission_denied", "disk_full"} <= codes
    assert sorted(c for c in codes if f"`{c}`" not in listed) == []


def test_the_paths_grep_prints_are_documented_as_they_are(tmp_path: Path) -> None:
    """Search results are relative to the repository's top; `qry grep` prints them as rg does:
    relative to the working directory without a PATH, below a PATH as the PATH was typed (`../x`
    gave absolute paths, where rg prints `../x/...`). The doc said "always relative to the indexed
    repository's top"."""
    from tests.cli.clikit import run_qry_process

    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "a.py").write_text("needle = 1\n")
    (tmp_path / "top.py").write_text("needle = 2\n")
    run = run_qry_process("grep", "needle", cwd=tmp_path / "sub")
    assert run.out == "a.py:1:needle = 1\n", run.describe()
    outside = run_qry_process("grep", "needle", "../top.py", "../sub", cwd=tmp_path / "sub")
    assert outside.out == "../top.py:1:needle = 2\n../sub/a.py:1:needle = 1\n", outside.describe()
    which = _doc().split("## Which index a command uses", 1)[1].split("\n## ", 1)[0]
    assert "always relative" not in which
    assert "`qry grep`\nprints them as rg does: below a PATH, as that PATH was typed" in which


def test_the_files_grep_searches_beyond_the_index_are_documented() -> None:
    """grep searches text files of a type qry does not recognise (UNLICENSE, *.csv, *.svg), as rg
    does, though the index skips them; the grep section's list of files named none of this."""
    from indexlib.index.parsing.languages import detect_language

    grep = _doc().split("### `qry grep`", 1)[1].split("\n### ", 1)[0]
    assert "Text files of a type qry does not recognise" in grep and "are\nsearched too" in grep
    for name in ("UNLICENSE", "*.csv", "*.svg"):
        assert f"`{name}`" in grep and detect_language(name.replace("*", "a")) is None, name
