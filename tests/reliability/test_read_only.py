"""An index qry may not write to: every command says so (exit 2, `index_not_writable`), never a
traceback, never "corrupt", and the index is left as it was.

Root ignores file modes, so `chmod -R a-w .qry` proves nothing here, and running the CLI as another
user (`setpriv --reuid=nobody`) needs an interpreter that user may execute, which this container's
(and CI's) pyenv under /root is not. So the refusals are injected in process, where they happen:

* reading: Tantivy takes `.tantivy-meta.lock` in a segment's folder even to open a reader, and
  tantivy-py has no read-only open; `tantivy.Index.open` is made to fail with the exact error
  tantivy-py 0.27 raises for EACCES;
* writing: the OS calls qry's writers make (the writer lock, staging, the index's vector cache,
  gc's removals, a missing subfolder on open) fail with PermissionError under the index directory,
  as they do in a folder made read-only by its owner.

The CLI runs in this process (`cli.entry.run`, its fast paths included) with stdout and stderr
captured. A real read-only mount (a bind mount remounted `ro`, when this process may mount, i.e.
as root) then checks the same contract end to end through Tantivy itself; it skips elsewhere.
"""

from __future__ import annotations

import errno
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, NamedTuple

import pytest

from indexlib import BuildOptions, IndexCorrupt, IndexNotWritable, build_index
from indexlib.errors import not_writable, permission_denied, write_failure
from indexlib.store.lock import writer_lock
from indexlib.store.store import Store
from tests.reliability.helpers import Run, qry

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "polyglot"
# What tantivy-py 0.27 raises from `Index.open` + `searcher()` in a folder its user may not write to
# (reported by a user after `chmod -R a-w .qry`); qry used to call this a corrupt index.
TANTIVY_EACCES = (
    "Failed to acquire Lockfile: IoError(Os { code: 13, kind: PermissionDenied, message: "
    '"Permission denied" }). None'
)
READ_COMMANDS: tuple[tuple[str, ...], ...] = (
    ("search", "charge"),
    ("search", "charge", "--mode", "lexical", "-k", "3"),  # the fast path, with options
    ("status",),
    ("related", "retry_failed_charge"),
    ("graph", "MATCH (f:function) RETURN f.name LIMIT 3"),
    ("grep", "charge"),
)


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A repository and its index (vectors from the test embedder), built once."""
    tmp = tmp_path_factory.mktemp("read-only")
    repo = tmp / "repo"
    shutil.copytree(FIXTURE, repo)
    build_index(repo, BuildOptions(embed="hash", git_times=False))
    return repo, repo / ".qry"


@pytest.fixture()
def copy(built: tuple[Path, Path], tmp_path: Path) -> tuple[Path, Path]:
    """A private copy of the repository and its index, for a test that tries to write."""
    repo = tmp_path / "repo"
    shutil.copytree(built[0], repo)
    return repo, repo / ".qry"


def run_cli(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, *args: str | Path) -> Run:
    """`qry ARGS` in this process, as the console script runs it (fast paths included)."""
    from cli.entry import run

    monkeypatch.setattr(sys, "argv", ["qry", *map(str, args)])
    umask = os.umask(0o022)
    os.umask(umask)
    capsys.readouterr()
    try:
        run()
        code = 0
    except SystemExit as exc:
        code = int(exc.code or 0)
    finally:
        os.umask(umask)  # run() tightens the process umask for good; other tests expect theirs
    out, err = capsys.readouterr()
    return Run(args=tuple(map(str, args)), code=code, out=out, err=err)


def assert_not_writable(run: Run, index: Path, first_line: str) -> None:
    """Exit 2, the message and a hint naming the index, never a traceback or "corrupt"."""
    assert run.code == 2, run.describe()
    assert "Traceback" not in run.err and "corrupt" not in run.err and "rebuild" not in run.err, (
        run.describe()
    )
    lines = run.err.splitlines()
    assert lines[0] == first_line, run.describe()
    assert lines[1] == (
        f"  hint: make it writable (chmod -R u+w {index}, as its owner), or copy it somewhere writable "
        "and pass --index-dir COPY"
    ), run.describe()


def _untouched(index: Path, head: str | None) -> None:
    """HEAD is still `head` (None: any root, whole), every file checks, tmp/ is empty, the lock free."""
    store = Store.open(index)
    if head is not None:
        assert store.head() == head
    assert store.verify() == []
    assert not any(store.tmp_dir.iterdir()), "nothing staged is left behind"
    with writer_lock(index, wait=0):  # the lock is free
        pass


# --- reading: Tantivy's lock file ----------------------------------------------------------------


class _LockRefusedTantivy:
    """The tantivy module as engines/lexical.py sees it, except that opening an index fails the way
    it does in a folder its user may not write to."""

    def __init__(self, real: Any, error: str) -> None:
        self._real = real
        self._error = error
        outer = self

        class Index:
            def __new__(cls, *args: Any, **kwargs: Any) -> Any:
                return real.Index(*args, **kwargs)

            @staticmethod
            def open(path: str) -> Any:
                raise ValueError(outer._error)

        self.Index = Index

    def __getattr__(self, name: str) -> Any:
        return getattr(self._real, name)


def refuse_tantivy_open(monkeypatch: pytest.MonkeyPatch, error: str = TANTIVY_EACCES) -> None:
    import indexlib.engines.lexical as lexical

    monkeypatch.setattr(lexical, "tantivy", _LockRefusedTantivy(lexical.tantivy, error))


@pytest.mark.parametrize("command", READ_COMMANDS, ids=lambda c: " ".join(c[:2]))
def test_reading_an_index_qry_may_not_write_is_not_writable_not_corrupt(
    command: tuple[str, ...],
    built: tuple[Path, Path],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    repo, index = built
    monkeypatch.chdir(repo)  # grep uses the index only inside the indexed tree
    refuse_tantivy_open(monkeypatch)
    run = run_cli(capsys, monkeypatch, *command, "--index-dir", index)
    assert_not_writable(
        run,
        index,
        f"qry: error: cannot open the index at {index} (permission denied): qry needs write access to "
        "the index folder, because Tantivy, its text engine, takes a lock file even to read",
    )
    as_json = run_cli(capsys, monkeypatch, *command, "--index-dir", index, "--json")
    assert as_json.code == 2 and json.loads(as_json.out)["code"] == "index_not_writable", as_json.describe()


def test_verify_and_roots_still_work_on_such_an_index(
    built: tuple[Path, Path], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """They never open Tantivy: `verify` says every file is whole, which is why "corrupt" was wrong."""
    refuse_tantivy_open(monkeypatch)
    verify = run_cli(capsys, monkeypatch, "verify", "--index-dir", built[1])
    assert (verify.code, verify.err) == (0, "ok: every file matches its checksum\n"), verify.describe()
    assert run_cli(capsys, monkeypatch, "roots", "--index-dir", built[1]).code == 0


def test_a_damaged_segment_is_still_corrupt(
    built: tuple[Path, Path], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The other side of the classification: a read failure that is not a refused write stays
    `index_corrupt` with the rebuild hint."""
    refuse_tantivy_open(monkeypatch, "Data corrupted: 'Failed to open field \"uid\"'")
    run = run_cli(capsys, monkeypatch, "search", "charge", "--index-dir", built[1], "--json")
    assert run.code == 2 and json.loads(run.out)["code"] == "index_corrupt", run.describe()
    assert "qry index --rebuild" in run.err


