"""The names and shapes inside an index directory, and removing paths from it.

Owns: which entries an index directory may hold, what a root id, a segment id and an attachment name
look like, the attachment directory of a model's vectors, the private mode of the directories, and
deleting a file or tree (shutil imported on first use). Pure helpers: the `Store` and its gc use them.

Does not own: changing the layout (store.py publishes, gc.py collects).
"""

from __future__ import annotations

import os
import re
import stat
from pathlib import Path

import xxhash

ATTACHMENT_PREFIXES = ("vectors-",)
# What an index directory may hold; a directory holding anything else is not one (see `Store._create`).
INDEX_ENTRIES = frozenset({"HEAD", "roots", "segments", "tmp", "cache", "lock", ".gitignore"})
COLLECTED_HINT = "`qry roots` lists the roots on disk (gc keeps the newest --keep of HEAD's chain)"
INDEX_DIR_HINT = "pass --index-dir a new or empty directory (default: PATH/.qry)"  # where to build one
GITIGNORE = b"*\n"
ROOT_ID = re.compile(r"^[0-9a-f]{32}$")
SEGMENT_ID = re.compile(r"^[0-9A-Za-z_-]{1,128}$")
SAFE_KEY = re.compile(r"^[0-9A-Za-z_.-]{1,64}$")
MIN_PREFIX = 4


def is_attachment(name: str) -> bool:
    """True if a top-level name inside a segment directory is an attachment, not a base file."""
    return name.startswith(ATTACHMENT_PREFIXES)


def vectors_dirname(model_id: str) -> str:
    """The attachment directory for `model_id`'s vectors: `vectors-<model_id>` when the id is a safe
    file name, else a slug plus a short hash (model ids may contain `/`)."""
    if SAFE_KEY.match(model_id) and not model_id.startswith("."):
        return f"vectors-{model_id}"
    slug = re.sub(r"[^0-9A-Za-z_.-]+", "_", model_id).strip("._")[:40] or "model"
    return f"vectors-{slug}-{xxhash.xxh3_64_hexdigest(model_id.encode())[:8]}"


def make_private(path: Path) -> None:
    """chmod 0700 a directory we own whose mode is looser; someone else's is left alone (chmod would
    fail, and it is theirs). A failure (a read-only file system) is left for the write that follows."""
    try:
        st = os.stat(path)
        if st.st_uid == os.geteuid() and stat.S_IMODE(st.st_mode) != 0o700:
            os.chmod(path, 0o700)
    except OSError:
        pass


def check_segment_id(segment_id: str) -> None:
    """A segment id names a directory: refuse one that could escape segments/ or clash."""
    if not SEGMENT_ID.match(segment_id):
        raise ValueError(f"bad segment id {segment_id!r}: use 1-128 characters of [0-9A-Za-z_-]")


def delete(path: Path) -> None:
    """Remove a file or tree if it is there, ignoring what cannot be removed (failure paths call it)."""
    if path.is_dir() and not path.is_symlink():
        rmtree(path, ignore_errors=True)
    else:
        try:
            path.unlink()
        except FileNotFoundError:
            pass


def rmtree(path: Path, *, ignore_errors: bool = False) -> None:
    """shutil.rmtree, imported on first use: readers never delete, and shutil costs a one-shot search."""
    import shutil

    shutil.rmtree(path, ignore_errors=ignore_errors)
