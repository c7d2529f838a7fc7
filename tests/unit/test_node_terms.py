"""The analysed text the parse stage computes per node (`lexterms.node_terms`) is exactly the text the
segment writer used to analyse itself, field by field, and the spill carries it (and each file's n-gram
text) to the write stage unchanged."""

from __future__ import annotations

from pathlib import Path

import pytest

from indexlib.analyzer import code_terms
from indexlib.engines.lexterms import node_terms, trigram_terms
from indexlib.index.build.options import BuildOptions
from indexlib.index.build.parse import _read_and_parse
from indexlib.index.discover import SourceFile, discover
from indexlib.index.gramsource import gram_source
from indexlib.index.parsing import detect_language, parse_file
from indexlib.records import Node

ROOT = Path(__file__).resolve().parents[2] / "fixtures" / "polyglot"


def _fixture_nodes() -> list[Node]:
    nodes: list[Node] = []
    for path in sorted(ROOT.rglob("*")):
        if not path.is_file():
            continue
        rel = path.relative_to(ROOT).as_posix()
        data = path.read_bytes()
        language = detect_language(rel, data[:512])
        if language is not None:
            nodes.extend(parse_file(rel, data, language).nodes)
    return nodes


def _whole(text: str) -> str:
    return " ".join(code_terms(text))


def test_each_field_equals_analysing_its_whole_text() -> None:
    nodes = _fixture_nodes()
    assert len({n.language for n in nodes}) >= 10  # every fixture language, prose included
    for n in nodes:
        t = node_terms(n)
        stem = n.path.rsplit("/", 1)[-1].rsplit(".", 1)[0]
        assert t.name == _whole(n.name)
        assert t.qname == _whole(n.qualified_name)
        assert t.path == _whole(n.path.replace("/", " ") + " " + stem)
        assert t.signature == _whole(n.signature)
        assert t.body == _whole(n.text)
        whole_node = f"{n.path.replace('/', ' ')}\n{n.qualified_name}\n{n.text}"  # what `content` indexes
        assert t.content == _whole(whole_node), n.qualified_name
        assert t.name_tri == " ".join(trigram_terms(n.name))


@pytest.mark.parametrize(
    "text",
    ["a.b\nc.d", "x.\n.y", "émile\nçava", "$el\n_x_\n9", "a.b.c\n", "\n\n", "foo.bar.\nbaz"],
)
def test_a_newline_always_ends_a_token(text: str) -> None:
    """What lets `content` be assembled from its parts' terms instead of analysing the body twice."""
    head, _, tail = text.partition("\n")
    assert code_terms(text) == code_terms(head) + code_terms(tail)


def _sources(root: Path) -> list[SourceFile]:
    return [s for s in discover(root, read=False) if isinstance(s, SourceFile)]


def test_the_parse_stage_gives_each_file_the_n_gram_text_a_re_read_would(tmp_path: Path) -> None:
    (tmp_path / "plain.py").write_text("def Straße(): return 'ÅB'\n", encoding="utf-8")
    key = "AKIA" + "Q3EGUKS5NUXYKZ7P"
    (tmp_path / "secret.py").write_text(f"AWS_KEY = '{key}'\n", encoding="utf-8")
    opts = BuildOptions()
    reread = gram_source(tmp_path, redact=True)
    seen = {}
    for src in _sources(tmp_path):
        outcome = _read_and_parse(src, opts)
        assert not isinstance(outcome, str)
        seen[src.path] = outcome[4]
        assert outcome[4] == reread(src.path), src.path
        assert len(outcome[3]) == len(outcome[0].nodes)
    assert seen["secret.py"] is None and seen["plain.py"]  # a file holding a secret gets no n-grams
    unredacted = _read_and_parse(
        next(s for s in _sources(tmp_path) if s.path == "secret.py"), BuildOptions(redact=False)
    )
    assert not isinstance(unredacted, str) and unredacted[4] == gram_source(tmp_path, redact=False)(
        "secret.py"
    )
