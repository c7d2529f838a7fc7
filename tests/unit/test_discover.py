"""Discovery: ignore rules, vendored folders, content checks, symlinks, odd paths, read modes."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

import indexlib.index.discover.beneath as discover_mod
from indexlib.errors import UsageError
from indexlib.index.discover import Skipped, SourceFile, check_content, discover, generated_marker, load


def write(root: Path, rel: str, content: str | bytes = "x = 1\n") -> Path:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    return path


def run(root: Path, **kwargs: object) -> list[SourceFile | Skipped]:
    return list(discover(root, **kwargs))  # type: ignore[arg-type]


def sources(root: Path, **kwargs: object) -> list[str]:
    return [i.path for i in run(root, **kwargs) if isinstance(i, SourceFile)]


def skips(root: Path, **kwargs: object) -> dict[str, str]:
    return {i.path: i.reason for i in run(root, **kwargs) if isinstance(i, Skipped)}


# --- basics ---------------------------------------------------------------------------------------


def test_yields_sorted_posix_paths_with_language_and_bytes(tmp_path: Path) -> None:
    write(tmp_path, "b.py")
    write(tmp_path, "a/z.md", "# Title\n")
    write(tmp_path, "a.txt", "hello\n")
    write(tmp_path, "a/b/c.go", "package c\n")
    items = run(tmp_path)
    assert [i.path for i in items] == ["a.txt", "a/b/c.go", "a/z.md", "b.py"]
    by_path = {i.path: i for i in items if isinstance(i, SourceFile)}
    src = by_path["a/b/c.go"]
    assert src.language == "go"
    assert src.data == b"package c\n"
    assert src.size == 10
    assert src.abspath == os.path.join(str(tmp_path), "a", "b", "c.go")
    assert src.mtime_ns == os.stat(src.abspath).st_mtime_ns
    assert by_path["a/z.md"].language == "markdown"


def test_root_must_be_a_directory(tmp_path: Path) -> None:
    with pytest.raises(UsageError):
        run(tmp_path / "missing")


def test_vcs_and_index_folders_are_never_entered(tmp_path: Path) -> None:
    for d in (".git", ".qry", ".hg", ".svn"):
        write(tmp_path, f"{d}/inner.py")
    write(tmp_path, "main.py")
    assert [i.path for i in run(tmp_path)] == ["main.py"]


def test_unsupported_files_are_skipped_without_reading(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write(tmp_path, "image.png", b"\x89PNG\r\n\x1a\n")
    write(tmp_path, "main.py")
    opened: list[str] = []
    real_open = discover_mod.open_beneath

    def spy(root: str, rel: str, *, directory: bool = False) -> int:
        if not directory:
            opened.append(rel)
        return real_open(root, rel, directory=directory)

    monkeypatch.setattr(discover_mod, "open_beneath", spy)
    assert skips(tmp_path) == {"image.png": "unsupported"}
    assert opened == ["main.py"]


def test_extensionless_script_is_detected_by_shebang(tmp_path: Path) -> None:
    write(tmp_path, "bin/tool", "#!/usr/bin/env python3\nprint(1)\n")
    write(tmp_path, "bin/blob", "no shebang here\n")
    items = {i.path: i for i in run(tmp_path)}
    tool = items["bin/tool"]
    assert isinstance(tool, SourceFile)
    assert tool.language == "python"
    assert isinstance(items["bin/blob"], Skipped)


def test_script_named_as_a_sentence_is_detected_by_shebang(tmp_path: Path) -> None:
    # nvm's tests: what follows the last dot of such a name is no extension, and was taken for one
    # (33 of nvm's test scripts were skipped as unsupported).
    write(tmp_path, "test/node 0.6.21 should install 0.6.21-pre", "#!/bin/sh\nnvm install 0.6.21\n")
    write(tmp_path, "test/Running 'nvm use iojs' uses latest io.js version", "#!/bin/sh\nnvm use iojs\n")
    write(tmp_path, "test/notes.weird", "#!/bin/sh\necho not read: .weird is an extension\n")
    items = {i.path: i for i in run(tmp_path)}
    assert isinstance(items["test/node 0.6.21 should install 0.6.21-pre"], SourceFile)
    assert isinstance(items["test/Running 'nvm use iojs' uses latest io.js version"], SourceFile)
    assert items["test/Running 'nvm use iojs' uses latest io.js version"].language == "bash"
    assert isinstance(items["test/notes.weird"], Skipped)


# --- ignore rules ---------------------------------------------------------------------------------


def test_gitignore_rules_at_every_level(tmp_path: Path) -> None:
    write(tmp_path, ".gitignore", "*.log.py\n/top_only.py\nout/\n!keep.log.py\ndocs/**/draft.md\n")
    write(tmp_path, "a.log.py")
    write(tmp_path, "keep.log.py")
    write(tmp_path, "top_only.py")
    write(tmp_path, "sub/top_only.py")  # anchored rule applies at the top only
    write(tmp_path, "out/gen.py")  # dir-only rule prunes the folder
    write(tmp_path, "sub/out/gen.py")
    write(tmp_path, "out.py")  # `out/` does not match a file named out.py
    write(tmp_path, "docs/draft.md", "# d\n")
    write(tmp_path, "docs/x/y/draft.md", "# d\n")
    write(tmp_path, "sub/.gitignore", "local.py\n!a.log.py\n")
    write(tmp_path, "sub/local.py")
    write(tmp_path, "local.py")  # the nested rule only applies inside sub/
    write(tmp_path, "sub/a.log.py")  # re-included by the deeper file
    got = sources(tmp_path)
    assert got == [
        ".gitignore",
        "keep.log.py",
        "local.py",
        "out.py",
        "sub/.gitignore",
        "sub/a.log.py",
        "sub/top_only.py",
    ]
    skipped = skips(tmp_path)
    assert skipped["a.log.py"] == "ignored"
    assert skipped["docs/draft.md"] == "ignored"
    assert skipped["docs/x/y/draft.md"] == "ignored"
    assert "out" not in skipped and "out/gen.py" not in skipped  # pruned dirs are silent


def test_qryignore_overrides_gitignore_and_info_exclude_applies(tmp_path: Path) -> None:
    (tmp_path / ".git" / "info").mkdir(parents=True)
    (tmp_path / ".git" / "info" / "exclude").write_text("secret_dir/\n")
    write(tmp_path, ".gitignore", "*.gen.py\n")
    write(tmp_path, ".qryignore", "!wanted.gen.py\nnoisy/\n")
    write(tmp_path, "x.gen.py")
    write(tmp_path, "wanted.gen.py")
    write(tmp_path, "noisy/a.py")
    write(tmp_path, "secret_dir/a.py")
    write(tmp_path, "main.py")
    assert sources(tmp_path) == [".gitignore", "main.py", "wanted.gen.py"]


def test_ignore_and_rgignore_files_have_ripgreps_precedence(tmp_path: Path) -> None:
    """`.ignore` and `.rgignore` were not read (rg honours both). A kind of file outranks the kinds
    below it at any depth, as in rg: a root `.ignore` beats a deeper `.gitignore`'s `!`, a root
    `.rgignore`'s `!` beats a deeper `.ignore`; `.qryignore` outranks them all."""
    (tmp_path / ".git").mkdir()
    write(tmp_path, ".ignore", "a.py\nplain_ignored.py\n")
    write(tmp_path, ".rgignore", "!b.py\nrg_only.py\n")
    write(tmp_path, ".qryignore", "!q.py\n")
    write(tmp_path, "sub/.gitignore", "!a.py\n")
    write(tmp_path, "sub/.ignore", "b.py\nq.py\n")
    write(tmp_path, "sub/.rgignore", "q.py\n")
    for rel in ("sub/a.py", "sub/b.py", "sub/q.py", "plain_ignored.py", "rg_only.py", "kept.py"):
        write(tmp_path, rel)
    got = [p for p in sources(tmp_path) if not p.rsplit("/", 1)[-1].startswith(".")]
    assert got == ["kept.py", "sub/b.py", "sub/q.py"]
    assert skips(tmp_path)["sub/a.py"] == "ignored"
    everything = [p for p in sources(tmp_path, use_ignore_files=False) if p.split("/")[-1][0] != "."]
    assert everything == ["kept.py", "plain_ignored.py", "rg_only.py", "sub/a.py", "sub/b.py", "sub/q.py"]


