"""A repository copied or moved together with its `.qry`: the index describes the folder holding it.

The manifest records the absolute folder a root was built from. Search, status, grep, git checks
and the next build must read the files of the folder the `.qry` is in now, not that recorded path
(which may be gone, or hold other text); an index kept elsewhere (`--index-dir`) keeps it.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from indexlib import BuildOptions, SearchRequest, build_index, open_engine
from tests.cli.clikit import run_qry_process
from tests.gitrepo import git

FILES = {
    "shop/pay.py": "class Payments:\n    def charge_card(self, card):\n        return card.amount > 0\n",
    "shop/ship.py": "class Shipping:\n    def ship_parcel(self, parcel):\n        return parcel.weight < 30\n",
}


def _make(folder: Path, *, index_dir: Path | None = None) -> Path:
    for rel, text in FILES.items():
        (folder / rel).parent.mkdir(parents=True, exist_ok=True)
        (folder / rel).write_text(text)
    build_index(folder, BuildOptions(embed="none", git_times=False, index_dir=index_dir))
    return folder


def _hit(index_dir: Path, query: str) -> dict[str, object]:
    hit = open_engine(index_dir).search(query, SearchRequest(top_k=1)).results[0]
    return {"path": hit.path, "stale": hit.stale, "text": hit.snippet.text if hit.snippet else ""}


def _status(folder: Path, env: dict[str, str]) -> dict[str, object]:
    run = run_qry_process("status", "--json", cwd=folder, env=env)
    assert run.code == 0, run.describe()
    out: dict[str, object] = json.loads(run.out)
    return out


@pytest.fixture()
def env(tmp_path: Path) -> dict[str, str]:
    return {"XDG_CONFIG_HOME": str(tmp_path / "cfg")}


def test_a_copied_repository_reads_its_own_files(tmp_path: Path, env: dict[str, str]) -> None:
    original = _make(tmp_path / "a")
    copy = tmp_path / "b"
    shutil.copytree(original, copy)  # with its .qry, which records the original's folder
    changed = copy / "shop" / "pay.py"
    changed.write_text("# one\n# two\n" + changed.read_text())
    pay = _hit(copy / ".qry", "charge_card")
    assert pay["path"] == "shop/pay.py" and pay["stale"], pay  # the copy's file changed
    ship = _hit(copy / ".qry", "ship_parcel")
    # unchanged, and its first line's indentation is read from the copy's file
    assert not ship["stale"] and str(ship["text"]).startswith("    def ship_parcel"), ship
    status = _status(copy, env)
    assert status["source_root"] == str(copy), status
    assert status["changes"] == {"modified": ["shop/pay.py"], "added": [], "deleted": []}, status
    assert _status(original, env)["changes"] == {"modified": [], "added": [], "deleted": []}
    # through a workspace: the hit is the copy's, stale, and its line is not the original's text
    assert run_qry_process("workspace", "add", "c", str(copy), cwd=tmp_path, env=env).code == 0
    found = run_qry_process("search", "charge_card", "-w", "c", "-k", "1", "--json", cwd=tmp_path, env=env)
    hit = json.loads(found.out)["results"][0]
    assert hit["repo"] == "b" and hit["stale"], found.describe()


def test_a_moved_repository_is_not_all_deleted_and_its_next_build_reuses_the_index(
    tmp_path: Path, env: dict[str, str]
) -> None:
    original = _make(tmp_path / "a")
    moved = tmp_path / "c"
    os.rename(original, moved)
    assert _status(moved, env)["changes"] == {"modified": [], "added": [], "deleted": []}
    assert not _hit(moved / ".qry", "charge_card")["stale"]
    found = run_qry_process("search", "ship_parcel", "-k", "1", cwd=moved, env=env)
    assert found.code == 0 and "[stale]" not in found.out, found.describe()
    assert "changed since" not in found.err, found.describe()
    built = run_qry_process("index", "--embed", "none", "--no-git-times", "--json", cwd=moved, env=env)
    report = json.loads(built.out)
    assert (report["added"], report["changed"], report["removed"]) == (0, 0, 0), built.describe()
    assert report["files"] == len(FILES) and _status(moved, env)["source_root"] == str(moved)


def test_grep_over_a_copy_uses_its_index(tmp_path: Path, env: dict[str, str]) -> None:
    copy = tmp_path / "b"
    shutil.copytree(_make(tmp_path / "a"), copy)
    (copy / "shop" / "pay.py").write_text("# moved down\n" + FILES["shop/pay.py"])
    assert run_qry_process("workspace", "add", "c", str(copy), cwd=tmp_path, env=env).code == 0
    for args, where in ((("--workspace", "c"), tmp_path), ((), copy)):
        run = run_qry_process("grep", "charge_card", *args, "--json", cwd=where, env=env)
        out = json.loads(run.out)
        assert out["summary"]["index_used"], run.describe()
        assert [(x["path"], x["line"]) for x in out["lines"]] == [("shop/pay.py", 3)], run.describe()
        assert "outside the indexed tree" not in run.err, run.describe()


def test_git_staleness_is_the_copys_head(tmp_path: Path, env: dict[str, str]) -> None:
    original = tmp_path / "a"
    original.mkdir()
    git(original, "init", "-q")
    for rel, text in FILES.items():
        (original / rel).parent.mkdir(parents=True, exist_ok=True)
        (original / rel).write_text(text)
    git(original, "add", "shop")
    git(original, "commit", "-qm", "one")
    build_index(original, BuildOptions(embed="none", git_times=False))
    copy = tmp_path / "b"
    shutil.copytree(original, copy)
    (copy / "README.md").write_text("# shop\n")
    git(copy, "add", "README.md")
    git(copy, "commit", "-qm", "two")  # the copy's HEAD moved on; the original's did not
    assert run_qry_process("workspace", "add", "c", str(copy), cwd=tmp_path, env=env).code == 0
    found = run_qry_process("search", "charge_card", "-w", "c", "--json", cwd=tmp_path, env=env)
    assert json.loads(found.out)["meta"]["indexes"][0]["stale"], found.describe()


def test_an_index_kept_elsewhere_describes_the_folder_it_was_built_from(
    tmp_path: Path, env: dict[str, str]
) -> None:
    """`--index-dir ELSEWHERE/.qry` for another folder: the index is not ELSEWHERE's, whatever its name."""
    source = _make(tmp_path / "src", index_dir=tmp_path / "elsewhere" / ".qry")
    index = tmp_path / "elsewhere" / ".qry"
    assert not _hit(index, "charge_card")["stale"]
    run = run_qry_process("status", "--json", "--index-dir", str(index), cwd=tmp_path, env=env)
    status = json.loads(run.out)
    assert status["source_root"] == str(source.resolve()), run.describe()
    assert status["changes"] == {"modified": [], "added": [], "deleted": []}, run.describe()
