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
