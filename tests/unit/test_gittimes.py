"""Node times from gittimes (plan_times, then apply_times) on scripted repositories, with both
strategies (blame per file, and the replay of the log): per-node created/changed, renames, merges, uncommitted and untracked files, the budget bounds, weird
paths, and every way git can be absent. The replay must give blame's answer line for line."""

from __future__ import annotations

import os
import random
import shutil
import subprocess
from pathlib import Path

import msgspec
import pytest
import xxhash

from indexlib.index.gittimes import GitTimesStats, apply_times, logwalk, parse_blame_porcelain, plan_times
from indexlib.index.gittimes import cache as cache_module
from indexlib.index.gittimes.cache import TimesCache
from indexlib.index.gittimes.git import GitRepo, patches, unquote
from indexlib.records import Node
from tests.gitrepo import git as scripted_git

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")

# Author dates are a year before committer dates, so a test can tell which one the times came from.
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
    # By default the author date lies a year earlier, so a test sees which date the reader takes.
    if when is not None and author is None:
        author = when - 365 * 86400
    return scripted_git(repo, *args, when=when, author=author)


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
STRATEGIES = {"blame": 1 << 30, "replay": 0}  # direct_max: blame up to that many files, else replay


@pytest.fixture(params=sorted(STRATEGIES))
def strategy(request: pytest.FixtureRequest) -> str:
    return str(request.param)


def run(
    root: Path, nodes: list[Node], strategy: str = "blame", *, use_git: bool = True, budget: float = 30.0
) -> tuple[Times, str, GitTimesStats]:
    """Node times as the build gets them (plan the files' line times, then cut them into nodes), by
    node name; the source, and the stats."""
    stats = GitTimesStats()
    mtimes = {n.path: os.stat(root / n.path).st_mtime_ns for n in nodes if (root / n.path).exists()}
    paths = list(dict.fromkeys(n.path for n in nodes))
    plans, source = plan_times(
        root, paths, mtimes, use_git=use_git, budget=budget, direct_max=STRATEGIES[strategy], stats=stats
    )
    out = apply_times(nodes, plans)
    assert sorted(n.uid for n in out) == sorted(n.uid for n in nodes)
    assert stats.error == ""
    if source == "git" and stats.files > stats.untracked:
        assert stats.strategy == strategy
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


def test_times_per_node(repo: Path, strategy: str) -> None:
    times, source, stats = run(repo, mod_nodes(), strategy)
    assert source == "git"
    assert times["alpha"] == (T2020, T2020)
    assert times["beta"] == (T2020, T2022)  # line 6 from 2020, line 7 from 2022
    assert times["gamma"] == (T_MTIME, T_MTIME)  # uncommitted lines take the file time
    # The module's own lines (import, blank lines) are all from 2020, though it spans the functions.
    assert times["mod"] == (T2020, T2020)
    assert stats.modified == 1 and stats.fallback == 0


def test_a_line_the_file_repeats_does_not_date_a_function(tmp_path: Path, strategy: str) -> None:
    # After the reorder, the diff matches beta's last lines (`return`, `}`, `done()`) to alpha's from
    # 2020: beta, added in 2021, would have "existed" in 2020. Its own lines say it did not.
    root = tmp_path / "repo"
    root.mkdir()
    git(root, "init", "-q", "-b", "main")
    alpha = "func alpha() {\n\tif x {\n\t\treturn\n\t}\n\tdone()\n}\n"
    beta = alpha.replace("alpha", "beta").replace("if x", "if y")
    gamma = alpha.replace("alpha", "gamma").replace("if x", "if z")
    write(root, "f.go", "package p\n\n" + alpha)
    commit(root, T2020)
    write(root, "f.go", "package p\n\n" + beta + "\n" + alpha)
    commit(root, T2021)
    text = "package p\n\n" + alpha + "\n" + gamma + "\n" + beta
    write(root, "f.go", text)
    commit(root, T2022)
    lines = text.split("\n")
    nodes = []
    for name, start in (("alpha", 3), ("gamma", 10), ("beta", 17)):
        n = fn("f.go", name, start, start + 5)
        nodes.append(msgspec.structs.replace(n, text="\n".join(lines[start - 1 : start + 5])))
    blamed = git(root, "blame", "--first-parent", "-s", "f.go").splitlines()
    assert blamed[18].startswith("^"), "the scenario needs beta's `return` blamed on the first commit"
    times, _source, _stats = run(root, nodes, strategy)
    assert times["beta"][0] is not None and times["beta"][0] >= T2021, times
    assert times["gamma"] == (T2022, T2022)


