"""Counts in what qry prints agree with their nouns: `1 file`, `2 files`, never `1 files`.

The summary line of `qry index` is built from the report alone, so it is checked here on reports
with every count at 1 and at 2; the workspace messages are checked in tests/integration/test_workspace.py.
"""

from __future__ import annotations

from cli.indexcmd import summary_line
from indexlib import BuildReport


def _report(n: int) -> BuildReport:
    return BuildReport(
        root_id="ab" * 16,
        published=True,
        files=n,
        added=n,
        nodes_total=n,
        redacted=n,
        embedded=n,
        embed_cached=0,
        embed_skipped=n,
    )


def test_the_index_summary_says_one_file_and_one_node() -> None:
    line = summary_line(_report(1))
    assert line.startswith("indexed 1 file (1 new), 1 node, 1 secret redacted, "), line
    assert "(1 trivial node needs none)" in line, line


def test_the_index_summary_says_two_files_and_two_nodes() -> None:
    line = summary_line(_report(2))
    assert line.startswith("indexed 2 files (2 new), 2 nodes, 2 secrets redacted, "), line
    assert "(2 trivial nodes need none)" in line, line
