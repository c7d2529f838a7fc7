"""The build's fork pool: workers ignore Ctrl-C and die of SIGTERM by default, whatever the parent set."""

from __future__ import annotations

import signal
from types import FrameType

from indexlib.workers import start_pool


def _dispositions() -> tuple[object, object]:
    return signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGTERM)


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
