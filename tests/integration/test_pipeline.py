"""End to end over fixtures/polyglot: index, search in every mode, incremental re-index, filters."""

from __future__ import annotations

import os
import re
import shutil
import time
from pathlib import Path

import pytest

from indexlib import BuildOptions, SearchOptions, build_index, open_engine
from indexlib.store.store import Store


def search(repo: Path, text: str, **kw: object) -> list[tuple[str, str]]:
    res = open_engine(repo / ".qry").search(text, SearchOptions(**kw))  # type: ignore[arg-type]
    return [(h.symbol, h.path) for h in res.results]


def test_identifier_query_finds_the_definition_first(polyglot_lexical: Path) -> None:
    for text in ["retry_failed_charge", "RetryFailedCharge", "retry failed charge", "retryFailedCharge"]:
        hits = search(polyglot_lexical, text, langs=["python"])
        assert hits, text
        assert hits[0][0].endswith("retry_failed_charge"), (text, hits[:3])


def test_every_language_is_indexed_and_searchable(polyglot_lexical: Path) -> None:
    engine = open_engine(polyglot_lexical / ".qry")
    snap = engine.snapshot()
    langs = {rec.language for rec in snap.manifest.files.values()}
    assert {
        "python",
        "javascript",
        "typescript",
        "go",
        "java",
        "rust",
        "c",
        "cpp",
        "csharp",
        "ruby",
        "php",
        "markdown",
    } <= langs
    for lang in [
        "python",
        "go",
        "java",
        "rust",
        "csharp",
        "ruby",
        "php",
        "javascript",
        "typescript",
        "c",
        "cpp",
    ]:
        res = engine.search("charge", SearchOptions(langs=[lang], top_k=5))
        assert res.results, lang
        assert all(h.language == lang for h in res.results)


def test_provenance_and_scores_are_filled(polyglot_lexical: Path) -> None:
    res = open_engine(polyglot_lexical / ".qry").search("retry_failed_charge", SearchOptions(explain=True))
    top = res.results[0]
    assert top.provenance.bm25_rank is not None and top.provenance.bm25_score is not None
    assert top.provenance.symbol_rank == 1 and top.provenance.symbol_score is not None
    assert any(e.startswith("rrf bm25") for e in top.explain)
    assert res.meta.root and res.meta.elapsed_ms > 0


def test_filters_restrict_results(polyglot_lexical: Path) -> None:
    only_go = search(polyglot_lexical, "retry", paths=["go/**"])
    assert only_go and all(p.startswith("go/") for _s, p in only_go)
    no_go = search(polyglot_lexical, "retry", excludes=["go/**"])
    assert no_go and not any(p.startswith("go/") for _s, p in no_go)
    classes = open_engine(polyglot_lexical / ".qry").search("billing", SearchOptions(kinds=["class"]))
    assert classes.results and all(h.kind == "class" for h in classes.results)


def test_phrase_and_prefix(polyglot_lexical: Path) -> None:
    res = open_engine(polyglot_lexical / ".qry").search('"failed charge"', SearchOptions(top_k=20))
    assert res.results
    engine = open_engine(polyglot_lexical / ".qry")
    snap = engine.snapshot()
    for h in res.results:
        node = snap.node(int(h.uid, 16))
        assert node is not None
        hay = " ".join(f"{node.node.name} {node.node.signature} {node.node.doc} {node.node.text}".split())
        # the words together: apart by white space, or joined as one name (retry_failed_charge)
        assert re.search(r"failed[ _-]?charge", hay, re.IGNORECASE), hay
    assert any("failed charge" in h.snippet.text.lower() for h in res.results)
    pre = engine.search("backof*", SearchOptions())
    assert pre.results and any("backoff" in h.symbol.lower() for h in pre.results)


def test_a_prefix_no_term_starts_with_is_said_alone_and_ignored_beside_words(polyglot_lexical: Path) -> None:
    """`retry_*` is read as the prefix `retry` (no analysed term ends in `_`); beside words, a prefix
    nothing starts with adds nothing, as an unknown word does (it emptied the answer, silently);
    alone, the empty answer says which prefix found nothing."""
    engine = open_engine(polyglot_lexical / ".qry")
    words = engine.search("failed charge", SearchOptions(top_k=5)).results
    assert words
    assert [h.uid for h in engine.search("failed charge xyzzy*", SearchOptions(top_k=5)).results] == [
        h.uid for h in words
    ]
    separated = engine.search("backoff retry_*", SearchOptions(top_k=5)).results
    assert separated and any("retry" in h.symbol.lower() for h in separated)
    alone = engine.search("xyzzy*", SearchOptions())
    assert not alone.results
    assert any("no indexed name or word starts with xyzzy*" in n for n in alone.meta.notes), alone.meta.notes


