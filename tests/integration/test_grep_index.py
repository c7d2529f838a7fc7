"""The n-gram index over a segment's life: written with it, compacted and gc'd with it, checked by verify.

Each check compares `run_grep` with the index against a scan of the same tree (`use_index=False`),
so "the index narrowed correctly" is tested, not assumed.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from indexlib import BuildOptions, build_index
from indexlib.grep.api import GrepRequest, run_grep
from indexlib.grep.run import CTIME_SLACK_NS
from indexlib.index.segtables import GRAM_PATHS, GRAMS
from indexlib.store.store import Store

OPTS = BuildOptions(embed="none", git_times=False)


def _grep(root: Path, pattern: str, *, use_index: bool) -> tuple[set[tuple[str, int]], int]:
    found: set[tuple[str, int]] = set()

    def on_file(display: str, _t: str, lines: list[tuple[int, int, int]], *_r: object) -> None:
        found.update((display, n) for n, _s, _e in lines)

    req = GrepRequest(
        pattern=pattern,
        use_index=use_index,
        index_dir=str(root / ".qry") if use_index else None,
        cwd=str(root),
    )
    summary = run_grep(req, on_file)
    assert summary.index_used is use_index
    return found, summary.files_read


def _same(root: Path, pattern: str) -> int:
    indexed, read = _grep(root, pattern, use_index=True)
    scanned, _ = _grep(root, pattern, use_index=False)
    assert indexed == scanned, pattern
    return read


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    root.mkdir()
    for i in range(30):
        (root / f"mod_{i}.py").write_text(f"def handler_{i}(x):\n    return x + {i}\n# marker_{i % 7}\n")
    _build(root)
    return root


def _build(root: Path) -> None:
    """Build once every file written is older than the slack grep allows a root: a file changed
    within CTIME_SLACK_NS of it is read by every grep, not trusted to the index, and a small build can
    publish sooner than that, which would turn the candidate counts below into a timing matter."""
    time.sleep(2 * CTIME_SLACK_NS / 1e9)
    build_index(root, OPTS)


def test_every_segment_has_an_ngram_index_that_narrows(tree: Path) -> None:
    store = Store.open(tree / ".qry")
    _rid, manifest = store.load()
    for seg in manifest.segments:
        assert (store.segment_dir(seg.id) / GRAMS).is_dir()
        assert (store.segment_dir(seg.id) / GRAM_PATHS).is_file()
    assert _same(tree, "handler_17") == 1  # one candidate read, not thirty
    assert _same(tree, r"marker_3\b") == 4
    assert _same(tree, r"\w+") == 30  # no usable trigram: a scan


def test_compaction_and_gc_keep_the_ngram_index_right(tree: Path) -> None:
    for round_ in range(8):  # enough small updates to force a compaction
        (tree / f"mod_{round_}.py").write_text(f"def renamed_{round_}():\n    pass\n")
        (tree / f"new_{round_}.py").write_text(f"added_{round_} = 1\n")
        _build(tree)
    store = Store.open(tree / ".qry")
    _rid, manifest = store.load()
    assert len(manifest.segments) <= 6
    store.gc(keep=1)
    for pattern in ("renamed_3", "handler_3", "added_[0-9]", "marker_1", "def "):
        _same(tree, pattern)
    assert _same(tree, "handler_3\\(") == 0  # mod_3 was rewritten: the old trigrams are gone


def test_verify_checks_the_ngram_files(tree: Path) -> None:
    store = Store.open(tree / ".qry")
    assert store.verify() == []
    _rid, manifest = store.load()
    paths_file = store.segment_dir(manifest.segments[0].id) / GRAM_PATHS
    data = bytearray(paths_file.read_bytes())
    data[-1] ^= 0xFF
    paths_file.chmod(0o644)
    paths_file.write_bytes(bytes(data))
    problems = store.verify()
    assert any(p.path.endswith(GRAM_PATHS) for p in problems), problems


def test_a_file_with_a_secret_is_verified_not_described(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    root.mkdir()
    (root / "settings.py").write_text('AWS_KEY = "AKIAIOSFODNN7EXAMPLE"\n')
    (root / "other.py").write_text("x = 1\n")
    _build(root)
    found, _read = _grep(root, "AKIAIOSFODNN7EXAMPLE", use_index=True)
    assert found == {("settings.py", 1)}
    # The secret's file is a candidate of every query (its trigrams are not stored); other.py is not.
    assert _grep(root, "zzqqxxyy", use_index=True)[1] == 1


def test_an_index_of_an_older_format_is_scanned_with_a_notice(tree: Path) -> None:
    import json

    from indexlib.store.manifest import FORMAT_VERSION, root_id_of

    qdir = tree / ".qry"
    head = (qdir / "HEAD").read_text().strip()
    manifest = json.loads((qdir / "roots" / f"{head}.json").read_bytes())
    manifest["format_version"] = FORMAT_VERSION - 1
    data = json.dumps(manifest).encode()
    rid = root_id_of(data)
    (qdir / "roots" / f"{rid}.json").write_bytes(data)
    (qdir / "HEAD").write_text(f"{rid}\n")
    notes: list[str] = []
    found: set[tuple[str, int]] = set()
    req = GrepRequest(pattern="handler_17", index_dir=str(qdir), cwd=str(tree))
    summary = run_grep(
        req, lambda d, _t, lines, *_r: found.update((d, n) for n, _s, _e in lines), notice=notes.append
    )
    assert found == {("mod_17.py", 1)} and not summary.index_used
    assert len(notes) == 1 and "scanning" in notes[0]


def test_compaction_describes_files_up_to_the_builds_size_limit(tmp_path: Path) -> None:
    """A file over 1 MiB, indexed with a larger --max-file-bytes, keeps trigrams for its last lines
    after a compaction rewrites its segment (compaction used to read 1 MiB of each file)."""
    import msgspec

    from indexlib.engines.lexical import GramIndex

    root = tmp_path / "repo"
    root.mkdir()
    filler = "".join(f"value_{i} = {i}\n" for i in range(80_000))  # ~1.3 MiB
    (root / "big.py").write_text(filler + "tail_marker_zqx = 1\n")
    opts = BuildOptions(embed="none", git_times=False, max_file_bytes=4 << 20)
    build_index(root, opts)
    compacted = False
    for round_ in range(10):  # small updates until one compacts every segment into one
        (root / f"new_{round_}.py").write_text(f"added_{round_} = 1\n")
        if build_index(root, opts).compacted:
            compacted = True
            break
    store = Store.open(root / ".qry")
    _rid, manifest = store.load()
    assert compacted and len(manifest.segments) == 1
    seg = store.segment_dir(manifest.segments[0].id)
    paths = msgspec.msgpack.decode((seg / GRAM_PATHS).read_bytes())
    found = GramIndex(seg / GRAMS).candidates(("and", ("zqx", "qx ")))
    assert [paths[i] for i in found] == ["big.py"]
