"""Exit statuses and the error contract, one behaviour per test.

The contract (cli/console.py): 0 results / success, 1 a search (or lookup) that found nothing, 2 an
error, with `qry: error: ...` and `  hint: ...` on stderr, an error object on stdout under --json,
and never a Python traceback; 130 on Ctrl-C; a closed stdout pipe exits quietly (0), as ripgrep does.
The index is found like git finds .git: --index-dir > $QRY_INDEX_DIR > the nearest .qry above the cwd.
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import msgspec
import pytest

from tests.cli.clikit import BAD_INPUT, RunQry, assert_clean_stderr, cli_env, run_qry_process

# ---------------------------------------------------------------------------------------------
# 0 / 1


@pytest.mark.parametrize("fmt", [(), ("--json",), ("--jsonl",)])
def test_zero_with_hits_one_without(fmt: tuple[str, ...], qry: RunQry) -> None:
    hit = qry("search", "charge", *fmt)
    miss = qry("search", "zzqqxxnothing", *fmt)
    assert (hit.code, miss.code) == (0, 1), hit.describe() + miss.describe()
    assert hit.out and hit.err == "" and miss.err == ""
    if not fmt or fmt == ("--jsonl",):
        assert miss.out == "", "no results print nothing (grep-like)"


def test_filters_that_exclude_everything_exit_one(qry: RunQry) -> None:
    """Each filter matches files, together none: exit 1, nothing on stdout, and stderr says why."""
    run = qry("search", "charge lang:go", "--path", "python/**")
    assert run.code == 1 and run.out == "", run.describe()
    assert run.err == "qry: note: the filters path:python/** lang:go together match no indexed file\n"


def test_an_exclusion_that_leaves_nothing_and_an_open_quote_are_said(qry: RunQry) -> None:
    run = qry("search", "charge -path:**")
    assert run.code == 1 and run.out == "", run.describe()
    assert run.err == "qry: note: the filter -path:** leaves no indexed file to search\n"
    quote = qry("search", '"zzqq never closed')
    assert quote.code == 1 and quote.err.startswith("qry: note: a quote is never closed"), quote.describe()


def test_a_negated_filter_or_a_dash_led_quoted_query_is_read_as_the_query(qry: RunQry) -> None:
    """`qry search charge -path:tests/**` was read by Click as `-p ath:tests/**`, a path filter keeping
    only files matching `ath:tests/**` (the opposite of what was asked); then it was refused, and so
    was the quoted query `"-path:tests/** charge"`, with a hint to quote what was already quoted.
    Both are the query now, as after `--`."""
    after = qry("search", "--json", "--", "charge", "-path:python/**")
    assert after.code == 0, after.describe()
    paths = [hit["path"] for hit in json.loads(after.out)["results"]]
    assert paths and not any(p.startswith("python/") for p in paths), paths
    for line in (
        ("search", "charge", "-path:python/**", "--json"),
        ("search", "-path:python/** charge", "--json"),
    ):
        run = qry(*line)
        assert run.code == 0, run.describe()
        assert [hit["path"] for hit in json.loads(run.out)["results"]] == paths, line


def test_a_name_that_starts_with_a_dash_is_told_to_go_after_dash_dash(qry: RunQry) -> None:
    """Kotlin hides a class from Java as `-JsonUtf8Reader`; Click read `qry related -JsonUtf8Reader`
    as the unknown short option `-J` and the hint said only `see: qry related --help`."""
    related = qry("related", "-Gateway.charge")
    assert related.code == 2, related.describe()
    assert related.err.endswith(
        "hint: a name that starts with a dash goes after `--`: qry related -- -Gateway.charge\n"
    )
    search = qry("search", "-Gateway")
    assert "qry search -- '\"-Gateway\"' (quoted: in a query, -word excludes the word)" in search.err
    unknown = qry("search", "charge", "--no-such-option")
    assert unknown.err.endswith("hint: see: qry search --help\n"), unknown.describe()


def test_punctuation_alone_is_said_to_hold_nothing_to_search_for(qry: RunQry) -> None:
    """`qry search "("` exited 1 with nothing on stderr: the index's terms are words and names."""
    run = qry("search", "(")
    assert run.code == 1 and run.out == "", run.describe()
    assert "no result: '(' holds no word or name to search for (qry grep -F '(' finds it" in run.err, run.err
    assert "holds no word" not in qry("search", "zzqqxv").err  # a word no file holds: a plain miss