def test_committer_time_not_author_time(repo: Path, strategy: str) -> None:
    times, _, _ = run(repo, [fn("solo.py", "solo", 1, 2)], strategy)
    assert times["solo"] == (T2020, T2020)  # the author date of that commit was 2019


def test_replay_needs_no_blame_on_a_linear_history(repo: Path) -> None:
    git(repo, "checkout", "-q", "--", "mod.py")
    times, _, stats = run(repo, [*mod_nodes(7)[:3], fn("solo.py", "solo", 1, 2)], "replay")
    assert times["beta"] == (T2020, T2022) and times["solo"] == (T2020, T2020)
    assert stats.blamed == 0 and stats.replay_complete and stats.replay_commits == 2


def test_clean_file_with_history(repo: Path, strategy: str) -> None:
    git(repo, "checkout", "-q", "--", "mod.py")  # back to the 2022 commit: clean, two commits
    times, _, stats = run(repo, mod_nodes(7)[:3], strategy)
    assert times["alpha"] == (T2020, T2020)
    assert times["beta"] == (T2020, T2022)
    assert stats.modified == 0


def test_untracked_file_takes_its_mtime(repo: Path, strategy: str) -> None:
    write(repo, "new.py", "def fresh():\n    pass\n", mtime=T2023)
    times, source, stats = run(repo, [fn("new.py", "fresh", 1, 2)], strategy)
    assert source == "git"
    assert times["fresh"] == (T2023, T2023)
    assert stats.untracked == 1


def test_staged_never_committed_file_takes_its_mtime(repo: Path, strategy: str) -> None:
    write(repo, "staged.py", "x = 1\n", mtime=T2023)
    git(repo, "add", "staged.py")
    times, _, _ = run(repo, [fn("staged.py", "x", 1, 1, kind="module")], strategy)
    assert times["x"] == (T2023, T2023)


def test_rename_keeps_the_original_times(repo: Path, strategy: str) -> None:
    git(repo, "mv", "solo.py", "moved.py")
    (repo / "moved.py").write_text("def solo():\n    return 0\n\n\ndef more():\n    pass\n")
    commit(repo, T2023, "rename and extend")
    times, _, _ = run(repo, [fn("moved.py", "solo", 1, 2), fn("moved.py", "more", 5, 6)], strategy)
    assert times["solo"] == (T2020, T2020)  # followed through the rename, as blame does
    assert times["more"] == (T2023, T2023)


def test_a_split_definition_takes_the_times_of_all_its_parts(repo: Path, strategy: str) -> None:
    # A definition too long for one node is stored as windows; search answers any window as the whole
    # definition with part 0's time, so every part must carry the whole's (earliest, latest): else
    # `--since 2022` keeps the hit through part 1 and prints part 0's 2020 as its last change.
    git(repo, "checkout", "-q", "--", "mod.py")  # the 2022 version: beta's return changed in 2022
    head = fn("mod.py", "big", 3, 5)
    tail = msgspec.structs.replace(fn("mod.py", "big", 6, 7), part=1, uid=head.uid + 1)
    other = fn("mod.py", "alpha", 3, 4)
    mtimes = {"mod.py": os.stat(repo / "mod.py").st_mtime_ns}
    plans, _ = plan_times(repo, ["mod.py"], mtimes, use_git=True, direct_max=STRATEGIES[strategy])
    out = {(n.name, n.part): (n.created_at, n.changed_at) for n in apply_times([head, tail, other], plans)}
    assert out[("big", 0)] == out[("big", 1)] == (T2020, T2022)
    assert out[("alpha", 0)] == (T2020, T2020)  # not a part of big: its own lines' times


