"""The terminal environment and the error contract of every command.

Owns: which streams we write to and whether they are terminals (injected, so tests pin them), the exit
codes, and turning a QryError into `qry: error: ...` + `  hint: ...` on stderr (plus an error object on
stdout with --json). A closed pipe (`qry search x | head -1`) exits quietly, as ripgrep does.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from enum import IntEnum
from typing import TextIO

import msgspec

from indexlib import QryError, disk_full, permission_denied


class Exit(IntEnum):
    """Exit statuses: grep's contract, plus 130 for Ctrl-C."""

    OK = 0  # results found / command succeeded
    NO_MATCH = 1  # a search that found nothing
    ERROR = 2  # bad input, missing index, corrupt file ...
    INTERRUPTED = 130


class Env:
    """Where output goes and how it should look; defaults read the real process, tests pin them."""

    __slots__ = ("color", "stderr", "stderr_tty", "stdout", "stdout_tty", "width")

    def __init__(
        self,
        *,
        stdout: TextIO | None = None,
        stderr: TextIO | None = None,
        stdout_tty: bool | None = None,
        stderr_tty: bool | None = None,
        color: bool | None = None,
        width: int | None = None,
    ) -> None:
        self.stdout: TextIO = stdout if stdout is not None else sys.stdout
        self.stderr: TextIO = stderr if stderr is not None else sys.stderr
        self.stdout_tty = self.stdout.isatty() if stdout_tty is None else stdout_tty
        self.stderr_tty = self.stderr.isatty() if stderr_tty is None else stderr_tty
        self.color = ("NO_COLOR" not in os.environ) if color is None else color
        self.width = width

    def out(self, text: str) -> None:
        self.stdout.write(text)

    def err(self, text: str) -> None:
        self.stderr.write(text)


def report_error(env: Env, exc: QryError, *, json_out: bool) -> int:
    try:
        env.err(f"qry: error: {exc.message}\n")
        if exc.hint:
            env.err(f"  hint: {exc.hint}\n")
        if json_out:
            env.out(msgspec.json.encode(exc.to_dict()).decode() + "\n")
            env.stdout.flush()
    except BrokenPipeError:  # the reader went away: the exit status still says what happened
        silence_stdout()
    return Exit.ERROR


def guarded(env: Env, fn: Callable[[], int], *, json_out: bool = False) -> int:
    """Run a command body with the error contract applied; returns the exit status."""
    try:
        return fn()
    except QryError as exc:
        return report_error(env, exc, json_out=json_out)
    except KeyboardInterrupt:
        env.err("qry: interrupted\n")
        return Exit.INTERRUPTED
    except BrokenPipeError:
        silence_stdout()
        return Exit.OK
    except OSError as exc:  # a full disk or a refused path the library did not translate: no traceback
        known = disk_full(exc, str(exc.filename or "the index")) or permission_denied(exc)
        if known is None:
            raise
        return report_error(env, known, json_out=json_out)


def silence_stdout() -> None:
    """After EPIPE, point stdout at /dev/null so the interpreter's final flush does not complain."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass
