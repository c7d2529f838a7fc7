"""A `path:` filter written as the indexed folder's absolute path, as agents and shells hold paths.

`search` answered nothing (only a note that the filter matched no file) and `grep`, exhaustive by
contract, answered an empty list for a file holding the pattern: it read as "no such line".
"""

from __future__ import annotations

from pathlib import Path

from indexlib import BuildOptions, SearchOptions, build_index, open_engine
from indexlib.api import query_notes
from indexlib.grep.api import GrepRequest, run_grep
from indexlib.rootpaths import root_relative


def _repo(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    (root / "src").mkdir(parents=True)
    (root / "src" / "retry.py").write_text("def retry_charge(card):\n    return card\n")
    (root / "docs.md").write_text("# Retry\n\nretry_charge retries a charge.\n")
    build_index(root, BuildOptions(embed="none", git_times=False))
    return root


def test_search_and_grep_read_an_absolute_path_filter_below_the_root(tmp_path: Path) -> None:
    root = _repo(tmp_path)
    engine = open_engine(root / ".qry")
    for glob in (f"{root}/src/**", f"{root}/src/retry.py", f"{root.resolve()}/src/"):
        opts = SearchOptions(paths=[glob], top_k=5)
        res = engine.search("retry_charge", opts)
        assert [h.path for h in res.results] == ["src/retry.py"], (glob, res.meta.notes)
        assert not query_notes(engine, "retry_charge", opts, found=False), glob
    # In the query text too, and as an exclusion; the root itself is every file.
    res = engine.search(f"retry_charge -path:{root}/src/**", SearchOptions(top_k=5))
    assert [h.path for h in res.results] == ["docs.md"]
    assert len(engine.search("retry_charge", SearchOptions(paths=[str(root)])).results) == 2

    for cwd, shown in ((root, "src/retry.py"), (tmp_path, "repo/src/retry.py")):
        found: list[str] = []
        req = GrepRequest(
            pattern="retry_charge",
            args=[f"path:{root}/src/retry.py"],
            cwd=str(cwd),
            index_dir=str(root / ".qry"),
        )
        run_grep(req, lambda path, *_r, into=found: into.append(path))
        assert found == [shown], (cwd, found)


def test_a_root_anchored_glob_keeps_its_meaning() -> None:
    assert root_relative("/src/**", "/r") == "/src/**"  # anchored at the root, as in .gitignore
    assert root_relative("/rx/a.py", "/r") == "/rx/a.py"  # another folder whose name starts alike
    assert root_relative("/r/", "/r") == "**" and root_relative("/r/a/*.py", "/r") == "a/*.py"
    assert root_relative("src/*.py", "/r") == "src/*.py"
