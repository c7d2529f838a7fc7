"""A Go local read by index or key from a field's written collection holds the element's type."""

from __future__ import annotations

from pathlib import Path

from indexlib import open_engine, related
from tests.repokit import make_repo

FILES = {
    "go.mod": "module example.com/m\n\ngo 1.21\n",
    "matcher.go": "package m\n\ntype MatchResult struct{}\n\n"
    "func (r MatchResult) final() bool {\n\treturn true\n}\n\n"
    "type Merger struct{}\n\nfunc (g *Merger) final() bool {\n\treturn false\n}\n\n"
    "type Matcher struct {\n\tcache map[string]MatchResult\n\tlist  []*Merger\n}\n\n"
    "func (m *Matcher) Loop(key string) bool {\n"
    "\tif cached, found := m.cache[key]; found && cached.final() {\n\t\treturn true\n\t}\n"
    "\tlast := m.list[len(m.list)-1]\n\treturn last.final()\n}\n",
}


def test_a_local_read_from_a_fields_collection_is_its_element_type(tmp_path: Path) -> None:
    """On fzf `Matcher.Loop`'s `if cached, found := m.mergerCache[patternString]; found &&
    cached.final()` (`mergerCache map[string]MatchResult`) was a guess at every `final`, ambiguous:
    a local's type was read from a call, a literal or a copy, not from an element of a field."""
    engine = open_engine(make_repo(tmp_path, FILES) / ".qry")
    callees = {(r.symbol, r.ambiguous) for r in related(engine, "Matcher.Loop", callers=False).related}
    assert callees == {("MatchResult.final", False), ("Merger.final", False)}
