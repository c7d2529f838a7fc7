"""Time through the whole pipeline: a scripted git repository is indexed twice (a commit in between), then
--since / --until / --as-of keep exactly the right nodes, an older root answers as it was, the answer's
meta says how fresh it is, a file edited after indexing is flagged stale, and `status` says where the
times came from ("git" or "file times")."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from indexlib import BuildOptions, SearchOptions, Store, build_index, index_status, open_engine, parse_when
from tests.gitrepo import git as scripted_git

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")

T2020 = 1577836800  # 2020-01-01
T2022 = 1640995200  # 2022-01-01
T2023 = 1672531200  # 2023-01-01
T_MTIME = 1704067200  # 2024-01-01

# Every function returns "zebra", so one lexical query finds them all and the filters decide.
APP_2020 = '''def old_func():
    """Never changes."""
    return "zebra"


def changed_func():
    """Changed in 2022."""
    return "zebra"
'''
APP_2022 = APP_2020.replace(
    '"""Changed in 2022."""\n    return "zebra"', '"""Changed in 2022."""\n    return "zebra" * 2'
)
APP_2023 = (
    APP_2022
    + '''

def added_func():
    """Added in 2023, after the first index."""
    return "zebra"
'''
)
LIB = '''def legacy_helper():
    """One commit, in 2020."""
    return "zebra"
'''


def _git(repo: Path, *args: str, when: int | None = None) -> str:
    return scripted_git(repo, *args, when=when).strip()


def _new_repo(repo: Path, files: dict[str, str]) -> Path:
    """A git work tree at `repo` (its index ignored) holding `files`, none committed yet."""
    repo.mkdir()
    _git(repo, "init", "-q", "-b", "main")
    (repo / ".gitignore").write_text(".qry/\n")
    for name, text in files.items():
        (repo / name).write_text(text)
    return repo


def _commit(repo: Path, when: int, message: str) -> None:
    _git(repo, "add", "-A")
    _git(repo, "commit", "-q", "-m", message, when=when)


@dataclass
class Indexed:
    repo: Path
    index_dir: Path
    old_root: str  # indexed at the 2022 commit
    new_root: str  # indexed at the 2023 commit
    old_commit: str
    new_commit: str


@pytest.fixture(scope="module")
def indexed(tmp_path_factory: pytest.TempPathFactory) -> Indexed:
    repo = _new_repo(tmp_path_factory.mktemp("times") / "repo", {"app.py": APP_2020, "lib.py": LIB})
    _commit(repo, T2020, "first")
    (repo / "app.py").write_text(APP_2022)
    _commit(repo, T2022, "change changed_func")
    index_dir = repo / ".qry"
    first = build_index(repo, BuildOptions(embed="none"))
    old_commit = _git(repo, "rev-parse", "HEAD")
    (repo / "app.py").write_text(APP_2023)
    _commit(repo, T2023, "add added_func")
    second = build_index(repo, BuildOptions(embed="none"))
    assert first.published and second.published and first.root_id != second.root_id
    return Indexed(
        repo, index_dir, first.root_id, second.root_id, old_commit, _git(repo, "rev-parse", "HEAD")
    )


def _symbols(ix: Indexed, **kw: object) -> set[str]:
    opts = SearchOptions(mode="lexical", top_k=50, kinds=["function"], **kw)  # type: ignore[arg-type]
    return {h.symbol for h in open_engine(ix.index_dir).search("zebra", opts).results}


ALL = {"old_func", "changed_func", "added_func", "legacy_helper"}


def test_node_times_come_from_git(indexed: Indexed) -> None:
    res = open_engine(indexed.index_dir).search("zebra", SearchOptions(mode="lexical", top_k=50))
    changed = {h.symbol: h.last_changed for h in res.results if h.kind == "function"}
    assert changed == {"old_func": T2020, "changed_func": T2022, "added_func": T2023, "legacy_helper": T2020}


def test_no_filter_finds_everything(indexed: Indexed) -> None:
    assert _symbols(indexed) == ALL


def test_since_keeps_nodes_changed_in_the_window(indexed: Indexed) -> None:
    assert _symbols(indexed, since=parse_when("2021-06-01")) == {"changed_func", "added_func"}
    assert _symbols(indexed, since=T2022) == {"changed_func", "added_func"}  # inclusive
    assert _symbols(indexed, since=T2022 + 1) == {"added_func"}
    assert _symbols(indexed, since=parse_when("2030-01-01")) == set()


def test_until_keeps_nodes_last_changed_before(indexed: Indexed) -> None:
    assert _symbols(indexed, until=parse_when("2021-06-01")) == {"old_func", "legacy_helper"}
    assert _symbols(indexed, since=parse_when("2021-01-01"), until=parse_when("2022-06-01")) == {
        "changed_func"
    }


def test_as_of_keeps_content_that_existed(indexed: Indexed) -> None:
    # changed_func existed in 2021 (created 2020), though it changed later; added_func did not.
    assert _symbols(indexed, as_of=parse_when("2021-06-01")) == {"old_func", "changed_func", "legacy_helper"}
    assert _symbols(indexed, as_of=parse_when("2019-06-01")) == set()
    assert _symbols(indexed, as_of=T2023) == ALL


def test_git_refs_as_dates(indexed: Indexed) -> None:
    assert parse_when("HEAD~1", indexed.repo) == T2022
    assert _symbols(indexed, as_of=parse_when("HEAD~1", indexed.repo)) == ALL - {"added_func"}
    assert _symbols(indexed, since=parse_when("HEAD", indexed.repo)) == {"added_func"}


def test_cli_search_with_a_git_ref(indexed: Indexed) -> None:
    out = subprocess.run(
        [sys.executable, "-m", "cli", "search", "zebra", "--index-dir", str(indexed.index_dir), "--json",
         "--mode", "lexical", "--kind", "function", "--since", "HEAD~1", "--top-k", "50"],
        capture_output=True, text=True, check=False, cwd=indexed.repo,
    )  # fmt: skip
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert {r["symbol"] for r in data["results"]} == {"changed_func", "added_func"}
    assert data["meta"]["root"] == indexed.new_root


def test_roots_lists_both_runs(indexed: Indexed) -> None:
    roots = Store.open(indexed.index_dir).roots()
    ids = [r.id for r in roots]
    assert ids[:2] == [indexed.new_root, indexed.old_root]
    assert roots[0].is_head and roots[0].git_commit == indexed.new_commit
    assert roots[1].git_commit == indexed.old_commit
    out = subprocess.run(
        [sys.executable, "-m", "cli", "roots", "--index-dir", str(indexed.index_dir), "--json"],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert out.returncode == 0, out.stderr
    listed = json.loads(out.stdout)
    assert [r["id"] for r in listed][:2] == [indexed.new_root, indexed.old_root]


def test_older_root_answers_as_it_was(indexed: Indexed) -> None:
    assert _symbols(indexed, root=indexed.old_root) == ALL - {"added_func"}
    assert _symbols(indexed, root=indexed.old_root[:12]) == ALL - {"added_func"}  # a unique prefix
    res = open_engine(indexed.index_dir).search("zebra", SearchOptions(mode="lexical", root=indexed.old_root))
    assert res.meta.root == indexed.old_root
    assert res.meta.indexed_commit == indexed.old_commit
    # Time filters apply to the older root too.
    assert _symbols(indexed, root=indexed.old_root, since=T2022) == {"changed_func"}


def test_meta_says_how_fresh(indexed: Indexed) -> None:
    res = open_engine(indexed.index_dir).search("zebra", SearchOptions(mode="lexical"))
    assert res.meta.root == indexed.new_root == Store.open(indexed.index_dir).head()
    assert res.meta.indexed_commit == indexed.new_commit
    roots = {r.id: r for r in Store.open(indexed.index_dir).roots()}
    assert res.meta.published_at == int(roots[indexed.new_root].created_at)


def test_status_says_times_came_from_git(indexed: Indexed) -> None:
    st = index_status(indexed.index_dir)
    assert st.times_from == "git"
    assert st.root == indexed.new_root and st.git_commit == indexed.new_commit
    assert st.roots >= 2


def test_edit_after_indexing_is_stale(tmp_path: Path, indexed: Indexed) -> None:
    # A private copy: this test edits files, the others must keep a clean tree.
    repo = tmp_path / "repo"
    shutil.copytree(indexed.repo, repo, symlinks=True)
    build_index(repo, BuildOptions(embed="none", rebuild=True))
    index_dir = repo / ".qry"
    lib = repo / "lib.py"
    lib.write_text(LIB + "\n# edited\n")
    os.utime(lib, (T_MTIME, T_MTIME))
    res = open_engine(index_dir).search("zebra", SearchOptions(mode="lexical", top_k=50, kinds=["function"]))
    stale = {h.symbol: h.stale for h in res.results}
    assert stale == {"old_func": False, "changed_func": False, "added_func": False, "legacy_helper": True}
    st = index_status(index_dir)
    assert st.changes.modified == ["lib.py"]
    assert st.changes.deleted == [] and st.changes.added == []
    # Re-indexing blames the edited file: the new line is uncommitted, so it takes the file time.
    build_index(repo, BuildOptions(embed="none"))
    res = open_engine(index_dir).search("legacy_helper", SearchOptions(mode="lexical", kinds=["function"]))
    assert res.results[0].symbol == "legacy_helper" and not res.results[0].stale
    assert res.results[0].last_changed == T2020  # its own lines did not change
    assert index_status(index_dir).changes.modified == []


def test_outside_git_uses_file_times(tmp_path: Path) -> None:
    plain = tmp_path / "plain"
    plain.mkdir()
    (plain / "app.py").write_text(APP_2020)
    (plain / "lib.py").write_text(LIB)
    os.utime(plain / "app.py", (T2020, T2020))
    os.utime(plain / "lib.py", (T2023, T2023))
    build_index(plain, BuildOptions(embed="none"))
    index_dir = plain / ".qry"
    assert index_status(index_dir).times_from == "file times"
    engine = open_engine(index_dir)
    opts = SearchOptions(mode="lexical", top_k=50, kinds=["function"], since=T2022)
    assert {h.symbol for h in engine.search("zebra", opts).results} == {"legacy_helper"}
    opts = SearchOptions(mode="lexical", top_k=50, kinds=["function"], as_of=T2022)
    assert {h.symbol for h in engine.search("zebra", opts).results} == {"old_func", "changed_func"}


def test_no_git_times_option_uses_file_times(tmp_path: Path, indexed: Indexed) -> None:
    repo = tmp_path / "repo"
    shutil.copytree(indexed.repo, repo, symlinks=True)
    shutil.rmtree(repo / ".qry")
    for name in ("app.py", "lib.py"):
        os.utime(repo / name, (T_MTIME, T_MTIME))
    build_index(repo, BuildOptions(embed="none", git_times=False))
    index_dir = repo / ".qry"
    assert index_status(index_dir).times_from == "file times"
    res = open_engine(index_dir).search("zebra", SearchOptions(mode="lexical", top_k=50, kinds=["function"]))
    assert {h.last_changed for h in res.results} == {T_MTIME}


def test_since_after_until_is_a_usage_error(indexed: Indexed) -> None:
    from indexlib import UsageError

    # the library's caller wrote fields, not the CLI's flags
    with pytest.raises(UsageError, match="since='2025-01-01' is after until='2020-01-01'"):
        _symbols(indexed, since="2025-01-01", until="2020-01-01")


def test_work_committed_after_indexing_takes_its_commit_time(tmp_path: Path) -> None:
    # Uncommitted lines take the file's time; once committed unchanged, a content-only reuse kept that
    # time for good (a `git mv` of a 2020 file read as written in 2024). The commit must re-time them.
    repo = _new_repo(tmp_path / "repo", {"lib.py": LIB, "app.py": APP_2020})
    _commit(repo, T2020, "first")
    _git(repo, "mv", "lib.py", "helpers.py")
    (repo / "app.py").write_text(APP_2022)
    for name in ("helpers.py", "app.py"):
        os.utime(repo / name, (T_MTIME, T_MTIME))
    build_index(repo, BuildOptions(embed="none"))
    index_dir = repo / ".qry"
    _commit(repo, T2022, "rename lib, change changed_func")
    report = build_index(repo, BuildOptions(embed="none"))
    assert report.published and report.changed == 2  # .gitignore, committed as it was, stays reused
    res = open_engine(index_dir).search("zebra", SearchOptions(mode="lexical", top_k=50, kinds=["function"]))
    changed = {h.symbol: h.last_changed for h in res.results}
    assert changed == {"legacy_helper": T2020, "old_func": T2020, "changed_func": T2022}
    again = build_index(repo, BuildOptions(embed="none"))  # HEAD did not move: nothing to re-time
    assert not again.published and again.changed == 0