def test_snippets_are_bounded(polyglot_lexical: Path) -> None:
    res = open_engine(polyglot_lexical / ".qry").search("charge", SearchOptions(snippet_chars=80, top_k=20))
    assert res.results
    for h in res.results:
        assert len(h.snippet.text) <= 80
        assert h.start_line <= h.snippet.start_line <= h.snippet.end_line <= h.end_line


def test_unchanged_reindex_publishes_nothing_and_one_change_is_incremental(
    fixture_copy: object, tmp_path: Path
) -> None:
    from tests.conftest import FIXTURES

    repo = tmp_path / "repo"
    shutil.copytree(FIXTURES / "polyglot", repo)
    first = build_index(repo, BuildOptions(embed="none"))
    assert first.published and first.nodes_written > 0
    again = build_index(repo, BuildOptions(embed="none"))
    assert not again.published and again.root_id == first.root_id and again.nodes_written == 0
    target = repo / "python" / "billing" / "config.py"
    target.write_text(target.read_text() + "\n\ndef brand_new_helper_fn():\n    return 42\n")
    os.utime(target, (time.time() + 5, time.time() + 5))
    third = build_index(repo, BuildOptions(embed="none"))
    assert third.published and third.changed == 1 and third.added == 0
    per_file = {
        rec.nodes for p, rec in Store.open(repo / ".qry").load()[1].files.items() if p.endswith("config.py")
    }
    assert third.nodes_written == sum(per_file)
    hits = search(repo, "brand_new_helper_fn")
    assert hits and hits[0][0].endswith("brand_new_helper_fn")
    # The old copy of config.py is a tombstone: each symbol of it appears once.
    all_hits = search(repo, "config", top_k=50, paths=["python/billing/config.py"])
    symbols = [s for s, _p in all_hits]
    assert len(symbols) == len(set(symbols))


def test_a_new_parser_parses_every_file_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An index whose files another parser version read is built on with every file parsed again,
    not with the old parser's nodes for the unchanged ones; the next build reuses them again."""
    from indexlib.index.build import plan, times
    from tests.conftest import FIXTURES

    repo = tmp_path / "repo"
    shutil.copytree(FIXTURES / "polyglot", repo)
    first = build_index(repo, BuildOptions(embed="none"))
    assert not first.reparsed
    for module in (plan, times):  # what the build compares, what it records
        monkeypatch.setattr(module, "PARSER_VERSION", plan.PARSER_VERSION + 1)
    again = build_index(repo, BuildOptions(embed="none"))
    assert again.reparsed and again.published and again.nodes_written == first.nodes_written
    monkeypatch.undo()
    settled = build_index(repo, BuildOptions(embed="none"))
    assert settled.reparsed and settled.nodes_written == first.nodes_written  # back to this parser
    assert not build_index(repo, BuildOptions(embed="none")).reparsed


def test_removed_file_disappears(tmp_path: Path) -> None:
    from tests.conftest import FIXTURES

    repo = tmp_path / "repo"
    shutil.copytree(FIXTURES / "polyglot", repo)
    build_index(repo, BuildOptions(embed="none"))
    assert any(p.startswith("ruby/") for _s, p in search(repo, "charge", top_k=50))
    shutil.rmtree(repo / "ruby")
    rep = build_index(repo, BuildOptions(embed="none"))
    assert rep.removed >= 1
    assert not any(p.startswith("ruby/") for _s, p in search(repo, "charge", top_k=50))


def test_identical_content_gives_identical_segment_ids(tmp_path: Path) -> None:
    from tests.conftest import FIXTURES

    a, b = tmp_path / "a", tmp_path / "b"
    shutil.copytree(FIXTURES / "polyglot", a)
    shutil.copytree(FIXTURES / "polyglot", b)
    ra = build_index(a, BuildOptions(embed="none", git_times=False))
    rb = build_index(b, BuildOptions(embed="none", git_times=False))
    seg_a = [s.id for s in Store.open(a / ".qry").load()[1].segments]
    seg_b = [s.id for s in Store.open(b / ".qry").load()[1].segments]
    assert ra.published and rb.published
    # copytree keeps mtimes, so node times agree too: same content, same segment id.
    assert seg_a == seg_b and len(seg_a) == 1


@pytest.mark.model
def test_hybrid_with_the_real_model(polyglot_onnx: Path) -> None:
    engine = open_engine(polyglot_onnx / ".qry")
    res = engine.search("how does billing retry a failed charge", SearchOptions(top_k=10))
    assert res.meta.model_loaded
    assert res.meta.streams.get("vector", 0) > 0
    assert any("retry" in h.symbol.lower() for h in res.results[:5]), [h.symbol for h in res.results]
    assert any(h.provenance.vector_score is not None for h in res.results)
    sem = engine.search("schedule the next attempt after a delay", SearchOptions(mode="semantic"))
    assert sem.results and all(h.provenance.bm25_rank is None for h in sem.results)


