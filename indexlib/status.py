"""What an index holds and how fresh it is: counts by language and kind, skips, size, changed files.

Owns: `qry status`'s facts. Freshness is computed honestly, by comparing the files on disk with the
root's records (size and mtime, the same test the build uses), never by trusting the last build time.
"""

from __future__ import annotations

import os
from pathlib import Path

import msgspec

import indexlib.engines.lexical as lexical
from indexlib.index.embedprogress import EmbedProgress, read_progress
from indexlib.index.freshness import modified_or_deleted
from indexlib.index.redact import redact_path
from indexlib.snapshot import Snapshot
from indexlib.store.files import Problem
from indexlib.store.manifest import SkippedFile
from indexlib.store.store import Store


class Changes(msgspec.Struct, kw_only=True):
    """Files that differ between disk and the root."""

    modified: list[str] = []
    added: list[str] = []
    deleted: list[str] = []

    @property
    def count(self) -> int:
        return len(self.modified) + len(self.added) + len(self.deleted)


class Status(msgspec.Struct, kw_only=True):
    index_dir: str
    root: str
    published_at: int
    source_root: str
    git_commit: str | None
    git_branch: str | None
    files: int
    generated_files: int  # files with a generated-code marker (indexed, ranked as supporting code)
    nodes: int
    segments: int
    tombstones: int
    by_language: dict[str, int]
    by_kind: dict[str, int]
    skipped: dict[str, int]
    skipped_files: list[SkippedFile]  # the first SKIPPED_LIST_CAP, by path (`qry status --skipped`)
    size_bytes: int
    model: str | None
    vectors: int  # vectors search can use: per segment, its vector count, at most its live nodes
    embed: str | None = None  # what the root was built with (`--embed`; None: a root older than the record)
    vectors_progress: str | None  # "vectors in progress: 812/2,105 (38%), about 14 s left", or None
    embedding: EmbedProgress | None  # the same, as numbers
    times_from: str  # "git" or "file times"
    changes: Changes
    roots: int


def changed_on_disk(snap: Snapshot, *, list_added: bool = True) -> Changes:
    """Compare disk with the root: modified (size/mtime differ), deleted, and (optionally) new files.

    A file on disk that the root does not list is "added" only if the build would index it: the root
    leaves out files it skipped (binary, bad encoding, minified, too large), so each one is
    read and content-checked as the build does (`discover.load`); only new files pay that read.
    """
    base = Path(snap.manifest.source_root)
    out = Changes()
    redacted = snap.manifest.settings.get("redact", "true") == "true"
    out.modified, out.deleted = modified_or_deleted(snap)
    if list_added and base.is_dir():
        from indexlib.index.discover import SourceFile, discover, load

        for item in discover(base, read=False):
            if not isinstance(item, SourceFile):
                continue
            path = redact_path(item.path) if redacted else item.path
            if path not in snap.manifest.files and isinstance(load(item), SourceFile):
                out.added.append(path)
    return out


def _dir_size(path: Path) -> int:
    total = 0
    for dirpath, _dirs, files in os.walk(path):
        for f in files:
            try:
                total += os.lstat(os.path.join(dirpath, f)).st_size
            except OSError:
                pass
    return total


def index_status(index_dir: Path, *, root: str | None = None, check_disk: bool = True) -> Status:
    store = Store.open(index_dir)
    snap = Snapshot.open(store, root)
    m = snap.manifest
    by_lang: dict[str, int] = {}
    for rec in m.files.values():
        by_lang[rec.language] = by_lang.get(rec.language, 0) + rec.nodes
    by_kind: dict[str, int] = {}
    for seg in snap.segments:
        lex = seg.lexical()
        for kind in lex.terms_with_prefix("kind", "", 64):
            q = lexical.term("kind", kind)
            live = seg.liveness()
            if live is not None:
                q = lexical.boolean([("must", q), live])
            by_kind[kind] = by_kind.get(kind, 0) + lex.count(q)
    # A segment's vector count includes the nodes of files a later segment now owns (tombstones), and
    # leaves out nodes too trivial to embed: each segment counts its vectors, at most its live nodes.
    live_nodes: dict[str, int] = {}
    for rec in m.files.values():
        live_nodes[rec.segment] = live_nodes.get(rec.segment, 0) + rec.nodes
    vectors = sum(min(s.vectors.count, live_nodes.get(s.id, 0)) for s in m.segments if s.vectors is not None)
    embedding = read_progress(store.cache_dir)
    if embedding is not None and (root is not None or embedding.root != snap.root_id):
        embedding = None  # about another root: HEAD already has its vectors, or a newer build runs
    times_from = "git" if m.settings.get("times") == "git" else "file times"
    return Status(
        index_dir=str(store.path),
        root=snap.root_id,
        published_at=int(m.created_at),
        source_root=m.source_root,
        git_commit=m.git_commit,
        git_branch=m.git_branch,
        files=len(m.files),
        generated_files=sum(1 for rec in m.files.values() if rec.generated),
        nodes=snap.node_count,
        segments=len(m.segments),
        tombstones=sum(len(v) for v in m.tombstones.values()),
        by_language=dict(sorted(by_lang.items(), key=lambda kv: -kv[1])),
        by_kind=dict(sorted(by_kind.items(), key=lambda kv: -kv[1])),
        skipped=m.skipped,
        skipped_files=m.skipped_files,
        size_bytes=_dir_size(store.path),
        model=m.model.name + f" ({m.model.model_id})" if m.model else None,
        vectors=vectors,
        embed=m.settings.get("embed"),
        vectors_progress=embedding.describe() if embedding else None,
        embedding=embedding,
        times_from=times_from,
        changes=changed_on_disk(snap) if check_disk else Changes(),
        roots=len(store.roots()),
    )


def verify_index(index_dir: Path, root: str | None = None) -> list[Problem]:
    """`qry verify`: every problem of a root's files (default HEAD) and of the index's caches."""
    return Store.open(index_dir).verify(root) + verify_caches(index_dir)


def verify_caches(index_dir: Path) -> list[Problem]:
    """Damaged entries of the index's caches (vectors and query vectors), as `qry verify` problems.

    Damaged entries are never served, since each one fails the same check on read and is computed
    again, but a disk that flips bits in a cache may flip them elsewhere: `qry verify` says so.
    """
    from indexlib.index.embedcache import verify_cache_dir

    store = Store.open(index_dir)
    problems: list[Problem] = []
    for rel, bad, total in verify_cache_dir(store.cache_dir):
        if bad:
            problems.append(
                Problem(
                    path=f"cache/{rel}",
                    kind="checksum",
                    detail=f"{bad} of {total} cache entries fail their check (never served; computed again)",
                )
            )
    return problems
