"""Fault injection: a full disk at every write site of `qry index`, the writer lock's failure paths, and
a broken index layout.

Two forms of full disk. Injected: each Python-level write site (the lock's holder line, the parse
spill, the segment tables, Tantivy's commit, the vector files, the root manifest, HEAD) raises the
error the real site raises on ENOSPC. Real: a small tmpfs (when this process may mount one, i.e. as
root) filled to leave a sweep of free-space levels, so the build runs out of space wherever it
happens to be; the sites it died in are collected from the exception chain. Each run must end with
DiskFull (`qry: error: no space left on device ...`, exit 2 from the CLI), nothing left in `tmp/`,
the writer lock free, the previous root intact (`verify` clean, same answers), and `qry gc` must work
on the still-full disk.
"""

from __future__ import annotations

import errno
import json
import os
import shutil
import subprocess
import traceback
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from indexlib import BuildOptions, DiskFull, build_index
from indexlib.store.lock import writer_lock
from indexlib.store.store import Store
from tests.reliability.helpers import qry

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "polyglot"
QUERY = "how are failed charges retried"


def _enospc(path: object = None) -> OSError:
    return OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), None if path is None else str(path))


def _repo(tmp: Path) -> Path:
    repo = tmp / "repo"
    shutil.copytree(FIXTURE, repo)
    return repo


def _rewrite(repo: Path, tag: str) -> None:
    """State B: every file changes, so the next build writes a whole new segment and new vectors."""
    for path in sorted(repo.rglob("*")):
        if path.is_file():
            with path.open("a") as fh:
                fh.write(
                    f"\n// {tag}\n" if path.suffix not in (".py", ".rb", ".toml", ".md") else f"\n# {tag}\n"
                )


def _opts(index: Path) -> BuildOptions:
    return BuildOptions(index_dir=index, embed="hash", git_times=False)


def _state(index: Path) -> tuple[str | None, list[str]]:
    store = Store.open(index)
    return store.head(), sorted(p.name for p in store.tmp_dir.iterdir()) if store.tmp_dir.is_dir() else []


def _lock_is_free(index: Path) -> bool:
    try:
        with writer_lock(index, wait=0):
            return True
    except Exception:
        return False


def _answers(index: Path) -> Any:
    run = qry("search", "--json", "--index-dir", index, QUERY)
    assert run.code == 0, run.describe()
    return [(h["path"], h["start_line"], h["symbol"]) for h in json.loads(run.out)["results"]]


# --- injected ENOSPC, one site at a time ---------------------------------------------------------


def _fail_spill(mp: pytest.MonkeyPatch) -> None:
    import indexlib.index.build.parse as build

    real = open

    def fake(file: Any, mode: str = "r", *args: Any, **kwargs: Any) -> Any:
        if str(file).endswith("parsed.msgpack") and "w" in mode:
            raise _enospc(file)
        return real(file, mode, *args, **kwargs)

    mp.setattr(build, "open", fake, raising=False)


def _fail_tables(mp: pytest.MonkeyPatch) -> None:
    import indexlib.index.segtables as segtables

    real = segtables.write_chunk

    def fake(out: Any, chunk: Any) -> bytes:
        if str(getattr(out, "name", "")).endswith("tables.msgpack"):
            raise _enospc()
        return real(out, chunk)

    mp.setattr(segtables, "write_chunk", fake)


def _fail_tantivy(mp: pytest.MonkeyPatch) -> None:
    import indexlib.engines.lexical as lexical

    def fake(self: Any) -> None:
        raise ValueError("Internal error: 'No space left on device (os error 28)'")  # tantivy's text

    mp.setattr(lexical.SegmentIndexWriter, "close", fake)


def _fail_vectors(mp: pytest.MonkeyPatch) -> None:
    import indexlib.engines.vectors as vectors

    def fake(path: Path, array: Any) -> None:
        raise _enospc(path)

    mp.setattr(vectors, "_save_npy", fake)


def _fail_atomic(which: str) -> Callable[[pytest.MonkeyPatch], None]:
    def patch(mp: pytest.MonkeyPatch) -> None:
        import indexlib.store.store as store_mod

        real = store_mod.atomic_write

        def fake(path: Path, data: bytes, **kwargs: Any) -> None:
            if (which == "HEAD") == (Path(path).name == "HEAD"):
                raise _enospc(path)
            real(path, data, **kwargs)

        mp.setattr(store_mod, "atomic_write", fake)

    return patch


