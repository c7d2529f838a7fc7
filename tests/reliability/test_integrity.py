"""Integrity: `qry verify` finds every damaged file by name, and no command turns damage into a crash or
a wrong answer.

The index is fixtures/polyglot built with the deterministic hash embedder (`--embed hash`), so the
segment carries vector files too. Each test damages a fresh copy: a truncated, altered (one byte
flipped) or deleted segment file, a damaged root manifest or HEAD, a manifest of another format
version. `qry verify` must exit 2 naming the file with a rebuild hint; `qry search` must exit 2 with
`qry: error:` (truncated, missing) or answer exactly as before (a flipped byte the query never reads).
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Callable
from pathlib import Path

import msgspec
import pytest

from tests.reliability.helpers import Answer, assert_clean, head_of, project, qry

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "polyglot"
QUERIES = ("retry_failed_charge", "how are failed charges retried", "receipt id")


def _answer(index_dir: Path, query: str) -> tuple[int, Answer | None, str]:
    run = qry("search", "--json", "--index-dir", index_dir, query)
    assert_clean(run)
    data = json.loads(run.out) if run.out.strip() else {}
    return run.code, (project(data) if "results" in data else None), run.err


@pytest.fixture(scope="module")
def good(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Answer]]:
    base = tmp_path_factory.mktemp("integrity")
    repo = base / "repo"
    shutil.copytree(FIXTURE, repo)
    index = base / "index"
    run = qry("index", repo, "--embed", "hash", "--no-git-times", "--quiet", "--index-dir", index)
    assert run.code == 0, run.describe()
    expected = {}
    for q in QUERIES:
        code, got, _err = _answer(index, q)
        assert code == 0 and got
        expected[q] = got
    return index, expected


@pytest.fixture
def damaged(good: tuple[Path, dict[str, Answer]], tmp_path: Path) -> Path:
    copy = tmp_path / "index"
    shutil.copytree(good[0], copy)
    return copy


def _segment_files(index: Path) -> dict[str, Path]:
    """One file of each role in the (single) segment of HEAD."""
    (seg,) = list((index / "segments").iterdir())
    tantivy = seg / "tantivy"
    vectors = next(p for p in seg.iterdir() if p.name.startswith("vectors-"))
    return {
        "node and reference tables": seg / "tables.msgpack",
        "tantivy meta": tantivy / "meta.json",
        "tantivy terms": next(tantivy.glob("*.term")),
        "tantivy postings": next(tantivy.glob("*.idx")),
        "tantivy doc store": next(tantivy.glob("*.store")),
        "vectors": max((p for p in vectors.rglob("*") if p.is_file()), key=lambda p: p.stat().st_size),
    }


def _truncate(path: Path) -> None:
    os.truncate(path, path.stat().st_size // 2)


def _flip(path: Path) -> None:
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0xFF
    path.write_bytes(bytes(data))


def _delete(path: Path) -> None:
    path.unlink()


DAMAGE: dict[str, Callable[[Path], None]] = {"truncated": _truncate, "altered": _flip, "deleted": _delete}
KIND = {"truncated": "size", "altered": "checksum", "deleted": "missing"}
ROLES = (
    "node and reference tables",
    "tantivy meta",
    "tantivy terms",
    "tantivy postings",
    "tantivy doc store",
    "vectors",
)


def test_verify_of_a_good_index_exits_0(good: tuple[Path, dict[str, Answer]]) -> None:
    run = qry("verify", "--index-dir", good[0])
    assert run.code == 0 and run.err.startswith("ok: "), run.describe()
    run = qry("verify", "--json", "--index-dir", good[0])
    assert run.code == 0 and json.loads(run.out) == {"ok": True, "problems": []}, run.describe()


@pytest.mark.parametrize("damage", list(DAMAGE))
def test_verify_names_every_damaged_file_with_a_hint(damaged: Path, damage: str) -> None:
    targets = _segment_files(damaged)
    for target in targets.values():
        DAMAGE[damage](target)
    run = qry("verify", "--index-dir", damaged)
    assert run.code == 2 and "Traceback" not in run.err, run.describe()
    for role, target in targets.items():
        rel = target.relative_to(damaged).as_posix()
        assert f"qry: {KIND[damage]}: {rel}: " in run.err, f"{role}\n{run.describe()}"
    assert run.err.rstrip().endswith("hint: rebuild the index: qry index --rebuild"), run.describe()
    data = json.loads(qry("verify", "--json", "--index-dir", damaged).out)
    assert data["ok"] is False
    reported = {(p["path"], p["kind"]) for p in data["problems"]}
    assert {(t.relative_to(damaged).as_posix(), KIND[damage]) for t in targets.values()} <= reported


@pytest.mark.parametrize("damage", ["truncated", "deleted"])
@pytest.mark.parametrize("role", ROLES)
def test_search_on_a_truncated_or_missing_file_is_a_clear_error(
    damaged: Path, role: str, damage: str
) -> None:
    target = _segment_files(damaged)[role]
    DAMAGE[damage](target)
    run = qry("search", "--index-dir", damaged, "how are failed charges retried")
    assert run.code == 2, run.describe()
    assert run.err.startswith("qry: error: ") and "Traceback" not in run.err, run.describe()
    assert target.relative_to(damaged).as_posix() in run.err, run.describe()
    assert "hint: " in run.err and "qry verify" in run.err, run.describe()
    assert run.out == "", "no results may be printed from a damaged index"


@pytest.mark.parametrize("role", ROLES)
def test_search_on_an_altered_file_answers_as_before_or_refuses(
    good: tuple[Path, dict[str, Answer]], damaged: Path, role: str
) -> None:
    """An altered byte is only caught by `verify` (checksums are not read per query); a search may not
    notice it if it never reads that byte, but it must never answer differently without an error."""
    _flip(_segment_files(damaged)[role])
    for q in QUERIES[:2]:
        run = qry("search", "--json", "--index-dir", damaged, q)
        assert "Traceback" not in run.err, run.describe()
        if run.code == 2:
            assert run.err.startswith("qry: error: "), run.describe()
            continue
        assert "failed" not in run.err, f"a damaged file was reported as a warning only:\n{run.describe()}"
        assert run.code == 0 and project(json.loads(run.out)) == good[1][q], run.describe()


def test_a_damaged_root_manifest_or_head_is_a_clear_error(damaged: Path) -> None:
    head = head_of(damaged)
    root_file = damaged / "roots" / f"{head}.json"
    data = root_file.read_bytes()
    root_file.write_bytes(data[: len(data) // 2])
    for args in (("search", "x"), ("status",), ("verify",), ("index", FIXTURE, "--embed", "none")):
        run = qry(*args, "--index-dir", damaged)
        assert run.code == 2 and "Traceback" not in run.err, run.describe()
        assert f"roots/{head}.json" in run.err and "qry index --rebuild" in run.err, run.describe()
    root_file.write_bytes(data)
    (damaged / "HEAD").write_text("not a root id\n")
    for args in (("search", "x"), ("status",), ("verify",)):
        run = qry(*args, "--index-dir", damaged)
        assert run.code == 2 and "Traceback" not in run.err, run.describe()
        assert "HEAD" in run.err, run.describe()


def test_a_manifest_of_another_format_version_is_refused(damaged: Path, tmp_path: Path) -> None:
    from indexlib.store.manifest import FORMAT_VERSION, root_id_of

    head = head_of(damaged)
    manifest = json.loads((damaged / "roots" / f"{head}.json").read_bytes())
    manifest["format_version"] = 99
    manifest["a_field_of_the_future"] = {"x": 1}
    data = msgspec.json.encode(manifest)
    rid = root_id_of(data)
    (damaged / "roots" / f"{rid}.json").write_bytes(data)
    (damaged / "HEAD").write_text(f"{rid}\n")
    for args in (("search", "charge"), ("status",), ("verify",), ("related", "charge"), ("index", FIXTURE)):
        run = qry(*args, "--index-dir", damaged)
        assert run.code == 2 and "Traceback" not in run.err, run.describe()
        assert run.err.startswith("qry: error: ") and "format version 99" in run.err, run.describe()
        assert (
            f"this qry reads version {FORMAT_VERSION}" in run.err and "hint: rebuild the index" in run.err
        ), run.describe()
    # The way out the hint names works, and leaves the foreign root alone until gc.
    repo = tmp_path / "repo"
    shutil.copytree(FIXTURE, repo)
    rebuilt = qry(
        "index", repo, "--rebuild", "--embed", "none", "--no-git-times", "--quiet", "--index-dir", damaged
    )
    assert rebuilt.code == 0, rebuilt.describe()
    assert qry("search", "--index-dir", damaged, "retry_failed_charge").code == 0


# --- round two: damaged vectors are refused, and a writer rebuilds damage instead of laundering it ----


def _vector_dir(index: Path) -> Path:
    (seg,) = list((index / "segments").iterdir())
    return next(p for p in seg.iterdir() if p.name.startswith("vectors-"))


def _negate_matrix(vdir: Path) -> Path:
    import numpy as np

    path = vdir / "vectors.f32.npy"
    np.save(path, -np.load(path))
    return path


def _flip_random(path: Path, count: int, seed: int, *, skip_header: int = 128) -> Path:
    import random

    rng = random.Random(seed)
    data = bytearray(path.read_bytes())
    for i in rng.sample(range(skip_header, len(data)), min(count, len(data) - skip_header)):
        data[i] ^= 1 << rng.randrange(8)
    path.write_bytes(bytes(data))
    return path


VECTOR_DAMAGE: dict[str, Callable[[Path], Path]] = {
    "matrix negated": _negate_matrix,
    "400 bytes of the matrix flipped": lambda v: _flip_random(v / "vectors.f32.npy", 400, 1),
    "20 bytes of the keys flipped": lambda v: _flip_random(v / "keys.u64.npy", 20, 2),
}


@pytest.mark.parametrize("damage", list(VECTOR_DAMAGE))
def test_damaged_vectors_are_an_error_naming_the_file(
    good: tuple[Path, dict[str, Answer]], damaged: Path, damage: str
) -> None:
    """Each of these still loads (same size, valid floats) and used to change answers with exit 0.
    Semantic search must refuse; a hybrid query refuses too, unless its route never reads vectors
    (an identifier), and then its answer is the good one."""
    target = VECTOR_DAMAGE[damage](_vector_dir(damaged))
    for mode in ("semantic", "hybrid"):
        for q in QUERIES:
            if mode == "hybrid":
                code, got, _err = _answer(damaged, q)
                if code == 0:
                    assert got == good[1][q], (damage, q)
                    continue
            run = qry("search", "--mode", mode, "--index-dir", damaged, q)
            assert run.code == 2 and run.out == "", run.describe()
            assert run.err.startswith("qry: error: ") and "Traceback" not in run.err, run.describe()
            assert target.relative_to(damaged).as_posix() in run.err, run.describe()


@pytest.fixture(scope="module")
def rebuilt(
    good: tuple[Path, dict[str, Answer]], tmp_path_factory: pytest.TempPathFactory
) -> dict[str, Answer]:
    """The answers of the good index after `qry index --rebuild`: the rebuild takes its vectors from
    the embedding cache (float16), so vector scores differ from the first build's in the 4th digit."""
    copy = tmp_path_factory.mktemp("rebuilt") / "index"
    shutil.copytree(good[0], copy)
    repo = good[0].parent / "repo"
    run = qry("index", repo, "--rebuild", "--embed", "hash", "--no-git-times", "--quiet", "--index-dir", copy)
    assert run.code == 0, run.describe()
    out = {}
    for q in QUERIES:
        code, got, _err = _answer(copy, q)
        assert code == 0 and got
        out[q] = got
    return out