def test_a_quoted_phrase_no_text_holds_is_said(qry: RunQry) -> None:
    """A pasted title quoting words the code never holds in that order (`Retry "declined twice"
    charges`) finds nothing: stderr names the phrase, since the quotes, not the words, made it a miss."""
    words = qry("search", "retry declined charge twice")
    assert words.code == 0, words.describe()
    run = qry("search", 'retry "declined twice" charge')
    assert run.code == 1 and run.out == "", run.describe()
    assert run.err == (
        'qry: note: no result: no indexed text holds "declined twice" as written (quotes require the'
        " words in that order; without them, the words are searched)\n"
    )


def test_a_kind_filter_is_said_when_no_node_has_it_and_hides_no_definition(qry: RunQry) -> None:
    run = qry("search", "charge", "--kind", "type")
    assert run.code == 1 and run.out == "", run.describe()
    assert run.err.startswith("qry: note: no indexed node is kind:type (the index holds: chunk, class,"), (
        run.err
    )
    # A kind typed by another name is said as read, and as typed (`kind:property` is `field`).
    for typed in (["--kind", "alias"], ["charge kind:alias"]):
        aliased = qry("search", *(["charge"] if typed[0] == "--kind" else []), *typed)
        assert "no indexed node is kind:type, as kind:alias is read (the index holds:" in aliased.err, (
            aliased.describe()
        )
    # The definition exists, of another kind: no "no definition named" claim.
    other = qry("search", "retry_failed_charge", "--kind", "class")
    assert "no definition named" not in other.err, other.describe()


def test_related_and_graph_exit_codes(qry: RunQry) -> None:
    assert qry("related", "python/billing/gateway.py:Gateway.charge").code == 0
    # A definition with nothing of the kind asked for found nothing, as grep: exit 1 and a note.
    for args in ((), ("--json",)):
        none = qry("related", "python/billing/gateway.py:Gateway.charge", "--callees", *args)
        assert none.code == 1, none.describe()
        assert (
            '"related":[]' in none.out if args else "qry: note: no callees of Gateway.charge" in none.err
        ), none.describe()
    missing = qry("related", "no_such_symbol_anywhere")
    assert missing.code == 1 and "no definition named" in missing.err
    ambiguous = qry("related", "charge")
    assert ambiguous.code == 2 and "hint: qualify the name" in ambiguous.err
    assert qry("graph", "MATCH (f:function {name: 'charge'}) RETURN f.path").code == 0
    assert qry("graph", "MATCH (f:function {name: 'nope_nope'}) RETURN f.path").code == 1


# ---------------------------------------------------------------------------------------------
# 2: bad input, each on its own


@pytest.mark.parametrize("name", sorted(BAD_INPUT))
def test_bad_input_exits_two_with_error_and_hint(name: str, qry: RunQry) -> None:
    args, message = BAD_INPUT[name]
    run = qry(*args)
    assert run.code == 2, run.describe()
    lines = run.err.splitlines()
    assert lines[0].startswith("qry: error: ") and message in lines[0], run.describe()
    assert lines[1].startswith("  hint: ") and len(lines[1]) > len("  hint: "), run.describe()
    if "--json" not in args:
        assert run.out == "", "without --json, errors never go to stdout"
    assert_clean_stderr(run)


def test_missing_index_hints_qry_index(tmp_path: Path) -> None:
    run = run_qry_process("search", "charge", cwd=tmp_path)
    assert run.code == 2 and run.out == "", run.describe()
    assert run.err.startswith("qry: error: no qry index found in ")
    assert "hint: create one: qry index" in run.err
    for command in (("status",), ("roots",), ("verify",), ("related", "x"), ("graph", "MATCH (n) RETURN n")):
        other = run_qry_process(*command, cwd=tmp_path)
        assert other.code == 2 and "qry index" in other.err, other.describe()


def test_index_of_a_missing_folder(tmp_path: Path) -> None:
    run = run_qry_process("index", "/nonexistent/qry/repo", "--embed", "none", cwd=tmp_path)
    assert run.code == 2, run.describe()
    assert run.err.splitlines()[0] == "qry: error: /nonexistent/qry/repo does not exist"
    assert "hint: " in run.err
    assert_clean_stderr(run)
    as_json = run_qry_process("index", "/nonexistent/qry/repo", "--json", cwd=tmp_path)
    assert msgspec.json.decode(as_json.out)["isError"] is True


