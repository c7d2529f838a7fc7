"""The index directory: content-addressed segments, publish roots, HEAD; `Store` is its one door.

Owns: opening and creating `.qry/`, reading HEAD and roots, staging and committing segments and
attachments, and publishing. Segments are staged under `tmp/`, fsynced and renamed into
`segments/<id>/`; a root (manifest) is written to `roots/<id>.json`; publishing replaces `HEAD`
atomically. Readers never lock: they read HEAD once, then that root, and see one whole snapshot,
because segments are immutable and gc never deletes what HEAD or recent roots use. `Store.roots`,
`gc`, `verify` and the checks delegate to history.py, gc.py and verify.py.
Does not own: what is inside a segment's files (lexical, vectors: opaque bytes here), how segment
ids are computed (the builder hashes logical content), names and shapes in the layout (`layout.py`),
or locking itself (`lock.py`).

Layout (see docs/design.md, "On-disk format"):

    HEAD                      current root id + "\\n"
    roots/<root_id>.json      manifest bytes; root_id = xxh3_128 hex of those bytes
    segments/<segment_id>/    immutable base files (tantivy/, tables.msgpack)
    segments/<segment_id>/vectors-<model>/   an attachment: added later as one whole directory
    tmp/                      staging; garbage after a crash
    lock                      writer lock
    cache/                    caches other modules own; never touched here

Attachments: a committed segment never changes, except that a complete top-level directory whose
name starts with one of ATTACHMENT_PREFIXES may be renamed into it (`add_files`). Base files may not
use those names, so base and attachments can always be told apart, and gc can drop an attachment no
kept root mentions while keeping the segment.
"""

from __future__ import annotations

import os
import re
from contextlib import AbstractContextManager
from pathlib import Path
from typing import TYPE_CHECKING

import msgspec

from indexlib.errors import (
    FormatVersionError,
    IndexCorrupt,
    IndexNotFound,
    QryError,
    UsageError,
    index_writes,
)
from indexlib.store.atomic import atomic_write, fsync_dir, fsync_tree
from indexlib.store.files import Problem, compare, entries_for
from indexlib.store.layout import (
    ATTACHMENT_PREFIXES,
    COLLECTED_HINT,
    GITIGNORE,
    INDEX_DIR_HINT,
    INDEX_ENTRIES,
    MIN_PREFIX,
    ROOT_ID,
    check_segment_id,
    delete,
    is_attachment,
    make_private,
    rmtree,
    vectors_dirname,
)
from indexlib.store.locate import create_hint, no_root_error, open_hint
from indexlib.store.lock import holds_writer_lock, writer_lock
from indexlib.store.manifest import (
    FORMAT_VERSION,
    REBUILD_HINT,
    FileEntry,
    Manifest,
    SegmentEntry,
    decode_manifest,
    encode_manifest,
    placed,
    rebuild_hint,
    root_id_of,
)
from indexlib.store.verify import check_contents, check_sizes
from indexlib.store.verify import verify as verify_root

if TYPE_CHECKING:  # gc and the roots listing load only when asked for: not on a search's path
    from indexlib.store.gc import GcReport
    from indexlib.store.history import RootInfo


