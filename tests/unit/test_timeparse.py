"""parse_when: ISO dates with zones, relative phrases, @epoch, git refs in a scripted repository, bad input,
and the guarantee that no value ever reaches git as an option."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from indexlib.errors import UsageError
from indexlib.timeparse import parse_when
from tests.gitrepo import git as scripted_git

NOW = 1_800_000_000  # 2027-01-15T08:00:00Z
T2020 = 1577836800
T2021 = 1609459200
T2022 = 1640995200

needs_git = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("2026-01-31", 1769817600),  # a bare date is its midnight UTC
        ("2026-01-31T12:00", 1769860800),  # naive means UTC
        ("2026-01-31T12:00:00Z", 1769860800),
        ("2026-01-31 12:00z", 1769860800),
        ("2026-01-31T12:00+02:00", 1769853600),
        ("2026-01-31T12:00:00-05:30", 1769880600),
        ("  2026-01-31  ", 1769817600),
        ("@1700000000", 1700000000),
        ("@0", 0),
    ],
)
def test_absolute_forms(text: str, expected: int) -> None:
    assert parse_when(text, now=NOW) == expected


@pytest.mark.parametrize(
    ("text", "seconds_ago"),
    [
        ("2 weeks ago", 14 * 86400),
        ("2 weeks", 14 * 86400),
        ("2weeks", 14 * 86400),
        ("1 week ago", 7 * 86400),
        ("3 days", 3 * 86400),
        ("3 DAYS AGO", 3 * 86400),
        ("an hour ago", 3600),
        ("a day ago", 86400),
        ("90 minutes ago", 5400),
        ("5 mins", 300),
        ("10s", 10),
        ("1.5 hours ago", 5400),
        ("3 hrs", 3 * 3600),
        ("6 months ago", 6 * 2629746),
        ("1 year ago", 31556952),
        ("last week", 7 * 86400),
        ("last month", 2629746),
        ("now", 0),
    ],
)
def test_relative_phrases(text: str, seconds_ago: int) -> None:
    assert parse_when(text, now=NOW) == NOW - seconds_ago


def test_today_and_yesterday_are_utc_midnights() -> None:
    today = parse_when("today", now=NOW)
    assert today == 1799971200  # 2027-01-15T00:00:00Z
    assert parse_when("Yesterday", now=NOW) == today - 86400
    assert today <= NOW < today + 86400


def test_clock_defaults_to_now() -> None:
    import time

    before = int(time.time())
    assert before - 1 <= parse_when("now") <= int(time.time()) + 1


@pytest.mark.parametrize(
    "text", ["", "   ", "garbage", "3 ms", "2 fortnights ago", "yesterdayish", "@", "@-5", "31/01/2026"]
)
def test_bad_input_is_a_usage_error_with_a_hint(text: str) -> None:
    with pytest.raises(UsageError) as info:
        parse_when(text, now=NOW)
    assert "ISO date" in info.value.hint and "git ref" in info.value.hint
    assert info.value.code == "usage"


def test_a_ref_without_a_repository_says_refs_need_one() -> None:
    with pytest.raises(UsageError) as info:
        parse_when("v1.2.0", now=NOW)
    assert "git repository" in info.value.hint


@given(st.text(max_size=40))
@settings(max_examples=300, deadline=None)
def test_any_text_parses_or_raises_usage_error(text: str) -> None:
    try:
        value = parse_when(text, now=NOW)
    except UsageError:
        return
    assert isinstance(value, int)


# --- git refs ----------------------------------------------------------------------------------------


def _git(repo: Path, *args: str, when: int | None = None) -> str:
    # The author date lies 100 days earlier: refs must resolve to the commit (committer) time.
    author = when - 86400 * 100 if when is not None else None
    return scripted_git(repo, *args, when=when, author=author).strip()


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Three commits (2020, 2021, 2022); v1.0 (annotated) on the first, light (lightweight) on the second."""
    root = tmp_path_factory.mktemp("refs") / "repo"
    root.mkdir()
    _git(root, "init", "-q", "-b", "main")
    for i, when in enumerate((T2020, T2021, T2022)):
        (root / "f.txt").write_text(f"{i}\n")
        _git(root, "add", "f.txt")
        _git(root, "commit", "-q", "-m", f"c{i}", when=when)
        if i == 0:
            _git(
                root, "tag", "-a", "v1.0", "-m", "release", when=T2022 + 999
            )  # the tag's own date is ignored
        if i == 1:
            _git(root, "tag", "light")
    return root