# --- writing: the OS refuses writes under the index directory -------------------------------------


def refuse_writes(monkeypatch: pytest.MonkeyPatch, under: Path, calls: tuple[str, ...]) -> list[str]:
    """Make the named `os` calls fail with EACCES for paths under `under`, as in a folder its owner
    made read-only (`os.open` only when it would write); returns the paths refused."""
    refused: list[str] = []
    top = os.path.realpath(under)
    writing = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND

    def inside(path: Any) -> bool:
        real = os.path.realpath(os.fsdecode(path))
        return real == top or real.startswith(top + os.sep)

    def wrap(name: str, real: Callable[..., Any]) -> Callable[..., Any]:
        def fake(path: Any, *args: Any, **kwargs: Any) -> Any:
            flags = args[0] if args else kwargs.get("flags", 0)
            if inside(path) and (name != "open" or flags & writing):
                refused.append(os.fsdecode(path))
                raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), os.fsdecode(path))
            return real(path, *args, **kwargs)

        return fake

    for name in calls:
        monkeypatch.setattr(os, name, wrap(name, getattr(os, name)))
    return refused


class Site(NamedTuple):
    """A write of a command made to fail: under which folder of the index, by which os calls."""

    folder: str  # relative to the index ("" for the index itself)
    calls: tuple[str, ...]
    command: tuple[str, ...]
    named: str  # the start of the path the error names, relative to the index
    publishes: bool = False  # the lexical root is published before this write (the vectors follow it)


