"""HEAD's first-parent `git log -p`, newest first, produced by several git processes at once.

Owns: cutting the first-parent history into consecutive segments (`^B HEAD`, `^C B`, ..., `Z`), one
git per segment, and handing their output back as one stream of lines in history order. Does not
own: what the lines mean (git.py's `patches`) or the walk over them (replay.py).

Why: `git log -p` spends its time diffing, on one core (vuejs/core, 6,436 first-parent commits: 2.97 s
alone; two halves side by side: 1.75 s). Later segments run ahead into a bounded buffer while the
first is read; a walk that ends early (every line attributed) stops them all.
"""

from __future__ import annotations

import os
import queue
import subprocess
import threading
from collections.abc import Iterator

from indexlib.index.gittimes.git import GitRepo
from indexlib.workers import available_cores

__all__ = ["LogStream", "lines_of", "read_chunks"]

SEGMENT_MIN_COMMITS = 1500  # fewer commits per git than this is not worth another process
MAX_SEGMENTS = 4
_CHUNK = 1 << 20
BUFFER_CHUNKS = 64  # how far (MiB) a later segment's output may run ahead of the reader


def read_chunks(fd: int) -> Iterator[bytes]:
    """A pipe's bytes in large chunks, until EOF."""
    while True:
        chunk = os.read(fd, _CHUNK)
        if not chunk:
            return
        yield chunk


def lines_of(chunks: Iterator[bytes]) -> Iterator[bytes]:
    """Lines of a byte stream given in chunks, without their newline."""
    rest = b""
    for chunk in chunks:
        parts = (rest + chunk).split(b"\n")
        rest = parts.pop()
        yield from parts
    if rest:
        yield rest


def _boundaries(repo: GitRepo, segments: int) -> list[str]:
    """The commits where segments 2.. start (newest first), or [] when one git will do."""
    if segments < 2:
        return []
    count_out = repo.run("rev-list", "--first-parent", "--count", "HEAD", "--")
    try:
        count = int((count_out or b"0").strip())
    except ValueError:
        return []
    segments = min(segments, count // SEGMENT_MIN_COMMITS)
    starts: list[str] = []
    for i in range(1, segments):
        out = repo.run(
            "rev-list", "--first-parent", f"--skip={count * i // segments}", "--max-count=1", "HEAD", "--"
        )
        sha = (out or b"").strip().decode("ascii", "replace")
        if not sha:
            return []
        starts.append(sha)
    return starts


class LogStream:
    """`git log <log_args> HEAD` as one line stream, from one git per core (up to MAX_SEGMENTS), or
    `git log <log_args> <revs>` from one."""

    def __init__(self, repo: GitRepo, log_args: tuple[str, ...], revs: tuple[str, ...] | None = None) -> None:
        if revs is not None:  # a given range: one git
            ranges = [revs]
        else:
            starts = _boundaries(repo, min(MAX_SEGMENTS, available_cores()))
            tops = ["HEAD", *starts]
            ranges = [(f"^{starts[i]}", top) if i < len(starts) else (top,) for i, top in enumerate(tops)]
        self._procs: list[subprocess.Popen[bytes]] = []
        self._queues: list[queue.Queue[bytes]] = []
        self._threads: list[threading.Thread] = []
        self.ok = True
        for rev in ranges:
            proc = repo.popen(*log_args, *rev, "--")
            if proc is None or proc.stdout is None:
                self.ok = False
                break
            self._procs.append(proc)
        if not self.ok:
            self.close(read_to_end=False)
            return
        for proc in self._procs[1:]:
            q: queue.Queue[bytes] = queue.Queue(maxsize=BUFFER_CHUNKS)
            assert proc.stdout is not None
            t = threading.Thread(
                target=_drain, args=(proc.stdout.fileno(), q), name="qry-git-log", daemon=True
            )
            t.start()
            self._queues.append(q)
            self._threads.append(t)

    def lines(self) -> Iterator[bytes]:
        """Every segment's lines, newest segment first."""
        if not self._procs:
            return
        first = self._procs[0].stdout
        assert first is not None
        yield from lines_of(read_chunks(first.fileno()))
        for q in self._queues:
            yield from lines_of(iter(q.get, b""))

    def kill(self) -> None:
        """Stop every git (the deadline, or the walk is done)."""
        for proc in self._procs:
            if proc.poll() is None:
                proc.kill()

    def close(self, *, read_to_end: bool) -> bool:
        """Stop (unless the stream was read to its end) and reap everything; True when every git
        ran to the end and succeeded."""
        if not read_to_end:
            self.kill()
        for q, t in zip(self._queues, self._threads, strict=True):
            while t.is_alive():  # a drain blocked on a full buffer: make room until it sees EOF
                try:
                    while True:
                        q.get_nowait()
                except queue.Empty:
                    pass
                t.join(0.05)
        codes = [proc.wait() for proc in self._procs]
        for proc in self._procs:
            if proc.stdout is not None:
                proc.stdout.close()
        return read_to_end and self.ok and bool(self._procs) and all(code == 0 for code in codes)


def _drain(fd: int, q: queue.Queue[bytes]) -> None:
    """Move a later segment's output into its buffer, in chunks of about _CHUNK bytes (a pipe read
    returns at most the pipe's 64 KiB, which would make BUFFER_CHUNKS far too small a bound)."""
    pieces: list[bytes] = []
    held = 0
    try:
        for piece in read_chunks(fd):
            pieces.append(piece)
            held += len(piece)
            if held >= _CHUNK:
                q.put(b"".join(pieces))
                pieces, held = [], 0
    except OSError:
        pass
    if pieces:
        q.put(b"".join(pieces))
    q.put(b"")
