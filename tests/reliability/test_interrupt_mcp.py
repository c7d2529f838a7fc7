"""Ctrl-C on a terminal stops `qry mcp` at the first press: exit 130, `qry: interrupted`, no traceback.

The server runs on a real pseudo-terminal (its controlling terminal), so the Ctrl-C travels the way a
user's does: the byte 0x03 through the terminal's line discipline becomes SIGINT. The server is first
driven through an MCP `initialize` exchange, so the signal lands while it serves, with the stdio
reader thread blocked on the terminal (the case that used to need three presses and then printed a
threading traceback).
"""

from __future__ import annotations

import json
import os
import select
import signal
import sys
import time
from pathlib import Path

import pytest

from tests.reliability.helpers import cli_env

pytest.importorskip("mcp")

INIT = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "t", "version": "0"},
    },
}


def _read_until(fd: int, needle: bytes, timeout: float) -> bytes:
    """Terminal output until `needle` shows (or the timeout, or the terminal closes)."""
    out = b""
    end = time.monotonic() + timeout
    while needle not in out and time.monotonic() < end:
        ready, _, _ = select.select([fd], [], [], 0.1)
        if not ready:
            continue
        try:
            chunk = os.read(fd, 4096)
        except OSError:  # EIO: every process holding the terminal has gone
            break
        if not chunk:
            break
        out += chunk
    return out


def _wait(pid: int, timeout: float) -> int | None:
    """The exit status once the child has ended (it is then reaped), or None after `timeout`."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return os.waitstatus_to_exitcode(status)
        time.sleep(0.05)
    return None


def test_first_ctrl_c_on_a_terminal_stops_qry_mcp(tmp_path: Path) -> None:
    env = cli_env()
    pid, fd = os.forkpty()
    if pid == 0:  # the child: the pty is now its controlling terminal
        try:
            os.execve(sys.executable, [sys.executable, "-m", "cli", "mcp", "--index-dir", str(tmp_path)], env)
        finally:
            os._exit(127)
    code: int | None = None
    try:
        os.write(fd, json.dumps(INIT).encode() + b"\n")
        served = _read_until(fd, b'"result"', 60)
        assert b'"result"' in served, served.decode(errors="replace")
        os.write(fd, b"\x03")
        after = _read_until(fd, b"qry: interrupted", 10)
        code = _wait(pid, 10)
        after += _read_until(fd, b"\0", 0.3)  # anything printed while exiting
        text = after.decode(errors="replace")
        assert code == 130, f"exit {code}, output: {text}"
        assert "qry: interrupted" in text and "Traceback" not in text, text
    finally:
        if code is None:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
        os.close(fd)