SITES: dict[str, Callable[[pytest.MonkeyPatch], None]] = {
    "parse spill": _fail_spill,
    "segment tables": _fail_tables,
    "tantivy commit": _fail_tantivy,
    "vector files": _fail_vectors,
    "root manifest": _fail_atomic("root"),
    "HEAD": _fail_atomic("HEAD"),
}


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Any]:
    """A repository (state A) and its index, with the answers of the old root."""
    tmp = tmp_path_factory.mktemp("faults")
    repo = _repo(tmp)
    index = tmp / "index"
    build_index(repo, _opts(index))
    return repo, index, _answers(index)


@pytest.mark.parametrize("site", list(SITES))
def test_enospc_at_each_write_site(
    base: tuple[Path, Path, Any], tmp_path: Path, monkeypatch: pytest.MonkeyPatch, site: str
) -> None:
    repo_a, index_a, answers = base
    repo = tmp_path / "repo"
    shutil.copytree(repo_a, repo)
    index = tmp_path / "index"
    shutil.copytree(index_a, index)
    head_before, _ = _state(index)
    _rewrite(repo, site)
    SITES[site](monkeypatch)
    with pytest.raises(DiskFull) as info:
        build_index(repo, _opts(index))
    assert info.value.message.startswith("no space left on device writing "), info.value.message
    assert "qry gc" in info.value.hint
    monkeypatch.undo()
    head, tmp_left = _state(index)
    assert tmp_left == [], f"staging left behind after {site}"
    assert _lock_is_free(index)
    store = Store.open(index)
    assert store.verify() == [] and store.verify(head_before) == []
    if site != "vector files":  # the vectors run after the lexical root is published
        assert head == head_before
    assert _answers(index) == answers if head == head_before else _answers(index)


