"""Crash safety of `qry index`: SIGKILL and Ctrl-C at many points of a build and of a compaction.

After every kill: HEAD is either the old root or a complete new one (answers equal to an uninterrupted
run's), the old root still opens by id and answers exactly as before, every file verifies, `qry gc`
leaves no staging and no segment or root that no kept root names, and the next `qry index` completes
with the same segments an uninterrupted run writes. Ctrl-C exits 130 with the same guarantees.

Kill points: targeted ones (the writer lock just taken, a staging directory just created, a new
segment just renamed into place, a new root file just written: each observed by polling the index
directory) plus random delays over the measured length of an uninterrupted run. The seed is fixed
(QRY_CRASH_SEED) and printed in every failure; QRY_CRASH_KILLS raises the number of random kills.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.reliability.helpers import (
    Run,
    answers,
    assert_no_orphans,
    children,
    cli_env,
    finish,
    group_members,
    head_of,
    holds_lock,
    kill,
    kill_group,
    load_manifest,
    qry,
    start_qry,
    wait_for,
)
from tests.reliability.worlds import QUERIES, World, index_args, segments_of

SEED = int(os.environ.get("QRY_CRASH_SEED", "6"))
RANDOM_KILLS = int(os.environ.get("QRY_CRASH_KILLS", "4"))


# -- kill points -------------------------------------------------------------------------------------

Trigger = Callable[[World, int], bool]


def _new_entries(world: World, sub: str) -> set[str]:
    try:
        now = {p.name for p in (world.work / sub).iterdir()}
    except FileNotFoundError:
        return set()
    return now - {p.name for p in (world.pristine / sub).iterdir()}


def _staging(world: World, _pid: int) -> bool:
    try:
        return any(p.name.startswith("stage-") for p in (world.work / "tmp").iterdir())
    except FileNotFoundError:
        return False


TARGETS: dict[str, Trigger] = {
    "lock taken": lambda w, pid: holds_lock(w.work, pid),
    "staging created": _staging,
    "parse workers running": lambda _w, pid: bool(children(pid)),
    "segment renamed in": lambda w, _pid: bool(_new_entries(w, "segments")),
    "root written": lambda w, _pid: bool(_new_entries(w, "roots")),
}
COMPACT_TARGETS: dict[str, Trigger] = {
    # The delta segment is committed and the merged one is being staged: a kill inside compaction.
    "compaction staging": lambda w, pid: bool(_new_entries(w, "segments")) and _staging(w, pid),
    "root written": TARGETS["root written"],
}


def _interrupt(world: World, point: str, sig: int, rng: random.Random) -> Run:
    """Start the run on a fresh copy and signal its whole process group (qry and its parse workers, as
    a terminal's Ctrl-C or a CI timeout does) at `point`: a target name or "random"."""
    proc = _start_and_wait(world, point, rng)
    try:
        kill(proc, sig, group=True)
        return finish(proc, timeout=60)
    finally:
        kill_group(proc)


def _start_and_wait(world: World, point: str, rng: random.Random) -> subprocess.Popen[bytes]:
    proc = start_qry(*index_args(world.repo, world.fresh(), git_times=world.git_times))
    if point == "random":
        time.sleep(rng.uniform(0.0, world.run_seconds * 1.1))
        return proc
    name, _sep, delay = point.partition(" +")  # "<target> +0.3s": that long after the target
    trigger = TARGETS.get(name) or COMPACT_TARGETS[name]
    wait_for(lambda: trigger(world, proc.pid) or proc.poll() is not None, 60, poll=0.0005)
    if delay:
        time.sleep(float(delay.rstrip("s")))
    return proc


def _check_after_kill(world: World, what: str) -> None:
    """Every guarantee a kill must leave intact (see the module docstring)."""
    work = world.work
    head = head_of(work)
    assert head is not None, f"{what}: HEAD vanished"
    if head == world.old_root:
        assert answers(work, QUERIES) == world.old_answers, f"{what}: old HEAD answers differently"
    else:
        assert load_manifest(work, head).parent == world.old_root, what
        assert answers(work, QUERIES) == world.new_answers, f"{what}: a new HEAD but not the full new answer"
    assert answers(work, QUERIES, root=world.old_root) == world.old_answers, f"{what}: old root changed"
    gc = qry("gc", "--index-dir", work)
    assert gc.code == 0 and "Traceback" not in gc.err, f"{what}\n{gc.describe()}"
    kept = assert_no_orphans(work)  # also verifies every kept root, HEAD included
    assert world.old_root in kept, what
    again = qry(*index_args(world.repo, work, git_times=world.git_times))
    assert again.code == 0, f"{what}: the next index failed\n{again.describe()}"
    assert answers(work, QUERIES) == world.new_answers, f"{what}: the next index answers differently"
    assert segments_of(work) == world.new_segments, f"{what}: the next index wrote other segments"
    world.log.append(f"{what}: head {'old' if head == world.old_root else 'new'}")


def _points(targets: dict[str, Trigger], randoms: int) -> list[str]:
    return list(targets) + ["random"] * randoms


@pytest.mark.parametrize("point", _points(TARGETS, RANDOM_KILLS))
def test_sigkill_during_a_build_keeps_the_old_root_whole(build_world: World, point: str) -> None:
    rng = random.Random(f"{SEED}-build-{point}-{len(build_world.log)}")
    run = _interrupt(build_world, point, signal.SIGKILL, rng)
    assert "Traceback" not in run.err, run.describe()
    _check_after_kill(build_world, f"SIGKILL at {point} (seed {SEED}, exit {run.code})")


@pytest.mark.parametrize("point", _points(TARGETS, 2))
def test_sigkill_during_a_build_with_history_keeps_the_old_root_whole(git_world: World, point: str) -> None:
    rng = random.Random(f"{SEED}-git-{point}-{len(git_world.log)}")
    run = _interrupt(git_world, point, signal.SIGKILL, rng)
    assert "Traceback" not in run.err, run.describe()
    _check_after_kill(git_world, f"SIGKILL with history at {point} (seed {SEED}, exit {run.code})")


@pytest.mark.parametrize("point", _points(COMPACT_TARGETS, max(RANDOM_KILLS - 2, 2)))
def test_sigkill_during_a_compaction_keeps_the_old_root_whole(compact_world: World, point: str) -> None:
    rng = random.Random(f"{SEED}-compact-{point}-{len(compact_world.log)}")
    run = _interrupt(compact_world, point, signal.SIGKILL, rng)
    assert "Traceback" not in run.err, run.describe()
    _check_after_kill(compact_world, f"SIGKILL in compaction at {point} (seed {SEED}, exit {run.code})")


LATE_POINTS = ("parse workers running +0.3s", "segment renamed in")


@pytest.mark.parametrize(
    "point",
    [
        "lock taken",
        "staging created",
        # The pool starts its workers when it is first given work: this point lands during the forks.
        "parse workers running",
        *LATE_POINTS,
    ],
)
def test_ctrl_c_exits_130_and_keeps_the_same_guarantees(build_world: World, point: str) -> None:
    proc = _start_and_wait(build_world, point, random.Random(SEED))
    try:
        running = proc.poll() is None
        kill(proc, signal.SIGINT, group=True)  # a terminal's Ctrl-C reaches the whole process group
        run = finish(proc, timeout=60)
    finally:
        kill_group(proc)
    assert "Traceback" not in run.err, run.describe()
    # Points past the parse may land after the build has published and decided its exit status:
    # then Ctrl-C must not change it (exit 0, the new HEAD complete, as _check_after_kill verifies).
    may_have_finished = point in LATE_POINTS
    if running and not (may_have_finished and run.code == 0):
        assert run.code == 130, run.describe()
        assert "qry: interrupted" in run.err, run.describe()
    if run.code == 0:
        assert head_of(build_world.work) != build_world.old_root, f"exit 0 but no new HEAD\n{run.describe()}"
    _check_after_kill(build_world, f"SIGINT at {point} (exit {run.code})")


def test_sigkill_of_qry_alone_leaves_no_worker_holding_the_lock(build_world: World) -> None:
    """`kill -9 PID` (or the OOM killer) hits only qry itself, not its parse workers: they must not keep
    the writer lock (inherited descriptor) nor outlive qry (regression test: both happened in 8ddea89)."""
    proc = _start_and_wait(build_world, "parse workers running", random.Random(SEED))
    try:
        kill(proc, signal.SIGKILL)
        run = finish(proc, timeout=60)
        assert run.code == -signal.SIGKILL, run.describe()
        gone = wait_for(lambda: not group_members(proc.pid), 10, poll=0.05)
        assert gone, f"processes of the killed qry index still run: {group_members(proc.pid)}"
        _check_after_kill(build_world, "SIGKILL of qry alone while parse workers run")
    finally:
        kill_group(proc)


def test_ctrl_c_during_start_up_exits_130_without_a_traceback(tmp_path: Path) -> None:
    """Deterministic stand-in for an early Ctrl-C: the signal arrives inside run(), before any command."""
    code = (
        "import os, signal, sys; sys.argv = ['qry', 'status', '--index-dir', sys.argv[1]]; "
        "import cli.fastpath as f; f.try_fast_search = lambda argv: os.kill(os.getpid(), signal.SIGINT); "
        "from cli.entry import run; run()"
    )
    proc = subprocess.run([sys.executable, "-c", code, str(tmp_path)], capture_output=True, text=True,
                          env=cli_env(), timeout=60, check=False)  # fmt: skip
    assert "Traceback" not in proc.stderr, proc.stderr
    assert proc.returncode == 130 and "qry: interrupted" in proc.stderr, (proc.returncode, proc.stderr)


def test_ctrl_c_does_not_wait_for_fan_out_threads_that_never_end(tmp_path: Path) -> None:
    """Deterministic stand-in for a Ctrl-C during a workspace fan-out whose worker then never returns
    (one waiting on a module lock the interrupted main thread held): the interpreter's exit used to
    join it for good."""
    code = """
import sys, threading
from concurrent.futures import ThreadPoolExecutor
import cli.fastpath as f
sys.argv = ['qry', 'status', '--index-dir', sys.argv[1]]
def fan_out(argv):
    ThreadPoolExecutor(1).submit(threading.Event().wait)  # a worker that never returns
    raise KeyboardInterrupt
f.try_fast_search = fan_out
from cli.entry import run
run()
"""
    proc = subprocess.run([sys.executable, "-c", code, str(tmp_path)], capture_output=True, text=True,
                          env=cli_env(), timeout=60, check=False)  # fmt: skip
    assert "Traceback" not in proc.stderr, proc.stderr
    assert proc.returncode == 130 and "qry: interrupted" in proc.stderr, (proc.returncode, proc.stderr)


@pytest.mark.parametrize("exit_code", [0, 2])
def test_ctrl_c_during_shutdown_keeps_the_commands_status(tmp_path: Path, exit_code: int) -> None:
    """Deterministic stand-in for a Ctrl-C that lands after the command finished: the signal arrives in
    an exit hook (where multiprocessing joins its children). It used to kill qry by SIGINT (-2)."""
    code = (
        "import atexit, os, signal, sys, time; sys.argv = ['qry', 'status', '--index-dir', sys.argv[1]]; "
        "import cli.fastpath as f; "
        "hook = lambda: (os.kill(os.getpid(), signal.SIGINT), time.sleep(5)); "
        f"f.try_fast_search = lambda argv: atexit.register(hook) and {exit_code}; "
        "from cli.entry import run; run()"
    )
    proc = subprocess.run([sys.executable, "-c", code, str(tmp_path)], capture_output=True, text=True,
                          env=cli_env(), timeout=60, check=False)  # fmt: skip
    assert "Traceback" not in proc.stderr, proc.stderr
    assert proc.returncode == exit_code, (proc.returncode, proc.stderr)


@pytest.mark.slow
@pytest.mark.parametrize("attempt", range(12))
def test_sigkill_at_random_points_of_a_large_build(large_world: World, attempt: int) -> None:
    rng = random.Random(f"{SEED}-large-{attempt}")
    run = _interrupt(large_world, "random", signal.SIGKILL, rng)
    assert "Traceback" not in run.err, run.describe()
    _check_after_kill(
        large_world, f"SIGKILL of a large build, attempt {attempt} (seed {SEED}, exit {run.code})"
    )