def test_merged_side_branch_gets_the_time_it_landed_on_this_branch(repo: Path, strategy: str) -> None:
    git(repo, "checkout", "-q", "--", "mod.py")
    git(repo, "checkout", "-q", "-b", "side")
    (repo / "solo.py").write_text("def solo():\n    return 0\n\n\ndef side():\n    pass\n")
    commit(repo, T2021, "side work")
    git(repo, "checkout", "-q", "main")
    write(repo, "other.py", "o = 1\n")
    commit(repo, T2022 + 86400, "main work")
    git(repo, "merge", "-q", "--no-ff", "-m", "merge side", "side", when=T2023)
    times, _, stats = run(repo, [fn("solo.py", "solo", 1, 2), fn("solo.py", "side", 5, 6)], strategy)
    # Written on the side branch in 2021, on main only since the 2023 merge: under --as-of 2022 main
    # did not have it. Both strategies agree, and the replay needs no blame to say so.
    assert times["side"] == (T2023, T2023)
    assert times["solo"] == (T2020, T2020)
    if strategy == "replay":
        assert stats.merge_files == 1 and stats.blamed == 0


def test_budget_spent_leaves_upper_bounds(repo: Path, strategy: str) -> None:
    git(repo, "checkout", "-q", "--", "mod.py")
    times, _, stats = run(repo, mod_nodes(7)[:3], strategy, budget=0.0)
    # No history was read: every committed line is bounded by HEAD's commit time (2022).
    assert stats.blamed == 0 and stats.fallback == 1
    assert times["alpha"] == times["beta"] == times["mod"] == (T2022, T2022)


def test_budget_spent_on_a_modified_file(repo: Path, strategy: str) -> None:
    times, _, stats = run(repo, mod_nodes(), strategy, budget=0.0)
    assert stats.fallback == 1
    assert times["gamma"][1] == T_MTIME
    if strategy == "replay":
        # The work-tree diff still ran: only the uncommitted lines take the file time.
        assert times["alpha"] == (T2022, T2022) and times["gamma"] == (T_MTIME, T_MTIME)
    else:
        assert times["alpha"] == (T2022, T_MTIME)


def test_weird_paths(repo: Path, strategy: str) -> None:
    names = [
        "with space.py",
        "new\nline.py",
        "-dash.py",
        "tab\there.py",
        "ünï.py",
        'quo"te.py',
        "back\\slash.py",
    ]
    for i, name in enumerate(names):
        write(repo, f"d i r/{name}", f"v = {i}\n")
    bad = os.fsdecode(b"bad\xff.py")  # not UTF-8: a str with a surrogate escape, as os.fsdecode gives
    try:
        (repo / bad).write_text("w = 1\n")
    except (OSError, UnicodeError):  # a file system that refuses non-UTF-8 names
        bad = ""
    commit(repo, T2021, "weird")
    for i, name in enumerate(names):
        (repo / f"d i r/{name}").write_text(f"v = {i}\nw = 1\n")  # a second commit
    commit(repo, T2023, "weird again")
    git(repo, "mv", "d i r/with space.py", "d i r/renamed space.py")  # a pure rename, followed back
    commit(repo, T2023 + 86400, "rename")
    names[0] = "renamed space.py"
    nodes = [fn(f"d i r/{name}", name, 1, 2, kind="chunk") for name in names]
    nodes += [fn(f"d i r/{name}", name + ":1", 1, 1, kind="chunk") for name in names]
    if bad:
        nodes.append(fn(bad, "bad", 1, 1, kind="module"))
    times, source, stats = run(repo, nodes, strategy)
    assert source == "git"
    for name in names:
        assert times[name] == (T2021, T2023), name
        assert times[name + ":1"] == (T2021, T2021), name
    if bad:
        assert times["bad"] == (T2021, T2021)
    assert stats.blame_failed == 0 and stats.fallback == 0