def test_index_of_a_file_is_refused_before_any_note(repo: Path, qry: RunQry) -> None:
    """`qry index FILE` inside an indexed repository noted "creating a new index FILE/.qry inside the
    index at ..." before it failed: the PATH is checked first, and the hint names a folder."""
    run = qry("index", "python/billing/gateway.py", "--embed", "none")
    target = (repo / "python" / "billing" / "gateway.py").resolve()
    assert run.code == 2 and run.out == "", run.describe()
    assert run.err == (
        f"qry: error: {target} is a file, not a folder\n"
        f"  hint: pass the folder of a repository: qry index {target.parent}\n"
    ), run.describe()


@pytest.mark.parametrize(
    "command", [("search", "charge"), ("status",), ("related", "charge"), ("grep", "charge")]
)
def test_a_file_as_index_dir_hints_at_the_index_not_at_a_new_one(
    command: tuple[str, ...], repo: Path, qry: RunQry
) -> None:
    """A read command never makes an index, so "pass a new or empty directory" (right for `qry
    index`) is no answer there: the hint names the index around the file."""
    run = qry(*command, "--index-dir", "python/billing/gateway.py")
    assert run.code == 2, run.describe()
    assert run.err == (
        "qry: error: python/billing/gateway.py is a file, not an index directory\n"
        f"  hint: pass --index-dir {(repo / '.qry').resolve()} (the index around that file), "
        "or leave --index-dir out\n"
    ), run.describe()


def test_index_dir_pointing_nowhere(tmp_path: Path) -> None:
    for run in (
        run_qry_process("search", "charge", "--index-dir", str(tmp_path / "none"), cwd=tmp_path),
        run_qry_process("search", "charge", cwd=tmp_path, env={"QRY_INDEX_DIR": str(tmp_path / "none")}),
    ):
        assert run.code == 2 and "hint: " in run.err, run.describe()
        assert_clean_stderr(run)


def test_an_index_built_from_the_folder_above_is_found_or_named(tmp_path: Path) -> None:
    """`qry index repo`, then `qry search` in the same folder: the error names the index below
    (the hint said "create one", the command just run), and `qry grep X repo` reads it."""
    (tmp_path / "repo").mkdir()
    (tmp_path / "repo" / "billing.py").write_text("def charge():\n    return 1\n")
    built = run_qry_process("index", "repo", "--embed", "none", cwd=tmp_path)
    assert built.code == 0, built.describe()
    search = run_qry_process("search", "charge", cwd=tmp_path)
    assert (
        search.code == 2
        and "hint: an index is in repo: run from there, or pass --index-dir repo" in search.err
    )
    grep = run_qry_process("grep", "charge", "repo", cwd=tmp_path)
    assert grep.code == 0 and grep.out == "repo/billing.py:1:def charge():\n", grep.describe()
    assert "scanning" not in grep.err, grep.describe()


def test_grep_refuses_a_named_index_dir_that_is_no_index_as_search_does(tmp_path: Path) -> None:
    """`qry grep X --index-dir /nonexistent` (or a file, an empty folder, the same in $QRY_INDEX_DIR)
    printed "no index found: scanning the tree" and exited 0: a named index must be one. Only with
    none named and no .qry above the working directory does grep scan (and say so once)."""
    (tmp_path / "a.py").write_text("charge = 1\n")
    (tmp_path / "afile").write_text("x\n")
    (tmp_path / "empty").mkdir()
    for named in ("none", "afile", "empty"):
        where = str(tmp_path / named)
        ways: list[tuple[tuple[str, ...], dict[str, str] | None]] = [
            (("--index-dir", where), None),
            ((), {"QRY_INDEX_DIR": where}),
        ]
        for args, env in ways:
            grep = run_qry_process("grep", "charge", *args, cwd=tmp_path, env=env)
            search = run_qry_process("search", "charge", *args, cwd=tmp_path, env=env)
            assert grep.code == 2 and grep.out == "", grep.describe()
            assert grep.err.startswith("qry: error: ") and "\n  hint: " in grep.err, grep.describe()
            assert grep.err == search.err, grep.describe() + search.describe()
            assert "scanning" not in grep.err
    scan = run_qry_process("grep", "charge", cwd=tmp_path)
    assert scan.code == 0 and scan.out == "a.py:1:charge = 1\n", scan.describe()
    assert scan.err.startswith("qry: no index found: scanning the tree"), scan.describe()


