"""`qry grep` searches every file `rg -n` searches, and prints what rg prints for it.

Regressions found by new users, each checked against the exact output of ripgrep 15.2 (written out
here, so the tests need no rg): files the index skips (over 1 MiB, not UTF-8, a 2 MB line, lock and
`*.min.js` files) were missed in silence, even with `--no-index` or named on the command line;
binary files follow rg's rules; `-g` globs re-include hidden and ignored files as rg's do; `-e`.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.cli.clikit import cli_env, run_qry_process

LINE = "int f12345(void) { return 1; }\n"
REPRO = (
    "huge.c:61291:int f59999(void) { return 1; }\n"
    "latin1.c:2:int latinFunc(void);\n"
    "longline.js:2:function afterLong() {}\n"
)
PATTERN = r"f59999\b|latinFunc|afterLong"


def _repro(root: Path) -> None:
    """The tree of the report: 1.9 MB of C (over the index's 1 MiB bound), a C file with one Latin-1
    byte (skipped as `encoding`), a JS file with a 2 MB line (skipped as `minified`)."""
    root.mkdir(exist_ok=True)
    (root / "huge.c").write_text(LINE * (1_900_000 // len(LINE)) + "int f59999(void) { return 1; }\n")
    (root / "latin1.c").write_bytes(b"/* caf\xe9 */\nint latinFunc(void);\n")
    (root / "longline.js").write_text("var x = '" + "a" * 2_000_000 + "';\nfunction afterLong() {}\n")


def _qry_bytes(*args: str, cwd: Path) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-P", "-m", "cli", *args],
        cwd=cwd,
        env=cli_env(),
        stdin=subprocess.DEVNULL,
        capture_output=True,
        timeout=120,
    )


def test_files_the_index_skips_are_searched_with_and_without_it(tmp_path: Path) -> None:
    """Before: no line at all (exit 1) where rg prints three, with the index, with `--no-index`, and
    with the files named."""
    root = tmp_path / "grepaud"
    _repro(root)
    scan = run_qry_process("grep", PATTERN, cwd=root)
    assert (scan.code, scan.out) == (0, REPRO), scan.describe()
    assert "warning" not in scan.err, scan.describe()
    assert run_qry_process("index", ".", "--embed", "none", "-q", cwd=root).code == 0
    for args in ((), ("--no-index",), ("huge.c", "latin1.c", "longline.js")):
        for _ in range(2):  # the second run reads the saved walk
            run = run_qry_process("grep", PATTERN, *args, cwd=root)
            assert (run.code, run.out, run.err) == (0, REPRO, ""), run.describe()
    one = run_qry_process("grep", "-c", "f12345", "huge.c", cwd=root)
    assert one.out == "61290\n", one.describe()


def test_lock_and_minified_files_are_searched_as_rg_searches_them(tmp_path: Path) -> None:
    (tmp_path / "yarn.lock").write_text("needle@1.0.0:\n")
    (tmp_path / "app.min.js").write_text("var needle=1;\n")
    (tmp_path / "app.js.map").write_text('{"needle": 1}\n')
    run = run_qry_process("grep", "needle", cwd=tmp_path)
    assert run.out == 'app.js.map:1:{"needle": 1}\napp.min.js:1:var needle=1;\nyarn.lock:1:needle@1.0.0:\n'


def test_bytes_that_are_not_utf8_are_printed_as_they_are(tmp_path: Path) -> None:
    """rg prints a line's bytes as they are; `--json` (which holds text) carries U+FFFD for each."""
    _repro(tmp_path)
    raw = _qry_bytes("grep", "caf", "latin1.c", cwd=tmp_path)
    assert (raw.returncode, raw.stdout) == (0, b"1:/* caf\xe9 */\n") and b"arning" not in raw.stderr
    walked = _qry_bytes("grep", "-g", "*.c", "caf", cwd=tmp_path)
    assert walked.stdout == b"latin1.c:1:/* caf\xe9 */\n"
    line = json.loads(_qry_bytes("grep", "--jsonl", "caf", "latin1.c", cwd=tmp_path).stdout)
    assert (line["text"], line["submatches"]) == ("/* caf\ufffd */", [[3, 6]])


def _binary_tree(root: Path) -> None:
    (root / "bin1.txt").write_bytes(b"\0 hello\nmatch here\n")  # a NUL in rg's first 64 KiB buffer
    (root / "bin2.txt").write_bytes(b"match first\n" + b"x" * 100 + b"\0\nmatch after\n")
    (root / "bin3.txt").write_bytes(b"match first\n" + (b"y" * 79 + b"\n") * 5000 + b"\0\nmatch after\n")
    (root / "utf16.txt").write_bytes("\ufeffone\nmatch utf16\n".encode("utf-16-le"))
    (root / "bom8.txt").write_bytes(b"\xef\xbb\xbfmatch bom\n")


WARNING = (
    'bin3.txt: WARNING: stopped searching binary file after match (found "\\0" byte around offset 400012)\n'
)


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        ((), "bin3.txt:1:match first\n" + WARNING + "bom8.txt:1:match bom\nutf16.txt:2:match utf16\n"),
        (("-c",), "bom8.txt:1\nutf16.txt:1\n"),
        (("-l",), "bin3.txt\nbom8.txt\nutf16.txt\n"),
        (("-m1",), "bin3.txt:1:match first\nbom8.txt:1:match bom\nutf16.txt:2:match utf16\n"),
        (
            ("bin1.txt", "bin2.txt", "bin3.txt"),
            'bin1.txt: binary file matches (found "\\0" byte around offset 0)\n'
            'bin2.txt: binary file matches (found "\\0" byte around offset 112)\n'
            "bin3.txt:1:match first\nbin3.txt:5003:match after\n",
        ),
        (("-c", "bin1.txt", "bin2.txt"), "bin1.txt:1\nbin2.txt:2\n"),
        (("bin2.txt",), 'binary file matches (found "\\0" byte around offset 112)\n'),
        (
            ("bin3.txt", *(f"e{i}.txt" for i in range(10))),  # eleven PATHs: rg reads, not maps
            'bin3.txt:1:match first\nbin3.txt: binary file matches (found "\\0" byte around offset 400012)\n',
        ),
    ],
    ids=["walk", "walk-c", "walk-l", "walk-m1", "named", "named-c", "named-one", "eleven-named"],
)
def test_binary_files_as_rg_treats_them(tmp_path: Path, args: tuple[str, ...], expected: str) -> None:
    """A NUL byte: a walked file is skipped in silence when it is in rg's first 64 KiB buffer, else
    searched up to the buffer holding it, with rg's warning; a named file says `binary file matches`.
    Before: every file with a NUL in its first 8 KiB was skipped, named or not, and one with a later
    NUL was searched whole. UTF-16 with a byte order mark is transcoded, a UTF-8 one dropped."""
    _binary_tree(tmp_path)
    for i in range(10):
        (tmp_path / f"e{i}.txt").write_text("x\n")
    run = run_qry_process("grep", "match", *args, "--no-index", cwd=tmp_path)
    assert (run.code, run.out) == (0, expected), run.describe()


