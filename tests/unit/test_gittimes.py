"""gittimes.annotate on scripted repositories: per-node created/changed from blame, the single-commit fast
path, renames, uncommitted and untracked files, the budget fallback, and every way git can be absent."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest
import xxhash

from indexlib.gittimes import GitTimesStats, annotate, parse_blame_porcelain
from indexlib.records import Node

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")

# Author dates are a year before committer dates, so a test can tell which one annotate used.
T2019 = 1546300800  # 2019-01-01
T2020 = 1577836800  # 2020-01-01
T2021 = 1609459200  # 2021-01-01
T2022 = 1640995200  # 2022-01-01
T2023 = 1672531200  # 2023-01-01
T_MTIME = 1704067200  # 2024-01-01: the file time of uncommitted work

MOD_2020 = "import os\n\ndef alpha():\n    return 1\n\ndef beta():\n    return 2\n"
MOD_2022 = MOD_2020.replace("return 2", "return 3")
MOD_NOW = MOD_2022 + "def gamma():\n    return 4\n"


def git(repo: Path, *args: str, when: int | None = None, author: int | None = None) -> str:
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": "t",
        "GIT_AUTHOR_EMAIL": "t@example.com",
        "GIT_COMMITTER_NAME": "t",
        "GIT_COMMITTER_EMAIL": "t@example.com",
        "GIT_CONFIG_NOSYSTEM": "1",
        "HOME": str(repo.parent),
    }
    if when is not None:
        env["GIT_COMMITTER_DATE"] = f"@{when} +0000"
        env["GIT_AUTHOR_DATE"] = f"@{author if author is not None else when - 365 * 86400} +0000"
    out = subprocess.run(["git", "-C", str(repo), *args], env=env, capture_output=True, text=True, check=True)
    return out.stdout


def commit(repo: Path, when: int, message: str = "change") -> None:
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "--allow-empty", "-m", message, when=when)


def fn(path: str, name: str, start: int, end: int, kind: str = "function", parent: int = 0) -> Node:
    return Node(
        uid=xxhash.xxh3_64_intdigest(f"{path}:{name}".encode("utf-8", "surrogateescape")),
        content_hash=0,
        path=path,
        language="python",
        kind=kind,
        name=name,
        qualified_name=name,
        start_line=start,
        end_line=end,
        start_byte=0,
        end_byte=0,
        parent_uid=parent,
        text="",
    )


def mod_nodes(last_line: int = 9) -> list[Node]:
    """The nodes a parser would cut from MOD_NOW (the module node spans its holes, as extract does);
    `last_line=7` for the committed versions, which have no gamma."""
    path = "mod.py"
    return [
        fn(path, "mod", 1, last_line, kind="module"),
        fn(path, "alpha", 3, 4),
        fn(path, "beta", 6, 7),
        fn(path, "gamma", 8, 9),
    ]


Times = dict[str, tuple[int | None, int | None]]


def run(
    root: Path, nodes: list[Node], *, use_git: bool = True, budget: float = 30.0
) -> tuple[Times, str, GitTimesStats]:
    """annotate() as the build calls it; node times by node name, the source, and the stats."""
    stats = GitTimesStats()
    mtimes = {n.path: os.stat(root / n.path).st_mtime_ns for n in nodes if (root / n.path).exists()}
    out, source = annotate(root, nodes, mtimes, use_git=use_git, budget=budget, stats=stats)
    assert sorted(n.uid for n in out) == sorted(n.uid for n in nodes)
    assert stats.error == ""
    return {n.name: (n.created_at, n.changed_at) for n in out}, source, stats


def write(root: Path, rel: str, text: str, mtime: int | None = None) -> None:
    p = root / rel
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(text)
    if mtime is not None:
        os.utime(p, (mtime, mtime))


@pytest.fixture()
def repo(tmp_path: Path) -> Path:
    """mod.py: two functions in 2020, beta changed in 2022, gamma added and not committed."""
    root = tmp_path / "repo"
    root.mkdir()
    git(root, "init", "-q", "-b", "main")
    write(root, "mod.py", MOD_2020)
    write(root, "solo.py", "def solo():\n    return 0\n")
    commit(root, T2020, "first")
    write(root, "mod.py", MOD_2022)
    commit(root, T2022, "beta")
    write(root, "mod.py", MOD_NOW, mtime=T_MTIME)
    return root


def test_blame_times_per_node(repo: Path) -> None:
    times, source, stats = run(repo, mod_nodes())
    assert source == "git"
    assert times["alpha"] == (T2020, T2020)
    assert times["beta"] == (T2020, T2022)  # line 6 from 2020, line 7 from 2022
    assert times["gamma"] == (T_MTIME, T_MTIME)  # uncommitted lines take the file time
    # The module's own lines (import, blank lines) are all from 2020, though it spans the functions.
    assert times["mod"] == (T2020, T2020)
    assert stats.modified == 1 and stats.blamed == 1


def test_committer_time_not_author_time(repo: Path) -> None:
    times, _, _ = run(repo, [fn("solo.py", "solo", 1, 2)])
    assert times["solo"] == (T2020, T2020)  # the author date of that commit was 2019


def test_single_commit_file_skips_blame(repo: Path) -> None:
    times, _, stats = run(repo, [fn("solo.py", "solo", 1, 2)])
    assert times["solo"] == (T2020, T2020)
    assert stats.single_commit == 1 and stats.blamed == 0 and stats.log_complete


def test_clean_file_with_history_is_blamed(repo: Path) -> None:
    git(repo, "checkout", "-q", "--", "mod.py")  # back to the 2022 commit: clean, two commits
    times, _, stats = run(repo, mod_nodes(7)[:3])
    assert times["alpha"] == (T2020, T2020)
    assert times["beta"] == (T2020, T2022)
    assert stats.blamed == 1 and stats.modified == 0


def test_untracked_file_takes_its_mtime(repo: Path) -> None:
    write(repo, "new.py", "def fresh():\n    pass\n", mtime=T2023)
    times, source, stats = run(repo, [fn("new.py", "fresh", 1, 2)])
    assert source == "git"
    assert times["fresh"] == (T2023, T2023)
    assert stats.untracked == 1


def test_staged_never_committed_file_takes_its_mtime(repo: Path) -> None:
    write(repo, "staged.py", "x = 1\n", mtime=T2023)
    git(repo, "add", "staged.py")
    times, _, _ = run(repo, [fn("staged.py", "x", 1, 1, kind="module")])
    assert times["x"] == (T2023, T2023)


def test_rename_keeps_the_original_times(repo: Path) -> None:
    git(repo, "mv", "solo.py", "moved.py")
    commit(repo, T2023, "rename")
    times, _, stats = run(repo, [fn("moved.py", "solo", 1, 2)])
    # The log shows one commit for moved.py, but it is a rename, not an addition: blame follows it.
    assert times["solo"] == (T2020, T2020)
    assert stats.single_commit == 0 and stats.blamed == 1


def test_budget_spent_falls_back_to_log_times(repo: Path) -> None:
    git(repo, "checkout", "-q", "--", "mod.py")
    times, _, stats = run(repo, mod_nodes(7)[:3], budget=0.0)
    # No blame ran: every node gets the file's first and last commit times (bounds, not exact).
    assert stats.blamed == 0 and stats.fallback == 1
    assert times["alpha"] == times["beta"] == times["mod"]
    created, changed = times["alpha"]
    assert created is not None and changed is not None
    assert created <= T2020 and changed >= T2022


def test_budget_fallback_for_modified_file_uses_mtime(repo: Path) -> None:
    times, _, stats = run(repo, mod_nodes(), budget=0.0)
    assert stats.fallback == 1
    assert times["gamma"][1] == T_MTIME and times["alpha"][1] == T_MTIME


def test_weird_paths(repo: Path) -> None:
    names = ["with space.py", "new\nline.py", "-dash.py", "tab\there.py", "ünï.py", 'quo"te.py']
    for i, name in enumerate(names):
        write(repo, f"d i r/{name}", f"v = {i}\n")
    bad = os.fsdecode(b"bad\xff.py")  # not UTF-8: a str with a surrogate escape, as os.fsdecode gives
    try:
        (repo / bad).write_text("w = 1\n")
    except (OSError, UnicodeError):  # a file system that refuses non-UTF-8 names
        bad = ""
    commit(repo, T2021, "weird")
    for i, name in enumerate(names):
        (repo / f"d i r/{name}").write_text(f"v = {i}\nw = 1\n")  # a second commit: each is blamed
    commit(repo, T2023, "weird again")
    nodes = [fn(f"d i r/{name}", name, 1, 2, kind="module") for name in names]
    if bad:
        nodes.append(fn(bad, "bad", 1, 1, kind="module"))
    times, source, stats = run(repo, nodes)
    assert source == "git"
    for name in names:
        assert times[name] == (T2021, T2023), name
    if bad:
        assert times["bad"] == (T2021, T2021)
    assert stats.blamed == len(names) and stats.blame_failed == 0


def test_subdirectory_root(repo: Path) -> None:
    write(repo, "pkg/inner.py", "def inner():\n    pass\n")
    commit(repo, T2021, "inner")
    times, source, _ = run(repo / "pkg", [fn("inner.py", "inner", 1, 2)])
    assert source == "git"
    assert times["inner"] == (T2021, T2021)


def test_detached_head(repo: Path) -> None:
    git(repo, "checkout", "-q", "--", "mod.py")
    git(repo, "checkout", "-q", "--detach", "HEAD~1")  # the 2020 state
    times, source, _ = run(repo, mod_nodes(7)[:3])
    assert source == "git"
    assert times["beta"] == (T2020, T2020)


def test_shallow_clone_attributes_to_the_boundary(repo: Path, tmp_path: Path) -> None:
    clone = tmp_path / "shallow"
    subprocess.run(
        ["git", "clone", "-q", "--depth", "1", f"file://{repo}", str(clone)], check=True, capture_output=True
    )
    times, source, _ = run(clone, mod_nodes(7)[:3])
    assert source == "git"
    assert times["alpha"] == (T2022, T2022)  # history before the boundary is not there: the boundary owns it


def test_outside_git_uses_file_times(tmp_path: Path) -> None:
    write(tmp_path, "plain.py", "x = 1\n", mtime=T2021)
    times, source, _ = run(tmp_path, [fn("plain.py", "x", 1, 1, kind="module")])
    assert source == "file times"
    assert times["x"] == (T2021, T2021)


def test_use_git_false_uses_file_times(repo: Path) -> None:
    times, source, stats = run(repo, mod_nodes(), use_git=False)
    assert source == "file times"
    assert times["alpha"] == (T_MTIME, T_MTIME)
    assert stats.blamed == 0


def test_repository_without_commits_uses_file_times(tmp_path: Path) -> None:
    root = tmp_path / "empty"
    root.mkdir()
    git(root, "init", "-q")
    write(root, "a.py", "x = 1\n", mtime=T2021)
    _, source, _ = run(root, [fn("a.py", "x", 1, 1, kind="module")])
    assert source == "file times"


def test_git_missing_uses_file_times(repo: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    empty = tmp_path / "nobin"
    empty.mkdir()
    monkeypatch.setenv("PATH", str(empty))
    times, source, _ = run(repo, mod_nodes())
    assert source == "file times"
    assert times["alpha"] == (T_MTIME, T_MTIME)


def test_file_changed_after_read_falls_back(repo: Path) -> None:
    """Nodes past the end of the file blame sees (the file shrank since it was parsed): no crash."""
    times, _, _ = run(repo, [fn("mod.py", "ghost", 1, 50)])
    assert times["ghost"][1] == T_MTIME


def test_empty_input() -> None:
    assert annotate(Path("/"), [], {}, use_git=True) == ([], "file times")


def test_parse_blame_porcelain_ignores_content_that_looks_like_headers() -> None:
    sha = "a" * 40
    out = (
        f"{sha} 1 1 2\ncommitter-time 100\nsummary x\n\tcommitter-time 999\n"
        f"{sha} 2 2\n\t{'b' * 40} 1 1 1\n"
        f"{'0' * 40} 3 3 1\ncommitter-time 5\n\tnew line\n"
    ).encode()
    assert parse_blame_porcelain(out, 42) == [100, 100, 42]
