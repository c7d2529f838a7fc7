"""Line times of files at a commit, kept in the user cache so that no build reads the same history
twice.

Owns: the folder of cached commits (`$XDG_CACHE_HOME/qry/times`), reading and writing one entry per
commit, and finding the newest cached commit on HEAD's first-parent chain. Does not own: what the
times are (`gittimes/__init__.py`) or how the walk uses them (replay.py).

Why it can be trusted: a file's line times at commit C depend only on C's first-parent history, so an
entry never goes stale. A second clone or worktree at C, a rebuild, or a build after `git pull` from
C (the walk reads only the new commits, then takes the rest from C's entry) reads no old history.
Only files that were clean against C and whose times were exact are written. Entries are written to
a temporary file and renamed in (two builds at once: the last one wins), are owner-only (the process
umask), carry an xxh3-128 digest that a damaged entry fails (it is ignored and recomputed), and the
folder keeps the MAX_ENTRIES most recently used commits, within MAX_BYTES.
"""

from __future__ import annotations

import os
import re
import tempfile
import time
from pathlib import Path

import msgspec
import xxhash

from indexlib.index.gittimes.git import GitRepo

__all__ = ["MAX_ENTRIES", "REACH", "TimesCache", "times_cache_dir"]

MAX_ENTRIES = 16  # commits kept (about 0.9 MB each for vuejs/core's 150k lines of code)
MAX_BYTES = 256 << 20  # and at most this much in all, least recently used out first
REACH = 5000  # first-parent commits below HEAD searched for a cached one
_NAME = re.compile(r"^([0-9a-f]{40}|[0-9a-f]{64})\.times$")
_DIGEST = 16

Entry = dict[bytes, list[int]]  # top-relative path -> committer time of each line at the commit
_ENCODER = msgspec.msgpack.Encoder()
_DECODER = msgspec.msgpack.Decoder(dict[bytes, list[int]])


def times_cache_dir() -> Path:
    """`$XDG_CACHE_HOME/qry/times` (default `~/.cache/qry/times`)."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "qry" / "times"


class TimesCache:
    """The cached commits under `folder`; every failure to read or write is a miss, never an error."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def _path(self, sha: str) -> Path:
        return self.folder / f"{sha}.times"

    def commits(self) -> set[str]:
        try:
            return {m.group(1) for p in self.folder.iterdir() if (m := _NAME.match(p.name))}
        except OSError:
            return set()

    def load(self, sha: str) -> Entry | None:
        """The entry of `sha`, or None when it is missing or damaged."""
        path = self._path(sha)
        try:
            data = path.read_bytes()
        except OSError:
            return None
        body = data[_DIGEST:]
        if len(data) < _DIGEST or xxhash.xxh3_128_digest(body) != data[:_DIGEST]:
            return None
        try:
            entry = _DECODER.decode(body)
            os.utime(path)  # recently used: evicted last
        except (msgspec.DecodeError, OSError):
            return None
        return entry

    def nearest(self, repo: GitRepo) -> tuple[str, Entry] | None:
        """The newest cached commit on HEAD's first-parent chain (HEAD itself included), with its entry."""
        cached = self.commits()
        if not cached:
            return None
        out = repo.run("rev-list", "--first-parent", f"--max-count={REACH}", "HEAD", "--")
        for raw in (out or b"").split():
            sha = raw.decode("ascii", "replace")
            if sha in cached:
                entry = self.load(sha)
                if entry is not None:
                    return sha, entry
        return None

    def save(self, sha: str, entry: Entry, known: Entry | None = None) -> None:
        """Write (or widen: a build of another folder of the same tree) the entry of `sha`.

        `known` is the entry of `sha` the caller already loaded (`nearest` found HEAD itself): it is
        not read again, and nothing is written when `entry` adds nothing to it.
        """
        if not entry:
            return
        old = known if known is not None else self.load(sha)
        if old is not None:
            if all(old.get(key) == lines for key, lines in entry.items()):
                return
            entry = {**old, **entry}
        body = _ENCODER.encode(entry)
        try:
            self.folder.mkdir(mode=0o700, parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=self.folder, prefix=".tmp-")
            try:
                with os.fdopen(fd, "wb") as f:
                    f.write(xxhash.xxh3_128_digest(body) + body)
                os.replace(tmp, self._path(sha))
            except BaseException:
                Path(tmp).unlink(missing_ok=True)
                raise
            self._evict()
        except OSError:
            return

    def _evict(self) -> None:
        entries = []
        stale_before = time.time_ns() - 3600 * 10**9  # a temporary file of a writer killed mid-write
        for p in self.folder.iterdir():
            if p.name.startswith(".tmp-"):
                try:
                    if p.stat().st_mtime_ns < stale_before:
                        p.unlink(missing_ok=True)
                except OSError:
                    pass
            elif _NAME.match(p.name):
                try:
                    st = p.stat()
                except OSError:
                    continue
                entries.append((st.st_mtime_ns, st.st_size, p))
        held = 0
        for rank, (_mtime, size, p) in enumerate(sorted(entries, reverse=True)):
            held += size
            if rank >= MAX_ENTRIES or (held > MAX_BYTES and rank > 0):
                p.unlink(missing_ok=True)