# Click parses everything except a plain `qry search`; its usage errors keep exit 2 and no traceback.
USAGE_ERRORS: tuple[tuple[str, ...], ...] = (
    ("search", "charge", "--top-k", "many"),
    ("search", "charge", "--no-such-option"),
    ("search",),
    ("no-such-command",),
    ("related",),
    ("index", ".", "--threads", "two"),
    (),
)


@pytest.mark.parametrize("args", USAGE_ERRORS, ids=lambda a: " ".join(a) or "no-args")
def test_usage_errors_exit_two_without_traceback(args: tuple[str, ...], qry: RunQry) -> None:
    run = qry(*args)
    assert run.code == 2, run.describe()
    assert_clean_stderr(run)


def test_usage_errors_follow_the_error_contract_too(qry: RunQry) -> None:
    run = qry("search", "charge", "--json", "--top-k", "many")
    assert run.code == 2
    assert run.err.startswith("qry: error: ")
    assert run.err.splitlines()[1] == "  hint: see: qry search --help"
    obj = msgspec.json.decode(run.out)
    assert obj["isError"] is True and obj["code"] == "usage"
    # --jsonl: the same object as the stream's one line, so a program reading records sees the error
    for args in (
        ("search", "charge", "--jsonl", "--top-k", "many"),  # refused by the option parser
        ("search", "charge", "--jsonl", "--top-k", "0"),  # refused by the request's bounds
        ("grep", "(unclosed", "--jsonl"),
    ):
        lines = qry(*args)
        assert lines.code == 2 and lines.err.startswith("qry: error: "), lines.describe()
        (line,) = lines.out.splitlines()
        assert msgspec.json.decode(line)["isError"] is True, line
    for args in (("search", "charge", "--no-such-option"), ("related",), ("no-such-command",)):
        other = qry(*args)
        assert other.code == 2 and other.err.startswith("qry: error: ") and "  hint: see: qry" in other.err
        assert other.out == "", "no --json: nothing on stdout"


# ---------------------------------------------------------------------------------------------
# closed pipes, Ctrl-C


