"""Fixtures of the CLI tests: the indexed polyglot copy and a memoised `qry` runner over it.

Helpers (the subprocess runner, normalisation, goldens) live in tests/cli/clikit.py.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path

import pytest

from tests.cli.clikit import Normaliser, Run, RunQry, check_golden, run_qry_process


@pytest.fixture(scope="session")
def repo(polyglot_lexical: Path) -> Path:
    """The indexed polyglot copy (read-only for CLI tests: other suites share it)."""
    return polyglot_lexical


@pytest.fixture(scope="session")
def qry(repo: Path) -> RunQry:
    """`qry(*args, cwd=repo, env=None) -> Run`: the CLI as a subprocess, by default inside the repo.

    Runs are remembered for the session: the shared index is read-only and every command on it is
    deterministic, so the goldens and the exit-code tests can check the same run without paying a
    second process start (~0.3 s each on this machine).
    """
    memo: dict[tuple[object, ...], Run] = {}

    def run(*args: str, cwd: Path | None = None, env: Mapping[str, str] | None = None) -> Run:
        key = (args, str(cwd or repo), tuple(sorted((env or {}).items())))
        if key not in memo:
            memo[key] = run_qry_process(*args, cwd=cwd or repo, env=env)
        return memo[key]

    return run


@pytest.fixture(scope="session")
def root_id(repo: Path) -> str:
    return (repo / ".qry" / "HEAD").read_text().strip()


@pytest.fixture(scope="session")
def norm(repo: Path, root_id: str) -> Normaliser:
    return Normaliser(repo, root_id)


@pytest.fixture(scope="session")
def golden() -> Callable[[str, str], None]:
    """`golden(name, text)`: assert `text` equals tests/cli/golden/NAME (QRY_UPDATE_GOLDENS=1 rewrites)."""
    return check_golden
