"""Readers and writers at the same time: searches during an index run, a second writer, a stale lock.

Readers take no lock: each search reads HEAD once and answers from that root's immutable segments, so
every answer sampled while a build runs must be exactly the old root's or the new root's, and the
root the answer names (`meta.root`) must be the one whose answer it is. Writers exclude each other
with a flock: a second `qry index` fails at once (exit 2, "another qry index is running", a hint), or
waits with `--wait SECONDS`; a writer killed with SIGKILL leaves a lock the next writer takes.
"""

from __future__ import annotations

import json
import signal
import threading

from tests.reliability.helpers import (
    Answer,
    answers,
    finish,
    group_members,
    holds_lock,
    kill,
    kill_group,
    project,
    qry,
    search_json,
    start_qry,
    wait_for,
)
from tests.reliability.worlds import QUERIES, World, index_args


def _sample(world: World, query: str, seen: dict[str, int]) -> None:
    """One search of the live index; its answer must be one whole root's."""
    code, out, err = search_json(world.work, query)
    assert code in (0, 1) and "Traceback" not in err and "failed" not in err, (query, code, err)
    result = json.loads(out)
    got: Answer = project(result)
    if world.old_answers[query] == world.new_answers[query]:  # this query cannot tell the roots apart
        assert got == world.old_answers[query], f"{query!r}: an answer that is neither root's: {got[:3]}"
    elif got == world.old_answers[query]:
        assert result["meta"]["root"] == world.old_root, (
            f"{query!r}: old answer from root {result['meta']['root']}"
        )
        seen["old"] += 1
    else:
        assert got == world.new_answers[query], f"{query!r}: an answer that is neither root's: {got[:3]}"
        assert result["meta"]["root"] != world.old_root, f"{query!r}: the new answer under the old root id"
        seen["new"] += 1


def test_searches_during_an_index_run_see_one_whole_root(build_world: World) -> None:
    world = build_world
    world.fresh()
    seen = {"old": 0, "new": 0}
    cli_runs: list[tuple[str, str, int, str]] = []
    proc = start_qry(*index_args(world.repo, world.work))
    stop = threading.Event()

    def cli_loop() -> None:
        """Real `qry search --json` processes alongside the in-process sampler."""
        while not stop.is_set():
            for q in ("parse config", "omegaonlyb"):
                run = qry("search", "--json", "--index-dir", world.work, q)
                cli_runs.append((q, run.out, run.code, run.err))

    thread = threading.Thread(target=cli_loop, daemon=True)
    thread.start()
    try:
        while proc.poll() is None:
            for q in QUERIES:
                _sample(world, q, seen)
        run = finish(proc)
    finally:
        stop.set()
        thread.join(timeout=120)
        kill_group(proc)
    assert run.code == 0, run.describe()
    for q in QUERIES:
        _sample(world, q, seen)
    # Only queries whose answers differ between the two roots can show which root answered.
    telling = [q for q in QUERIES if world.old_answers[q] != world.new_answers[q]]
    assert len(telling) >= 2, "the world's edit must change at least two answers"
    assert seen["old"] > 0 and seen["new"] >= len(telling), seen
    assert cli_runs
    for q, out, code, err in cli_runs:
        assert code in (0, 1) and "Traceback" not in err and "failed" not in err, (q, code, err)
        got = project(json.loads(out))
        assert got in (world.old_answers[q], world.new_answers[q]), f"qry search {q!r}: a mixed answer"


def test_a_second_writer_fails_at_once_with_a_clear_message(build_world: World) -> None:
    world = build_world
    work = world.fresh()
    proc = start_qry(*index_args(world.repo, work))
    try:
        assert wait_for(lambda: holds_lock(work, proc.pid) or proc.poll() is not None, 60)
        assert proc.poll() is None, "the first writer finished before the second could start"
        second = qry(*index_args(world.repo, work))
        gc = qry("gc", "--index-dir", work)
        first = finish(proc)
    finally:
        kill_group(proc)
    assert first.code == 0, first.describe()
    for run in (second, gc):
        assert run.code == 2, run.describe()
        assert run.err.startswith("qry: error: another qry index is running (pid "), run.describe()
        assert "  hint: " in run.err and "--wait" in run.err and "Traceback" not in run.err, run.describe()


def test_a_second_writer_with_wait_runs_after_the_first(build_world: World) -> None:
    world = build_world
    work = world.fresh()
    first_proc = start_qry(*index_args(world.repo, work))
    try:
        assert wait_for(lambda: holds_lock(work, first_proc.pid) or first_proc.poll() is not None, 60)
        assert first_proc.poll() is None, "the first writer finished before the second could start"
        second_proc = start_qry(*index_args(world.repo, work), "--wait", "300", "--json")
        try:
            second = finish(second_proc)
        finally:
            kill_group(second_proc)
        first = finish(first_proc)
    finally:
        kill_group(first_proc)
    assert first.code == 0 and second.code == 0, first.describe() + second.describe()
    # The waiter ran only once the first had published: it found nothing left to do.
    report = json.loads(second.out)
    assert report["published"] is False and report["changed"] == 0 and report["added"] == 0, report


def test_the_lock_of_a_killed_writer_is_recovered(build_world: World) -> None:
    world = build_world
    work = world.fresh()
    proc = start_qry(*index_args(world.repo, work))
    try:
        assert wait_for(lambda: holds_lock(work, proc.pid) or proc.poll() is not None, 60)
        kill(proc, signal.SIGKILL)  # the writer alone, as `kill -9 PID` does
        dead = finish(proc)
        # A writer killed while its parse workers run: test_crash.py::
        # test_sigkill_of_qry_alone_leaves_no_worker_holding_the_lock. Here the kill lands before them.
        assert wait_for(lambda: not group_members(proc.pid), 10, poll=0.05), "workers outlived the writer"
    finally:
        kill_group(proc)
    assert dead.code == -signal.SIGKILL, dead.describe()
    assert f"pid={proc.pid} " in (work / "lock").read_text(), "the dead writer's note stays in the lock file"
    again = qry(*index_args(world.repo, work))
    assert again.code == 0, again.describe()
    assert answers(work, QUERIES) == world.new_answers
