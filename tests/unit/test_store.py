"""The index directory: segments, publish, crash safety, roots, gc and verify."""

from __future__ import annotations

import json
import os
import shutil
import stat
import threading
from collections.abc import Iterator
from pathlib import Path

import msgspec
import pytest
import xxhash

import indexlib.store.store as store_module
from indexlib.errors import FormatVersionError, IndexCorrupt, IndexNotFound, LockBusy, UsageError
from indexlib.store.atomic import atomic_write
from indexlib.store.manifest import (
    FORMAT_VERSION,
    FileEntry,
    FileRecord,
    Manifest,
    ModelInfo,
    SegmentEntry,
    VectorInfo,
    encode_manifest,
    root_id_of,
    source_root_of,
)
from indexlib.store.store import Store, vectors_dirname

# -- helpers ----------------------------------------------------------------------------------------


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    s = Store.open(tmp_path / ".qry", create=True)
    with s.writer():
        yield s


def put_segment(store: Store, seg_id: str, files: dict[str, bytes]) -> SegmentEntry:
    staging = store.stage()
    for name, data in files.items():
        path = staging / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    entries = store.commit_segment(staging, seg_id)
    return SegmentEntry(id=seg_id, files=entries, nodes=len(files), paths=1, created_at=1)


def seg_files(tag: str) -> dict[str, bytes]:
    return {
        "nodes.msgpack": f"nodes of {tag}".encode(),
        "refs.msgpack": f"refs of {tag}".encode(),
        "tantivy/meta.json": f'{{"seg": "{tag}"}}'.encode(),
        "tantivy/abc.idx": tag.encode() * 50,
    }


def make_manifest(
    segments: list[SegmentEntry], *, parent: str | None = None, created_at: float = 1.0, **kw: object
) -> Manifest:
    files = {
        f"src/{seg.id}.py": FileRecord(
            hash="0" * 32, segment=seg.id, size=1, mtime_ns=1, language="python", nodes=seg.nodes
        )
        for seg in segments
    }
    fields: dict[str, object] = dict(
        format_version=FORMAT_VERSION,
        qry_version="0.1.0",
        created_at=created_at,
        parent=parent,
        segments=segments,
        files=files,
        tombstones={},
        skipped={},
        git_commit=None,
        git_branch=None,
        model=None,
        source_root="/repo",
    )
    fields.update(kw)
    return Manifest(**fields)  # type: ignore[arg-type]


def publish_chain(store: Store, count: int) -> tuple[list[str], list[SegmentEntry]]:
    """`count` roots, each adding one new segment to a shared base segment."""
    base = put_segment(store, "base", seg_files("base"))
    ids: list[str] = []
    segs: list[SegmentEntry] = []
    for i in range(count):
        seg = put_segment(store, f"s{i}", seg_files(f"s{i}"))
        segs.append(seg)
        ids.append(store.publish(make_manifest([base, seg], parent=ids[-1] if ids else None, created_at=i)))
    return ids, segs


# -- open -------------------------------------------------------------------------------------------


def test_open_missing_index_raises_with_hint(tmp_path: Path) -> None:
    with pytest.raises(IndexNotFound) as info:
        Store.open(tmp_path / "nothing")
    assert "qry index" in info.value.hint


def test_create_makes_a_private_ignored_layout(tmp_path: Path) -> None:
    s = Store.open(tmp_path / ".qry", create=True)
    assert stat.S_IMODE(s.path.stat().st_mode) == 0o700
    assert (s.path / ".gitignore").read_text() == "*\n"
    for sub in ("roots", "segments", "tmp", "cache"):
        assert (s.path / sub).is_dir()
    assert Store.open(s.path).path == s.path  # now openable without create
    with pytest.raises(IndexNotFound):
        s.load()  # nothing published yet


def test_an_index_removed_after_it_was_opened_is_not_found_not_unpublished(tmp_path: Path) -> None:
    """The trial: `.qry` of one repository moved away under a running `qry mcp -w W` made its search
    say `the index at ... has no published root yet (qry index PATH)`, as if a build were still to
    come, where `grep` and `index_status` said `no qry index at ...` with the command that makes it."""
    s = Store.open(tmp_path / ".qry", create=True)
    with pytest.raises(IndexNotFound) as info:
        s.load()
    assert "has no published root yet" in info.value.message  # there, but never published
    shutil.rmtree(s.path)
    with pytest.raises(IndexNotFound) as info:
        s.load()
    assert info.value.message == f"no qry index at {s.path}"
    assert info.value.hint == f"create one: qry index {tmp_path}"


