"""Markdown sections: ATX and setext headings, heading paths, parents, fences, front matter, windows."""

from __future__ import annotations

from indexlib.index.parsing import parse_file
from indexlib.index.parsing.ids import node_uid
from indexlib.records import Node


def sections(text: str, **kwargs: int) -> list[Node]:
    parsed = parse_file("docs/guide.md", text.encode(), "markdown", **kwargs)
    assert parsed.refs == [] and parsed.skip is None
    return parsed.nodes


def test_atx_and_setext_headings_build_paths_and_parents() -> None:
    nodes = sections(
        "Intro line before any heading.\n"
        "\n"
        "Guide\n"
        "=====\n"
        "\n"
        "Welcome.\n"
        "\n"
        "## Install ##\n"
        "\n"
        "pip install qry\n"
        "\n"
        "### On Linux\n"
        "\n"
        "apt first.\n"
        "\n"
        "Usage\n"
        "-----\n"
        "\n"
        "Run it.\n"
        "\n"
        "# Appendix\n"
        "More.\n"
    )
    assert [(n.name, n.qualified_name, n.start_line, n.end_line) for n in nodes] == [
        ("guide", "guide", 1, 1),
        ("Guide", "Guide", 3, 6),
        ("Install", "Guide > Install", 8, 10),
        ("On Linux", "Guide > Install > On Linux", 12, 14),
        ("Usage", "Guide > Usage", 16, 19),
        ("Appendix", "Appendix", 21, 22),
    ]
    by_name = {n.name: n for n in nodes}
    assert by_name["Install"].parent_uid == by_name["Guide"].uid
    assert by_name["On Linux"].parent_uid == by_name["Install"].uid
    assert by_name["Usage"].parent_uid == by_name["Guide"].uid
    assert by_name["Appendix"].parent_uid == 0 and by_name["guide"].parent_uid == 0
    assert by_name["Install"].text == "## Install ##\n\npip install qry"
    assert by_name["Usage"].signature == "## Usage"
    assert {n.kind for n in nodes} == {"section"}


def test_bytes_and_text_agree() -> None:
    text = "# Tëst\n\nÜnïcode body.\n\n## Next\n\nmore\n"
    data = text.encode()
    for node in sections(text):
        assert data[node.start_byte : node.end_byte].decode() == node.text


def test_fenced_code_and_non_headings() -> None:
    nodes = sections(
        "# Real\n"
        "\n"
        "```python\n"
        "# not a heading\n"
        "value\n"
        "---\n"
        "```\n"
        "~~~~\n"
        "## still code\n"
        "~~~~\n"
        "#hashtag is not a heading\n"
        "    # indented code is not a heading\n"
        "- list item\n"
        "---\n"
        "\n"
        "---\n"
        "text after a thematic break\n"
    )
    assert [n.qualified_name for n in nodes] == ["Real"]


def test_front_matter_is_not_a_setext_heading() -> None:
    nodes = sections("---\ntitle: Guide\ntags: [a]\n---\n\n# Body\n\ntext\n")
    assert [n.qualified_name for n in nodes] == ["guide", "Body"]
    assert nodes[0].text.startswith("---\ntitle: Guide")


def test_duplicate_heading_paths_get_ordinals() -> None:
    nodes = sections("# API\n\n## Example\n\none\n\n## Example\n\ntwo\n")
    examples = [n for n in nodes if n.qualified_name == "API > Example"]
    assert [n.uid for n in examples] == [
        node_uid("docs/guide.md", "API > Example", "section", i, 0) for i in (0, 1)
    ]


def test_long_sections_are_windowed() -> None:
    body = "".join(f"line {i}\n" for i in range(450))
    nodes = sections(f"# Long\n{body}# Short\nend\n", window_lines=200)
    long_parts = [n for n in nodes if n.qualified_name == "Long"]
    assert [(n.part, n.start_line, n.end_line) for n in long_parts] == [
        (0, 1, 200),
        (1, 201, 400),
        (2, 401, 451),
    ]
    assert all(n.signature == "# Long" for n in long_parts)
    assert nodes[-1].qualified_name == "Short" and nodes[-1].start_line == 452


def test_headings_without_text_and_crlf() -> None:
    nodes = sections("#\r\nbody\r\n## Real title ##\r\nx\r\n")
    assert [n.name for n in nodes] == ["(untitled #)", "Real title"]
