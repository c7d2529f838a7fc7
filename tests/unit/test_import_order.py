"""onnxruntime and usearch must be importable together, whatever order the process touches them in.

Why: usearch 2.26.2-2.26.6 imported before onnxruntime 1.32 kills the process with SIGSEGV inside
onnxruntime's module init (TECH.md). `indexlib.engines.vectors` therefore imports onnxruntime before usearch.
Each case runs in a fresh interpreter because the crash is a segfault, not an exception.
"""

from __future__ import annotations

import signal
import subprocess
import sys
from importlib.metadata import version

import pytest


def _run(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)


def _known_bad_pair() -> bool:
    """The versions on which a bare `import usearch.index; import onnxruntime` is known to crash."""
    us = tuple(int(p) for p in version("usearch").split(".")[:3])
    ort = tuple(int(p) for p in version("onnxruntime").split(".")[:2])
    return (2, 26, 2) <= us <= (2, 26, 6) and ort == (1, 32)


def test_onnxruntime_then_usearch() -> None:
    proc = _run("import onnxruntime; import usearch.index; print('ok')")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "ok"


@pytest.mark.parametrize(
    "code",
    [
        # indexlib.engines.vectors first, loading usearch through it, then onnxruntime as embed.py would.
        "import indexlib.engines.vectors as v; v._usearch(); import onnxruntime; print('ok')",
        # The real sequence of a search process: vectors opened and searched, then the query embedder.
        "import tempfile, pathlib, numpy as np\n"
        "from indexlib.engines.vectors import write_vectors, VectorSegment\n"
        "d = pathlib.Path(tempfile.mkdtemp())\n"
        "write_vectors(d, list(range(1, 41)), np.eye(40, 8, dtype=np.float32) + 0.1, hnsw_threshold=10)\n"
        "VectorSegment.open(d).search(np.ones(8, dtype=np.float32), 3)\n"
        "import indexlib.engines.embed as e; e._load_session(e.resolve_model(), threads=1, for_query=True)\n"
        "print('ok')",
        # embed.py first, then vectors.
        "import indexlib.engines.embed as e; e._load_session(e.resolve_model(), threads=1, for_query=True)\n"
        "import indexlib.engines.vectors as v; v._usearch(); print('ok')",
    ],
    ids=["vectors-then-onnxruntime", "search-then-embed", "embed-then-vectors"],
)
def test_through_indexlib_any_order_is_safe(code: str) -> None:
    proc = _run(code)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "ok"


def test_importing_indexlib_vectors_loads_no_engine() -> None:
    proc = _run(
        "import sys, indexlib.engines.vectors, indexlib.engines.embed, indexlib.index.embedcache\n"
        "print(sorted(m for m in ('numpy', 'onnxruntime', 'usearch', 'tokenizers') if m in sys.modules))"
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "[]"


def test_bare_usearch_then_onnxruntime_matches_the_known_pitfall() -> None:
    """Documents the pitfall itself: on the known-bad versions the bare order dies with SIGSEGV.

    If this starts failing on a known-bad pair the crash is gone (fine: the ordering in vectors.py
    becomes unnecessary but stays harmless); on other versions the bare order must just work.
    """
    proc = _run("import usearch.index; import onnxruntime; print('ok')")
    if _known_bad_pair():
        assert proc.returncode == -signal.SIGSEGV, (proc.returncode, proc.stdout, proc.stderr)
    else:
        assert proc.returncode == 0, proc.stderr