def test_create_makes_an_existing_index_dir_private(tmp_path: Path) -> None:
    """`mkdir .qry` (umask 022) or an index of an older qry: opening for writing tightens it to 0700."""
    made = tmp_path / ".qry"
    made.mkdir(mode=0o755)
    os.chmod(made, 0o755)
    (made / "roots").mkdir()
    os.chmod(made / "roots", 0o775)
    s = Store.open(made, create=True)
    assert stat.S_IMODE(s.path.stat().st_mode) == 0o700
    for sub in ("roots", "segments", "tmp", "cache"):
        assert stat.S_IMODE((s.path / sub).stat().st_mode) == 0o700, sub


def test_create_refuses_a_directory_that_is_not_an_index(tmp_path: Path) -> None:
    """`--index-dir ~` by mistake must neither make the user's home private nor write an index into it."""
    home = tmp_path / "home"
    home.mkdir()
    os.chmod(home, 0o755)
    (home / "notes.txt").write_text("mine\n")
    with pytest.raises(UsageError, match="not a qry index and not empty"):
        Store.open(home, create=True)
    assert stat.S_IMODE(home.stat().st_mode) == 0o755
    assert sorted(p.name for p in home.iterdir()) == ["notes.txt"]


def test_writes_require_the_writer_lock(tmp_path: Path) -> None:
    s = Store.open(tmp_path / ".qry", create=True)
    with pytest.raises(RuntimeError):
        s.stage()
    with pytest.raises(RuntimeError):
        s.publish(make_manifest([]))


# -- segments ---------------------------------------------------------------------------------------


def test_commit_segment_checksums_every_file_and_renames_into_place(store: Store) -> None:
    files = seg_files("a")
    staging = store.stage()
    for name, data in files.items():
        (staging / name).parent.mkdir(parents=True, exist_ok=True)
        (staging / name).write_bytes(data)
    entries = store.commit_segment(staging, "seg-a")
    assert not staging.exists()
    assert [e.name for e in entries] == sorted(files)
    for e in entries:
        assert e.size == len(files[e.name])
        assert e.xxh3 == xxhash.xxh3_128_hexdigest(files[e.name])
        assert (store.segment_dir("seg-a") / e.name).read_bytes() == files[e.name]


def test_bad_segment_ids_and_foreign_staging_are_refused(store: Store, tmp_path: Path) -> None:
    with pytest.raises(ValueError):
        store.commit_segment(store.stage(), "../escape")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    with pytest.raises(ValueError):
        store.commit_segment(elsewhere, "ok")


def test_existing_segment_recorded_by_a_root_is_reused(store: Store) -> None:
    first = put_segment(store, "same", seg_files("original"))
    store.publish(make_manifest([first]))
    # Same logical content, different bytes (Tantivy files are not byte-deterministic).
    again = put_segment(store, "same", seg_files("rewritten"))
    assert again.files == first.files
    assert (store.segment_dir("same") / "nodes.msgpack").read_bytes() == b"nodes of original"
    assert list(store.tmp_dir.iterdir()) == []  # the staged copy was dropped


def test_existing_orphan_or_damaged_segment_is_replaced(store: Store) -> None:
    put_segment(store, "orphan", seg_files("old"))  # committed, never published
    new = put_segment(store, "orphan", seg_files("new"))
    assert (store.segment_dir("orphan") / "nodes.msgpack").read_bytes() == b"nodes of new"
    assert new.files[0].xxh3 == xxhash.xxh3_128_hexdigest(b"nodes of new")

    store.publish(make_manifest([new]))
    (store.segment_dir("orphan") / "tantivy" / "abc.idx").write_bytes(b"damaged")
    healed = put_segment(store, "orphan", seg_files("new"))
    assert healed.files == new.files
    assert store.verify() == []


