"""The writer lock: exclusion, waiting, re-entrancy, and recovery from a killed holder."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import threading
from pathlib import Path

import pytest

from indexlib.errors import IndexNotFound, LockBusy
from indexlib.store.lock import holds_writer_lock, writer_lock

# A child that takes the lock, says so, and holds it until a release file appears (then unlocks and
# keeps running, so the release is an unlock, not a process exit).
_HOLDER = textwrap.dedent(
    """
    import sys, time
    from pathlib import Path
    from indexlib.store.lock import writer_lock
    index_dir, release = Path(sys.argv[1]), Path(sys.argv[2])
    with writer_lock(index_dir):
        print("locked", flush=True)
        while not release.exists():
            time.sleep(0.01)
    print("released", flush=True)
    time.sleep(60)
    """
)


def _start_holder(index_dir: Path, release: Path) -> subprocess.Popen[str]:
    child = subprocess.Popen(
        [sys.executable, "-c", _HOLDER, str(index_dir), str(release)],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert child.stdout is not None
    assert child.stdout.readline().strip() == "locked"
    return child


def _stop(child: subprocess.Popen[str]) -> None:
    if child.poll() is None:
        child.kill()
    child.wait(timeout=10)
    if child.stdout is not None:
        child.stdout.close()


def test_second_acquisition_raises_lock_busy_naming_the_holder(tmp_path: Path) -> None:
    child = _start_holder(tmp_path, tmp_path / "release")
    try:
        with pytest.raises(LockBusy) as info, writer_lock(tmp_path):
            pass
        assert f"pid {child.pid}" in info.value.message
        assert "--wait" in info.value.hint
    finally:
        _stop(child)


def test_wait_succeeds_once_the_holder_releases(tmp_path: Path) -> None:
    release = tmp_path / "release"
    child = _start_holder(tmp_path, release)
    try:
        with pytest.raises(LockBusy), writer_lock(tmp_path):
            pass

        # Release from another thread shortly after we start waiting.
        threading.Timer(0.2, release.touch).start()
        with writer_lock(tmp_path, wait=30):
            assert holds_writer_lock(tmp_path)
            assert child.poll() is None  # the holder is alive: it unlocked, it did not exit
        assert not holds_writer_lock(tmp_path)
    finally:
        _stop(child)


def test_lock_of_a_killed_process_is_acquirable(tmp_path: Path) -> None:
    child = _start_holder(tmp_path, tmp_path / "never")
    try:
        with pytest.raises(LockBusy), writer_lock(tmp_path):
            pass
        os.kill(child.pid, signal.SIGKILL)
        child.wait(timeout=10)
        with writer_lock(tmp_path):
            assert holds_writer_lock(tmp_path)
            assert f"pid={os.getpid()}" in (tmp_path / "lock").read_text()
    finally:
        _stop(child)


def test_reentrant_for_the_holding_thread_busy_for_others(tmp_path: Path) -> None:
    errors: list[BaseException] = []

    def other_thread() -> None:
        try:
            with writer_lock(tmp_path):
                pass
        except BaseException as exc:
            errors.append(exc)

    with writer_lock(tmp_path):
        with writer_lock(tmp_path):
            assert holds_writer_lock(tmp_path)
        assert holds_writer_lock(tmp_path)  # leaving the inner block keeps the outer hold
        thread = threading.Thread(target=other_thread)
        thread.start()
        thread.join()
    assert len(errors) == 1 and isinstance(errors[0], LockBusy)
    assert not holds_writer_lock(tmp_path)
    with writer_lock(tmp_path):  # released for real: acquirable again
        pass


def test_released_on_exception(tmp_path: Path) -> None:
    with pytest.raises(ZeroDivisionError), writer_lock(tmp_path):
        1 / 0  # noqa: B018
    with writer_lock(tmp_path):
        assert holds_writer_lock(tmp_path)


def test_missing_index_dir_is_index_not_found(tmp_path: Path) -> None:
    with pytest.raises(IndexNotFound), writer_lock(tmp_path / "nope"):
        pass
