"""`qry index --background` from the shell: it returns after the lexical root, the summary says the
vectors follow, `qry status` shows their progress until the worker publishes them."""

from __future__ import annotations

import json
import shutil
import time
from pathlib import Path

from tests.cli.clikit import run_qry_process
from tests.conftest import FIXTURES


def test_background_index_returns_and_status_follows_the_worker(tmp_path: Path) -> None:
    repo = tmp_path / "polyglot"
    shutil.copytree(FIXTURES / "polyglot", repo)
    run = run_qry_process(
        "index", str(repo), "--embed", "hash", "--background", "--no-git-times", cwd=tmp_path
    )
    assert run.code == 0, run
    assert "vectors follow in the background (pid " in run.err, run.err
    deadline = time.monotonic() + 60
    status: dict[str, object] = {}
    while time.monotonic() < deadline:
        st = run_qry_process("status", "--index-dir", str(repo / ".qry"), "--json", cwd=tmp_path)
        assert st.code == 0, st
        status = json.loads(st.out)
        progress = status["vectors_progress"]
        assert progress is None or str(progress).startswith("vectors in progress: "), progress
        if int(str(status["vectors"])) > 0 and progress is None:
            break
        time.sleep(0.2)
    # every node but the trivial ones (a one-line constant embeds nothing worth a vector)
    nodes, vectors = int(str(status["nodes"])), int(str(status["vectors"]))
    assert nodes > 100 and 0.8 * nodes < vectors <= nodes, status
    search = run_qry_process(
        "search", "retry", "--mode", "semantic", "--index-dir", str(repo / ".qry"), cwd=tmp_path
    )
    assert search.code == 0, search
