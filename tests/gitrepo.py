"""Scripted git repositories for tests: run git with a fixed identity and chosen commit dates."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path


def git(repo: Path, *args: str, when: int | None = None, author: int | None = None) -> str:
    """Run `git -C repo ARGS` as a fixed test identity, isolated from the user's and system config.

    `when` sets the committer date (unix seconds), `author` the author date (default: `when`), so a
    test can tell which of the two a reader uses. Returns stdout as is.
    """
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": "t",
        "GIT_AUTHOR_EMAIL": "t@example.com",
        "GIT_COMMITTER_NAME": "t",
        "GIT_COMMITTER_EMAIL": "t@example.com",
        "GIT_CONFIG_NOSYSTEM": "1",
        "HOME": str(repo.parent),
    }
    if when is not None:
        env["GIT_COMMITTER_DATE"] = f"@{when} +0000"
        env["GIT_AUTHOR_DATE"] = f"@{author if author is not None else when} +0000"
    out = subprocess.run(["git", "-C", str(repo), *args], env=env, capture_output=True, text=True, check=True)
    return out.stdout
