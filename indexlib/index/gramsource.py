"""What the n-gram index of a new segment is built from: each file's bytes, read from the source tree.

Owns: turning a path into the text `lexical.GramIndexWriter` indexes. A segment's tables hold redacted
node texts, not file bytes, so compaction reads each file again here (a build's parse stage, which has
the bytes already, applies the same rule, `gram_text`, to what it parsed). A file
whose text holds a secret (redaction would change it) is not described at all: its trigrams would
spell the secret out. It is marked "always a candidate" instead, so grep still verifies it against
the file and stays exact. A file that cannot be read is marked the same way.

Why reading again is safe: grep trusts the index only for files whose size and mtime still equal the
root's record, which discovery took before the file was read; a file that changed since then has a
different mtime and is scanned directly, whatever its n-gram document says.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from indexlib.gramtext import normalise

__all__ = ["GramSource", "gram_source", "gram_text"]

GramSource = Callable[[str], "str | None"]


def gram_text(data: bytes, secrets: int) -> str | None:
    """The n-gram text of a file's bytes, given how many secrets redaction found in it (None: always
    a candidate). The one rule for a build's parse stage and for compaction."""
    return None if secrets else normalise(data)


def gram_source(root: Path, *, redact: bool, max_file_bytes: int = 1 << 20) -> GramSource:
    """A function path -> normalised text (None: always a candidate) for files under `root`."""
    from indexlib.index.redact import redact as redact_text

    def read(path: str) -> str | None:
        try:
            with open(root / path, "rb") as fh:
                data = fh.read(max_file_bytes + 1)
        except OSError:
            return None
        secrets = redact_text(data.decode("utf-8", "replace"))[1] if redact else 0
        return gram_text(data, secrets)

    return read