def test_a_file_over_the_memory_bound_is_reported_not_skipped_in_silence(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("needle\n")
    with (tmp_path / "big.log").open("wb") as fh:  # sparse: 200 MiB of size, no disk
        fh.write(b"needle\n")
        fh.truncate(200 << 20)
    run = run_qry_process("grep", "needle", "--no-index", cwd=tmp_path)
    assert (run.code, run.out) == (0, "a.txt:1:needle\n"), run.describe()
    warning = "qry: warning: big.log: not searched: 209715200 bytes is over grep's limit of 128 MiB"
    assert run.err.startswith(warning) and "\n  hint: search it with rg" in run.err, run.describe()
    named = run_qry_process("grep", "needle", "big.log", cwd=tmp_path)
    assert named.code == 1 and "qry: warning: big.log: not searched" in named.err, named.describe()
    result = json.loads(run_qry_process("grep", "needle", "--no-index", "--json", cwd=tmp_path).out)
    assert [e["path"] for e in result["errors"]] == ["big.log"]


@pytest.mark.parametrize(
    ("glob", "expected"),
    [
        ("*.yml", ".coveralls.yml\na.yml\nsub/.d.yml\n"),
        ("*.log", "x.log\n"),
        (".*", ".coveralls.yml\nsub/.d.yml\nsub/.e.txt\n"),
        ("sub/**", "sub/.d.yml\nsub/.e.txt\n"),
        (".hid/**", ""),
        ("!*.yml", ""),
    ],
)
def test_globs_override_the_hidden_and_ignore_rules_as_rgs_do(
    tmp_path: Path, glob: str, expected: str
) -> None:
    """`qry grep -g '*.yml'` skipped the hidden `.coveralls.yml`, which rg finds: an rg glob that
    matches a path re-includes it whatever the ignore files and the hidden rule say (a folder it
    does not match is still left out: `.hid/b.yml`, `ign/e.yml`). With and without an index."""
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    (tmp_path / ".gitignore").write_text("ign/\n*.log\n")
    for rel in (
        ".coveralls.yml",
        "a.yml",
        ".hid/b.yml",
        ".hid/c.txt",
        "sub/.d.yml",
        "ign/e.yml",
        "x.log",
        "sub/.e.txt",
    ):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text("k: v\n")
    assert run_qry_process("index", ".", "--embed", "none", "-q", cwd=tmp_path).code == 0
    for extra in ((), ("--no-index",)):
        run = run_qry_process("grep", "-l", "k", "-g", glob, *extra, cwd=tmp_path)
        assert (run.code, run.out) == (0 if expected else 1, expected), run.describe()


def test_e_takes_several_patterns_and_makes_every_positional_a_path(tmp_path: Path) -> None:
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "a.py").write_text("foo = 1\n-bar = 2\nbaz = 3\n")
    (tmp_path / "top.py").write_text("foo\n")
    run = run_qry_process("grep", "-e", "foo", "-e", "-bar", "src", cwd=tmp_path)
    assert (run.code, run.out) == (0, "src/a.py:1:foo = 1\nsrc/a.py:2:-bar = 2\n"), run.describe()
    assert run_qry_process("grep", "-F", "--regexp=-bar", "-e", "baz", "src/a.py", cwd=tmp_path).out == (
        "2:-bar = 2\n3:baz = 3\n"
    )
    assert run_qry_process("grep", "-c", "-e", "foo", cwd=tmp_path).out == "src/a.py:1\ntop.py:1\n"