def test_ignore_files_above_a_subfolder_root_keep_their_precedence(tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()
    write(tmp_path, ".ignore", "*.tmp.py\n")
    write(tmp_path, "proj/.gitignore", "!b.tmp.py\n")
    write(tmp_path, "proj/a.py")
    write(tmp_path, "proj/b.tmp.py")
    assert [p for p in sources(tmp_path / "proj") if p.endswith(".py")] == ["a.py"]


def test_extra_excludes_take_precedence(tmp_path: Path) -> None:
    write(tmp_path, ".gitignore", "!important.py\n")
    write(tmp_path, "important.py")
    write(tmp_path, "tests/test_a.py")
    write(tmp_path, "src/a.py")
    got = sources(tmp_path, extra_excludes=["tests/", "important.py"])
    assert got == [".gitignore", "src/a.py"]


def test_parent_repository_rules_apply_to_a_subfolder_root(tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()
    write(tmp_path, ".gitignore", "*.tmp.py\n/proj/skipme/\n")
    write(tmp_path, "proj/a.py")
    write(tmp_path, "proj/b.tmp.py")
    write(tmp_path, "proj/skipme/c.py")
    assert sources(tmp_path / "proj") == ["a.py"]


def test_root_ignored_by_its_repository_is_still_indexed(tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()
    write(tmp_path, ".gitignore", "/versions/\n*.tmp.py\n")
    write(tmp_path, "versions/lib/a.py")
    write(tmp_path, "versions/lib/b.tmp.py")
    # The repository ignores versions/: indexing it explicitly uses only its own rules.
    assert sources(tmp_path / "versions" / "lib") == ["a.py", "b.tmp.py"]


GIT_CASES: dict[str, tuple[str, list[str]]] = {
    "basics": (
        "# comment\n*.pyc.py\n!/keep.pyc.py\nbuild_out/\n/anchored.py\n**/deep/*.py\nlib/**/gen_*.py\n"
        "space\\ name.py\ntrailing.py   \na?c.py\n[xy]z.py\n\\#hash.py\n",
        [
            "a.pyc.py", "keep.pyc.py", "sub/keep.pyc.py", "build_out/x.py", "sub/build_out/x.py",
            "anchored.py", "sub/anchored.py", "deep/a.py", "x/deep/a.py", "x/deep/y/a.py", "lib/gen_a.py",
            "lib/x/y/gen_b.py", "lib/ok.py", "space name.py", "trailing.py", "abc.py", "ac.py", "xz.py",
            "zz.py", "#hash.py", "plain.py",
        ],
    ),
    "negation_below_double_star": (
        "logs/**\n!logs/keep.py\nout/**\n!out/keep/\n!out/keep/**\n",
        ["logs/a.py", "logs/keep.py", "logs/sub/keep.py", "out/a.py", "out/keep/b.py", "out/keep/c/d.py"],
    ),
    "whitelist_idiom": (
        "/*\n!/src/\n!/README.md\n",
        ["a.py", "README.md", "src/b.py", "src/c/d.py", "docs/e.md"],
    ),
    "star_dirs": (
        "nested/*\n!nested/allowed/\ndocs/*/\n!docs/x/\nfoo/**/\n",
        [
            "nested/a.py", "nested/allowed/b.py", "nested/other/c.py", "docs/top.md", "docs/x/y/z.md",
            "docs/w/a.md", "foo/a.py", "foo/b/c.py",
        ],
    ),
    "unanchored_patterns": (
        "*/\n!a/\n!a/**/\n?.py\n",
        ["x.py", "top.py", "a/b.py", "a/c/d.py", "deep/e.py", "deep/f/g.py"],
    ),
    "cannot_reinclude_inside_excluded_dir": (
        "secret/\n!secret/public.py\n*.tmp.py\n!important.tmp.py\n",
        ["secret/public.py", "secret/x.py", "a.tmp.py", "important.tmp.py", "x/important.tmp.py"],
    ),
}  # fmt: skip


def _git(cwd: Path, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, text=True).stdout


@pytest.mark.skipif(shutil.which("git") is None, reason="git not installed")
@pytest.mark.parametrize("case", sorted(GIT_CASES))
def test_agrees_with_git_on_ignore_semantics(tmp_path: Path, case: str) -> None:
    rules, files = GIT_CASES[case]
    _git(tmp_path, "init", "-q")
    write(tmp_path, ".gitignore", rules)
    for f in files:
        write(tmp_path, f, "# doc\n" if f.endswith(".md") else "x = 1\n")
    # A nested ignore file with its own anchoring and a negation of a parent rule.
    write(tmp_path, "sub/.gitignore", "/local.py\n!a.pyc.py\n")
    for f in ("sub/local.py", "sub/x/local.py", "sub/a.pyc.py"):
        write(tmp_path, f)
    (tmp_path / ".git" / "info" / "exclude").write_text("excluded_by_info.py\n")
    write(tmp_path, "excluded_by_info.py")
    expected = sorted(_git(tmp_path, "ls-files", "--others", "--exclude-standard").splitlines())
    assert sources(tmp_path) == [p for p in expected if not p.endswith("/")]


# --- vendored -------------------------------------------------------------------------------------


def test_vendored_dirs_are_reported_once_each(tmp_path: Path) -> None:
    write(tmp_path, "node_modules/lib/index.js", "x\n")
    write(tmp_path, "node_modules/other/a.js", "x\n")
    write(tmp_path, "pkg/__pycache__/m.py")
    write(tmp_path, "env/pyvenv.cfg", "home = /usr\n")
    write(tmp_path, "env/lib/x.py")
    write(tmp_path, "myvenv/pyvenv.cfg", "home = /usr\n")
    write(tmp_path, "venv/__init__.py")  # a package named venv (like the stdlib's) is source
    write(tmp_path, "src/app.py")
    items = run(tmp_path)
    assert {i.path: i.reason for i in items if isinstance(i, Skipped)} == {
        "env": "vendored",
        "myvenv": "vendored",
        "node_modules": "vendored",
        "pkg/__pycache__": "vendored",
    }
    assert [i.path for i in items if isinstance(i, SourceFile)] == ["src/app.py", "venv/__init__.py"]


def test_build_output_names_are_skipped_only_where_a_build_puts_them(tmp_path: Path) -> None:
    # Build output: at the top of the tree, or beside a project manifest (a package's dist, a
    # Rust or Maven module's target).
    write(tmp_path, "build/lib/gen.py")
    write(tmp_path, "dist/app.js", "x\n")
    write(tmp_path, "packages/web/package.json", "{}\n")
    write(tmp_path, "packages/web/dist/web.js", "x\n")
    write(tmp_path, "packages/web/src/main.js", "x\n")
    write(tmp_path, "crates/core/Cargo.toml", "[package]\n")
    write(tmp_path, "crates/core/target/debug/build.rs", "fn main() {}\n")
    # The same names inside source packages are source.
    write(tmp_path, "pkg/index/build/run.py")
    write(tmp_path, "internal/target/pick.go", "package target\n")
    assert skips(tmp_path) == {
        "build": "vendored",
        "crates/core/target": "vendored",
        "dist": "vendored",
        "packages/web/dist": "vendored",
    }
    assert sources(tmp_path) == [
        "crates/core/Cargo.toml",
        "internal/target/pick.go",
        "packages/web/package.json",
        "packages/web/src/main.js",
        "pkg/index/build/run.py",
    ]


def test_symlinks_follow_the_build_output_rule(tmp_path: Path) -> None:
    write(tmp_path, "pkg/build/run.py")
    write(tmp_path, "build/out.py")
    (tmp_path / "src_build").symlink_to(tmp_path / "pkg" / "build", target_is_directory=True)
    (tmp_path / "out").symlink_to(tmp_path / "build", target_is_directory=True)
    # The link to the source package is skipped only as a folder already walked, not as vendored.
    assert skips(tmp_path) == {"build": "vendored", "out": "vendored", "src_build": "ignored"}
    assert sources(tmp_path) == ["pkg/build/run.py"]


def test_include_vendored(tmp_path: Path) -> None:
    write(tmp_path, "vendor/lib.go", "package lib\n")
    write(tmp_path, "env/pyvenv.cfg", "home = /usr\n")
    write(tmp_path, "env/x.py")
    assert sources(tmp_path, include_vendored=True) == ["env/pyvenv.cfg", "env/x.py", "vendor/lib.go"]


# --- content checks -------------------------------------------------------------------------------


def test_size_binary_encoding_checks(tmp_path: Path) -> None:
    write(tmp_path, "big.py", "x = 1\n" * 100)
    write(tmp_path, "bin.py", b"x = 1\n\x00\x01")
    write(tmp_path, "latin.py", "s = 'caf\xe9'\n".encode("latin-1"))
    write(tmp_path, "utf16.py", "x = 1\n".encode("utf-16"))
    write(tmp_path, "bom.py", b"\xef\xbb\xbfx = 1\n")
    items = {i.path: i for i in run(tmp_path, max_file_bytes=300)}
    assert {p: i.reason for p, i in items.items() if isinstance(i, Skipped)} == {
        "big.py": "too_large",
        "bin.py": "binary",
        "latin.py": "encoding",
        "utf16.py": "encoding",
    }
    bom = items["bom.py"]
    assert isinstance(bom, SourceFile)
    assert bom.data == b"\xef\xbb\xbfx = 1\n"


def test_minified_and_generated(tmp_path: Path) -> None:
    long_line = "var a=1;" * 300
    write(tmp_path, "app.js", long_line + "\n" + long_line + "\n")
    write(tmp_path, "one_long_line.py", "x = 1\n" * 200 + "DATA = '" + "A" * 3000 + "'\n" + "y = 2\n" * 200)
    write(tmp_path, "lib.min.js", "x\n")
    write(tmp_path, "style.min.css", "x\n")
    write(tmp_path, "package-lock.json", "{}\n")
    write(tmp_path, "Cargo.lock", "x\n")
    write(tmp_path, "api.pb.go", "// Code generated by protoc-gen-go. DO NOT EDIT.\npackage api\n")
    write(tmp_path, "schema.py", '"""\n@generated by tool\n"""\n')
    write(tmp_path, "late.py", "x = 1\n" * 20 + "# Code generated by x. DO NOT EDIT.\n")
    got = skips(tmp_path)
    assert got == {
        "Cargo.lock": "lock_file",
        "app.js": "minified",
        "lib.min.js": "minified",
        "package-lock.json": "lock_file",
        "style.min.css": "minified",
    }
    # Generated code is indexed, marked by its marker line; a marker past the first 10 lines is not one.
    marked = {i.path: i.generated for i in run(tmp_path) if isinstance(i, SourceFile)}
    assert marked == {"api.pb.go": True, "schema.py": True, "late.py": False, "one_long_line.py": False}


def test_generated_marker_names_the_line() -> None:
    assert generated_marker(b"// Code generated by mockery v2.24.0. DO NOT EDIT.\npackage mocks\n") == (
        "// Code generated by mockery v2.24.0. DO NOT EDIT."
    )
    assert generated_marker(b'"""\n@generated by tool\n"""\n') == "@generated by tool"
    assert generated_marker(b"# this module is hand written; do not edit the table by hand\n") is None
    assert generated_marker(b"x = 1\n" * 10 + b"# @generated\n") is None


def test_generated_api_documentation_pages_are_marked() -> None:
    """API pages of a documentation generator repeat the code's names and docs: generated."""
    jazzy = b'<!DOCTYPE html>\n<html>\n<head>\n<link rel="stylesheet" href="../css/jazzy.css" />\n'
    assert generated_marker(jazzy) == '<link rel="stylesheet" href="../css/jazzy.css" />'
    assert generated_marker(b"<!DOCTYPE HTML>\n<!-- Generated by javadoc (17) -->\n<html>\n") is not None
    assert generated_marker(b'<html><head><meta name="generator" content="rustdoc">\n') is not None
    assert generated_marker(b"<!DOCTYPE html>\n<html>\n<head><title>Home</title>\n") is None


def test_max_line_chars_is_honoured() -> None:
    text = ("y" * 400 + "\n") * 5
    assert check_content(text.encode(), max_line_chars=1000) is None
    assert check_content(text.encode(), max_line_chars=300) == ("minified", "longest line 400 characters")


# --- read modes -----------------------------------------------------------------------------------


def test_stat_only_mode_defers_content_checks_to_load(tmp_path: Path) -> None:
    write(tmp_path, "ok.py")
    write(tmp_path, "bin.py", b"\x00\x00")
    write(tmp_path, "gone.py")
    write(tmp_path, "inc.h", "namespace x { int f(); }\n")
    items = run(tmp_path, read=False)
    assert all(isinstance(i, SourceFile) and i.data is None for i in items)
    by_path = {i.path: i for i in items if isinstance(i, SourceFile)}
    assert by_path["inc.h"].language == "c"  # by name only
    os.unlink(tmp_path / "gone.py")
    loaded = {p: load(src) for p, src in by_path.items()}
    assert isinstance(loaded["ok.py"], SourceFile) and loaded["ok.py"].data == b"x = 1\n"
    assert isinstance(loaded["bin.py"], Skipped) and loaded["bin.py"].reason == "binary"
    assert isinstance(loaded["gone.py"], Skipped) and loaded["gone.py"].reason == "vanished"
    header = loaded["inc.h"]
    assert isinstance(header, SourceFile) and header.language == "cpp"  # refined by content


def test_load_reports_too_large_when_file_grew(tmp_path: Path) -> None:
    write(tmp_path, "a.py", "x = 1\n")
    (src,) = run(tmp_path, read=False)
    assert isinstance(src, SourceFile)
    (tmp_path / "a.py").write_text("x = 1\n" * 100)
    got = load(src, max_file_bytes=100)
    assert isinstance(got, Skipped) and got.reason == "too_large"


def test_permission_errors_become_unreadable(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write(tmp_path, "locked/a.py")
    write(tmp_path, "secret.py")
    write(tmp_path, "fine.py")
    real_open = discover_mod.open_beneath

    def fake_open(root: str, rel: str, *, directory: bool = False) -> int:
        if rel.rstrip("/").endswith(("locked", "secret.py")):
            raise PermissionError(13, "Permission denied")
        return real_open(root, rel, directory=directory)

    monkeypatch.setattr(discover_mod, "open_beneath", fake_open)
    assert skips(tmp_path) == {"locked": "unreadable", "secret.py": "unreadable"}
    assert sources(tmp_path) == ["fine.py"]


# --- symlinks -------------------------------------------------------------------------------------


def test_symlink_outside_root_is_not_followed(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    write(outside, "secret.py")
    root = tmp_path / "root"
    write(root, "main.py")
    (root / "ext_dir").symlink_to(outside, target_is_directory=True)
    (root / "ext_file.py").symlink_to(outside / "secret.py")
    assert skips(root) == {"ext_dir": "symlink_outside", "ext_file.py": "symlink_outside"}
    assert sources(root) == ["main.py"]


def test_symlinked_dir_inside_root_is_walked_once(tmp_path: Path) -> None:
    write(tmp_path, "src/a.py")
    (tmp_path / "alias").symlink_to(tmp_path / "src", target_is_directory=True)
    (tmp_path / "src" / "loop").symlink_to(tmp_path, target_is_directory=True)
    items = run(tmp_path)
    assert [i.path for i in items if isinstance(i, SourceFile)] == ["src/a.py"]
    skipped = {i.path: i for i in items if isinstance(i, Skipped)}
    assert set(skipped) == {"alias", "src/loop"}
    assert skipped["alias"].reason == "ignored"
    assert "already walked" in skipped["alias"].detail


def test_symlink_to_an_ignored_dir_is_walked_under_the_link(tmp_path: Path) -> None:
    write(tmp_path, ".gitignore", "real/\n")
    write(tmp_path, "real/a.py")
    (tmp_path / "view").symlink_to(tmp_path / "real", target_is_directory=True)
    assert sources(tmp_path) == [".gitignore", "view/a.py"]


def test_symlinked_files(tmp_path: Path) -> None:
    write(tmp_path, "a.py")
    write(tmp_path, "hidden/b.py")
    write(tmp_path, ".gitignore", "hidden/\n")
    (tmp_path / "dup.py").symlink_to(tmp_path / "a.py")
    (tmp_path / "b_link.py").symlink_to(tmp_path / "hidden" / "b.py")
    (tmp_path / "broken.py").symlink_to(tmp_path / "nope.py")
    items = {i.path: i for i in run(tmp_path)}
    assert sorted(p for p, i in items.items() if isinstance(i, SourceFile)) == [
        ".gitignore",
        "a.py",
        "b_link.py",
    ]
    assert items["dup.py"].reason == "ignored"  # type: ignore[union-attr]
    assert items["broken.py"].reason == "unreadable"  # type: ignore[union-attr]
    b_link = items["b_link.py"]
    assert isinstance(b_link, SourceFile) and b_link.data == b"x = 1\n"


def test_symlink_into_vendored_dir_is_vendored(tmp_path: Path) -> None:
    write(tmp_path, "node_modules/pkg/index.js", "x\n")
    (tmp_path / "pkg").symlink_to(tmp_path / "node_modules" / "pkg", target_is_directory=True)
    assert skips(tmp_path) == {"node_modules": "vendored", "pkg": "vendored"}


# --- odd paths and file types ---------------------------------------------------------------------


def test_spaces_newlines_and_unicode_in_names(tmp_path: Path) -> None:
    write(tmp_path, "with space/my file.py")
    write(tmp_path, "new\nline.py")
    write(tmp_path, "ünï/cödé.py")
    assert sources(tmp_path) == ["new\nline.py", "with space/my file.py", "ünï/cödé.py"]


def test_non_utf8_names_are_skipped_not_crashed(tmp_path: Path) -> None:
    root = os.fsencode(tmp_path)
    with open(os.path.join(root, b"bad\xff.py"), "wb") as fh:
        fh.write(b"x = 1\n")
    os.mkdir(os.path.join(root, b"dir\xfe"))
    with open(os.path.join(root, b"dir\xfe", b"inner.py"), "wb") as fh:
        fh.write(b"x = 1\n")
    write(tmp_path, "good.py")
    items = run(tmp_path)
    assert {i.path: i.reason for i in items if isinstance(i, Skipped)} == {
        "bad\\xff.py": "encoding",
        "dir\\xfe": "encoding",
    }
    assert [i.path for i in items if isinstance(i, SourceFile)] == ["good.py"]


def test_fifo_is_not_opened(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "pipe.py")
    write(tmp_path, "a.py")
    assert skips(tmp_path) == {"pipe.py": "unsupported"}


def test_results_are_deterministic(tmp_path: Path) -> None:
    for i in range(30):
        write(tmp_path, f"d{i % 4}/f{i}.py", f"x = {i}\n")
    assert run(tmp_path) == run(tmp_path)


def test_a_subfolder_of_a_repository_is_not_the_top_of_the_tree(tmp_path: Path) -> None:
    # `build/` right below the repository's top is output; right below a subfolder walked as its own
    # root (grep of a folder, an index of part of a repository) it is source unless a manifest is there.
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    write(tmp_path, "build/out.py")
    write(tmp_path, "src/build/b.py")
    write(tmp_path, "web/package.json", "{}\n")
    write(tmp_path, "web/dist/w.js", "x\n")
    assert "build" in skips(tmp_path)
    assert sources(tmp_path / "src") == ["build/b.py"]
    assert skips(tmp_path / "web") == {"dist": "vendored"}