@pytest.mark.model
def test_identifier_query_skips_the_model_when_the_definition_leads(polyglot_onnx: Path) -> None:
    res = open_engine(polyglot_onnx / ".qry").search("retry_failed_charge", SearchOptions())
    assert not res.meta.model_loaded
    assert any("dense stream skipped" in n for n in res.meta.notes)
    assert res.results[0].symbol.endswith("retry_failed_charge")


@pytest.mark.model
def test_a_repeated_question_reuses_its_query_vector(polyglot_onnx: Path) -> None:
    text = "which function waits longer between attempts each time"
    first = open_engine(polyglot_onnx / ".qry").search(text, SearchOptions(top_k=5))
    again = open_engine(polyglot_onnx / ".qry").search(
        " " + text.replace(" ", "  ") + " ", SearchOptions(top_k=5)
    )
    assert first.meta.model_loaded and not again.meta.model_loaded
    assert any("query vector from the cache" in n for n in again.meta.notes)
    assert [h.uid for h in again.results] == [h.uid for h in first.results]
    assert [h.provenance.vector_score for h in again.results] == [
        h.provenance.vector_score for h in first.results
    ]


def test_a_plain_build_keeps_the_embedding_the_index_was_built_with(tmp_path: Path) -> None:
    """`qry index` without --embed must not load the model for an index built with --embed none
    (an editor hook re-indexing a lexical index would embed every node), nor drop vectors."""
    (tmp_path / "a.py").write_text("def alpha():\n    return 1\n")
    assert build_index(tmp_path, BuildOptions(embed="none", git_times=False)).embedded == 0
    (tmp_path / "b.py").write_text("def beta():\n    return 2\n")
    plain = build_index(tmp_path, BuildOptions(git_times=False))
    assert plain.added == 1 and plain.embedded == 0 and plain.embed_cached == 0, plain
    assert build_index(tmp_path, BuildOptions(embed="hash", git_times=False)).embedded > 0
    (tmp_path / "c.py").write_text("def gamma():\n    return 3\n")
    again = build_index(tmp_path, BuildOptions(git_times=False))
    assert again.added == 1 and again.embedded == 1, again  # the hash embedder, as last built


def test_an_unknown_embedder_is_refused_before_a_root_is_published(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`qry index --embed onxx` published a lexical root recording "onxx" and then exited 2, so every
    later plain `qry index` (built as last recorded) failed on the typo too."""
    from indexlib.errors import UsageError
    from indexlib.index.build.run import resolve_embed

    (tmp_path / "a.py").write_text("def alpha():\n    return 1\n")
    build_index(tmp_path, BuildOptions(embed="none", git_times=False))
    store = Store.open(tmp_path / ".qry")
    head = store.head()
    (tmp_path / "b.py").write_text("def beta():\n    return 2\n")
    with pytest.raises(UsageError, match="unknown embedder 'onxx'"):
        build_index(tmp_path, BuildOptions(embed="onxx", git_times=False))
    assert store.head() == head  # nothing published
    # An index a release without the check left recording the typo builds as a new index would.
    monkeypatch.setattr("indexlib.engines.embedders.check_build_name", lambda _name: None)
    with pytest.raises(UsageError, match="unknown embedder 'onxx'"):
        build_index(tmp_path, BuildOptions(embed="onxx", git_times=False))
    assert store.head() != head
    assert resolve_embed(store, BuildOptions()).embed == "onnx"


def test_a_build_removes_the_staging_a_killed_writer_left(tmp_path: Path) -> None:
    """A writer killed with SIGKILL never runs its cleanup: its staging stays in tmp/. The next build
    holds the writer lock, so nothing there is anyone's: it goes, and the build publishes."""
    (tmp_path / "a.py").write_text("def one():\n    return 1\n")
    build_index(tmp_path, BuildOptions(embed="none", git_times=False))
    store = Store.open(tmp_path / ".qry")
    left = store.tmp_dir / "stage-4242-0123456789ab"
    (left / "seg").mkdir(parents=True)
    (left / "seg" / "nodes.bin").write_bytes(b"x" * 1024)
    (tmp_path / "a.py").write_text("def two():\n    return 2\n")
    report = build_index(tmp_path, BuildOptions(embed="none", git_times=False))
    assert report.published and not left.exists()
    assert open_engine(tmp_path / ".qry").search("two").results[0].symbol == "two"
