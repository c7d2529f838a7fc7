"""Verification: a root's files checked against what its manifest records.

Owns: the full check of a root (`qry verify`: the manifest file, then every file of every segment by
existence, size and checksum), the cheap open-time check (sizes only: `check_openable`), and the check of one segment's
files before a writer or reader trusts their bytes.

Does not own: how files are compared (files.py) or what is done about a problem (callers decide).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from indexlib.errors import IndexCorrupt
from indexlib.store.files import Problem, compare
from indexlib.store.layout import is_attachment
from indexlib.store.manifest import Manifest, SegmentEntry

if TYPE_CHECKING:
    from indexlib.store.store import Store


def verify(store: Store, root_id: str | None = None) -> list[Problem]:
    """Every problem of a root (default HEAD): its manifest file, and every file of every segment
    (existence, size, checksum; files it does not list are "extra"). Empty means healthy.

    Attachments the root does not mention (another root's vectors) are not "extra".
    """
    if root_id is None:
        try:
            rid = store.head()
        except IndexCorrupt as exc:
            return [Problem(path="HEAD", kind="checksum", detail=exc.message)]
        if rid is None:
            raise store._no_root_yet()
    else:
        rid = store.resolve(root_id)
    shown = f"roots/{rid}.json"
    try:
        manifest = store._load_exact(rid)
    except IndexCorrupt as exc:
        kind = "missing" if not (store.roots_dir / f"{rid}.json").exists() else "checksum"
        return [Problem(path=shown, kind=kind, detail=exc.message)]
    problems: list[Problem] = []
    for seg in manifest.segments:
        seg_dir = store.segments_dir / seg.id
        label = f"segments/{seg.id}"
        if not seg_dir.is_dir():
            problems.append(Problem(path=label, kind="missing", detail="segment directory is missing"))
            continue
        mentioned = {e.name.split("/", 1)[0] for e in seg.files}
        others = frozenset(
            c.name for c in seg_dir.iterdir() if is_attachment(c.name) and c.name not in mentioned
        )
        problems.extend(compare(seg_dir, seg.files, label=label, checksums=True, ignore_top=others))
    return problems


def check_sizes(store: Store, manifest: Manifest) -> list[Problem]:
    """The cheap open-time check: every listed file exists with its recorded size (one stat per
    file, no reads), so a truncated file is reported by name instead of crashing an engine."""
    problems: list[Problem] = []
    for seg in manifest.segments:
        seg_dir = store.segments_dir / seg.id
        label = f"segments/{seg.id}"
        if not seg_dir.is_dir():
            problems.append(Problem(path=label, kind="missing", detail="segment directory is missing"))
            continue
        problems.extend(compare(seg_dir, seg.files, label=label, checksums=False))
    return problems


def check_contents(
    store: Store, seg: SegmentEntry, *, prefix: str = "", suffixes: tuple[str, ...] = ()
) -> list[Problem]:
    """Every listed file of `seg` whose name starts with `prefix` (all of them by default) checked
    by size and checksum, before its bytes are trusted: what a writer does before it rewrites a
    segment (compaction, re-embedding) or reuses it, and what a reader does the first time it opens
    a segment's vectors. With `suffixes`, only files whose names end so. Files the manifest does
    not list are not looked at."""
    seg_dir = store.segments_dir / seg.id
    label = f"segments/{seg.id}"
    if not seg_dir.is_dir():
        return [Problem(path=label, kind="missing", detail="segment directory is missing")]
    entries = [e for e in seg.files if e.name.startswith(prefix) and e.name.endswith(suffixes or "")]
    return compare(seg_dir, entries, label=label, checksums=True, extras=False)


def check_openable(store: Store, root_id: str, manifest: Manifest) -> None:
    """IndexCorrupt naming the first damage `Snapshot.open` refuses a root for, before any engine
    opens: a file its segments list that is missing or not of its recorded size, a segment folder
    that is missing. One stat per listed file and no read (the checksums of Tantivy's term and fast
    files and of the vectors are taken later, when a search first opens them): cheap enough for
    every open, and for `qry workspace list` to say what a search of the index will meet."""
    problems = check_sizes(store, manifest)
    if problems:
        first = problems[0]
        raise IndexCorrupt(
            f"index file {first.path} is damaged: {first.detail}"
            + (f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""),
            hint="run `qry verify` for the full list, then `qry index --rebuild`",
        )
    for entry in manifest.segments:
        if not store.segment_dir(entry.id).is_dir():
            raise IndexCorrupt(
                f"segment {entry.id} named by root {root_id[:12]} is missing",
                hint="run `qry verify`, then `qry index --rebuild`",
            )
