"""Shared fixtures: copies of the fixture repositories and indexes built from them."""

from __future__ import annotations

import os
import shutil
import signal
import tempfile
from collections.abc import Callable
from pathlib import Path

import pytest

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"

# The user-level caches (the shared vector cache, model checksums) of a test run live in a folder of
# its own, inherited by the CLI subprocesses: tests neither read nor fill the developer's ~/.cache.
os.environ["XDG_CACHE_HOME"] = tempfile.mkdtemp(prefix="qry-test-cache-")

# The Ctrl-C tests send SIGINT to qry as a terminal would to a foreground job. A shell that starts the
# suite as a background job (`cmd &` without job control) leaves SIGINT ignored, every child inherits
# that across exec, and qry then rightly keeps running (a background job is not the terminal's to
# stop). A Python handler here is reset to the default on exec, so every CLI subprocess starts as a
# foreground one does, however the suite was started.
signal.signal(signal.SIGINT, signal.default_int_handler)


@pytest.fixture(scope="session")
def fixture_copy(tmp_path_factory: pytest.TempPathFactory) -> Callable[[str], Path]:
    """Copy a fixture repository into a fresh temporary folder (tests may change the copy)."""

    def make(name: str) -> Path:
        dest = tmp_path_factory.mktemp(name) / name
        shutil.copytree(FIXTURES / name, dest)
        return dest

    return make


@pytest.fixture(scope="session")
def polyglot_lexical(fixture_copy: Callable[[str], Path]) -> Path:
    """fixtures/polyglot indexed without vectors; returns the repository folder (index in .qry)."""
    from indexlib import BuildOptions, build_index

    repo = fixture_copy("polyglot")
    build_index(repo, BuildOptions(embed="none"))
    return repo


@pytest.fixture(scope="session")
def polyglot_onnx(fixture_copy: Callable[[str], Path]) -> Path:
    """fixtures/polyglot indexed with the real bundled ONNX model."""
    from indexlib import BuildOptions, build_index

    repo = fixture_copy("polyglot")
    build_index(repo, BuildOptions(embed="onnx"))
    return repo