def test_subdirectory_root(repo: Path, strategy: str) -> None:
    write(repo, "pkg/inner.py", "def inner():\n    pass\n")
    commit(repo, T2021, "inner")
    times, source, _ = run(repo / "pkg", [fn("inner.py", "inner", 1, 2)], strategy)
    assert source == "git"
    assert times["inner"] == (T2021, T2021)


def test_detached_head(repo: Path, strategy: str) -> None:
    git(repo, "checkout", "-q", "--", "mod.py")
    git(repo, "checkout", "-q", "--detach", "HEAD~1")  # the 2020 state
    times, source, _ = run(repo, mod_nodes(7)[:3], strategy)
    assert source == "git"
    assert times["beta"] == (T2020, T2020)


def test_shallow_clone_attributes_to_the_boundary(repo: Path, tmp_path: Path, strategy: str) -> None:
    clone = tmp_path / "shallow"
    subprocess.run(
        ["git", "clone", "-q", "--depth", "1", f"file://{repo}", str(clone)], check=True, capture_output=True
    )
    times, source, _ = run(clone, mod_nodes(7)[:3], strategy)
    assert source == "git"
    assert times["alpha"] == (T2022, T2022)  # history before the boundary is not there: the boundary owns it


def _random_history(root: Path) -> dict[str, list[str]]:
    """30 steps of random edits (insert, delete, change; a rename at step 15; f1.txt without a final
    newline; every 7th step's edits merged from a side branch); returns the files' lines at HEAD."""
    rng = random.Random(5)
    root.mkdir()
    git(root, "init", "-q", "-b", "main")
    files = {f"f{i}.txt": [f"line {i}.{j}" for j in range(rng.randint(0, 12))] for i in range(6)}
    when = T2019
    for step in range(30):
        when += 86400 * rng.randint(1, 30)
        for name in rng.sample(sorted(files), rng.randint(1, 3)):
            lines = files[name]
            for _ in range(rng.randint(1, 4)):
                op, at = rng.random(), rng.randint(0, len(lines))
                if op < 0.4 or not lines:
                    lines[at:at] = [f"new {step}.{k}" for k in range(rng.randint(1, 3))]
                elif op < 0.7:
                    del lines[min(at, len(lines) - 1)]
                else:
                    lines[min(at, len(lines) - 1)] = f"changed {step}"
        if step == 15:
            files["renamed.txt"] = files.pop("f0.txt")
            git(root, "mv", "f0.txt", "renamed.txt")
        if step % 7 == 3:  # this step's edits land through a merge of a side branch
            git(root, "checkout", "-q", "-b", f"side{step}")
        for name, lines in files.items():
            end = "" if name == "f1.txt" else "\n"
            (root / name).write_text("\n".join(lines) + (end if lines else ""))
        commit(root, when, f"step {step}")
        if step % 7 == 3:
            git(root, "checkout", "-q", "main")
            git(root, "merge", "-q", "--no-ff", "-m", f"merge {step}", f"side{step}", when=when + 3600)
    return files


def _line_nodes(root: Path, names: list[str]) -> list[Node]:
    return [
        fn(name, f"{name}:{j}", j, j, kind="chunk")
        for name in names
        for j in range(1, _lines_of(root / name) + 1)
    ]


@pytest.mark.parametrize("gits", [1, 3])
def test_replay_equals_blame_line_by_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, gits: int) -> None:
    """Random edits (insert, delete, change, rename, no final newline, merges of side branches) over many
    commits: the replay's time for every line of every file is exactly what `git blame --first-parent`
    says."""
    root = tmp_path / "random"
    files = _random_history(root)
    (root / "f2.txt").write_text((root / "f2.txt").read_text() + "uncommitted\n")
    nodes = _line_nodes(root, list(files))
    # gits=3: the log is read as three consecutive segments, each from its own git process.
    monkeypatch.setattr(logwalk, "SEGMENT_MIN_COMMITS", 10)
    monkeypatch.setattr(logwalk, "available_cores", lambda: gits)
    replay, _, stats = run(root, nodes, "replay")
    assert stats.replay_complete and stats.blamed == 0 and stats.merge_files > 0
    opened = GitRepo.open(root)
    assert opened is not None and len(logwalk._boundaries(opened, gits)) == gits - 1
    blamed, _, _ = run(root, nodes, "blame")
    assert replay == blamed


