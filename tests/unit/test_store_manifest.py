"""Manifest encoding: round trips, determinism, compact FileRecords, format-version checks."""

from __future__ import annotations

import json

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from indexlib.errors import FormatVersionError, IndexCorrupt
from indexlib.store.manifest import (
    FORMAT_VERSION,
    FileEntry,
    FileRecord,
    Manifest,
    ModelInfo,
    SegmentEntry,
    VectorInfo,
    decode_manifest,
    encode_manifest,
    root_id_of,
)

ints = st.integers(min_value=-(2**63), max_value=2**63 - 1)
small = st.integers(min_value=0, max_value=10**12)
names = st.text(max_size=12)
opt_names = st.none() | names
hexes = st.text(alphabet="0123456789abcdef", min_size=32, max_size=32)

file_entries = st.builds(FileEntry, name=names, size=small, xxh3=hexes)
vector_infos = st.builds(
    VectorInfo, model_id=names, dim=small, kind=st.sampled_from(["exact", "hnsw"]), count=small
)
segment_entries = st.builds(
    SegmentEntry,
    id=names,
    files=st.lists(file_entries, max_size=4),
    nodes=small,
    paths=small,
    created_at=ints,
    vectors=st.none() | vector_infos,
)
file_records = st.builds(
    FileRecord,
    hash=hexes,
    segment=names,
    size=small,
    mtime_ns=ints,
    language=names,
    nodes=small,
    created_at=st.none() | ints,
    changed_at=st.none() | ints,
)
model_infos = st.builds(ModelInfo, model_id=names, checksum=names, dim=small, name=names)
manifests = st.builds(
    Manifest,
    format_version=st.just(FORMAT_VERSION),
    qry_version=names,
    created_at=st.floats(allow_nan=False, allow_infinity=False),
    parent=st.none() | hexes,
    segments=st.lists(segment_entries, max_size=3),
    files=st.dictionaries(names, file_records, max_size=5),
    tombstones=st.dictionaries(names, st.lists(names, max_size=3), max_size=3),
    skipped=st.dictionaries(names, small, max_size=3),
    git_commit=opt_names,
    git_branch=opt_names,
    model=st.none() | model_infos,
    source_root=names,
    settings=st.dictionaries(names, names, max_size=3),
)


@settings(max_examples=150, deadline=None)
@given(manifests)
def test_manifest_round_trips_and_reencodes_to_the_same_bytes(manifest: Manifest) -> None:
    data = encode_manifest(manifest)
    decoded = decode_manifest(data)
    assert decoded == manifest
    assert encode_manifest(decoded) == data


@settings(max_examples=50, deadline=None)
@given(manifests)
def test_dict_insertion_order_does_not_change_the_root_id(manifest: Manifest) -> None:
    shuffled = msgspec.structs.replace(
        manifest,
        files=dict(reversed(list(manifest.files.items()))),
        settings=dict(reversed(list(manifest.settings.items()))),
    )
    assert root_id_of(encode_manifest(shuffled)) == root_id_of(encode_manifest(manifest))


def _minimal(**overrides: object) -> Manifest:
    fields: dict[str, object] = dict(
        format_version=FORMAT_VERSION,
        qry_version="0.1.0",
        created_at=1.5,
        parent=None,
        segments=[],
        files={},
        tombstones={},
        skipped={},
        git_commit=None,
        git_branch=None,
        model=None,
        source_root="/repo",
    )
    fields.update(overrides)
    return Manifest(**fields)  # type: ignore[arg-type]


def test_file_records_are_encoded_as_arrays() -> None:
    rec = FileRecord(hash="ab" * 16, segment="s1", size=10, mtime_ns=5, language="python", nodes=3)
    doc = json.loads(encode_manifest(_minimal(files={"a.py": rec})))
    assert doc["files"]["a.py"] == ["ab" * 16, "s1", 10, 5, "python", 3, None, None, False]


def test_root_id_is_xxh3_128_hex_of_the_bytes() -> None:
    rid = root_id_of(encode_manifest(_minimal()))
    assert len(rid) == 32 and int(rid, 16) >= 0
    assert root_id_of(encode_manifest(_minimal(created_at=2.0))) != rid


def test_other_format_version_raises_format_version_error_with_rebuild_hint() -> None:
    data = encode_manifest(_minimal(format_version=FORMAT_VERSION + 1))
    with pytest.raises(FormatVersionError) as info:
        decode_manifest(data)
    assert "qry index --rebuild" in info.value.hint


def test_other_version_with_a_different_schema_is_a_version_error_not_corruption() -> None:
    with pytest.raises(FormatVersionError):
        decode_manifest(b'{"format_version": 99, "segments": "a new shape"}')


def test_junk_bytes_are_index_corrupt() -> None:
    data = encode_manifest(_minimal())
    with pytest.raises(IndexCorrupt):
        decode_manifest(data[: len(data) // 2])
    with pytest.raises(IndexCorrupt):
        decode_manifest(b'{"format_version": %d}' % FORMAT_VERSION)