@pytest.mark.parametrize("role", ROLES)
def test_qry_index_rebuilds_a_damaged_file_from_the_source(
    good: tuple[Path, dict[str, Answer]], rebuilt: dict[str, Answer], damaged: Path, role: str
) -> None:
    """`qry index` used to say "(unchanged)" over a damaged segment; now it checks every file of the
    root it builds on and rebuilds what is damaged, so `verify` passes and the answers are the good
    ones (those of a rebuild, when the repair re-attached vectors from the cache)."""
    target = _segment_files(damaged)[role]
    _flip(target)
    repo = good[0].parent / "repo"
    run = qry("index", repo, "--embed", "hash", "--no-git-times", "--json", "--index-dir", damaged)
    assert run.code == 0, run.describe()
    report = json.loads(run.out)
    assert report["repaired"] == [target.relative_to(damaged).as_posix()] and report["published"], report
    assert qry("verify", "--index-dir", damaged).code == 0
    for q in QUERIES:
        code, got, _err = _answer(damaged, q)
        assert code == 0 and got in (good[1][q], rebuilt[q]), q


def test_compaction_does_not_launder_a_damaged_segment(tmp_path: Path) -> None:
    """Six three-file segments; the first one's tables are damaged; the next run edits two files of
    each other segment, so it compacts (tombstones over the ratio). The damaged bytes must not reach
    the merged segment (where `verify` would then pass): it equals a fresh build's, byte for byte."""
    from indexlib import BuildOptions, build_index
    from indexlib.index.build.write import MAX_SEGMENTS
    from indexlib.store.store import Store

    repo = tmp_path / "repo"
    repo.mkdir()

    def write(i: int, j: int, body: str) -> None:
        (repo / f"m{i}_{j}.py").write_text(f"def function_{i}_{j}(arg: int) -> int:\n    return {body}\n")

    opts = BuildOptions(index_dir=tmp_path / "index", embed="none", git_times=False)
    for i in range(MAX_SEGMENTS):
        for j in range(3):
            write(i, j, "arg")
        assert not build_index(repo, opts).compacted
    store = Store.open(tmp_path / "index")
    _rid, manifest = store.load()
    assert len(manifest.segments) == MAX_SEGMENTS
    first = manifest.files["m0_0.py"].segment
    _flip(store.segment_dir(first) / "tables.msgpack")
    for i in range(1, MAX_SEGMENTS):
        for j in range(2):
            write(i, j, "arg + 1")
    report = build_index(repo, opts)
    assert report.compacted and report.repaired == [f"segments/{first}/tables.msgpack"], report
    assert store.verify() == []
    build_index(repo, BuildOptions(index_dir=tmp_path / "fresh", embed="none", git_times=False))
    _rid, compacted = store.load()
    _rid, fresh = Store.open(tmp_path / "fresh").load()
    assert [s.id for s in compacted.segments] == [s.id for s in fresh.segments]


