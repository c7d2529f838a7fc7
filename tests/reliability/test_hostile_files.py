"""Hostile repositories: nothing a tree contains may crash `qry index`, hang it, or poison the index.

One repository holds every case (NUL bytes, invalid UTF-8, UTF-16, a 50k-line function, deep nesting
in four languages, 10 MB single-line files, symlink loops and escapes, a FIFO and a socket, names with
spaces, newlines, tabs, quotes, leading dashes, non-UTF-8 bytes, emoji, a 100-level directory chain).
The build must exit 0 without a traceback, index what is text, skip the rest with the right reason,
and every indexed file must be findable under its exact path. Separately: unreadable files, the size
cap, and a repository of 10k tiny files (100k with `-m slow` or QRY_RUN_SLOW=1; see bench/memory.py
for its peak memory).
"""

from __future__ import annotations

import json
import os
import socket
from pathlib import Path
from typing import Any

import pytest

from tests.reliability.helpers import assert_clean, head_of, load_manifest, qry

TEN_MB = 10 * 1024 * 1024


def _write(root: Path, rel: str | bytes, data: bytes | str) -> None:
    path = Path(os.fsdecode(root)) / os.fsdecode(rel)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data.encode() if isinstance(data, str) else data)


def make_hostile_repo(root: Path) -> dict[str, str]:
    """Write the hostile tree; return {indexed path: a function name defined in it}."""
    indexed = {
        "with space.py": "spaced_function",
        "new\nline.py": "newline_function",
        "tab\tname.py": "tabbed_function",
        "quo'te\"s\\back.py": "quoted_function",
        "x\\.py": "backslash_dot_function",
        "-rf.py": "dashed_function",
        "ünï😀.py": "emoji_path_function",
        "crlf.py": "crlf_function",
        "bom.py": "bom_function",
        "/".join(f"d{i}" for i in range(100)) + "/leaf.py": "deep_dir_function",
        "n" * 240 + ".py": "long_name_function",
    }
    for rel, name in indexed.items():
        body = f"def {name}():\n    return 1\n"
        if rel == "crlf.py":
            body = body.replace("\n", "\r\n")
        _write(root, rel, ("\ufeff" if rel == "bom.py" else "") + body)
    lines = "".join(f"    value_{i} = {i} * 2\n" for i in range(50_000))
    _write(root, "long_fn.py", f"def huge_function():\n{lines}    return value_0\n")
    indexed["long_fn.py"] = "huge_function"
    depth = 3000
    _write(root, "deep_lists.py", "def deep_lists():\n    return " + "[\n" * depth + "1" + "]\n" * depth)
    _write(root, "deep_braces.c", "int deep_braces(void) {" + "{\n" * depth + "}\n" * depth + "return 0; }\n")
    _write(root, "deep_funcs.js", "function deep_funcs() {\n" + "function g() {\n" * 1500 + "}\n" * 1501)
    _write(root, "deep_ifs.py", "def deep_ifs():\n" + "".join("    " * (i + 1) + "if x:\n" for i in range(90))
           + "    " * 91 + "pass\n")  # fmt: skip
    indexed.update({"deep_lists.py": "deep_lists", "deep_braces.c": "deep_braces", "deep_funcs.js": "deep_funcs",
                    "deep_ifs.py": "deep_ifs"})  # fmt: skip
    # Not text, or not decodable: skipped with a reason, never a crash.
    _write(root, "nul.py", b"def nul_function():\n    return 1\n\x00\x00\x00\x01\x02")
    _write(root, "badutf8.py", b"def caf\xe9():\n    return '\xff\xfe'\n")
    _write(root, "utf16.py", "def utf16_function():\n    pass\n".encode("utf-16"))
    _write(root, b"bad\xffname.py", "def badname_function():\n    pass\n")
    # 10 MB on one line: minified or generated, never parsed or redacted.
    _write(root, "oneline.js", b"var a=1;" * (TEN_MB // 8))
    _write(root, "oneline.py", b"x = 1; " * (TEN_MB // 7))
    _write(root, "oneline.txt", b"word " * (TEN_MB // 5))
    # Links: loops, a link to the parent, a link out of the tree, a dangling link.
    os.symlink("loop_b", root / "loop_a")
    os.symlink("loop_a", root / "loop_b")
    os.symlink("self_loop", root / "self_loop")
    (root / "sub").mkdir()
    os.symlink("..", root / "sub" / "up")
    os.symlink("/etc/hostname", root / "outside.py")
    os.symlink("does-not-exist.py", root / "dangling.py")
    # Special files a naive reader would block on (FIFO) or fail to open (socket).
    os.mkfifo(root / "fifo.py")
    sock = socket.socket(socket.AF_UNIX)
    try:
        sock.bind(str(root / "socket.py"))
    except OSError:
        pass  # a path too long for AF_UNIX: the FIFO still covers special files
    finally:
        sock.close()
    return indexed


@pytest.fixture(scope="module")
def hostile(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, dict[str, str], dict[str, Any]]:
    base = tmp_path_factory.mktemp("hostile-files")
    repo, index = base / "repo", base / "index"
    repo.mkdir()
    indexed = make_hostile_repo(repo)
    run = qry("index", repo, "--embed", "none", "--no-git-times", "--json", "--index-dir", index,
              "--max-file-bytes", str(16 * 1024 * 1024), timeout=300)  # fmt: skip
    assert_clean(run, allowed=(0,))
    return repo, index, indexed, json.loads(run.out)


def test_the_build_indexes_the_text_and_skips_the_rest_with_reasons(hostile: Any) -> None:
    _repo, index, indexed, report = hostile
    head = head_of(index)
    assert head is not None
    files = load_manifest(index, head).files
    for rel in indexed:
        assert rel in files, f"{rel!r} was not indexed"
    for rel in ("nul.py", "badutf8.py", "utf16.py", "oneline.js", "oneline.py", "oneline.txt", "fifo.py",
                "socket.py", "loop_a", "loop_b", "self_loop", "outside.py", "dangling.py"):  # fmt: skip
        assert rel not in files, f"{rel!r} should have been skipped"
    assert not any("bad" in p and "name" in p for p in files), "a non-UTF-8 name is skipped (encoding)"
    assert not any(p.startswith("sub/up/") for p in files), "the link to the parent is not walked again"
    skipped = report["skipped"]
    for reason in ("binary", "encoding", "minified", "unsupported", "symlink_outside", "unreadable"):
        assert skipped.get(reason, 0) >= 1, (reason, skipped)
    assert skipped["encoding"] >= 3 and skipped["minified"] >= 3, skipped


@pytest.mark.parametrize("json_out", [True, False], ids=["json", "plain"])
def test_every_indexed_file_is_found_under_its_exact_path(hostile: Any, json_out: bool) -> None:
    _repo, index, indexed, _report = hostile
    for rel, name in indexed.items():
        run = qry("search", *(["--json"] if json_out else []), "--index-dir", index, name)
        assert_clean(run, allowed=(0,))
        if json_out:
            top = json.loads(run.out)["results"][0]
            assert (top["path"], top["symbol"]) == (rel, name), (rel, top["path"], top["symbol"])
        else:
            assert name in run.out


def test_the_50k_line_function_is_kept_whole_in_windows(hostile: Any) -> None:
    _repo, index, _indexed, _report = hostile
    run = qry("search", "--json", "--index-dir", index, "value_49999")
    assert_clean(run, allowed=(0,))
    hit = json.loads(run.out)["results"][0]
    assert hit["path"] == "long_fn.py" and hit["start_line"] <= 50_001 <= hit["end_line"], hit
    rec = load_manifest(index, str(head_of(index))).files["long_fn.py"]
    assert 1 < rec.nodes <= 5000, "a long function is split into bounded windows"


def test_other_commands_and_a_second_build_stay_clean(hostile: Any) -> None:
    repo, index, _indexed, _report = hostile
    for args in (("status",), ("status", "--json"), ("verify",), ("roots",), ("gc",)):
        assert_clean(qry(*args, "--index-dir", index), allowed=(0,))
    again = qry("index", repo, "--embed", "none", "--no-git-times", "--json", "--index-dir", index,
                "--max-file-bytes", str(16 * 1024 * 1024))  # fmt: skip
    assert_clean(again, allowed=(0,))
    assert json.loads(again.out)["published"] is False, "an unchanged hostile tree publishes nothing"


def test_status_does_not_list_skipped_files_as_new(tmp_path: Path) -> None:
    """Files the build skips for their content are not in the root; status must not call them new."""
    repo, index = tmp_path / "repo", tmp_path / "i"
    _write(repo, "ok.py", "def ok_function():\n    pass\n")
    _write(repo, "nul.py", b"def nul_function():\n    return 1\n\x00\x01")
    _write(repo, "badutf8.py", b"def caf\xe9():\n    pass\n")
    _write(repo, "utf16.py", "def utf16_function():\n    pass\n".encode("utf-16"))
    _write(repo, "oneline.js", b"var a=1;" * 2000)
    _write(repo, "gen.py", "# @generated by a tool\nx = 1\n")
    run = qry("index", repo, "--embed", "none", "--no-git-times", "--quiet", "--index-dir", index)
    assert_clean(run, allowed=(0,))

    def changes() -> dict[str, list[str]]:
        status = qry("status", "--json", "--index-dir", index)
        assert_clean(status, allowed=(0,))
        return dict(json.loads(status.out)["changes"])

    assert changes() == {"modified": [], "added": [], "deleted": []}
    _write(repo, "new.py", "def new_function():\n    pass\n")
    _write(repo, "new_binary.py", b"\x00\x01\x02 binary")
    assert changes() == {"modified": [], "added": ["new.py"], "deleted": []}


def test_files_over_the_size_cap_are_skipped_unread(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    _write(repo, "oneline.js", b"var a=1;" * (TEN_MB // 8))
    _write(repo, "ok.py", "def ok_function():\n    pass\n")
    run = qry("index", repo, "--embed", "none", "--no-git-times", "--json", "--index-dir", tmp_path / "i")
    assert_clean(run, allowed=(0,))
    report = json.loads(run.out)
    assert report["files"] == 1 and report["skipped"] == {"too_large": 1}, report


def test_unreadable_files_are_skipped_as_unreadable(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Root reads through chmod 000, so the permission error is injected where discovery opens files
    (`open_beneath` in indexlib.index.discover.beneath); as another user, a real chmod 000 file is checked too."""
    import indexlib.index.discover.beneath as discover
    from indexlib import BuildOptions, build_index

    repo = tmp_path / "repo"
    _write(repo, "ok.py", "def ok_function():\n    pass\n")
    _write(repo, "secret.py", "def locked_function():\n    pass\n")
    real_open = discover.open_beneath

    def guarded_open(root: str, rel: str, *, directory: bool = False) -> int:
        if rel.endswith("secret.py"):
            raise PermissionError(13, "Permission denied", rel)
        return real_open(root, rel, directory=directory)

    monkeypatch.setattr(discover, "open_beneath", guarded_open)
    report = build_index(repo, BuildOptions(index_dir=tmp_path / "i", embed="none", git_times=False))
    assert report.files == 1 and report.skipped == {"unreadable": 1}, report


@pytest.mark.skipif(os.geteuid() == 0, reason="runs as root: chmod 000 does not stop root from reading")
def test_a_chmod_000_file_is_skipped_as_unreadable(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    _write(repo, "ok.py", "def ok_function():\n    pass\n")
    _write(repo, "secret.py", "def locked_function():\n    pass\n")
    (repo / "secret.py").chmod(0)
    run = qry("index", repo, "--embed", "none", "--no-git-times", "--json", "--index-dir", tmp_path / "i")
    assert_clean(run, allowed=(0,))
    assert json.loads(run.out)["skipped"] == {"unreadable": 1}


def make_tiny_repo(root: Path, count: int) -> None:
    """`count` one-function Python files, 500 per directory."""
    for i in range(count):
        d = root / f"d{i // 500:04d}"
        if i % 500 == 0:
            d.mkdir(parents=True)
        (d / f"f{i}.py").write_bytes(b"def tiny_%d():\n    return %d\n" % (i, i))


def _tiny(tmp_path: Path, count: int) -> None:
    repo = tmp_path / "repo"
    make_tiny_repo(repo, count)
    run = qry("index", repo, "--embed", "none", "--no-git-times", "--json", "--index-dir", tmp_path / "i",
              timeout=1200)  # fmt: skip
    assert_clean(run, allowed=(0,))
    report = json.loads(run.out)
    assert report["files"] == count and report["nodes_total"] == count, report
    last = count - 1
    hit = qry("search", "--json", "--index-dir", tmp_path / "i", f"tiny_{last}")
    assert_clean(hit, allowed=(0,))
    assert json.loads(hit.out)["results"][0]["path"] == f"d{last // 500:04d}/f{last}.py"
    again = qry("index", repo, "--embed", "none", "--no-git-times", "--json", "--index-dir", tmp_path / "i",
                timeout=1200)  # fmt: skip
    assert json.loads(again.out)["published"] is False


def test_ten_thousand_tiny_files(tmp_path: Path) -> None:
    _tiny(tmp_path, 10_000)


@pytest.mark.slow
def test_a_hundred_thousand_tiny_files(tmp_path: Path) -> None:
    _tiny(tmp_path, 100_000)


def test_terminal_escapes_in_names_and_code_do_not_reach_the_terminal(tmp_path: Path) -> None:
    import io

    from cli.console import Env
    from cli.searchcmd import search_command

    repo = tmp_path / "repo"
    _write(repo, "e.py", 'def esc_function():\n    return "\x1b]0;pwned\x07\x1b[2J\x1b[31mred"\n')
    _write(repo, "n\x1b[31mred.py", "def esc_name_function():\n    pass\n")
    _write(repo, "new\nline.py", "def newline_name_function():\n    pass\n")
    run = qry("index", repo, "--embed", "none", "--no-git-times", "--quiet", "--index-dir", tmp_path / "i")
    assert_clean(run, allowed=(0,))
    for tty in (True, False):  # the Rich table, then plain lines
        for query in ("esc_function", "esc_name_function", "newline_name_function"):
            out, err = io.StringIO(), io.StringIO()
            env = Env(stdout=out, stderr=err, stdout_tty=tty, stderr_tty=False, color=False, width=120)
            assert search_command(env, query, {"index_dir": str(tmp_path / "i")}) == 0
            text = out.getvalue()
            assert query in text
            assert "\x1b" not in text and "\x07" not in text, repr(text[:400])
            assert "\\x1b" in text or query == "newline_name_function", "the escape is shown, not dropped"
        if not tty:  # the path with a newline stays on its lines: no line starts with its tail
            assert "new\\x0aline.py:1: newline_name_function\t" in text, text
            assert not any(line.startswith("line.py") for line in text.splitlines()), text


def test_lines_are_split_at_lf_only_and_separators_are_shown_escaped(tmp_path: Path) -> None:
    """Form feed, vertical tab, U+2028/2029 and NEL split lines in `str.splitlines` but not in git,
    grep or editors: a hit below them was printed with a line number several lines too far."""
    repo = tmp_path / "repo"
    _write(
        repo,
        "m.py",
        'def first():\n    x = "a\x0cb\u2028c\x0bd\u2029e\x85f"\n    return special_marker_word\n',
    )
    _write(repo, "w.txt", "one\r\ntwo \x0c three\r\nspecial_marker_word here\r\n")
    run = qry("index", repo, "--embed", "none", "--no-git-times", "--quiet")
    assert run.code == 0, run.describe()
    run = qry("search", "--index-dir", repo / ".qry", "special_marker_word", "-C", "5")
    assert run.code == 0, run.describe()
    assert "m.py:3:    return special_marker_word" in run.out, run.out
    assert 'm.py:2:    x = "a\\x0cb\\u2028c\\x0bd\\u2029e\\x85f"' in run.out, run.out
    assert "w.txt:3:special_marker_word here" in run.out, run.out
    assert "\u2028" not in run.out and "\x0c" not in run.out and "\r" not in run.out
    data = json.loads(qry("search", "--json", "--index-dir", repo / ".qry", "special_marker_word").out)
    by_path = {h["path"]: h for h in data["results"]}
    assert by_path["m.py"]["start_line"] == 1 and by_path["m.py"]["end_line"] == 3
    assert "\u2028" in by_path["m.py"]["snippet"]["text"]  # JSON keeps the exact text