def _plan(
    root: Path, names: list[str], cache: Path | None, direct_max: int = 0
) -> tuple[dict[str, list[int] | None], GitTimesStats]:
    st = GitTimesStats()
    mtimes = {n: os.stat(root / n).st_mtime_ns for n in names}
    plans, source = plan_times(
        root, names, mtimes, use_git=True, direct_max=direct_max, stats=st, cache_dir=cache
    )
    assert source == "git" and st.error == ""
    return {n: plans[n].lines for n in names}, st


def test_cached_history_is_not_read_again_at_the_same_commit(tmp_path: Path) -> None:
    root = tmp_path / "random"
    names = list(_random_history(root))
    cache = tmp_path / "cache"
    first, st1 = _plan(root, names, cache)
    assert st1.replay_commits > 0 and st1.cached_from == ""
    (entry,) = cache.glob("*.times")
    written = entry.stat().st_ino
    again, st2 = _plan(root, names, cache, direct_max=1 << 30)  # few files: the cache still wins over blame
    assert st2.strategy == "replay" and st2.replay_commits == 0 and st2.cached_files == len(names)
    assert again == first == _plan(root, names, None, direct_max=1 << 30)[0]  # the uncached blame's answer
    assert entry.stat().st_ino == written  # nothing new to keep: the entry was not written again


def test_after_new_commits_only_they_are_read_and_times_stay_exact(tmp_path: Path) -> None:
    """A build at main~20 (before the rename and two merges), then one at main: the walk reads the 20
    new commits, follows renamed.txt back to f0.txt, takes the older lines from the cache, and gives
    `git blame --first-parent`'s answer for every line, uncommitted ones included."""
    root = tmp_path / "random"
    names = list(_random_history(root))
    cache = tmp_path / "cache"
    git(root, "checkout", "-q", "main~20")
    old_names = [p.name for p in sorted(root.glob("*.txt"))]
    assert "f0.txt" in old_names and "renamed.txt" not in old_names
    _plan(root, old_names, cache)
    git(root, "checkout", "-q", "main")
    (root / "f2.txt").write_text((root / "f2.txt").read_text() + "uncommitted\n")
    cached, st = _plan(root, names, cache)
    assert st.cached_from and st.replay_commits == 20 and st.cached_files > 0 and st.replay_complete
    blamed, _ = _plan(root, names, None, direct_max=1 << 30)
    assert cached == blamed


def test_a_walk_that_stops_short_of_the_cached_commit_takes_nothing_from_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """When the log above the cached commit cannot be read to its end (here git refuses the range),
    the tracks are not at that commit's lines: its entry must not be applied, even where its files
    have as many lines (a poisoned entry, every time 0, shaped like HEAD's); blame gives the times."""
    root = tmp_path / "random"
    names = list(_random_history(root))
    exact, _ = _plan(root, names, None, direct_max=1 << 30)
    poisoned = {os.fsencode(n): [0] * len(lines or []) for n, lines in exact.items()}
    no_such_commit = "0" * 39 + "1"
    monkeypatch.setattr(TimesCache, "nearest", lambda self, repo: (no_such_commit, poisoned))
    got, st = _plan(root, names, tmp_path / "cache")
    assert st.cached_from and st.cached_files == 0 and not st.replay_complete
    assert got == exact


def test_a_damaged_or_dirty_entry_is_never_served(tmp_path: Path) -> None:
    root = tmp_path / "random"
    names = list(_random_history(root))
    cache = tmp_path / "cache"
    (root / "f3.txt").write_text((root / "f3.txt").read_text() + "uncommitted\n")
    exact, _ = _plan(root, names, cache)
    head = git(root, "rev-parse", "HEAD").strip()
    entry = TimesCache(cache).load(head)
    assert entry is not None and b"f3.txt" not in entry and b"f2.txt" in entry  # a dirty file is not kept
    path = cache / f"{head}.times"
    data = bytearray(path.read_bytes())
    data[-1] ^= 0xFF
    path.write_bytes(bytes(data))
    again, st = _plan(root, names, cache)
    assert st.cached_from == "" and st.replay_commits > 0  # the damaged entry was ignored
    assert again == exact