def _closed_pipe(repo: Path, *args: str) -> tuple[int, str]:
    """Run qry with its stdout pipe closed before it writes anything; return (status, stderr)."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "cli", *args],
        cwd=repo,
        env=cli_env(),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()
    err = proc.stderr.read().decode()
    return proc.wait(timeout=120), err


@pytest.mark.parametrize(
    "args",
    [
        ("search", "charge"),  # the argparse fast path, plain
        ("search", "billing", "--jsonl", "-k", "200", "--snippet-chars", "4000"),  # > 64 KiB
        ("search", "billing", "--json", "-k", "200", "--snippet-chars", "4000", "--graph-depth", "4"),
        ("search", "charge", "--no-color", "--graph"),
        ("status",),  # through Typer
        ("graph", "MATCH (n) RETURN n.path, n.name LIMIT 500"),
    ],
    ids=lambda a: " ".join(a[:3]),
)
def test_closed_pipe_exits_quietly(args: tuple[str, ...], repo: Path) -> None:
    code, err = _closed_pipe(repo, *args)
    assert (code, err) == (0, "")


def test_head_one_in_a_shell_pipeline(repo: Path) -> None:
    script = f'{sys.executable} -m cli search billing --jsonl -k 200 --snippet-chars 4000 | head -1; echo "status ${{PIPESTATUS[0]}}"'
    proc = subprocess.run(
        ["bash", "-c", script], cwd=repo, env=cli_env(), capture_output=True, text=True, timeout=120
    )
    first, status = proc.stdout.splitlines()
    assert msgspec.json.decode(first)["path"]
    assert status == "status 0" and proc.stderr == ""


def test_closed_pipe_with_an_error_under_json(repo: Path) -> None:
    code, err = _closed_pipe(repo, "search", "charge", "--top-k", "0", "--json")
    assert code == 2 and "Traceback" not in err


def test_ctrl_c_exits_130() -> None:
    from cli.console import Env, Exit, guarded

    def interrupted() -> int:
        raise KeyboardInterrupt

    err = io.StringIO()
    env = Env(stdout=io.StringIO(), stderr=err, stdout_tty=False, stderr_tty=False, color=False)
    assert guarded(env, interrupted) == Exit.INTERRUPTED == 130
    assert err.getvalue() == "qry: interrupted\n"


def test_exit_enum_is_grep_contract() -> None:
    from cli.console import Exit

    assert (Exit.OK, Exit.NO_MATCH, Exit.ERROR, Exit.INTERRUPTED) == (0, 1, 2, 130)


# ---------------------------------------------------------------------------------------------
# finding the index


def test_search_from_a_subdirectory_walks_up(repo: Path, qry: RunQry) -> None:
    sub = qry("search", "parse_config", "-k", "1", cwd=repo / "python" / "billing")
    top = qry("search", "parse_config", "-k", "1")
    assert sub.code == 0 and top.out.startswith("python/billing/config.py:"), sub.describe()
    assert sub.out == top.out.replace("python/billing/", "", 1), "paths from the working folder, as rg's"


def test_qry_index_dir_environment_variable(repo: Path, qry: RunQry, tmp_path: Path) -> None:
    via_env = qry(
        "search", "parse_config", "-k", "1", cwd=tmp_path, env={"QRY_INDEX_DIR": str(repo / ".qry")}
    )
    assert via_env.code == 0 and via_env.out == qry("search", "parse_config", "-k", "1").out, (
        via_env.describe()
    )
    status = qry("status", "--json", cwd=tmp_path, env={"QRY_INDEX_DIR": str(repo / ".qry")})
    assert status.code == 0 and msgspec.json.decode(status.out)["files"] == 25


def test_index_dir_option_beats_the_environment(repo: Path, qry: RunQry, tmp_path: Path) -> None:
    env = {"QRY_INDEX_DIR": str(tmp_path / "not-an-index")}
    for args in (
        ("search", "parse_config", "-k", "1", "--index-dir", str(repo / ".qry")),
        ("status", "--index-dir", str(repo / ".qry")),
        ("related", "parse_config", "--index-dir", str(repo / ".qry")),
    ):
        run = qry(*args, cwd=tmp_path, env=env)
        assert run.code == 0, run.describe()


# ---------------------------------------------------------------------------------------------
# index / status / verify on a private copy


@pytest.fixture(scope="module")
def scratch(fixture_copy: Callable[[str], Path]) -> Path:
    return fixture_copy("polyglot")


def test_index_then_stale_status_then_reindex(scratch: Path) -> None:
    first = run_qry_process("index", ".", "--embed", "none", cwd=scratch)
    assert first.code == 0 and first.out == "", first.describe()
    assert first.err.startswith("indexed 25 files (25 new), ")
    again = run_qry_process("index", "--embed", "none", cwd=scratch)
    assert "(no changes)" in again.err and again.err.rstrip().endswith("(unchanged)"), again.describe()
    readme = scratch / "README.md"
    st = readme.stat()
    os.utime(readme, ns=(st.st_atime_ns, st.st_mtime_ns + 5_000_000_000))
    touched = run_qry_process("index", "--embed", "none", cwd=scratch)
    assert "(1 touched, content unchanged)" in touched.err, touched.describe()
    assert not touched.err.rstrip().endswith("(unchanged)"), touched.describe()  # the new mtime is recorded
    with (scratch / "python" / "billing" / "retry.py").open("a") as f:
        f.write("\n\ndef brand_new_helper():\n    return 1\n")
    status = run_qry_process("status", cwd=scratch)
    assert status.code == 0, status.describe()
    assert "qry: 1 file changed since this root; run `qry index` to refresh" in status.err
    assert "  modified python/billing/retry.py" in status.err
    stale = run_qry_process("search", "retry_failed_charge", "--lang", "python", "-k", "1", cwd=scratch)
    # One line per hit when piped (rg -n style): staleness is said on stderr; -C shows the [stale] tag.
    assert "1 result from files changed since the index" in stale.err, stale.describe()
    tagged = run_qry_process(
        "search", "retry_failed_charge", "--lang", "python", "-k", "1", "-C", "1", cwd=scratch
    )
    assert "[stale]" in tagged.out.splitlines()[0], tagged.describe()
    quiet = run_qry_process("index", "-q", "--embed", "none", cwd=scratch)
    assert quiet.code == 0 and quiet.err == "" and quiet.out == "", quiet.describe()
    found = run_qry_process("search", "brand_new_helper", "-k", "1", cwd=scratch)
    assert found.code == 0 and "brand_new_helper" in found.out.splitlines()[0]


def test_verify_reports_a_damaged_file(scratch: Path) -> None:
    if not (scratch / ".qry" / "HEAD").exists():
        assert run_qry_process("index", ".", "--embed", "none", "-q", cwd=scratch).code == 0
    ok = run_qry_process("verify", cwd=scratch)
    assert ok.code == 0 and ok.err == "ok: every file matches its checksum\n", ok.describe()
    victim = max(
        (p for p in (scratch / ".qry" / "segments").rglob("*") if p.is_file()), key=lambda p: p.stat().st_size
    )
    data = bytearray(victim.read_bytes())
    data[len(data) // 2] ^= 0xFF
    victim.write_bytes(bytes(data))
    bad = run_qry_process("verify", cwd=scratch)
    assert bad.code == 2, bad.describe()
    assert "hint: rebuild the index: qry index --rebuild" in bad.err
    assert_clean_stderr(bad)


def test_index_honours_qry_index_dir(fixture_copy: Callable[[str], Path], tmp_path: Path) -> None:
    repo = fixture_copy("polyglot")
    elsewhere = tmp_path / "elsewhere"
    env = {"QRY_INDEX_DIR": str(elsewhere)}
    built = run_qry_process("index", str(repo), "--embed", "none", "-q", cwd=tmp_path, env=env)
    assert built.code == 0, built.describe()
    assert (elsewhere / "HEAD").is_file() and not (repo / ".qry").exists()
    found = run_qry_process("search", "parse_config", "-k", "1", cwd=tmp_path, env=env)
    assert found.code == 0 and found.out.startswith("python/billing/config.py:"), found.describe()


def test_a_query_starting_with_a_dash_goes_after_double_dash(qry: RunQry) -> None:
    run = qry("search", "-k", "1", "--", "-> Result<")
    assert run.code == 0 and run.out.startswith("rust/src/"), run.describe()


def test_status_lists_the_files_the_index_left_out_and_why(tmp_path: Path) -> None:
    (tmp_path / "app.py").write_text("def main():\n    return 1\n")
    (tmp_path / "big.py").write_text("x = 1\n" * 400)
    (tmp_path / "logo.png").write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(64))
    (tmp_path / "node_modules" / "dep").mkdir(parents=True)
    (tmp_path / "node_modules" / "dep" / "index.js").write_text("module.exports = 1\n")
    first = run_qry_process("index", ".", "--embed", "none", "--max-file-bytes", "1000", cwd=tmp_path)
    assert first.code == 0, first.describe()
    again = run_qry_process("index", "--embed", "none", "--max-file-bytes", "1000", cwd=tmp_path)
    assert again.err.rstrip().endswith("(unchanged)"), again.describe()  # the same skips: the same root
    listed = run_qry_process("status", "--skipped", cwd=tmp_path)
    assert listed.code == 0, listed.describe()
    rows = {line.split("\t")[0]: line.split("\t")[1:] for line in listed.out.splitlines()}
    assert rows["big.py"][0] == "too_large" and "1000" in rows["big.py"][1], rows
    assert rows["logo.png"][0] == "unsupported" and rows["node_modules"][0] == "vendored", rows
    assert "app.py" not in rows
    as_json = run_qry_process("status", "--skipped", "--json", cwd=tmp_path)
    assert {f["path"] for f in json.loads(as_json.out)} == set(rows), as_json.describe()


def test_search_from_a_subfolder_prints_paths_from_there_as_rg_does(tmp_path: Path) -> None:
    (tmp_path / "lib" / "app").mkdir(parents=True)
    (tmp_path / "lib" / "app" / "base.py").write_text("def process_route(pattern):\n    return pattern\n")
    (tmp_path / "tools").mkdir()
    (tmp_path / "tools" / "run.py").write_text(
        "from lib.app.base import process_route\n\nprocess_route('x')\n"
    )
    assert run_qry_process("index", ".", "--embed", "none", cwd=tmp_path).code == 0
    sub = tmp_path / "lib" / "app"
    files = run_qry_process("search", "process_route", "-l", cwd=sub)
    assert files.out.splitlines() == ["base.py", "../../tools/run.py"], files.describe()
    assert all((sub / p).is_file() for p in files.out.splitlines())
    plain = run_qry_process("search", "process_route", "-k", "1", cwd=sub)
    assert plain.out.startswith("base.py:1: process_route"), plain.describe()
    as_json = run_qry_process("search", "process_route", "-k", "1", "--json", cwd=sub)
    assert json.loads(as_json.out)["results"][0]["path"] == "lib/app/base.py"  # programs: the index's path
