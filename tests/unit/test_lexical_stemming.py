"""The whole-node `content` field is stemmed, the name fields are not: a question's inflected words
meet the words a name holds, while an identifier lookup stays exact."""

from pathlib import Path

from indexlib.engines import lexical
from indexlib.records import Node


def _node(uid: int, name: str, text: str) -> Node:
    return Node(
        uid=uid, content_hash=uid, path="app.py", language="python", kind="function", name=name,
        qualified_name=f"App.{name}", start_line=uid, end_line=uid, start_byte=0, end_byte=len(text), text=text,
    )  # fmt: skip


def _segment(tmp_path: Path) -> lexical.LexicalSegment:
    writer = lexical.SegmentIndexWriter(tmp_path / "tantivy")
    writer.add(_node(1, "register_blueprint", "def register_blueprint(self, bp):\n    bp.attach(self)"), [])
    writer.add(_node(2, "iter_routes", "def iter_routes(self):\n    return self.routes"), [])
    writer.close()
    return lexical.LexicalSegment(tmp_path / "tantivy")


def _matches(seg: lexical.LexicalSegment, text: str, boosts: dict[str, float]) -> set[int]:
    return set(seg.uids(seg.search(seg.parse(text, list(boosts), boosts), 10)))


def test_a_question_inflecting_a_names_words_matches_its_content(tmp_path: Path) -> None:
    seg = _segment(tmp_path)
    assert _matches(seg, '"registered" "blueprints"', {"content": 1.0}) == {1}
    assert _matches(seg, '"routing"', {"content": 1.0}) == {2}


def test_name_fields_stay_exact(tmp_path: Path) -> None:
    seg = _segment(tmp_path)
    assert _matches(seg, '"registered"', {"name_terms": 1.0}) == set()
    assert _matches(seg, '"register"', {"name_terms": 1.0}) == {1}


def test_document_frequency_is_asked_for_the_stem_the_query_is_parsed_into(tmp_path: Path) -> None:
    seg = _segment(tmp_path)
    assert seg.doc_freq("content", "registered") == seg.doc_freq("content", "register") == 1
    assert seg.doc_freq("body_terms", "registered") == 0
    assert lexical.field_term("content", "blueprints") == "blueprint"
    assert lexical.field_term("name_terms", "blueprints") == "blueprints"
