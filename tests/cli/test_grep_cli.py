"""`qry grep` as a process: output like `rg -n`, exit codes, JSON schema, colour, pipes, imports, files."""

from __future__ import annotations

import io
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import msgspec
import pytest

from cli.console import Env
from cli.grepcmd import grep_command, parse_grep_args
from indexlib.grep.files import FileFilter, walk
from indexlib.grep.records import GrepLine, GrepResult
from tests.cli.clikit import RunQry, cli_env, run_qry_process
from tests.cli.test_help import _modules_after
from tests.tools import ripgrep

RG = ripgrep()
needs_rg = pytest.mark.skipif(RG is None, reason="ripgrep (rg) is not installed")


def _rg(repo: Path, *args: str) -> str:
    assert RG is not None
    files = [s.path for s in walk(repo, FileFilter())]
    run = subprocess.run(
        [RG, "--no-config", "--sort", "path", "-n", "--no-heading", "--with-filename", *args, "--", *files],
        cwd=repo,
        capture_output=True,
        text=True,
        check=False,
    )
    return run.stdout


@needs_rg
@pytest.mark.parametrize(
    "args",
    [
        ("charge",),
        ("-i", "RETRY"),
        ("-w", "charge"),
        ("-l", "charge"),
        ("-c", "charge"),
        ("-A1", "-B2", "retry"),
        ("-C", "1", "def "),
        ("-F", "()"),
        ("-m", "1", "charge"),
        ("-S", "Charge"),
    ],
)
def test_output_equals_ripgrep(qry: RunQry, repo: Path, args: tuple[str, ...]) -> None:
    run = qry("grep", *args)
    expected = _rg(repo, *args)
    assert run.code == (0 if expected else 1), run.describe()
    assert run.out == expected, run.describe()


def test_exit_codes_and_errors(qry: RunQry) -> None:
    assert qry("grep", "zzqqxx_never").code == 1
    bad = qry("grep", "a(")
    assert (
        bad.code == 2 and bad.err.startswith("qry: error: invalid regular expression") and "hint:" in bad.err
    )
    assert "Traceback" not in bad.err
    missing = qry("grep", "x", "no/such/dir")
    assert missing.code == 2 and missing.err.splitlines()[0] == "qry: no/such/dir: No such file or directory"
    assert qry("grep", "x", "--json", "--jsonl").code == 2
    assert qry("grep", "x", "lang:cobol").code == 2


@needs_rg
@pytest.mark.parametrize(
    ("glob", "why"),
    [
        ("[", "unclosed character class; missing ']'"),
        ("[z-a]", "invalid range; 'z' > 'a'"),
        ("a\\", "dangling '\\'"),
        ("a{b", "unclosed alternate group; missing '}'"),
        ("*.{py,md", "unclosed alternate group; missing '}'"),
        ("x}y.py", "unopened alternate group; missing '{'"),
    ],
)
def test_an_invalid_glob_exits_two_naming_it_as_ripgrep_does(tmp_path: Path, glob: str, why: str) -> None:
    """`qry grep hello -g '['` printed nothing and exited 1 (`[z-a]` and `a\\` ended in a traceback);
    rg says `error parsing glob '[': unclosed character class; missing ']'` and exits 2."""
    assert RG is not None
    (tmp_path / "a.py").write_text("hello\n")
    rg = subprocess.run(
        [RG, "--no-config", "hello", "-g", glob], cwd=tmp_path, capture_output=True, text=True, check=False
    )
    run = run_qry_process("grep", "hello", "-g", glob, cwd=tmp_path)
    assert (rg.returncode, rg.stdout) == (run.code, run.out) == (2, ""), run.describe()
    assert rg.stderr.startswith(f"rg: error parsing glob '{glob}': {why}"), rg.stderr
    assert run.err.splitlines()[0] == f"qry: error: invalid path glob {glob!r}: {why}", run.describe()
    assert run.err.splitlines()[1].startswith("  hint: ") and len(run.err.splitlines()) == 2