@needs_git
@pytest.mark.parametrize(
    ("ref", "expected"),
    [("HEAD", T2022), ("HEAD~1", T2021), ("HEAD~2", T2020), ("HEAD^", T2021), ("main~2", T2020),
     ("v1.0", T2020), ("light", T2021)],
)  # fmt: skip
def test_git_refs_resolve_to_commit_time(repo: Path, ref: str, expected: int) -> None:
    assert parse_when(ref, repo, now=NOW) == expected


@needs_git
def test_commit_hash_and_abbreviation(repo: Path) -> None:
    sha = _git(repo, "rev-parse", "HEAD~1")
    assert parse_when(sha, repo) == T2021
    assert parse_when(sha[:10], str(repo)) == T2021


@needs_git
def test_dates_win_over_refs(repo: Path) -> None:
    _git(repo, "tag", "yesterday", "HEAD~2")
    try:
        assert parse_when("yesterday", repo, now=NOW) == 1799884800
    finally:
        _git(repo, "tag", "-d", "yesterday")


@needs_git
@pytest.mark.parametrize("ref", ["HEAD~9", "no-such-tag", "v1.0..HEAD", "HEAD:f.txt"])
def test_unknown_or_non_commit_refs_are_usage_errors(repo: Path, ref: str) -> None:
    with pytest.raises(UsageError) as info:
        parse_when(ref, repo)
    assert ref in info.value.message and info.value.hint


def test_ref_outside_a_repository_is_a_usage_error(tmp_path: Path) -> None:
    with pytest.raises(UsageError):
        parse_when("HEAD", tmp_path)


def test_git_missing_is_a_usage_error(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, repo: Path) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(UsageError):
        parse_when("HEAD", repo)


@pytest.mark.parametrize("value", ["-n", "--output=/tmp/pwned", "-1", "--all", "-- HEAD"])
def test_values_starting_with_dash_never_reach_git(
    value: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    calls: list[list[str]] = []

    def spy(argv: list[str], *a: Any, **kw: Any) -> Any:
        calls.append(argv)
        raise AssertionError("git must not run")

    monkeypatch.setattr(subprocess, "run", spy)  # timeparse imports it lazily
    with pytest.raises(UsageError):
        parse_when(value, tmp_path)
    assert calls == []


@needs_git
def test_refs_are_passed_after_end_of_options(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    real = subprocess.run
    calls: list[list[str]] = []

    def spy(argv: list[str], *a: Any, **kw: Any) -> Any:
        calls.append(list(argv))
        return real(argv, *a, **kw)

    monkeypatch.setattr(subprocess, "run", spy)  # timeparse imports it lazily
    assert parse_when("v1.0", repo) == T2020
    first = calls[0]
    assert first[first.index("--end-of-options") + 1] == "v1.0^{commit}"
    # The second call names the resolved commit hash, never the user's text.
    assert all("v1.0" not in arg for arg in calls[1])


def test_until_a_bare_date_means_the_end_of_that_day() -> None:
    assert parse_when("2026-01-31", end_of_day=True) == parse_when("2026-01-31") + 86399
    assert parse_when("2026-01-31T10:00", end_of_day=True) == parse_when("2026-01-31T10:00")
    assert parse_when("today", now=1_000_000, end_of_day=True) == parse_when("today", now=1_000_000) + 86399
