"""A Swift call with a trailing closure is one call reference whatever the grammar makes of it: as
a declaration's value (`let t = s.adapt(r, for: x) { .. }`) it reads the closure as a second call
wrapping the first, which made two references, neither with the call's labels (arguments.py)."""

from __future__ import annotations

from pathlib import Path

from indexlib import BuildOptions, build_index, open_engine, related
from indexlib.index.parsing import parse_file

SOURCE = """final class Interceptor {
    func adapt(_ r: Int, for s: Int, completion: (Int) -> Void) -> Int { 0 }
    func adapt(_ r: Int, using s: Int, completion: (Int) -> Void) -> Int { 0 }
    func adapt(_ r: Int) -> Int { 0 }

    func run() {
        let task = self.adapt(1, for: 2) { value in
            print(value)
        }
        adapt(1, using: 2) { value in print(value) }
    }
}
"""


def test_a_wrapped_trailing_closure_is_one_call_with_every_label() -> None:
    parsed = parse_file("Interceptor.swift", SOURCE.encode(), "swift")
    adapts = sorted((r.line, r.target, r.args, r.labels) for r in parsed.refs if "adapt" in r.target)
    assert adapts == [(7, "self.adapt", 3, ("_", "for", "")), (10, "adapt", 3, ("_", "using", ""))]


def test_the_wrapped_call_links_to_the_overload_its_labels_name(tmp_path: Path) -> None:
    """It linked to `adapt(_:for:completion:)` and, through the closure's own `("",)`, to the
    one-parameter `adapt(_:)`, ambiguous."""
    (tmp_path / "Interceptor.swift").write_text(SOURCE)
    build_index(tmp_path, BuildOptions(embed="none"))
    res = related(open_engine(tmp_path / ".qry"), "Interceptor.run", callees=True)
    calls = sorted((r.symbol, r.decl_line, r.line, r.ambiguous) for r in res.related if r.edge == "calls")
    assert calls == [("Interceptor.adapt", 2, 7, False), ("Interceptor.adapt", 3, 10, False)]