class Store:
    """One index directory. Get one with `Store.open`; writers wrap changes in `store.writer()`.

    >>> store = Store.open(Path(".qry"))  # doctest: +SKIP
    >>> root_id, manifest = store.load()  # doctest: +SKIP
    """

    def __init__(self, index_dir: Path) -> None:
        self.path = Path(index_dir)
        self.head_file = self.path / "HEAD"
        self.roots_dir = self.path / "roots"
        self.segments_dir = self.path / "segments"
        self.tmp_dir = self.path / "tmp"
        self.cache_dir = self.path / "cache"

    # -- opening -------------------------------------------------------------------------------

    @classmethod
    def open(cls, index_dir: Path, *, create: bool = False) -> Store:
        """Open the index at `index_dir`; with create=True make it (mode 0o700, `.gitignore` of `*`).

        Opening for reading writes nothing here. (A search still writes one file: Tantivy's lock in
        each segment it opens, so an index qry may not write to is IndexNotWritable there.)
        With create=True, an existing folder qry may not write to is IndexNotWritable too.
        """
        store = cls(index_dir)
        if create:
            store._create()
        elif not (store.path.is_dir() and (store.head_file.exists() or store.roots_dir.is_dir())):
            if store.path.exists() and not store.path.is_dir():
                raise UsageError(
                    f"{store.path} is a file, not an index directory", hint=open_hint(store.path)
                )
            raise IndexNotFound(f"no qry index at {store.path}", hint=create_hint(store.path))
        store._check_layout()
        return store

    def _check_layout(self) -> None:
        """A clear error for a broken layout (`roots/` replaced by a file, HEAD a directory) instead of
        NotADirectoryError or FileExistsError from wherever it is first touched."""
        for sub in (self.roots_dir, self.segments_dir, self.tmp_dir, self.cache_dir):
            if (sub.exists() or sub.is_symlink()) and (sub.is_symlink() or not sub.is_dir()):
                raise IndexCorrupt(
                    f"the index layout is broken: {sub} is not a directory",
                    hint="the index is a cache: move the index directory away, then qry index --rebuild",
                )
        if self.head_file.is_symlink() or (self.head_file.exists() and not self.head_file.is_file()):
            raise IndexCorrupt(
                f"the index layout is broken: {self.head_file} is not a file",
                hint="the index is a cache: move the index directory away, then qry index --rebuild",
            )

    def _create(self) -> None:
        if self.path.exists() and not self.path.is_dir():
            raise UsageError(f"{self.path} is a file, not an index directory", hint=INDEX_DIR_HINT)
        if not self.path.is_dir():
            try:
                self.path.mkdir(mode=0o700, parents=True)
            except OSError as exc:
                raise UsageError(
                    f"cannot create the index directory {self.path}: {exc.strerror or exc}",
                    hint=INDEX_DIR_HINT,
                ) from exc
            os.chmod(self.path, 0o700)  # mkdir's mode is filtered by the umask
        else:
            try:
                names = set(os.listdir(self.path))
            except OSError as exc:
                raise UsageError(
                    f"cannot read the index directory {self.path}: {exc.strerror or exc}",
                    hint=INDEX_DIR_HINT,
                ) from exc
            if names - INDEX_ENTRIES:
                # Not empty and not an index: a repository root (`qry index . --index-dir .`), a home
                # directory, /proc/self. Writing HEAD and a `*` .gitignore there would hide the
                # user's files from git, so refuse.
                shown = ", ".join(sorted(names - INDEX_ENTRIES)[:3])
                raise UsageError(
                    f"{self.path} is not a qry index and not empty (it holds {shown} ...)",
                    hint=INDEX_DIR_HINT,
                )
            # An index dir made by someone else (`mkdir .qry`) or by an older qry keeps its mode unless
            # tightened here: the index holds the code's text.
            make_private(self.path)
        self._check_layout()
        with index_writes(self.path):  # an existing index (or empty folder) qry may not write to
            gitignore = self.path / ".gitignore"
            if not gitignore.exists():
                atomic_write(gitignore, GITIGNORE)
            for sub in (self.roots_dir, self.segments_dir, self.tmp_dir, self.cache_dir):
                sub.mkdir(mode=0o700, exist_ok=True)
                make_private(sub)
            fsync_dir(self.path)

    def writer(self, wait: float = 0.0) -> AbstractContextManager[None]:
        """The writer lock of this index (see `lock.writer_lock`)."""
        return writer_lock(self.path, wait)

    def segment_dir(self, segment_id: str) -> Path:
        """Where a committed segment's files live."""
        check_segment_id(segment_id)
        return self.segments_dir / segment_id

    def _require_lock(self, what: str) -> None:
        if not holds_writer_lock(self.path):
            raise RuntimeError(
                f"Store.{what} must be called under the writer lock (with store.writer(): ...)"
            )

    # -- reading ----------------------------------------------------------------------------------

    def head(self) -> str | None:
        """The current root id, or None before the first publish."""
        try:
            text = self.head_file.read_text(encoding="ascii", errors="replace").strip()
        except FileNotFoundError:
            return None
        if not ROOT_ID.match(text):
            raise IndexCorrupt(
                f"{self.head_file} does not hold a root id ({text[:40]!r})", hint=rebuild_hint(self.path)
            )
        return text

    def resolve(self, ref: str) -> str:
        """A full root id from `ref`: a full id, a unique prefix of at least 4 hex digits, or "HEAD"."""
        if ref == "HEAD":
            head = self.head()
            if head is None:
                raise self._no_root_yet()
            return head
        ref = ref.strip().lower()
        if ROOT_ID.match(ref):
            return ref
        if len(ref) < MIN_PREFIX or not re.fullmatch(r"[0-9a-f]+", ref):
            raise UsageError(
                f"{ref!r} is not a root id",
                hint=f"pass a root id or a unique prefix of {MIN_PREFIX}+ hex digits",
            )
        matches = sorted(rid for rid in self._root_ids_on_disk() if rid.startswith(ref))
        if not matches:
            raise UsageError(f"no root matches {ref!r} (`qry gc` may have removed it)", hint=COLLECTED_HINT)
        if len(matches) > 1:
            shown = ", ".join(m[:12] for m in matches[:5])
            raise UsageError(f"root prefix {ref!r} is ambiguous ({shown})", hint="give more digits")
        return matches[0]

    def load(self, root_id: str | None = None) -> tuple[str, Manifest]:
        """(root id, manifest) of `root_id` (a full id or unique prefix) or, if None, of HEAD; its
        `source_root` is the folder the index describes now, wherever it was built (`placed`).

        Raises IndexNotFound before the first publish, IndexCorrupt if the manifest file is missing,
        truncated or altered, FormatVersionError if another format version wrote it.
        """
        if root_id is None:
            head = self.head()
            if head is None:
                raise self._no_root_yet()
            rid = head
        else:
            rid = self.resolve(root_id)
            if rid != self._safe_head() and not (self.roots_dir / f"{rid}.json").exists():
                # Named by the user (`--root`), not by HEAD: gone because gc collected it, most likely.
                raise UsageError(
                    f"root {rid[:12]} is not in this index: `qry gc` removed it, or it never existed here",
                    hint=COLLECTED_HINT,
                )
        return rid, placed(self._load_exact(rid), self.path)

    def _load_exact(self, rid: str) -> Manifest:
        return decode_manifest(self._read_root(rid), where=f"root {rid}")

    def _read_root(self, rid: str) -> bytes:
        path = self.roots_dir / f"{rid}.json"
        try:
            data = path.read_bytes()
        except FileNotFoundError:
            raise IndexCorrupt(f"root manifest {path} is missing", hint=rebuild_hint(self.path)) from None
        actual = root_id_of(data)
        if actual != rid:
            raise IndexCorrupt(
                f"root manifest {path} is truncated or altered (its bytes hash to {actual})",
                hint=rebuild_hint(self.path),
            )
        return data

    def _no_root_yet(self) -> IndexNotFound:
        return no_root_error(self.path)

    def _root_ids_on_disk(self) -> list[str]:
        try:
            names = os.listdir(self.roots_dir)
        except FileNotFoundError:
            return []
        return [n[:-5] for n in names if n.endswith(".json") and ROOT_ID.match(n[:-5])]

    # -- writing segments -------------------------------------------------------------------------

    def stage(self) -> Path:
        """A fresh, empty staging directory under tmp/ (same filesystem, so it can be renamed)."""
        self._require_lock("stage")
        self.tmp_dir.mkdir(mode=0o700, exist_ok=True)
        staging = self.tmp_dir / f"stage-{os.getpid()}-{os.urandom(6).hex()}"
        staging.mkdir(mode=0o700)
        return staging

    def commit_segment(self, staging: Path, segment_id: str) -> list[FileEntry]:
        """Make a staged directory the immutable segment `segment_id`; return its FileEntries.

        Every file is fsynced and checksummed, then the directory is renamed into segments/ and
        segments/ fsynced: a crash leaves either no segment or a complete one. If the segment
        already exists (same logical content: ids come from content) and matches what a root
        recorded for it, the staging dir is dropped and the recorded entries returned, since the
        existing files are what the new root will reference. An existing segment no root records
        (left by an interrupted run) or one that fails verification is replaced by the staged copy;
        attachments it had are carried over.
        """
        self._require_lock("commit_segment")
        target = self.segment_dir(segment_id)
        staging = self._check_staging(staging)
        for child in staging.iterdir():
            if is_attachment(child.name):
                raise ValueError(f"{child.name!r} is reserved for attachments; use add_files for it")
        fsync_tree(staging)
        entries = entries_for(staging)
        if target.exists():
            recorded = self._recorded_entries(segment_id)
            if recorded is not None:
                base = [e for e in recorded if not is_attachment(e.name.split("/", 1)[0])]
                present = frozenset(c.name for c in target.iterdir() if is_attachment(c.name))
                problems = compare(
                    target, base, label=f"segments/{segment_id}", checksums=True, ignore_top=present
                )
                if not problems:
                    rmtree(staging)
                    return base
            for child in list(target.iterdir()):
                if is_attachment(child.name):
                    os.rename(child, staging / child.name)
            self._swap_in(staging, target)
        else:
            os.rename(staging, target)
            fsync_dir(self.segments_dir)
        return entries

    def add_files(self, segment_id: str, staging: Path) -> list[FileEntry]:
        """Attach each top-level directory of `staging` (named `vectors-...`, see `vectors_dirname`)
        to the committed segment `segment_id`; return their FileEntries, names relative to the segment.

        Each directory is fsynced and renamed in as a whole, so a reader of an older root never sees
        a partial attachment, and the segment's base files are never touched. An attachment that
        already exists and matches what a root recorded is kept (the staged copy is dropped); one no
        root records, or one that fails verification, is replaced.
        """
        self._require_lock("add_files")
        target = self.segment_dir(segment_id)
        if not target.is_dir():
            raise ValueError(f"segment {segment_id} is not committed; commit_segment it first")
        staging = self._check_staging(staging)
        children = sorted(staging.iterdir())
        if not children:
            raise ValueError(f"nothing to attach: {staging} is empty")
        for child in children:
            if not child.is_dir() or child.is_symlink() or not is_attachment(child.name):
                raise ValueError(
                    f"{child.name!r}: attachments are directories named with one of {ATTACHMENT_PREFIXES}"
                )
        fsync_tree(staging)
        result: list[FileEntry] = []
        recorded_all = None
        for child in children:
            prefix = f"{child.name}/"
            dest = target / child.name
            if dest.exists():
                if recorded_all is None:
                    recorded_all = self._recorded_entries(segment_id) or []
                recorded = [e for e in recorded_all if e.name.startswith(prefix)]
                inner = [msgspec.structs.replace(e, name=e.name[len(prefix) :]) for e in recorded]
                label = f"segments/{segment_id}/{child.name}"
                if recorded and not compare(dest, inner, label=label, checksums=True):
                    result.extend(recorded)
                    continue
                entries = entries_for(child, prefix=prefix)
                self._swap_in(child, dest)
            else:
                entries = entries_for(child, prefix=prefix)
                os.rename(child, dest)
                fsync_dir(target)
            result.extend(entries)
        rmtree(staging)
        return result

    def _check_staging(self, staging: Path) -> Path:
        staging = Path(staging)
        if not staging.is_dir() or staging.resolve().parent != self.tmp_dir.resolve():
            raise ValueError(f"{staging} is not a staging directory of this store (use Store.stage())")
        return staging

    def _swap_in(self, new: Path, dest: Path) -> None:
        """Replace directory `dest` with `new`: old one aside into tmp/, new one in, old one deleted."""
        trash = self.tmp_dir / f"trash-{os.urandom(6).hex()}"
        os.rename(dest, trash)
        os.rename(new, dest)
        fsync_dir(dest.parent)
        rmtree(trash, ignore_errors=True)

    def _recorded_entries(self, segment_id: str) -> list[FileEntry] | None:
        """The files a root on disk records for `segment_id` (HEAD's first), or None if none does."""
        head = self._safe_head()
        others = sorted(set(self._root_ids_on_disk()) - {head})
        for rid in ([head] if head else []) + others:
            try:
                manifest = self._load_exact(rid)
            except QryError:
                continue
            for seg in manifest.segments:
                if seg.id == segment_id:
                    return list(seg.files)
        return None

    def _safe_head(self) -> str | None:
        try:
            return self.head()
        except IndexCorrupt:
            return None

    # -- publishing -------------------------------------------------------------------------------

    def publish(self, manifest: Manifest) -> str:
        """Write `manifest` as a root and point HEAD at it; return the root id. Call under the lock.

        If it differs from HEAD's manifest only in `parent` and `created_at`, nothing is written and
        HEAD's id is returned: a re-index that changed nothing leaves no new root. Every file the
        manifest lists must exist with its recorded size, so a root never names a missing file.
        Crash safety: the root file is complete (fsync, rename) before HEAD is replaced; a crash in
        between leaves the old HEAD and an unreferenced root that gc removes.
        """
        self._require_lock("publish")
        if manifest.format_version != FORMAT_VERSION:
            raise FormatVersionError(
                f"cannot publish a format {manifest.format_version} manifest; this qry writes {FORMAT_VERSION}",
                hint=REBUILD_HINT,
            )
        data = encode_manifest(manifest)
        rid = root_id_of(data)
        head = self._safe_head()
        if head is not None:
            try:
                current = self._load_exact(head)
            except QryError:
                current = None
            if current is not None:
                same = msgspec.structs.replace(manifest, parent=current.parent, created_at=current.created_at)
                if same == current:
                    return head
        problems = self.check_sizes(manifest)
        if problems:
            first = problems[0]
            raise IndexCorrupt(
                f"refusing to publish a root naming a bad file: {first.path}: {first.detail}"
                + (f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""),
                hint=REBUILD_HINT,
            )
        root_path = self.roots_dir / f"{rid}.json"
        if not (root_path.exists() and root_id_of(root_path.read_bytes()) == rid):
            self.roots_dir.mkdir(mode=0o700, exist_ok=True)
            self.tmp_dir.mkdir(mode=0o700, exist_ok=True)
            atomic_write(root_path, data, tmp_dir=self.tmp_dir)
        atomic_write(self.head_file, f"{rid}\n".encode("ascii"), tmp_dir=self.tmp_dir)
        return rid

    # -- listing ----------------------------------------------------------------------------------

    def roots(self) -> list[RootInfo]:
        """Every root: HEAD and its ancestors newest first, then roots no parent link reaches
        (interrupted publishes, roots past a corrupt one), newest first."""
        from indexlib.store.history import list_roots

        return list_roots(self)

    # -- gc -----------------------------------------------------------------------------------------

    def gc(self, keep: int | None = None, *, wait: float = 0.0) -> GcReport:
        """Delete what the roots of HEAD's newest `keep` index runs (default keep.KEEP_RUNS) do not
        use; HEAD is always kept.

        `keep` counts index runs, not roots: a build with vectors publishes two roots (the lexical
        one, then the same files with vectors attached), and both belong to its run.

        Removes other roots first (so no root on disk ever names a deleted segment), then segments
        and attachments no kept root mentions, then everything in tmp/. Takes the writer lock (or
        reuses it if this thread holds it), so no writer is mid-stage. Before the first publish only
        tmp/ is cleaned. A reader that read HEAD just before two publishes and a gc with keep=1 could
        lose its root; keep >= 2 closes that window for one publish.
        """
        from indexlib.keep import KEEP_RUNS
        from indexlib.store.gc import collect

        return collect(self, KEEP_RUNS if keep is None else keep, wait=wait)

    def discard_staging(self) -> None:
        """Remove everything in tmp/ (staging and trash of failed or killed runs). Call under the
        writer lock: then no writer is using tmp/. Never raises: it runs on failure paths."""
        try:
            if not holds_writer_lock(self.path) or not self.tmp_dir.is_dir():
                return
            for path in self.tmp_dir.iterdir():
                delete(path)
        except OSError:
            pass

    # -- verify -------------------------------------------------------------------------------------

    def verify(self, root_id: str | None = None) -> list[Problem]:
        """Every problem of a root (default HEAD); empty means healthy (see `verify.verify`)."""
        return verify_root(self, root_id)

    def check_sizes(self, manifest: Manifest) -> list[Problem]:
        """The cheap open-time check: every listed file exists with its recorded size (see `verify`)."""
        return check_sizes(self, manifest)

    def check_contents(
        self, seg: SegmentEntry, *, prefix: str = "", suffixes: tuple[str, ...] = ()
    ) -> list[Problem]:
        """`seg`'s listed files (those starting with `prefix`, ending with `suffixes`) by size and
        checksum, before their bytes are trusted (see `verify.check_contents`)."""
        return check_contents(self, seg, prefix=prefix, suffixes=suffixes)


__all__ = [
    "ATTACHMENT_PREFIXES",
    "GITIGNORE",
    "Store",
    "is_attachment",
    "vectors_dirname",
]