@pytest.mark.parametrize("suffix", [".term", ".fast"])
def test_a_damaged_term_or_fast_file_is_named_without_a_rust_panic(damaged: Path, suffix: str) -> None:
    (seg,) = list((damaged / "segments").iterdir())
    target = next((seg / "tantivy").glob(f"*{suffix}"))
    for i in range(0, target.stat().st_size, max(target.stat().st_size // 20, 1)):
        data = bytearray(target.read_bytes())
        data[i] ^= 0xFF
        target.write_bytes(bytes(data))
    run = qry("search", "--index-dir", damaged, "retry charge")
    assert run.code == 2 and run.err.startswith("qry: error: index file "), run.describe()
    assert target.relative_to(damaged).as_posix() in run.err and "panicked" not in run.err, run.describe()


def test_a_root_collected_by_gc_says_so(damaged: Path, tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    shutil.copytree(FIXTURE, repo)
    old = head_of(damaged)
    (repo / "new_module.py").write_text("def brand_new():\n    return 1\n")
    assert (
        qry("index", repo, "--embed", "none", "--no-git-times", "--quiet", "--index-dir", damaged).code == 0
    )
    assert qry("gc", "--keep", "1", "--index-dir", damaged).code == 0
    for ref in (old, old[:8]):
        run = qry("search", "charge", "--root", ref, "--index-dir", damaged)
        assert run.code == 2 and "qry gc" in run.err and "qry roots" in run.err, run.describe()
        assert "rebuild" not in run.err, run.describe()