@needs_rg
@pytest.mark.parametrize(
    "globs",
    [
        ("*.{toml,md}",),
        ("{Cargo.toml,README.md}",),
        ("src/**/*.{py,pyi}",),
        ("a{b,{c,}}.py",),
        ("{src/**,b.md}",),
        ("!*.{py,toml}",),
        ("*.{py,md}", "!{b,c}.*"),
        ("\\{a\\}.py",),
        ("[{]a[}].py",),
        ("!{src/,sub/}",),
    ],
    ids=" ".join,
)
def test_brace_globs_match_what_ripgrep_matches(tmp_path: Path, globs: tuple[str, ...]) -> None:
    """`qry grep -l version -g '*.{toml,md}'` matched nothing (exit 1): `{a,b}` was read as literal
    text, where rg reads alternatives, nested ones too. With and without an index."""
    for rel in (
        "Cargo.toml", "README.md", "a.py", "ab.py", "ac.py", "b.md", "c.py", "{a}.py",
        "sub/b.md", "sub/Cargo.toml", "src/q/z.pyi", "src/q/y.py", "src/x.txt",
    ):  # fmt: skip
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text("version = 1\n")
    args = ["-l", "version"] + [a for g in globs for a in ("-g", g)]
    rg, qry = _side_by_side(tmp_path, [], *args)
    rg = (rg[0], "".join(sorted(rg[1].splitlines(keepends=True))), [])  # rg's "no files searched" note
    assert (qry[0], "".join(sorted(qry[1].splitlines(keepends=True))), qry[2]) == rg, (rg, qry)
    assert run_qry_process("index", "--embed", "none", "-q", ".", cwd=tmp_path).code == 0
    indexed = run_qry_process("grep", *args, cwd=tmp_path)
    assert (indexed.code, "".join(sorted(indexed.out.splitlines(keepends=True)))) == rg[:2], (
        indexed.describe()
    )


@needs_rg
@pytest.mark.parametrize("in_git", [True, False], ids=["git", "no-git"])
@pytest.mark.parametrize("extra", [(), ("--no-ignore",), ("--hidden",)], ids=" ".join)
def test_ignore_and_rgignore_files_as_ripgrep_reads_them(
    tmp_path: Path, in_git: bool, extra: tuple[str, ...]
) -> None:
    """rg honours `.ignore` and `.rgignore` (in or outside a git repository, over `.gitignore`);
    qry read neither: ripgrep's own `.ignore` (`!/.github/`) left its workflows out of qry's answer,
    and a path a `.ignore` excluded stayed in. With and without an index."""
    if in_git:
        subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
        (tmp_path / "sub").mkdir()
        (tmp_path / "sub" / ".gitignore").write_text("!a.py\n")
    (tmp_path / ".ignore").write_text("a.py\nplain.py\n!/.github/\n")
    (tmp_path / ".rgignore").write_text("!b.py\nrg_only.py\n")
    for rel in (
        "sub/a.py",
        "sub/b.py",
        "plain.py",
        "rg_only.py",
        "kept.py",
        ".github/ci.yml",
        ".github/.h.yml",
        "sub/.ignore",
    ):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text("needle = 1\n" if rel != "sub/.ignore" else "b.py\n")
    args = ("-l", "needle", *extra)
    rg, qry = _side_by_side(tmp_path, [], *args)
    assert qry == rg, (rg, qry)
    assert run_qry_process("index", "--embed", "none", "-q", ".", cwd=tmp_path).code == 0
    for _ in range(2):  # the second run may read the walk cache
        assert _side_by_side(tmp_path, [], *args)[1] == rg


