"""The build's fork pool: ordered results, errors and dead workers surface, stopping never blocks, and
workers ignore Ctrl-C and die of SIGTERM by default, whatever the parent set."""

from __future__ import annotations

import os
import signal
import threading
import time
from collections.abc import Callable
from types import FrameType

import pytest

from indexlib.workers import WorkerDied, start_pool


def _dispositions() -> tuple[object, object]:
    return signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGTERM)


def _slow_square(x: int) -> int:
    time.sleep(0.002 * (x % 5))  # uneven work: answers come back out of order
    return x * x


def _fail_on_seven(x: int) -> int:
    if x == 7:
        raise ValueError("seven")
    return x


def _die_on_three(x: int) -> int:
    if x == 3:
        os._exit(9)
    return x


def _sleep(x: int) -> int:
    time.sleep(3600)
    return x


def test_workers_ignore_sigint_and_take_sigterm_by_default() -> None:
    def noisy(_signum: int, _frame: FrameType | None) -> None:  # what an embedding host may install
        raise AssertionError("a worker ran the parent's SIGTERM handler")

    previous = signal.signal(signal.SIGTERM, noisy)
    try:
        pool = start_pool(2)
        try:
            assert pool.apply(_dispositions) == (signal.SIG_IGN, signal.SIG_DFL)
        finally:
            pool.terminate()
        assert signal.getsignal(signal.SIGTERM) is noisy  # the parent's own handler is untouched
    finally:
        signal.signal(signal.SIGTERM, previous)


@pytest.mark.parametrize("chunksize", [1, 3, 8])
def test_results_come_back_in_input_order_from_a_lazy_input(chunksize: int) -> None:
    pulled: list[int] = []

    def items() -> object:
        for i in range(200):
            pulled.append(i)
            yield i

    pool = start_pool(2)
    try:
        results = pool.imap(_slow_square, items(), chunksize=chunksize)  # type: ignore[arg-type]
        first = next(results)
        assert first == 0
        assert len(pulled) < 200  # the input is read as workers free up, not all at once
        assert [first, *results] == [i * i for i in range(200)]
        assert pool.map(_slow_square, []) == []
    finally:
        pool.terminate()


@pytest.mark.parametrize(
    ("fn", "error", "match"),
    [(_fail_on_seven, ValueError, "seven"), (_die_on_three, WorkerDied, "exit status 9")],
    ids=["a worker's exception is raised in the caller", "a worker that dies raises WorkerDied, no hang"],
)
def test_a_failing_job_reaches_the_caller(
    fn: Callable[[int], int], error: type[Exception], match: str
) -> None:
    pool = start_pool(2)
    try:
        with pytest.raises(error, match=match):
            pool.map(fn, range(20), chunksize=2)
    finally:
        pool.terminate()


def test_terminate_stops_busy_workers_at_once_and_twice_is_harmless() -> None:
    pool = start_pool(2)
    results = pool.imap(_sleep, range(10))
    pids = [p.pid for p in pool._procs]
    with pytest.raises(TimeoutError):  # the workers are mid-task when we stop them
        _first_within(results, 0.3)
    stopper = threading.Thread(target=lambda: (pool.terminate(), pool.terminate()), daemon=True)
    stopper.start()
    stopper.join(60)  # a hang guard, as finish() has: the tasks sleep for an hour, so only a kill ends them
    assert not stopper.is_alive(), "terminate() waited for busy workers"
    for pid in pids:
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)
    assert pool.workers == 0


def _first_within(results: object, seconds: float) -> object:
    def alarm(_signum: int, _frame: FrameType | None) -> None:
        raise TimeoutError

    previous = signal.signal(signal.SIGALRM, alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        return next(results)  # type: ignore[call-overload]
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def test_submit_runs_one_job_beside_the_caller_and_reports_its_failure() -> None:
    pool = start_pool(1)
    try:
        pending = pool.submit(_slow_square, 9)  # started now, answered when asked
        assert pending() == 81
    finally:
        pool.terminate()
    pool = start_pool(1)
    try:
        with pytest.raises(ValueError, match="seven"):
            pool.submit(_fail_on_seven, 7)()
    finally:
        pool.terminate()


def _collect_all(pool: object, tickets: set[int]) -> dict[int, object]:
    answers: dict[int, object] = {}
    while len(answers) < len(tickets):
        answers.update(pool.collect(None))  # type: ignore[attr-defined]
    return answers


def test_posted_jobs_are_answered_by_ticket_and_the_pool_then_serves_imap() -> None:
    pool = start_pool(2)
    try:
        assert pool.collect(0.0) == []  # nothing posted: nothing to wait for
        tickets = {pool.post(_slow_square, x): x for x in range(12)}
        assert pool.posted == 12
        answers = _collect_all(pool, set(tickets))
        assert answers == {t: x * x for t, x in tickets.items()}
        assert pool.posted == 0
        assert pool.map(_slow_square, range(6), chunksize=2) == [x * x for x in range(6)]
    finally:
        pool.terminate()


def test_imap_refuses_a_pool_with_posted_jobs_not_collected() -> None:
    pool = start_pool(1)
    try:
        pool.post(_slow_square, 3)
        with pytest.raises(RuntimeError, match="posted"):
            pool.map(_slow_square, [1])
    finally:
        pool.terminate()


@pytest.mark.parametrize(("job", "error"), [(_fail_on_seven, ValueError), (_die_on_three, WorkerDied)])
def test_a_posted_job_that_fails_or_kills_its_worker_is_raised_by_collect(
    job: Callable[[int], int], error: type[Exception]
) -> None:
    pool = start_pool(1)
    try:
        pool.post(job, 7 if error is ValueError else 3)
        with pytest.raises(error):
            for _ in range(100):  # a dead worker is seen within a collect or two
                pool.collect(1.0)
    finally:
        pool.terminate()


def test_grow_pool_adds_workers_that_run_the_initializer() -> None:
    from indexlib.workers import grow_pool

    pool = start_pool(1, _remember, (5,))
    try:
        grow_pool(pool, 2, _remember, (5,))
        assert pool.workers == 3
        assert pool.map(_remembered, range(9)) == [5] * 9
        pids = {p.pid for p in pool._procs}
        assert len(pids) == 3
    finally:
        pool.terminate()


def test_a_submitted_job_says_when_it_is_ready_without_waiting() -> None:
    pool = start_pool(1)
    try:
        pending = pool.submit(_gate, 0.3)
        assert not pending.ready()  # still sleeping
        deadline = time.monotonic() + 60  # a hang guard, not a timing: ready() must turn true
        while not pending.ready():
            assert time.monotonic() < deadline, "the answer never became ready"
            time.sleep(0.01)
        assert pending() == 0.3
    finally:
        pool.terminate()


_REMEMBERED: list[int] = []


def _remember(value: int) -> None:
    _REMEMBERED.append(value)


def _remembered(_x: int) -> int:
    return _REMEMBERED[0]


def _gate(seconds: float) -> float:
    time.sleep(seconds)
    return seconds
