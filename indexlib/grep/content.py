"""A file's bytes -> the text grep searches, read as ripgrep reads it.

Owns: the one size bound grep keeps (`MAX_BYTES`, to bound memory: a file is read whole), byte order
marks (a UTF-8 one is dropped, UTF-16 is transcoded, as rg's default `--encoding auto` does),
lossy decoding (bytes that are not UTF-8 become lone surrogates, `surrogateescape`, so printing them
writes the same bytes back, as rg prints them), and binary data: where ripgrep stops on a NUL byte.
Does not own: which files are read (`files.py`), matching (`lines.py`), printing (the CLI).

Why none of discovery's content checks: the index leaves out files over 1 MiB, not UTF-8, minified
or with a NUL in their first 8 KiB, but rg searches every one of them (a NUL aside), so grep reads
them directly (`run.py`): a 2 MB one-line bundle or a C file with one Latin-1 byte is searched.

Binary files, as rg 13-15 treat them. rg reads a file in buffers (64 KiB at first, grown threefold
while a line does not fit) and looks for a NUL in each new one before searching it:
- a file found by the walk ("quit"): at the first buffer holding a NUL rg stops, searching none
  of it. A NUL in the first 64 KiB: the file is skipped in silence. Later: the lines of the buffers
  before are searched and, if one matched, rg adds `PATH: WARNING: stopped searching binary file
  after match (found "\\0" byte around offset N)` (and `-c` prints nothing for the file);
- a file named on the command line ("convert"): rg prints `PATH: binary file matches (found "\\0"
  byte around offset N)` in place of the lines from that buffer on, if anything matched. For up to
  ten named files (and no folder) rg maps them and looks only at their first 64 KiB: a NUL further
  on is then no binary data at all, and lines are printed as they are.
"""

from __future__ import annotations

import os
from typing import NamedTuple

__all__ = ["BUFFER", "MAX_BYTES", "Content", "decode", "quit_cut", "read_file", "too_large"]

MAX_BYTES = 128 << 20  # a file is read whole (bytes and text): past this it is reported, not read
BUFFER = 1 << 16  # rg's first read buffer (grep-searcher DEFAULT_BUFFER_CAPACITY)
_FLAGS = os.O_RDONLY | os.O_NOCTTY | getattr(os, "O_CLOEXEC", 0)


class Content(NamedTuple):
    """A file as grep searches it."""

    text: str  # the whole file, decoded
    nul: int  # byte offset of its first NUL (after a byte order mark), -1 without one
    cut: int  # how many characters of `text` rg reads before it meets the NUL's buffer


def too_large(size: int) -> str:
    """The warning for a file grep does not read: `MAX_BYTES` bounds its memory."""
    return f"not searched: {size} bytes is over grep's limit of {MAX_BYTES >> 20} MiB (files are read whole)"


def read_file(path: str, *, named: bool = False) -> bytes:
    """At most `MAX_BYTES + 1` bytes of a file (OSError as the OS raised it), through a link as the
    walk lists links inside the tree under their own path (and as the index read them). `named`: a
    file named on the command line, which, if it is a FIFO or a device, is read as a stream until
    its writer is done; a file the walk found is opened without blocking (it may have been swapped
    for a FIFO since it was listed)."""
    flags = _FLAGS if named else _FLAGS | os.O_NONBLOCK
    with os.fdopen(os.open(path, flags), "rb", buffering=0) as fh:
        first = fh.read(MAX_BYTES + 1) or b""
        if not first:
            return first
        chunks = [first]  # a pipe gives what its writer wrote so far: read on to the end
        size = len(first)
        while size <= MAX_BYTES:
            more = fh.read(MAX_BYTES + 1 - size)
            if not more:
                break
            chunks.append(more)
            size += len(more)
    return first if len(chunks) == 1 else b"".join(chunks)


def quit_cut(data: bytes, nul: int) -> int:
    """The bytes rg searches before the read buffer that holds `data[nul]` (a line start; 0 when it
    is in the first buffer). grep-searcher's LineBuffer: each fill reads into the space left after
    the incomplete last line, tripling the buffer while no line ends in it; a fill's lines are
    searched before the next fill, and the fill that brings a NUL is not searched at all."""
    size = BUFFER
    start = 0  # where the unsearched part of the buffer begins (a line start)
    end = 0  # how far the file has been read
    while True:
        if end - start >= size:
            size *= 3
        new_end = min(start + size, len(data))
        if nul < new_end or new_end == end:
            return start
        last = data.rfind(b"\n", end, new_end)
        end = new_end
        if last >= 0:
            start = last + 1


def decode(data: bytes) -> tuple[str, bytes]:
    """(text, the bytes rg searches): a UTF-8 byte order mark dropped, UTF-16 with one transcoded
    (what cannot be decoded becomes U+FFFD, as in rg), anything else UTF-8 with bad bytes kept."""
    if data[:3] == b"\xef\xbb\xbf":
        data = data[3:]
    elif data[:2] in (b"\xff\xfe", b"\xfe\xff"):
        text = data[2:].decode("utf-16-le" if data[:2] == b"\xff\xfe" else "utf-16-be", "replace")
        return text, text.encode("utf-8", "surrogatepass")
    return data.decode("utf-8", "surrogateescape"), data


def content(data: bytes) -> Content:
    """`data` decoded, with where its first NUL is and where rg's walk would stop reading it."""
    text, raw = decode(data)
    nul = raw.find(b"\0")
    if nul < 0:
        return Content(text, -1, len(text))
    cut = quit_cut(raw, nul)
    return Content(text, nul, len(raw[:cut].decode("utf-8", "surrogateescape")))
