"""`qry mcp`'s stdio wire: the process's descriptors, the guards of `cli.mcp_guard` in front of the
SDK, and Ctrl-C.

Owns: reading the wire line by line (bounded), answering what the guards refuse, writing the SDK's
messages under one lock, and ending the server at the first Ctrl-C. Does not own: the tools
(`cli.mcp_tools`) or their registration (`cli.mcp_server`). Imports the `mcp` SDK and `anyio` only
inside functions, so qry without the `mcp` extra imports this module fine.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from cli.console import Exit


@contextmanager
def exit_on_ctrl_c() -> Iterator[None]:
    """Make the first Ctrl-C end the server at once: `qry: interrupted` on stderr, exit status 130.

    Why not a KeyboardInterrupt: the stdio transport reads stdin in a worker thread that no
    cancellation can stop, so asyncio's own SIGINT handling waits for it (the first Ctrl-C seemed
    ignored) and interpreter shutdown then joins it (a threading traceback). Exiting from the handler
    is safe for the index: a reindex cut short leaves only staging files, as after a kill.
    """
    import os
    import signal

    def on_sigint(_signum: int, _frame: object) -> None:
        try:
            sys.stderr.write("qry: interrupted\n")
            sys.stderr.flush()
        finally:
            os._exit(Exit.INTERRUPTED)

    if threading.current_thread() is not threading.main_thread():
        yield  # signal handlers can only be set from the main thread (an in-process test)
        return
    previous = signal.signal(signal.SIGINT, on_sigint)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


class _Wire:
    """The stdio wire with the guards of `cli.mcp_guard` in front of the SDK.

    The SDK's own stdio transport drops a line it cannot parse without a reply (the client waits
    forever) and writes whatever it parses to the session; so we own the wire: lines are read here
    (bounded: a line over the size limit is discarded in chunks, never held whole), each is guarded,
    good ones go on to the SDK, and the guard's error replies are written back under the same lock as
    the SDK's messages, so frames never interleave. As the SDK does, the real descriptors 0 and 1 are
    kept private and the process's stdin/stdout are pointed at /dev/null and stderr, so stray output
    of a library cannot corrupt the wire.
    """

    def __init__(self, known: dict[str, frozenset[str]]) -> None:
        import os

        import anyio

        self._known = known  # each tool's arguments, which the guard checks a call's against
        sys.stdout.flush()
        self._in = os.fdopen(os.dup(0), "rb", buffering=0)
        self._out = os.fdopen(os.dup(1), "wb", buffering=0)
        devnull = os.open(os.devnull, os.O_RDONLY)
        os.dup2(devnull, 0)
        os.close(devnull)
        os.dup2(2, 1)
        self._reader = __import__("io").BufferedReader(self._in, buffer_size=1 << 16)
        self._lock = anyio.Lock()

    # -- what the SDK's transport reads (async iteration) and writes (write + flush) --------------

    def __aiter__(self) -> _Wire:
        return self

    async def __anext__(self) -> str:
        import anyio.to_thread

        from cli.mcp_guard import guard_line

        while True:
            line = await anyio.to_thread.run_sync(self._read_line, abandon_on_cancel=True)
            if line is None:
                raise StopAsyncIteration
            forward, reply = guard_line(line, self._known)
            if reply is not None:
                await self.write(reply + "\n")
            if forward is not None:
                return forward + "\n"

    async def write(self, text: str) -> None:
        import anyio.to_thread

        async with self._lock:
            await anyio.to_thread.run_sync(self._write, text.encode("utf-8", "replace"))

    async def flush(self) -> None:
        return None  # every write is written through

    def _write(self, data: bytes) -> None:
        view = memoryview(data)
        while view:
            view = view[self._out.write(view) or 0 :]

    def _read_line(self) -> str | None:
        """One line (without its newline), or None at EOF. A line over the size limit comes back as
        its first MAX_MESSAGE_BYTES + 1 bytes (the guard refuses it); the rest is read and dropped."""
        from cli.mcp_guard import MAX_MESSAGE_BYTES

        data = self._reader.readline(MAX_MESSAGE_BYTES + 1)
        if not data:
            return None
        if not data.endswith(b"\n") and len(data) > MAX_MESSAGE_BYTES:
            while True:
                rest = self._reader.readline(1 << 16)
                if not rest or rest.endswith(b"\n"):
                    break
        return data.decode("utf-8", "replace").rstrip("\r\n")


async def serve_stdio(server: Any) -> None:
    """Serve `server` (an MCPServer) on the guarded wire; ends when the client closes stdin."""
    from mcp.server.stdio import stdio_server

    known = {
        t.name: frozenset((t.input_schema or {}).get("properties", {})) for t in await server.list_tools()
    }
    wire: Any = _Wire(known)
    async with stdio_server(stdin=wire, stdout=wire) as (read_stream, write_stream):
        low = server._lowlevel_server  # the SDK's MCPServer.run_stdio_async does exactly this
        await low.run(read_stream, write_stream, low.create_initialization_options())
