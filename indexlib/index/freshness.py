"""Which indexed files changed on disk since a root was published: size or mtime differ, or gone.

Owns: the comparison of a root's file records with the tree, shared by `qry status` (every change,
listed) and a search that found nothing spelling the name it was asked for (only how many: the name
may be in a file edited since the index). Reads file metadata only (`os.stat`), never contents.
Does not own: finding new files (status.py walks the tree for those, as a build would).
"""

from __future__ import annotations

import os
from pathlib import Path

from indexlib.index.redact import PLACEHOLDER
from indexlib.snapshot import Snapshot

__all__ = ["modified_or_deleted"]


def modified_or_deleted(snap: Snapshot, *, limit: int | None = None) -> tuple[list[str], list[str]]:
    """(modified, deleted) indexed paths in path order, stopping once `limit` are found in all."""
    base = Path(snap.manifest.source_root)
    modified: list[str] = []
    deleted: list[str] = []
    redacted = snap.manifest.settings.get("redact", "true") == "true"
    for path, rec in sorted(snap.manifest.files.items()):
        if limit is not None and len(modified) + len(deleted) >= limit:
            break
        if redacted and PLACEHOLDER in path:
            continue  # stored under its redacted path: the real name is not known (see build)
        try:
            st = os.stat(base / path)
        except OSError:
            deleted.append(path)
            continue
        if st.st_size != rec.size or st.st_mtime_ns != rec.mtime_ns:
            modified.append(path)
    return modified, deleted
