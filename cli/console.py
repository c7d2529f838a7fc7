"""The terminal environment and the error contract of every command.

Owns: which streams we write to and whether they are terminals (injected, so tests pin them), the exit
codes, and turning a QryError into `qry: error: ...` + `  hint: ...` on stderr (plus an error object on
stdout with --json). A closed pipe (`qry search x | head -1`) exits quietly, as ripgrep does.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import IntEnum
from typing import TextIO

import msgspec

from indexlib.errors import QryError


class Exit(IntEnum):
    """Exit statuses: grep's contract, plus 130 for Ctrl-C."""

    OK = 0  # results found / command succeeded
    NO_MATCH = 1  # a search that found nothing
    ERROR = 2  # bad input, missing index, corrupt file ...
    INTERRUPTED = 130


@dataclass(slots=True)
class Env:
    """Where output goes and how it should look."""

    stdout: TextIO = field(default_factory=lambda: sys.stdout)
    stderr: TextIO = field(default_factory=lambda: sys.stderr)
    stdout_tty: bool = field(default_factory=lambda: sys.stdout.isatty())
    stderr_tty: bool = field(default_factory=lambda: sys.stderr.isatty())
    color: bool = field(default_factory=lambda: "NO_COLOR" not in os.environ)
    width: int | None = None

    def out(self, text: str) -> None:
        self.stdout.write(text)

    def err(self, text: str) -> None:
        self.stderr.write(text)


def report_error(env: Env, exc: QryError, *, json_out: bool) -> int:
    env.err(f"qry: error: {exc.message}\n")
    if exc.hint:
        env.err(f"  hint: {exc.hint}\n")
    if json_out:
        env.out(msgspec.json.encode(exc.to_dict()).decode() + "\n")
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
        _silence_stdout()
        return Exit.OK


def _silence_stdout() -> None:
    """After EPIPE, point stdout at /dev/null so the interpreter's final flush does not complain."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass
