"""Line windows for text files, and LineIndex arithmetic."""

from __future__ import annotations

from indexlib.index.parsing import parse_file
from indexlib.index.parsing.chunks import LineIndex, text_chunks


def test_overlapping_windows_cover_the_file() -> None:
    data = "".join(f"key_{i} = {i}\n" for i in range(1, 131)).encode()
    nodes = parse_file("conf/settings.toml", data, "text").nodes
    assert [(n.part, n.start_line, n.end_line) for n in nodes] == [(0, 1, 60), (1, 51, 110), (2, 101, 130)]
    assert {(n.kind, n.name, n.qualified_name) for n in nodes} == {
        ("chunk", "settings.toml", "settings.toml")
    }
    for node in nodes:
        assert node.text == data[node.start_byte : node.end_byte].decode()
        assert node.text.startswith(f"key_{node.start_line} = ")
        assert node.text.endswith(f"key_{node.end_line} = {node.end_line}")
    assert len({n.uid for n in nodes}) == 3


def test_blank_windows_are_dropped_and_parts_stay_stable() -> None:
    data = b"top\n" + b"\n" * 200 + b"bottom\n"
    nodes = text_chunks("notes.txt", "text", data)
    assert [(n.part, n.start_line, n.end_line, n.text.strip()) for n in nodes] == [
        (0, 1, 60, "top"),
        (3, 151, 202, "bottom"),
    ]


def test_short_file_without_trailing_newline() -> None:
    nodes = text_chunks("Makefile", "text", b"all:\n\tpython -m build")
    assert [(n.start_line, n.end_line, n.text) for n in nodes] == [(1, 2, "all:\n\tpython -m build")]


def test_line_index() -> None:
    lines = LineIndex(b"a\nbb\n\nccc\n")
    assert lines.line_count == 4
    assert [lines.line_of(offset) for offset in (0, 1, 2, 4, 5, 6, 9)] == [1, 1, 2, 2, 3, 4, 4]
    assert [lines.start_of(line) for line in (1, 2, 3, 4, 5)] == [0, 2, 5, 6, 10]
    assert LineIndex(b"").line_count == 1
    assert LineIndex(b"no newline").line_count == 1


def test_a_window_takes_the_block_edges_after_it() -> None:
    """guzzle's SetCookie: the class's 200th non-blank line was its last method's header, and the
    method's elided body `{ ... }` and the class's `}` were a part of their own, a search hit with
    nothing to show (`{ ... }`, blank lines, `}`). A window takes the edges after it."""
    members = "".join(
        f"    public function get{i}()\n    {{\n        return {i};\n    }}\n\n" for i in range(9)
    )
    data = f"<?php\n\nclass SetCookie\n{{\n{members}}}\n".encode()
    # 2 + 9 * 2 non-blank lines once bodies are elided: a window of 19 ends at the last header.
    parts = [n for n in parse_file("SetCookie.php", data, "php", window_lines=19).nodes if n.kind == "class"]
    assert [(n.part, n.start_line, n.end_line) for n in parts] == [(0, 3, 3 + 2 + 9 * 5)]
    assert parts[0].text.rstrip().endswith("    public function get8()\n    { ... }\n\n\n\n}")
    # Split further, no part starts at an edge of a block.
    parts = [n for n in parse_file("SetCookie.php", data, "php", window_lines=5).nodes if n.kind == "class"]
    assert len(parts) > 2
    assert all(not n.text.lstrip().startswith(("{", "}")) for n in parts), [n.text[:20] for n in parts]