def test_enospc_writing_the_lock_holder_line_neither_fails_nor_wedges(
    base: tuple[Path, Path, Any], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The holder line is written after the flock; its ENOSPC used to leave the lock held for the
    life of the process (every later writer: "another qry index is running (holder unknown)")."""
    import indexlib.store.lock as lock

    index = tmp_path / "index"
    shutil.copytree(base[1], index)

    def fake(fd: int, data: bytes) -> None:
        raise _enospc()

    monkeypatch.setattr(lock, "_write_holder", fake)
    report = Store.open(index).gc(keep=1)
    assert report.kept_roots
    assert _lock_is_free(index)
    with writer_lock(index), pytest.raises(RuntimeError), writer_lock(index):  # re-entrant: still fine
        raise RuntimeError("a failure in the body")
    assert _lock_is_free(index)


# --- a real full disk: a small tmpfs ----------------------------------------------------------------

TMPFS_BYTES = 3 << 20


@pytest.fixture(scope="module")
def tmpfs(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    mount = tmp_path_factory.mktemp("tmpfs")
    proc = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={TMPFS_BYTES},mode=0700", "tmpfs", str(mount)],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    if proc.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here ({proc.stderr.strip()[:80]}); the injected cases still run")
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=False)


def _fill(mount: Path, leave: int) -> None:
    filler = mount / "filler"
    filler.unlink(missing_ok=True)
    st = os.statvfs(mount)
    with filler.open("wb") as fh:
        fh.truncate(0)
        fh.write(b"\0" * max(st.f_bavail * st.f_frsize - leave, 0))


def _site(exc: BaseException) -> str:
    """module:function of the innermost qry frame of the original error."""
    cause = exc.__cause__ or exc
    frames = [f for f in traceback.extract_tb(cause.__traceback__) if "/indexlib/" in f.filename]
    return f"{Path(frames[-1].filename).stem}:{frames[-1].name}" if frames else type(cause).__name__


LEVELS = 12  # free-space levels, evenly spaced up to what the run needs
FINE = 12  # and 4 KB steps below the first level that succeeds: where the last writes fail


def _used(path: Path) -> int:
    return sum(p.stat().st_size + 4096 for p in path.rglob("*"))  # a tmpfs page per file, roughly


def test_a_real_full_disk_at_a_sweep_of_levels(
    base: tuple[Path, Path, Any], tmpfs: Path, tmp_path: Path
) -> None:
    repo = tmp_path / "repo"
    shutil.copytree(base[0], repo)
    _rewrite(repo, "sweep")
    probe = tmp_path / "probe"
    shutil.copytree(base[1], probe)
    before = _used(probe)
    build_index(repo, _opts(probe))
    need = _used(probe) - before + (256 << 10)  # the run's growth, plus what it stages and deletes
    sites: dict[str, int] = {}
    succeeded = 0
    coarse = [4 + (need >> 10) * i // LEVELS for i in range(LEVELS)]
    levels = list(coarse)
    for kb in levels:
        index = tmpfs / "index"
        shutil.rmtree(index, ignore_errors=True)
        (tmpfs / "filler").unlink(missing_ok=True)
        shutil.copytree(base[1], index)
        head_before, _ = _state(index)
        _fill(tmpfs, kb << 10)
        try:
            build_index(repo, _opts(index))
            succeeded += 1
            if len(levels) == len(coarse):  # then 4 KB steps just below the first success
                levels += range(max(kb - FINE * 4, 4), kb, 4)
        except DiskFull as exc:
            sites[_site(exc)] = sites.get(_site(exc), 0) + 1
        head, tmp_left = _state(index)
        assert tmp_left == [], f"{kb} KB free: staging left {tmp_left}"
        assert _lock_is_free(index)
        store = Store.open(index)
        assert store.verify(head_before) == [] and store.verify() == [], f"{kb} KB free"
        kept = store.gc(keep=1).kept_roots  # HEAD's run: its lexical root and, with vectors, the next
        assert kept[0] == head and len(kept) <= 2, f"gc on the full disk kept {kept}"
    print(
        f"full-disk sweep: {len(levels)} levels up to {need >> 10} KB, {succeeded} completed, failure sites {sites}"
    )
    assert sites, "no level ran out of space: the sweep is too generous"


def test_the_cli_says_no_space_and_gc_frees_it(
    base: tuple[Path, Path, Any], tmpfs: Path, tmp_path: Path
) -> None:
    repo = tmp_path / "repo"
    shutil.copytree(base[0], repo)
    _rewrite(repo, "cli")
    index = tmpfs / "index"
    shutil.rmtree(index, ignore_errors=True)
    (tmpfs / "filler").unlink(missing_ok=True)
    shutil.copytree(base[1], index)
    _fill(tmpfs, 64 << 10)
    run = qry("index", repo, "--embed", "hash", "--no-git-times", "--index-dir", index)
    assert run.code == 2 and "Traceback" not in run.err, run.describe()
    assert run.err.startswith("qry: error: no space left on device writing "), run.describe()
    assert "hint: " in run.err and "qry gc" in run.err, run.describe()
    assert _state(index)[1] == []
    gc = qry("gc", "--keep", "1", "--index-dir", index)
    assert gc.code == 0 and "Traceback" not in gc.err, gc.describe()
    (tmpfs / "filler").unlink()
    ok = qry("index", repo, "--embed", "hash", "--no-git-times", "--quiet", "--index-dir", index)
    assert ok.code == 0, ok.describe()


# --- a broken layout ----------------------------------------------------------------------------


def test_a_broken_layout_is_a_clear_error_for_every_command(
    base: tuple[Path, Path, Any], tmp_path: Path
) -> None:
    """`roots/` replaced by a file used to raise NotADirectoryError (search, verify, status, gc) and
    FileExistsError (`index --rebuild`); HEAD as a directory, IsADirectoryError."""
    for broken in ("roots", "segments", "HEAD"):
        index = tmp_path / broken / "index"
        shutil.copytree(base[1], index)
        target = index / broken
        shutil.rmtree(target) if target.is_dir() else target.unlink()
        target.mkdir() if broken == "HEAD" else target.write_text("not a directory\n")
        for args in (
            ("search", "retry"),
            ("status",),
            ("verify",),
            ("gc",),
            ("index", base[0], "--rebuild", "--embed", "none"),
        ):
            run = qry(*args, "--index-dir", index)
            assert run.code == 2 and "Traceback" not in run.err, run.describe()
            assert run.err.startswith("qry: error: the index layout is broken: ") and "hint: " in run.err, (
                run.describe()
            )


def test_an_index_dir_that_is_a_file_or_holds_other_things_is_refused(tmp_path: Path) -> None:
    """`--index-dir /etc/passwd` (FileExistsError), `/proc/self` (FileNotFoundError), and
    `qry index . --index-dir .` in a git repository, which wrote a `*` .gitignore and HEAD into the
    repository root (git then hid every new file)."""
    repo = _repo(tmp_path)
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    before = sorted(p.name for p in repo.iterdir())
    for index_dir, what in (
        (repo, "not a qry index and not empty"),
        (repo / "README.md", "is a file"),
        (Path("/proc/self"), "not a qry index"),
    ):
        run = qry("index", repo, "--embed", "none", "--index-dir", index_dir)
        assert run.code == 2 and "Traceback" not in run.err and what in run.err, run.describe()
    assert sorted(p.name for p in repo.iterdir()) == before, "nothing written into the repository root"
    run = qry("search", "x", "--index-dir", repo / "README.md")
    assert run.code == 2 and "is a file" in run.err, run.describe()
