"""`qry mcp` on the raw stdio wire: lines the SDK would drop without a reply, and pings while work runs.

A real server process is driven with hand-written JSON-RPC lines (the SDK's client would never send
these): malformed JSON must get -32700, a non-object, an oversized or a 100k-deep message -32600, a
query with a lone surrogate an answer; a ping sent during a slow call (a reindex of every file, and a
search with the `**/` x 40 glob that froze the server ~55 s) must be answered before that call ends. Every wait is
bounded by a timeout, so a regression fails instead of hanging.
"""

from __future__ import annotations

import json
import select
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("mcp")

from indexlib import BuildOptions, build_index
from tests.reliability.helpers import cli_env

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = ROOT / "fixtures" / "polyglot"


class Wire:
    def __init__(self, index_dir: Path) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "cli", "mcp", "--index-dir", str(index_dir)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT, env=cli_env(),
        )  # fmt: skip
        self.buffer = b""

    def send(self, message: dict[str, Any] | bytes | str) -> None:
        data = (
            message
            if isinstance(message, bytes)
            else (message if isinstance(message, str) else json.dumps(message)).encode()
        )
        assert self.proc.stdin is not None
        self.proc.stdin.write(data + b"\n")
        self.proc.stdin.flush()

    def recv(self, timeout: float = 30) -> dict[str, Any]:
        assert self.proc.stdout is not None
        deadline = time.monotonic() + timeout
        while b"\n" not in self.buffer:
            left = deadline - time.monotonic()
            ready, _, _ = select.select([self.proc.stdout], [], [], max(left, 0))
            if not ready:
                raise AssertionError(f"no reply within {timeout} s")
            chunk = self.proc.stdout.read1(1 << 16)  # type: ignore[attr-defined]
            if not chunk:
                raise AssertionError("the server closed its output")
            self.buffer += chunk
        line, self.buffer = self.buffer.split(b"\n", 1)
        return json.loads(line)

    def close(self) -> None:
        if self.proc.stdin:
            self.proc.stdin.close()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()


@pytest.fixture
def wire(tmp_path: Path) -> Iterator[Wire]:
    repo = tmp_path / "repo"
    shutil.copytree(FIXTURE, repo)
    index = tmp_path / "index"
    build_index(repo, BuildOptions(index_dir=index, embed="none", git_times=False))
    w = Wire(index)
    w.send({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-03-26", "capabilities": {}, "clientInfo": {"name": "wire-test", "version": "1"}}})  # fmt: skip
    assert w.recv()["id"] == 0
    w.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
    yield w
    w.close()


def _ping(w: Wire, msg_id: int) -> None:
    w.send({"jsonrpc": "2.0", "id": msg_id, "method": "ping"})
    assert w.recv() == {"jsonrpc": "2.0", "id": msg_id, "result": {}}


def test_lines_the_sdk_would_drop_get_an_error_reply(wire: Wire) -> None:
    wire.send(b"{not json")
    assert wire.recv()["error"]["code"] == -32700
    wire.send(b"[1, 2, 3]")
    assert wire.recv()["error"]["code"] == -32600
    wire.send(b'{"jsonrpc": "2.0", "id": 9, "params": {}}')  # no method
    reply = wire.recv()
    assert reply["error"]["code"] == -32600 and reply["id"] == 9
    deep = '{"jsonrpc":"2.0","id":4,"method":"ping","params":{"a":' + "[" * 100_000 + "]" * 100_000 + "}}"
    wire.send(deep)
    reply = wire.recv()
    assert reply["error"]["code"] == -32600 and "nested deeper" in reply["error"]["message"]
    wire.send(b'{"jsonrpc": "2.0", "id": 5, "method": "ping", "params": {"x": "' + b"a" * (5 << 20) + b'"}}')
    assert "over" in wire.recv()["error"]["message"]
    _ping(wire, 6)  # still serving


def test_a_lone_surrogate_in_a_query_is_answered(wire: Wire) -> None:
    wire.send(
        '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"search","arguments":{"query":"\\ud800 retry"}}}'
    )
    reply = wire.recv()
    assert reply["id"] == 3 and "result" in reply, reply
    assert "\ufffd retry" in reply["result"]["content"][0]["text"]


def test_pings_are_answered_while_a_slow_call_runs(wire: Wire, tmp_path: Path) -> None:
    for path in (tmp_path / "repo").rglob("*"):
        if path.is_file():
            with path.open("a") as fh:
                fh.write("\n")
    wire.send(
        {"jsonrpc": "2.0", "id": 10, "method": "tools/call", "params": {"name": "reindex", "arguments": {}}}
    )
    hostile = {"query": "retry", "path": "**/" * 40}  # 44 s of regex backtracking, GIL held, before
    wire.send(
        {
            "jsonrpc": "2.0",
            "id": 11,
            "method": "tools/call",
            "params": {"name": "search", "arguments": hostile},
        }
    )
    wire.send({"jsonrpc": "2.0", "id": 12, "method": "ping"})
    order = [wire.recv()["id"] for _ in range(3)]
    assert order.index(12) < order.index(10), f"the ping waited for the reindex: {order}"
    assert sorted(order) == [10, 11, 12]