WRITE_SITES: dict[str, Site] = {
    "index: the writer lock": Site("", ("open",), ("index", "--embed", "none"), "lock"),
    "index --rebuild: the writer lock": Site(
        "", ("open",), ("index", "--rebuild", "--embed", "none"), "lock"
    ),
    "gc: the writer lock": Site("", ("open",), ("gc", "--keep", "1"), "lock"),
    "index: staging in tmp/": Site(
        "tmp", ("mkdir", "open"), ("index", "--rebuild", "--embed", "none"), "tmp/"
    ),
    "index: the vector cache": Site(
        "cache",
        ("open", "mkdir"),
        ("index", "--embed", "hash", "--no-shared-cache"),
        "cache/",
        publishes=True,
    ),
    "gc: removing old roots": Site("roots", ("unlink", "rename"), ("gc", "--keep", "1"), "roots/"),
}


@pytest.mark.parametrize("name", list(WRITE_SITES))
def test_a_refused_write_is_a_clear_error_and_leaves_the_index_as_it_was(
    name: str,
    copy: tuple[Path, Path],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    repo, index = copy
    site = WRITE_SITES[name]
    args: list[str | Path] = [*site.command, "--index-dir", index]
    if site.command[0] == "index":
        args.insert(1, repo)
        (repo / "python" / "billing" / "new_module.py").write_text("def brand_new():\n    return 1\n")
    else:  # an older root for gc to remove
        (repo / "NOTES.txt").write_text("changed\n")
        build_index(repo, BuildOptions(embed="none", git_times=False))
    head = Store.open(index).head()
    refused = refuse_writes(monkeypatch, index / site.folder, site.calls)
    run = run_cli(capsys, monkeypatch, *args)
    assert refused, f"{name}: the injected refusal was never reached"
    prefix = f"qry: error: cannot write to the index at {index} (permission denied: {site.named}"
    first = run.err.splitlines()[0] if run.err else ""
    assert first.startswith(prefix) and first.endswith(")"), run.describe()
    assert_not_writable(run, index, first)
    monkeypatch.undo()
    _untouched(index, None if site.publishes else head)


def test_a_refused_write_is_index_not_writable_under_json(
    copy: tuple[Path, Path], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    repo, index = copy
    refuse_writes(monkeypatch, index, ("open",))
    run = run_cli(capsys, monkeypatch, "index", repo, "--embed", "none", "--json", "--index-dir", index)
    assert run.code == 2 and json.loads(run.out)["code"] == "index_not_writable", run.describe()


def test_opening_an_index_to_write_with_a_missing_subfolder_it_may_not_create(
    copy: tuple[Path, Path], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """`Store.open(create=True)` makes missing subfolders before the lock is taken."""
    repo, index = copy
    shutil.rmtree(index / "cache")
    refuse_writes(monkeypatch, index, ("mkdir",))
    run = run_cli(capsys, monkeypatch, "index", repo, "--embed", "none", "--index-dir", index)
    assert_not_writable(
        run, index, f"qry: error: cannot write to the index at {index} (permission denied: cache)"
    )


# --- the rule itself ------------------------------------------------------------------------------


def test_not_writable_recognises_tantivy_text_and_os_errors(tmp_path: Path) -> None:
    index = tmp_path / ".qry"
    tantivy_error = ValueError(TANTIVY_EACCES)
    read = not_writable(tantivy_error, index, path=index / "segments" / "s" / "tantivy", reading=True)
    assert isinstance(read, IndexNotWritable) and read.code == "index_not_writable"
    rofs = not_writable(OSError(errno.EROFS, "Read-only file system", str(index / "lock")), index)
    assert rofs is not None and rofs.message.endswith("(read-only file system: lock)")
    assert "cp -r" in rofs.hint and "chmod" not in rofs.hint, "chmod cannot help on a read-only mount"
    # a refused file outside the index is not the index's: a source file, the user's cache
    assert not_writable(PermissionError(errno.EACCES, "Permission denied", "/etc/shadow"), index) is None
    assert not_writable(ValueError("Data corrupted"), index) is None
    wrapped = RuntimeError("a writer died")
    wrapped.__cause__ = PermissionError(errno.EACCES, "Permission denied", str(index / "tmp" / "x"))
    assert isinstance(write_failure(wrapped, index), IndexNotWritable)
    assert write_failure(KeyboardInterrupt(), index) is None
    assert write_failure(IndexCorrupt("x"), index) is None, "an error qry already named stays as it is"


def test_a_refused_path_outside_any_index_is_permission_denied_not_a_traceback() -> None:
    """The CLI's last resort (cli/console.py): a PermissionError no library code translated."""
    import io

    from cli.console import Env, guarded

    def body() -> int:
        raise PermissionError(errno.EACCES, "Permission denied", "/home/u/.config/qry/workspaces.toml")

    out, err = io.StringIO(), io.StringIO()
    env = Env(stdout=out, stderr=err, stdout_tty=False, stderr_tty=False, color=False)
    assert guarded(env, body, json_out=True) == 2
    assert err.getvalue().startswith("qry: error: permission denied: /home/u/.config/qry/workspaces.toml\n")
    assert json.loads(out.getvalue())["code"] == "permission_denied"
    assert permission_denied(OSError(errno.ENOENT, "No such file")) is None


# --- a real read-only mount (root only) -----------------------------------------------------------


@pytest.fixture()
def read_only_mount(built: tuple[Path, Path], tmp_path: Path) -> Iterator[Path]:
    """The built repository, index included, bind-mounted read-only (EROFS from every write)."""
    mount = tmp_path / "ro"
    mount.mkdir()
    steps = (
        ["mount", "--bind", str(built[0]), str(mount)],
        ["mount", "-o", "remount,bind,ro", str(mount)],
    )
    for i, step in enumerate(steps):
        proc = subprocess.run(step, capture_output=True, text=True, check=False)
        if proc.returncode != 0:
            if i:
                subprocess.run(["umount", "-l", str(mount)], check=False)
            pytest.skip(f"cannot mount read-only here ({proc.stderr.strip()[:80]}); the injected cases ran")
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=False)


def test_a_real_read_only_index(read_only_mount: Path) -> None:
    index = read_only_mount / ".qry"
    for command in READ_COMMANDS:
        # grep too: the mount holds the repository's own `.qry`, so it is the indexed tree wherever mounted
        run = qry(*command, "--index-dir", index, "--json", cwd=read_only_mount)
        assert run.code == 2 and "Traceback" not in run.err, run.describe()
        assert json.loads(run.out)["code"] == "index_not_writable", run.describe()
        assert run.err.startswith(f"qry: error: cannot open the index at {index} (read-only file system)")
    for command in (
        ("index", read_only_mount),
        ("index", read_only_mount, "--rebuild"),
        ("gc", "--keep", "1"),
    ):
        run = (
            qry(*command, "--embed", "none", "--index-dir", index)
            if command[0] == "index"
            else qry(*command, "--index-dir", index)
        )
        assert run.code == 2 and "Traceback" not in run.err, run.describe()
        assert run.err.startswith(
            f"qry: error: cannot write to the index at {index} (read-only file system: lock)"
        )
        assert f"cp -r {index} COPY" in run.err
    verify = qry("verify", "--index-dir", index)
    assert verify.code == 0 and verify.err == "ok: every file matches its checksum\n", verify.describe()
