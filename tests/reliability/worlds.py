"""Worlds the crash and concurrency tests are judged against: a repository in two states, a pristine
index of the first, and the reference outcome of indexing the second without interruption.

Sizes: QRY_CRASH_FILES (default 400 modules, ~3.6k nodes: an uninterrupted run takes a few seconds and
goes through the parallel parse) and 300 modules for the compaction world.
"""

from __future__ import annotations

import json
import os
import shutil
import time
from dataclasses import dataclass, field
from pathlib import Path

from tests.gitrepo import git
from tests.reliability.helpers import (
    Answer,
    answers,
    head_of,
    load_manifest,
    qry,
    touch_file,
    write_repo,
)

BUILD_FILES = int(os.environ.get("QRY_CRASH_FILES", "400"))
COMPACT_FILES = 300
GIT_FILES = 200
QUERIES = ("alphaonlya", "omegaonlyb", "parse config", "RetryThing9", "edited")


@dataclass
class World:
    """A repository, a pristine index of its old state, and the reference outcome of indexing its new
    state without interruption."""

    repo: Path
    pristine: Path
    work: Path
    old_root: str
    old_answers: dict[str, Answer]
    new_answers: dict[str, Answer]
    new_segments: list[str]
    run_seconds: float
    log: list[str] = field(default_factory=list)
    git_times: bool = False  # the repository has history and the build reads node times from it

    def fresh(self) -> Path:
        """A working copy of the pristine index (the state just before the run we interrupt).

        The last copy is renamed aside before it is deleted: once, deleting it in place failed with
        ENOTEMPTY on a segment's `tantivy` folder (a file appeared while it was emptied; which
        process wrote it was not found), and what the next run needs is a new copy at this path,
        whatever becomes of the old one."""
        if self.work.exists():
            aside = self.work.with_name(f"{self.work.name}.old-{time.monotonic_ns()}")
            self.work.rename(aside)
            shutil.rmtree(aside, ignore_errors=True)
        shutil.copytree(self.pristine, self.work)
        return self.work


def index_args(repo: Path, index_dir: Path, *, git_times: bool = False) -> tuple[str, ...]:
    times = () if git_times else ("--no-git-times",)
    return ("index", str(repo), "--embed", "none", *times, "--quiet", "--index-dir", str(index_dir))


def segments_of(index_dir: Path) -> list[str]:
    head = head_of(index_dir)
    assert head is not None
    return sorted(s.id for s in load_manifest(index_dir, head).segments)


def _reference(
    world_dir: Path, repo: Path, pristine: Path, *, git_times: bool = False
) -> tuple[dict[str, Answer], list[str], float, dict]:
    ref = world_dir / "reference"
    shutil.copytree(pristine, ref)
    t0 = time.monotonic()
    run = qry(*index_args(repo, ref, git_times=git_times), "--json")
    elapsed = time.monotonic() - t0
    assert run.code == 0, run.describe()
    return answers(ref, QUERIES), segments_of(ref), elapsed, json.loads(run.out)


def make_build_world(base: Path, files: int = BUILD_FILES) -> World:
    """`files` modules indexed in variant a; then every file rewritten (variant b), so the run we
    interrupt re-parses the whole tree and writes one large segment."""
    repo, pristine = base / "repo", base / "pristine"
    write_repo(repo, files, variant="a")
    run = qry(*index_args(repo, pristine))
    assert run.code == 0, run.describe()
    old_root = head_of(pristine)
    assert old_root is not None
    old = answers(pristine, QUERIES)
    write_repo(repo, files, variant="b")
    new, segs, seconds, _report = _reference(base, repo, pristine)
    for q in ("alphaonlya", "omegaonlyb", "parse config"):
        assert old[q] != new[q], f"{q!r} must tell the two snapshots apart"
    return World(repo, pristine, base / "work", old_root, old, new, segs, seconds)


def make_git_world(base: Path, files: int = GIT_FILES) -> World:
    """As the build world, in a git repository with history (variant a in two commits, then b), indexed
    with node times from git: the history worker and the user-level times cache run under the kills
    too, and the next build must still write the reference's segments (times are in them)."""
    repo, pristine = base / "repo", base / "pristine"
    write_repo(repo, files, variant="a")
    git(repo, "init", "-q", "-b", "main")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "a", when=1_600_000_000)
    touch_file(repo, 1, 1)
    git(repo, "commit", "-q", "-am", "a, edited", when=1_610_000_000)
    run = qry(*index_args(repo, pristine, git_times=True))
    assert run.code == 0, run.describe()
    old_root = head_of(pristine)
    assert old_root is not None
    old = answers(pristine, QUERIES)
    write_repo(repo, files, variant="b")
    git(repo, "commit", "-q", "-am", "b", when=1_620_000_000)
    new, segs, seconds, _report = _reference(base, repo, pristine, git_times=True)
    assert old["omegaonlyb"] != new["omegaonlyb"]
    return World(repo, pristine, base / "work", old_root, old, new, segs, seconds, git_times=True)


def make_compact_world(base: Path) -> World:
    """A root of 6 segments (a base and 5 one-file edits); the next edited run compacts them into one."""
    repo, pristine = base / "repo", base / "pristine"
    write_repo(repo, COMPACT_FILES, variant="a")
    for generation in range(6):
        if generation:
            touch_file(repo, generation, generation)
        run = qry(*index_args(repo, pristine))
        assert run.code == 0, run.describe()
    assert len(segments_of(pristine)) == 6
    old_root = head_of(pristine)
    assert old_root is not None
    old = answers(pristine, QUERIES)
    touch_file(repo, 6, 6)
    new, segs, seconds, report = _reference(base, repo, pristine)
    assert report["compacted"] is True and len(segs) == 1, report
    assert old != new
    return World(repo, pristine, base / "work", old_root, old, new, segs, seconds)