def test_add_files_attaches_a_whole_vectors_directory(store: Store) -> None:
    seg = put_segment(store, "v", seg_files("v"))
    base_listing = sorted(p.name for p in store.segment_dir("v").iterdir())
    staging = store.stage()
    vec_dir = staging / vectors_dirname("org/model-x")
    vec_dir.mkdir()
    (vec_dir / "vectors.npy").write_bytes(b"\x00" * 64)
    (vec_dir / "keys.bin").write_bytes(b"\x01" * 16)
    added = store.add_files("v", staging)
    assert not staging.exists()
    assert "/" not in vectors_dirname("org/model-x")
    assert [e.name for e in added] == [f"{vec_dir.name}/keys.bin", f"{vec_dir.name}/vectors.npy"]
    assert sorted(p.name for p in store.segment_dir("v").iterdir()) == sorted([*base_listing, vec_dir.name])

    with_vectors = msgspec.structs.replace(
        seg, files=seg.files + added, vectors=VectorInfo(model_id="org/model-x", dim=4, kind="exact", count=4)
    )
    store.publish(make_manifest([with_vectors]))
    assert store.verify() == []


def test_add_files_refuses_non_attachments_and_uncommitted_segments(store: Store) -> None:
    put_segment(store, "v", seg_files("v"))
    staging = store.stage()
    (staging / "tantivy").mkdir()
    (staging / "tantivy" / "x").write_bytes(b"x")
    with pytest.raises(ValueError):
        store.add_files("v", staging)
    staging2 = store.stage()
    (staging2 / "vectors-m").mkdir()
    (staging2 / "vectors-m" / "x").write_bytes(b"x")
    with pytest.raises(ValueError):
        store.add_files("not-committed", staging2)


# -- publish and load -------------------------------------------------------------------------------


def test_publish_load_round_trip(store: Store) -> None:
    seg = put_segment(store, "a", seg_files("a"))
    # built in the folder holding the index: `load` gives back the manifest as published
    manifest = make_manifest(
        [seg], git_commit="deadbeef", settings={"k": "v"}, source_root=str(store.path.parent)
    )
    rid = store.publish(manifest)
    assert store.head() == rid
    assert (store.path / "HEAD").read_text() == rid + "\n"
    assert root_id_of((store.roots_dir / f"{rid}.json").read_bytes()) == rid
    assert store.load() == (rid, manifest)
    assert store.load(rid[:6]) == (rid, manifest)
    assert store.load("HEAD") == (rid, manifest)
    # A reader needs no lock and no write access to the directory.
    assert Store.open(store.path).load() == (rid, manifest)


def test_unknown_or_ambiguous_prefix_is_a_usage_error(store: Store) -> None:
    seg = put_segment(store, "a", seg_files("a"))
    rid = store.publish(make_manifest([seg]))
    with pytest.raises(UsageError):
        store.load("ab")  # too short
    missing = next(c for c in "0123456789abcdef" if c != rid[0]) * 6
    with pytest.raises(UsageError):
        store.load(missing)
    # Two roots sharing a prefix: fake a second file name with the same first digits.
    twin = rid[:8] + ("0" * 24 if rid[8:] != "0" * 24 else "1" * 24)
    (store.roots_dir / f"{twin}.json").write_bytes(b"{}")
    with pytest.raises(UsageError):
        store.load(rid[:8])


def test_identical_manifest_publishes_nothing(store: Store) -> None:
    seg = put_segment(store, "a", seg_files("a"))
    rid = store.publish(make_manifest([seg], created_at=10.0))
    # A re-index that changed nothing: new time, parent = HEAD, same content.
    again = store.publish(make_manifest([seg], parent=rid, created_at=99.0))
    assert again == rid
    assert store.head() == rid
    assert [p.name for p in store.roots_dir.iterdir()] == [f"{rid}.json"]
    changed = store.publish(make_manifest([seg], parent=rid, created_at=99.0, git_commit="c2"))
    assert changed != rid and store.head() == changed


def test_publish_refuses_a_root_naming_missing_or_truncated_files(store: Store) -> None:
    seg = put_segment(store, "a", seg_files("a"))
    ghost = SegmentEntry(id="ghost", files=[], nodes=0, paths=0, created_at=1)
    with pytest.raises(IndexCorrupt):
        store.publish(make_manifest([seg, ghost]))
    (store.segment_dir("a") / "refs.msgpack").write_bytes(b"")
    with pytest.raises(IndexCorrupt, match=r"refs\.msgpack"):
        store.publish(make_manifest([seg]))
    assert store.head() is None