def test_the_cache_keeps_the_most_recently_used_commits(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(cache_module, "MAX_ENTRIES", 2)
    store = TimesCache(tmp_path / "cache")
    for i, sha in enumerate(("a" * 40, "b" * 40, "c" * 40)):
        store.save(sha, {b"x.py": [i]})
        os.utime(tmp_path / "cache" / f"{sha}.times", ns=(i * 10**9, i * 10**9))
    store.save("d" * 40, {b"x.py": [3]})
    assert store.commits() == {"c" * 40, "d" * 40}
    assert oct((tmp_path / "cache").stat().st_mode & 0o777) == "0o700"
    assert oct((tmp_path / "cache" / f"{'d' * 40}.times").stat().st_mode & 0o777) == "0o600"


def _lines_of(path: Path) -> int:
    data = path.read_bytes()
    return data.count(b"\n") + (1 if data and not data.endswith(b"\n") else 0)


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


def test_file_changed_after_read_falls_back(repo: Path, strategy: str) -> None:
    """Nodes past the end of the file git sees (the file shrank since it was parsed): bounds, no crash."""
    times, _, _ = run(repo, [fn("mod.py", "ghost", 1, 50)], strategy)
    assert times["ghost"] == (T2022, T_MTIME)


def test_empty_input() -> None:
    assert plan_times(Path("/"), [], {}, use_git=True) == ({}, "file times")
    assert apply_times([], {}) == []


def test_parse_blame_porcelain_ignores_content_that_looks_like_headers() -> None:
    sha = "a" * 40
    out = (
        f"{sha} 1 1 2\ncommitter-time 100\nsummary x\n\tcommitter-time 999\n"
        f"{sha} 2 2\n\t{'b' * 40} 1 1 1\n"
        f"{'0' * 40} 3 3 1\ncommitter-time 5\n\tnew line\n"
    ).encode()
    assert parse_blame_porcelain(out, 42) == [100, 100, 42]


def test_patch_parser_reads_paths_and_skips_content_by_count() -> None:
    sha = "c" * 40
    log = (
        f"\x01{sha} 100 {'d' * 40} {'e' * 40}\n"
        "\n"
        "diff --git a/x b/y\n"
        "similarity index 90%\n"
        "rename from sp ace.py\n"
        'rename to "new\\nline\\303\\251.py"\n'
        "--- a/sp ace.py\t\n"
        '+++ "b/new\\nline\\303\\251.py"\n'
        "@@ -1,2 +1,3 @@ def f():\n"
        "--- a/fake\n"
        "-diff --git a/fake b/fake\n"
        "+@@ -1 +1 @@\n"
        "+\x01" + "f" * 40 + " 5\n"
        "+rename from fake\n"
        "\\ No newline at end of file\n"
        "@@ -9,0 +10 @@\n"
        "+x\n"
        "diff --git a/gone b/gone\n"
        "deleted file mode 100644\n"
        "--- a/gone\n"
        "+++ /dev/null\n"
        "@@ -1 +0,0 @@\n"
        "-bye\n"
        f"\x01{'a' * 40} 50 \n"
    )
    groups = list(patches(iter(log.encode().split(b"\n")), header=True))
    assert [g[0] for g in groups] == [(100, True), (50, False)]
    files = groups[0][1]
    assert files == [
        (b"sp ace.py", "new\nlineé.py".encode(), [(2, 1, 3), (0, 10, 1)]),
        (b"gone", None, [(1, 0, 0)]),
    ]
    assert groups[1][1] == []


def test_unquote() -> None:
    assert unquote(b"plain name") == b"plain name"
    assert unquote(b'"a\\tb\\"c\\\\d\\377"') == b'a\tb"c\\d\xff'