@needs_rg
def test_an_edit_that_keeps_size_and_mtime_is_seen(tmp_path: Path) -> None:
    """An edit that restores the file's size and mtime (`cp -p`, `touch -r`, `rsync -a`) was not
    seen: the walk cache and the index both compared only size and mtime, so the grep trusted the
    index's old n-grams (exit 1) where rg finds the new line. The ctime tells, as in git's checkStat."""
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    src = tmp_path / "globals.py"
    src.write_text("def current():\n    return 1\n")
    assert run_qry_process("index", "--embed", "none", "-q", ".", cwd=tmp_path).code == 0
    assert run_qry_process("grep", "-l", "QQQQ", cwd=tmp_path).code == 1  # saves the walk cache
    before = src.stat()
    src.write_text("def QQQQQQQ():\n    return 1\n")
    os.utime(src, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert (src.stat().st_size, src.stat().st_mtime_ns) == (before.st_size, before.st_mtime_ns)
    rg, qry = _side_by_side(tmp_path, [], "QQQQ")
    assert rg == (0, "globals.py:1:def QQQQQQQ():\n", []) and qry == rg, (rg, qry)
    assert _side_by_side(tmp_path, [], "QQQQ")[1] == rg


@needs_rg
def test_an_in_place_edit_of_the_roots_git_info_exclude_is_seen(tmp_path: Path) -> None:
    """Rewriting the root's own `.git/info/exclude` never reached the grep walk cache (no folder it
    records changes): `qry grep -l ctx` kept listing the newly excluded files, run after run."""
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    (tmp_path / "a.md").write_text("ctx\n")
    (tmp_path / "b.py").write_text("ctx = 1\n")
    exclude = tmp_path / ".git" / "info" / "exclude"
    exclude.write_text("")
    assert run_qry_process("index", "--embed", "none", "-q", ".", cwd=tmp_path).code == 0
    for text in ("*.md\n", "", "*.py\n"):
        exclude.write_text(text)
        rg = _side_by_side(tmp_path, [], "-l", "ctx")[0]
        for _ in range(2):  # the second run may read the walk cache
            assert _side_by_side(tmp_path, [], "-l", "ctx")[1] == rg, text


@pytest.fixture
def paths_tree(tmp_path: Path) -> Path:
    """src/b.py, src/sub/a.py, other/c.py, m.txt (matches on lines 1, 3, 4, 8), in a git repository."""
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    for rel in ("src/b.py", "src/sub/a.py", "other/c.py"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text("hi = 1\n")
    (tmp_path / "m.txt").write_text("a1\nx\na3\na4\nx\nx\nx\na8\n")
    return tmp_path


@needs_rg
@pytest.mark.parametrize(
    ("where", "args"),
    [
        ("", ("-l", "hi", "./src")),
        ("", ("-l", "hi", "./src/")),
        ("", ("-l", "hi", "src//")),
        ("", ("-l", "hi", ".")),
        ("", ("-l", "hi", "ABS/src")),
        ("", ("-l", "hi", "ABS/src/b.py")),
        ("", ("hi", "./src/b.py", "other")),
        ("src/sub", ("-l", "hi", "..")),
        ("src/sub", ("-l", "hi", "../../other")),
        ("src/sub", ("hi", "../b.py", "a.py")),
        ("", ("hi", "src/b.py", "./src/b.py", "src/b.py")),
        ("", ("hi", "src", "src/b.py")),
        ("", ("-m1", "-A3", "a", "m.txt")),
        ("", ("-m2", "-A2", "a", "m.txt", "m.txt")),
        ("", ("-c", "-m1", "-A3", "a", "m.txt")),
        ("", ("-m1", "-A2", "--json", "a", "m.txt")),
        ("", ("", "/dev/null")),
        ("", ("hi", "/dev/null", "src/b.py")),
    ],
    ids=lambda v: " ".join(v) if isinstance(v, tuple) else v or ".",
)
def test_paths_are_printed_as_given_and_per_argument_as_ripgrep_does(
    paths_tree: Path, where: str, args: tuple[str, ...]
) -> None:
    """rg prints `./src/b.py` for `./src`, the absolute path for an absolute PATH, `../b.py` for
    `..`; qry printed `src/b.py`, relative, or absolute for `..`. A file named twice was printed once
    (rg: once per argument). `-m 1 -A 3` printed a matching line of the trailing context as context
    (`m.txt-3-a3`; rg: `3:a3`, and counts it). `qry grep '' /dev/null` said "/dev/null is not a
    directory" with an indexing hint (exit 2); rg reads it: no match, exit 1. With and without an index.
    `--json` is compared by its lines' (line, match) pairs, the rest byte for byte."""
    args = tuple(a.replace("ABS", str(paths_tree)) for a in args)
    cwd = paths_tree / where

    def comparable(side: tuple[int, str, list[str]]) -> tuple[int, object, list[str]]:
        if "--json" not in args:
            return side
        if side[1].startswith('{"pattern"'):  # qry's one object
            pairs = [(ln["line"], ln["match"]) for ln in msgspec.json.decode(side[1])["lines"]]
        else:  # rg's stream of messages
            msgs = [msgspec.json.decode(x) for x in side[1].splitlines()]
            pairs = [
                (m["data"]["line_number"], m["type"] == "match")
                for m in msgs
                if m["type"] in ("match", "context")
            ]
        return side[0], pairs, side[2]

    rg, qry = _side_by_side(cwd, [], *args)
    assert comparable(qry) == comparable(rg), (rg, qry)
    assert run_qry_process("index", "--embed", "none", "-q", ".", cwd=paths_tree).code == 0
    for _ in range(2):
        assert comparable(_side_by_side(cwd, [], *args)[1]) == comparable(rg)


@needs_rg
@pytest.mark.parametrize("extra", [(), ("--hidden",), ("-c",), ("-l", "--no-ignore")], ids=" ".join)
def test_text_files_of_types_qry_does_not_parse_are_searched_as_ripgrep_does(
    tmp_path: Path, extra: tuple[str, ...]
) -> None:
    """grep skipped every file no language claims (UNLICENSE, *.csv, *.1, *.help, *.svg; ripgrep's
    own tree: 42 files for `-l -i binary` where rg finds 63), in silence, because the index skips
    them as unsupported; rg searches every text file. Binary ones stay out, as in rg. With and
    without an index, and after one is edited (it is never in the n-gram index)."""
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    for rel, text in (
        ("UNLICENSE", "binary\n"),
        ("runs/raw.csv", "a,binary\n"),
        ("doc/rg.1", ".TH binary\n"),
        ("doc/long.help", "binary help\n"),
        ("img.svg", "<svg>binary</svg>\n"),
        ("code.py", "binary = 1\n"),
        ("sub/.ignore", "binary.tmp\n"),
    ):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    (tmp_path / "blob.dat").write_bytes(b"binary\0\x01\x02\n")
    args = ("binary", *extra)
    rg, qry = _side_by_side(tmp_path, [], *args)
    assert qry == rg and rg[1].count("\n") >= 6, (rg, qry)
    assert run_qry_process("index", "--embed", "none", "-q", ".", cwd=tmp_path).code == 0
    for _ in range(2):  # the second run may read the walk cache
        assert _side_by_side(tmp_path, [], *args)[1] == rg
    with (tmp_path / "runs" / "raw.csv").open("a") as fh:
        fh.write("b,binary\n")
    rg = _side_by_side(tmp_path, [], *args)[0]
    assert _side_by_side(tmp_path, [], *args)[1] == rg


@needs_rg
def test_files_come_in_ripgreps_path_order(tmp_path: Path) -> None:
    """rg --sort path orders by path components: `rack/protection/base.rb` before `rack/protection.rb`
    (code-point order of whole paths, the index's, puts `.` before `/`). Without and with an index
    (the walk cache keeps the order)."""
    for rel in (
        "rack/protection.rb",
        "rack/protection/base.rb",
        "rack/protection-x.rb",
        "rack/protection0.rb",
    ):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text("def call\n")
    rg, qry = _side_by_side(tmp_path, [], "def")
    assert qry == rg and rg[1].index("protection/base.rb") < rg[1].index("protection.rb:"), (rg, qry)
    assert run_qry_process("index", "--embed", "none", "-q", ".", cwd=tmp_path).code == 0
    for _ in range(2):  # the second run reads the walk cache
        assert _side_by_side(tmp_path, [], "def")[1] == rg


def test_help_names_values_as_ripgrep_does(qry: RunQry) -> None:
    """The help showed typer's type names: `-A, --after-context <int>`, `-g, --glob <list[str]>`,
    `--index-dir <str>`, and the usage `qry grep [OPTIONS] pattern paths`."""
    run = qry("grep", "--help")
    assert run.code == 0 and run.out.startswith("Usage: qry grep [OPTIONS] PATTERN [PATH]...\n"), run.out
    rows = {line.strip().split("  ")[0] for line in run.out.splitlines() if line.startswith("  -")}
    for row in (
        "-A, --after-context NUM",
        "-B, --before-context NUM",
        "-C, --context NUM",
        "-m, --max-count NUM",
        "-g, --glob GLOB",
        "--index-dir DIR",
    ):
        assert row in rows, (row, rows)
    assert not re.search(r"<\w", run.out), run.out


def test_json_and_jsonl_decode_with_the_library_structs(qry: RunQry) -> None:
    run = qry("grep", "charge", "--json")
    result = msgspec.json.decode(run.out, type=GrepResult, strict=True)
    assert run.code == 0 and result.lines and result.summary.index_used
    assert all("charge" in ln.text[s:e] for ln in result.lines for s, e in ln.submatches)
    lines = qry("grep", "charge", "--jsonl").out.splitlines()
    assert [msgspec.json.decode(x, type=GrepLine, strict=True) for x in lines] == result.lines


def test_filters_and_globs(qry: RunQry) -> None:
    go = qry("grep", "-l", "func", "lang:go").out.split()
    assert go and all(p.endswith(".go") for p in go)
    py = qry("grep", "-l", "def", "-g", "*.py").out.split()
    assert py and all(p.endswith(".py") for p in py)
    assert not set(qry("grep", "-l", "def", "-g", "!*.py").out.split()) & set(py)
    under = qry("grep", "-l", "def", "path:python/**").out.split()
    assert under and all(p.startswith("python/") for p in under)


def test_colour_on_a_terminal_only(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(repo)
    parsed = parse_grep_args(["charge"])
    assert parsed is not None
    for tty, color, want in ((True, True, True), (True, False, False), (False, True, False)):
        out = io.StringIO()
        grep_command(Env(stdout=out, stderr=io.StringIO(), stdout_tty=tty, color=color), *parsed)
        assert ("\x1b[1;31mcharge\x1b[0m" in out.getvalue()) is want, (tty, color)
    out = io.StringIO()
    grep_command(
        Env(stdout=out, stderr=io.StringIO(), stdout_tty=True, color=True),
        "charge",
        [],
        {**parsed[2], "no_color": True},
    )
    assert "\x1b[" not in out.getvalue()


def test_a_closed_pipe_exits_quietly(repo: Path) -> None:
    proc = subprocess.run(
        f"{sys.executable} -m cli grep -C2 e | head -1; exit ${{PIPESTATUS[0]}}",
        shell=True,
        executable="/bin/bash",
        cwd=repo,
        env=cli_env(),
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0 and proc.stderr == "" and proc.stdout.count("\n") == 1, proc


def test_grep_skips_typer_rich_and_the_model(repo: Path) -> None:
    loaded = set(_modules_after(["grep", "charge"], repo))
    assert "tantivy" in loaded, "the index was used"
    assert not loaded & {"typer", "click", "rich", "numpy", "onnxruntime", "usearch"}, loaded


def test_without_an_index_grep_scans_and_says_so_once(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("needle = 1\n")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "b.py").write_text("x\nneedle()\n")
    run = run_qry_process("grep", "needle", cwd=tmp_path)
    assert run.code == 0 and run.out == "a.py:1:needle = 1\nsub/b.py:2:needle()\n", run.describe()
    assert run.err.count("qry: no index found") == 1 and run.err.count("\n") == 1
    one = run_qry_process("grep", "needle", "sub/b.py", cwd=tmp_path)
    assert one.out == "2:needle()\n", one.describe()  # one file named: no path, as rg does


def test_hidden_and_no_ignore_have_ripgreps_meaning(tmp_path: Path) -> None:
    (tmp_path / ".gitignore").write_text("ignored.py\n")
    (tmp_path / "ignored.py").write_text("needle\n")
    (tmp_path / ".hidden").mkdir()
    (tmp_path / ".hidden" / "h.py").write_text("needle\n")
    (tmp_path / "seen.py").write_text("needle\n")
    (tmp_path / "node_modules").mkdir()
    (tmp_path / "node_modules" / "v.js").write_text("needle\n")
    (tmp_path / "bin.py").write_bytes(b"needle\0\n")

    def paths(*args: str) -> list[str]:
        return run_qry_process("grep", "-l", "needle", *args, cwd=tmp_path).out.split()

    assert paths() == ["seen.py"]
    assert paths("--hidden") == [".hidden/h.py", "seen.py"]
    assert paths("--no-ignore") == ["ignored.py", "seen.py"]
    assert paths("--hidden", "--no-ignore") == [".hidden/h.py", "ignored.py", "seen.py"]


def test_a_folder_named_on_the_command_line_is_searched_even_where_the_walk_skips_it(tmp_path: Path) -> None:
    # As rg does, and as a scan without the index does: the folder is searched as its own root, so
    # the index (which never holds it) and --no-index give the same answer. In a repository, so a
    # subfolder scanned as its own root is known not to be the top of the tree.
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    (tmp_path / ".gitignore").write_text("logs/\n")
    for rel in ("src/a.py", "node_modules/lib/v.js", "logs/today/run.py", "build/gen.py", "src/build/b.py"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text("needle = 1\n")
    built = run_qry_process("index", "--embed", "none", ".", cwd=tmp_path)
    assert built.code == 0, built.describe()

    def paths(*args: str) -> list[str]:
        run = run_qry_process("grep", "-l", "needle", *args, cwd=tmp_path)
        assert run.code in (0, 1), run.describe()
        return run.out.split()

    # The walk keeps src/build (a source package), skips the top-level build output.
    assert paths() == ["src/a.py", "src/build/b.py"]
    for folder, expected in (
        ("node_modules/lib", ["node_modules/lib/v.js"]),
        ("logs", ["logs/today/run.py"]),
        ("logs/today", ["logs/today/run.py"]),
        ("build", ["build/gen.py"]),
        ("src", ["src/a.py", "src/build/b.py"]),
    ):
        assert paths(folder) == expected, folder
        assert paths("--no-index", folder) == expected, folder


def _side_by_side(cwd: Path, prefix: list[str], *args: str) -> tuple[tuple[int, str, list[str]], ...]:
    """(exit status, stdout, sorted stderr lines) of `rg -n ARGS` and of `qry grep ARGS`, with what
    differs by design made equal: the program name, rg's `(os error N)` (and `IO error for operation
    on PATH` when it is the only PATH), the `./` rg puts before an error path under the working
    directory, qry's note that it scans without an index. `prefix` runs both without privileges."""
    assert RG is not None
    rg = subprocess.run(
        [*prefix, RG, "--no-config", "--sort", "path", "-n", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        check=False,
    )
    qry = subprocess.run(
        [*prefix, sys.executable, "-m", "cli", "grep", *args],
        cwd=cwd,
        env=cli_env(),
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        check=False,
    )
    os_error = re.compile(r"^rg: (?:\./)?(.*?)(?:: IO error for operation on .*?)?: (.*) \(os error \d+\)$")
    rg_err = [os_error.sub(r"\1: \2", line) for line in rg.stderr.splitlines()]
    qry_err = [
        line.removeprefix("qry: ") for line in qry.stderr.splitlines() if "scanning the tree" not in line
    ]
    return (rg.returncode, rg.stdout, sorted(rg_err)), (qry.returncode, qry.stdout, sorted(qry_err))


@needs_rg
@pytest.mark.parametrize(
    "args",
    [
        ("hi", "nosuch"),
        ("hi", "good.py", "nosuch"),
        ("hi", "nosuch", "good.py"),
        ("zzz", "good.py", "nosuch"),
        ("hi", "good.py/x"),
        ("hi", "sub", "no/such/dir"),
    ],
    ids=" ".join,
)
def test_a_missing_path_is_reported_and_the_rest_searched_as_ripgrep_does(
    tmp_path: Path, args: tuple[str, ...]
) -> None:
    """`qry grep hi good.py nosuch` stopped at `nosuch` with a usage error and searched nothing. rg
    prints `rg: nosuch: No such file or directory (os error 2)`, searches the others and exits 2,
    matches or not; qry prints `qry: nosuch: No such file or directory` and does the same."""
    (tmp_path / "good.py").write_text("hi = 1\n")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "y.py").write_text("hi = 2\n")
    rg, qry = _side_by_side(tmp_path, [], *args)
    assert qry == rg and qry[0] == 2 and qry[2], (rg, qry)


@needs_rg
@pytest.mark.parametrize(
    "args", [("hi", "link.py"), ("hi", "link.py", "good.py"), ("hi", "broken.py")], ids=" ".join
)
def test_a_link_named_as_a_path_is_followed_as_ripgrep_does(tmp_path: Path, args: tuple[str, ...]) -> None:
    """A named link was opened without following it (ELOOP) and skipped in silence (exit 1); with the
    report of refused files it would have said "Too many levels of symbolic links". rg follows it."""
    (tmp_path / "good.py").write_text("hi = 1\n")
    (tmp_path / "link.py").symlink_to("good.py")
    (tmp_path / "broken.py").symlink_to("nowhere.py")
    rg, qry = _side_by_side(tmp_path, [], *args)
    assert qry == rg, (rg, qry)


_DROP = ["setpriv", "--bounding-set=-dac_override,-dac_read_search"]


def _unprivileged(probe: Path) -> list[str]:
    """A command prefix under which the mode-000 `probe` cannot be read: none for a user; for root,
    which reads anything, setpriv without the two capabilities that bypass permission checks.
    Skips the test when neither works (no setpriv, or a sandbox that refuses it)."""
    if os.geteuid() != 0:
        return []
    if shutil.which("setpriv") is not None:
        run = subprocess.run([*_DROP, "cat", str(probe)], capture_output=True, check=False)
        if run.returncode != 0 and b"Permission denied" in run.stderr:
            return _DROP
    pytest.skip("running as root, and setpriv cannot drop CAP_DAC_OVERRIDE here")


@pytest.fixture
def locked_tree(tmp_path: Path) -> Iterator[Path]:
    """good.py, sub/y.py, a folder `locked/` and a file `unread.py` of mode 000, `.hidden/` of mode
    000 too (rg does not look there without --hidden), all holding `hi`; modes restored after."""
    for rel in ("good.py", "sub/y.py", "locked/x.py", "unread.py", ".hidden/z.py"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(f"hi = {len(rel)}\n")
    refused = [tmp_path / "locked", tmp_path / "unread.py", tmp_path / ".hidden"]
    for p in refused:
        p.chmod(0)
    yield tmp_path
    for p in refused:
        p.chmod(0o755)


@needs_rg
@pytest.mark.parametrize(
    "args",
    [
        ("hi",),
        ("hi", "locked"),
        ("zzz", "locked"),
        ("hi", "unread.py"),
        ("hi", "good.py", "locked", "unread.py"),
        ("hi", "sub"),
        ("hi", "-g", "!locked/"),
        ("hi", "-g", "*.py"),
    ],
    ids=" ".join,
)
def test_unreadable_paths_are_reported_as_ripgrep_reports_them(
    locked_tree: Path, args: tuple[str, ...]
) -> None:
    """rg prints `rg: locked: Permission denied (os error 13)` for a folder it may not list or a
    file it may not read, named or met on the walk, searches the rest and exits 2; qry skipped them
    in silence (exit 0 or 1). Without an index and then with one (its walk starts at the index's
    root, and its walk cache must not hide the folder once it can be read again)."""
    prefix = _unprivileged(locked_tree / "unread.py")
    rg, qry = _side_by_side(locked_tree, prefix, *args)
    assert qry == rg, (rg, qry)
    built = run_qry_process("index", "--embed", "none", "-q", ".", cwd=locked_tree)
    assert built.code == 0, built.describe()
    for _ in range(2):  # the second run may read the walk cache
        assert _side_by_side(locked_tree, prefix, *args)[1] == rg
    (locked_tree / "locked").chmod(0o755)
    again = subprocess.run(
        [*prefix, sys.executable, "-m", "cli", "grep", "-l", "hi"],
        cwd=locked_tree,
        env=cli_env(),
        capture_output=True,
        text=True,
        check=False,
    )
    assert "locked/x.py" in again.stdout.split(), again