def test_publish_refuses_another_format_version(store: Store) -> None:
    with pytest.raises(FormatVersionError):
        store.publish(make_manifest([], format_version=FORMAT_VERSION + 1))


def test_crash_after_root_written_before_head_replaced_keeps_old_head(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    seg = put_segment(store, "a", seg_files("a"))
    old = make_manifest([seg], source_root=str(store.path.parent))
    old_id = store.publish(old)
    seg_b = put_segment(store, "b", seg_files("b"))

    real_write = store_module.atomic_write

    def crash_on_head(path: Path, data: bytes, **kw: object) -> None:
        if path.name == "HEAD":
            # The temp file of the new HEAD exists but the rename never happens.
            (store.tmp_dir / ".HEAD.crash.tmp").write_bytes(b"f" * 32 + b"\n")
            raise KeyboardInterrupt("simulated crash")
        real_write(path, data, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(store_module, "atomic_write", crash_on_head)
    with pytest.raises(KeyboardInterrupt):
        store.publish(make_manifest([seg, seg_b], parent=old_id))
    monkeypatch.undo()

    reader = Store.open(store.path)
    assert reader.load() == (old_id, old)
    assert reader.verify() == []
    listed = reader.roots()
    assert [r.id for r in listed if r.on_chain] == [old_id]
    orphans = [r for r in listed if not r.on_chain]
    assert len(orphans) == 1 and orphans[0].segments == 2
    report = store.gc()
    assert report.removed_roots == [orphans[0].id]
    assert report.removed_segments == ["b"]
    assert ".HEAD.crash.tmp" in report.removed_tmp
    assert store.load() == (old_id, old)


def test_atomic_write_failure_before_rename_keeps_old_content(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "HEAD"
    atomic_write(target, b"old\n")

    def broken_replace(src: object, dst: object) -> None:
        raise OSError("disk gone")

    monkeypatch.setattr(os, "replace", broken_replace)
    with pytest.raises(OSError):
        atomic_write(target, b"new\n")
    monkeypatch.undo()
    assert target.read_bytes() == b"old\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["HEAD"]  # no temp file left behind


def test_staging_left_in_tmp_is_ignored_by_load_and_removed_by_gc(store: Store) -> None:
    seg = put_segment(store, "a", seg_files("a"))
    rid = store.publish(make_manifest([seg]))
    staging = store.stage()
    (staging / "tantivy").mkdir()
    (staging / "tantivy" / "half-written").write_bytes(b"x" * 100)
    reader = Store.open(store.path)
    assert reader.load()[0] == rid
    assert reader.verify() == []
    report = store.gc()
    assert report.removed_tmp == [staging.name]
    assert report.bytes_freed >= 100
    assert list(store.tmp_dir.iterdir()) == []


def test_truncated_or_altered_or_missing_root_is_index_corrupt(store: Store) -> None:
    seg = put_segment(store, "a", seg_files("a"))
    rid = store.publish(make_manifest([seg]))
    root_file = store.roots_dir / f"{rid}.json"
    data = root_file.read_bytes()
    root_file.write_bytes(data[:-10])
    with pytest.raises(IndexCorrupt) as info:
        store.load()
    assert "qry index --rebuild" in info.value.hint
    assert [(p.path, p.kind) for p in store.verify()] == [(f"roots/{rid}.json", "checksum")]
    root_file.unlink()
    with pytest.raises(IndexCorrupt):
        store.load()
    assert [(p.path, p.kind) for p in store.verify()] == [(f"roots/{rid}.json", "missing")]
    (store.path / "HEAD").write_text("not a root id\n")
    with pytest.raises(IndexCorrupt):
        store.load()


def test_manifest_of_another_format_version_raises_format_version_error(store: Store) -> None:
    future = make_manifest([], format_version=FORMAT_VERSION + 1)
    data = encode_manifest(future)
    rid = root_id_of(data)
    (store.roots_dir / f"{rid}.json").write_bytes(data)
    (store.path / "HEAD").write_text(rid + "\n")
    with pytest.raises(FormatVersionError) as info:
        Store.open(store.path).load()
    assert "qry index --rebuild" in info.value.hint


# -- roots ------------------------------------------------------------------------------------------


def test_roots_lists_the_chain_newest_first_with_counts(store: Store) -> None:
    ids, _segs = publish_chain(store, 3)
    listed = store.roots()
    assert [r.id for r in listed] == list(reversed(ids))
    assert [r.is_head for r in listed] == [True, False, False]
    assert all(r.segments == 2 and r.files == 2 and r.nodes == 8 for r in listed)
    assert listed[0].parent == ids[1] and listed[-1].parent is None


# -- gc ---------------------------------------------------------------------------------------------


def test_gc_keeps_n_roots_and_their_segments_only(store: Store) -> None:
    ids, _segs = publish_chain(store, 7)
    report = store.gc(keep=3)
    assert report.kept_roots == [ids[6], ids[5], ids[4]]
    assert sorted(report.removed_roots) == sorted(ids[:4])
    assert report.removed_segments == ["s0", "s1", "s2", "s3"]
    assert report.bytes_freed > 0
    assert sorted(p.name for p in store.segments_dir.iterdir()) == ["base", "s4", "s5", "s6"]
    assert sorted(p.stem for p in store.roots_dir.iterdir()) == sorted(ids[4:])
    for rid in ids[4:]:
        assert store.verify(rid) == []
    assert store.gc(keep=3).removed_segments == []  # idempotent


def test_gc_never_removes_head_or_its_segments(store: Store) -> None:
    ids, _segs = publish_chain(store, 3)
    put_segment(store, "unreferenced", seg_files("u"))
    report = store.gc(keep=0)
    assert report.kept_roots == [ids[2]]
    assert sorted(report.removed_segments) == ["s0", "s1", "unreferenced"]
    assert store.load()[0] == ids[2]
    assert store.verify() == []


def test_gc_drops_attachments_no_kept_root_mentions(store: Store) -> None:
    seg = put_segment(store, "a", seg_files("a"))
    lexical_id = store.publish(make_manifest([seg]))
    attached: dict[str, list[FileEntry]] = {}
    for model in ("m1", "m2"):
        staging = store.stage()
        (staging / vectors_dirname(model)).mkdir()
        (staging / vectors_dirname(model) / "vectors.npy").write_bytes(model.encode() * 10)
        attached[model] = store.add_files("a", staging)
    with_m2 = msgspec.structs.replace(
        seg, files=seg.files + attached["m2"], vectors=VectorInfo(model_id="m2", dim=2, kind="exact", count=1)
    )
    store.publish(make_manifest([with_m2], parent=lexical_id))
    assert store.verify() == []  # m1's directory is not "extra": it is an attachment
    report = store.gc(keep=5)
    assert report.removed_attachments == [f"a/{vectors_dirname('m1')}"]
    assert (store.segment_dir("a") / vectors_dirname("m2") / "vectors.npy").exists()
    assert store.verify() == [] and store.verify(lexical_id) == []


def test_gc_takes_the_lock_itself_and_fails_when_another_thread_writes(tmp_path: Path) -> None:
    s = Store.open(tmp_path / ".qry", create=True)
    (s.tmp_dir / "leftover").write_bytes(b"x")
    assert s.gc().removed_tmp == ["leftover"]  # no lock held by the caller: gc takes it

    holding = threading.Event()
    done = threading.Event()

    def writer() -> None:
        with s.writer():
            holding.set()
            done.wait(10)

    thread = threading.Thread(target=writer)
    thread.start()
    holding.wait(10)
    try:
        with pytest.raises(LockBusy):
            s.gc()
    finally:
        done.set()
        thread.join()


# -- verify -----------------------------------------------------------------------------------------


def test_verify_finds_truncated_altered_missing_and_extra_files(store: Store) -> None:
    seg = put_segment(store, "a", seg_files("a"))
    other = put_segment(store, "b", seg_files("b"))
    store.publish(make_manifest([seg, other]))
    assert store.verify() == []
    d = store.segment_dir("a")
    (d / "tantivy" / "abc.idx").write_bytes(b"a" * 10)  # truncated
    altered = bytearray((d / "nodes.msgpack").read_bytes())
    altered[0] ^= 0xFF
    (d / "nodes.msgpack").write_bytes(bytes(altered))  # same size, other bytes
    (d / "refs.msgpack").unlink()
    (d / "tantivy" / "stray.del").write_bytes(b"?")
    problems = {(p.path, p.kind) for p in store.verify()}
    assert problems == {
        ("segments/a/tantivy/abc.idx", "size"),
        ("segments/a/nodes.msgpack", "checksum"),
        ("segments/a/refs.msgpack", "missing"),
        ("segments/a/tantivy/stray.del", "extra"),
    }
    # The cheap open-time check sees sizes and missing files, not same-size alterations or extras.
    _rid, manifest = store.load()
    assert {(p.path, p.kind) for p in store.check_sizes(manifest)} == {
        ("segments/a/tantivy/abc.idx", "size"),
        ("segments/a/refs.msgpack", "missing"),
    }


def test_verify_reports_a_missing_segment_directory(store: Store) -> None:
    seg = put_segment(store, "a", seg_files("a"))
    store.publish(make_manifest([seg]))
    os.rename(store.segment_dir("a"), store.tmp_dir / "moved")
    assert [(p.path, p.kind) for p in store.verify()] == [("segments/a", "missing")]


def test_root_file_is_plain_json_with_array_file_records(store: Store) -> None:
    seg = put_segment(store, "a", seg_files("a"))
    rid = store.publish(make_manifest([seg]))
    doc = json.loads((store.roots_dir / f"{rid}.json").read_bytes())
    assert doc["format_version"] == FORMAT_VERSION
    assert isinstance(doc["files"]["src/a.py"], list)


def test_gc_keep_counts_index_runs_and_a_run_with_vectors_is_two_roots(store: Store) -> None:
    """Issue 12: a build with vectors publishes a lexical root and then the same files with vectors;
    `keep` counts runs, so --keep 2 keeps both roots of each of the two newest runs."""
    base = put_segment(store, "base", seg_files("base"))
    ids: list[str] = []
    info = ModelInfo(model_id="m", checksum="c", dim=2, name="m")
    for i in range(3):
        seg = put_segment(store, f"s{i}", seg_files(f"s{i}"))
        lexical = make_manifest([base, seg], parent=ids[-1] if ids else None, created_at=2 * i)
        ids.append(store.publish(lexical))
        ids.append(
            store.publish(msgspec.structs.replace(lexical, model=info, parent=ids[-1], created_at=2 * i + 1))
        )
    report = store.gc(keep=2)
    assert report.kept_roots == list(reversed(ids[2:]))
    assert sorted(report.removed_roots) == sorted(ids[:2])
    assert report.removed_segments == ["s0"]


def test_roots_after_gc_list_no_ghost_of_a_removed_parent(store: Store) -> None:
    """Issue 12: after gc --keep 1 the oldest kept root names a parent gc removed; `roots` (and the
    roots count of status) must end the history there, not list a root that "is missing"."""
    ids, _segs = publish_chain(store, 3)
    store.gc(keep=1)
    listed = store.roots()
    assert [r.id for r in listed] == [ids[2]]
    assert all(r.error == "" for r in listed)


def test_source_root_of_follows_a_repos_own_qry_not_an_index_kept_elsewhere(tmp_path: Path) -> None:
    built = tmp_path / "built"
    (built / "sub").mkdir(parents=True)
    (tmp_path / "alias").symlink_to(built)
    own = make_manifest([], source_root=str(built), settings={"index_in_root": "true"})
    assert source_root_of(own, tmp_path / "moved" / ".qry") == str(tmp_path / "moved")
    assert source_root_of(own, tmp_path / "alias" / ".qry") == str(built)  # the same folder: as recorded
    assert source_root_of(own, tmp_path / "moved" / "idx") == str(built)  # not named .qry
    elsewhere = make_manifest([], source_root=str(built), settings={"index_in_root": "false"})
    assert source_root_of(elsewhere, tmp_path / "moved" / ".qry") == str(built)
    older = make_manifest([], source_root=str(built))  # no record: a `.qry` is its folder's
    assert source_root_of(older, tmp_path / "moved" / ".qry") == str(tmp_path / "moved")


def test_load_gives_the_folder_holding_a_moved_index(tmp_path: Path) -> None:
    store = Store.open(tmp_path / "a" / ".qry", create=True)
    with store.writer():
        store.publish(make_manifest([], source_root=str(tmp_path / "a")))
    os.rename(tmp_path / "a", tmp_path / "b")
    assert Store.open(tmp_path / "b" / ".qry").load()[1].source_root == str(tmp_path / "b")