def test_posix_classes_print_what_rg_prints_and_no_warning(tmp_path: Path) -> None:
    (tmp_path / "a.c").write_text("int f12345(void);\nX_1 = 42;\nno digits\n")
    run = run_qry_process("grep", "[[:digit:]]+", cwd=tmp_path)
    assert run.out == "a.c:1:int f12345(void);\na.c:2:X_1 = 42;\n", run.describe()
    assert "Warning" not in run.err, run.describe()
    upper = run_qry_process("grep", "[[:upper:]_0-9]{3}", cwd=tmp_path)
    assert upper.out == "a.c:1:int f12345(void);\na.c:2:X_1 = 42;\n", upper.describe()
    bad = run_qry_process("grep", "[[]", cwd=tmp_path)
    assert bad.code == 2 and bad.out == "" and "Warning" not in bad.err, bad.describe()
    assert bad.err.startswith("qry: error: invalid regular expression '[[]': unclosed character class")
    assert "\n  hint: " in bad.err


def test_the_bounded_grep_of_agents_encodes_undecodable_bytes_and_reports_a_file_over_the_bound(
    tmp_path: Path,
) -> None:
    """The MCP `grep` tool's answer is JSON: a Latin-1 byte failed to encode (`surrogates not
    allowed`) before grep read such files at all; a file over the bound is named in `errors`."""
    import msgspec

    from indexlib.grep.api import GrepRequest, bounded_grep

    _repro(tmp_path)
    with (tmp_path / "big.log").open("wb") as fh:
        fh.truncate(200 << 20)
    req = GrepRequest(pattern="caf|latinFunc", use_index=False, cwd=str(tmp_path))
    result = bounded_grep(req, max_lines=10, max_bytes=10_000, seconds=30)
    decoded = json.loads(msgspec.json.encode(result))
    assert [(ln["line"], ln["text"]) for ln in decoded["lines"]] == [
        (1, "/* caf\ufffd */"),
        (2, "int latinFunc(void);"),
    ]
    assert [e["path"] for e in decoded["errors"]] == ["big.log"]


def test_standard_input_is_searched_as_rg_searches_it(tmp_path: Path) -> None:
    """`cmd | qry grep x /dev/stdin` printed nothing and exited 1 (the named path was resolved to
    `/proc/.../fd/pipe:[N]`, which does not exist, and skipped in silence); `-` was `No such file`."""
    (tmp_path / "f.txt").write_text("a x\n")

    def piped(*args: str) -> bytes:
        proc = subprocess.run(
            [sys.executable, "-P", "-m", "cli", "grep", "x", *args],
            cwd=tmp_path,
            env=cli_env(),
            input=b"a x\nb\n",
            capture_output=True,
            timeout=120,
        )
        return proc.stdout

    assert piped("/dev/stdin") == piped("-") == b"1:a x\n"
    assert piped("-", "f.txt") == b"<stdin>:1:a x\nf.txt:1:a x\n"
