"""What role a file plays by its path: test or supporting code (tests, examples, fixtures, vendored
code) rather than the code that does the work.

Owns: `is_test_path`, the one definition both the ranking (which demotes such files unless a query
asks for them) and the vector stage (which embeds less of them) use.
"""

from __future__ import annotations

import re

__all__ = ["is_test_path"]

_TEST_PATH = re.compile(
    r"(?:^|/)(?:tests?|testing|spec|specs|__tests__|examples?|samples?|fixtures?|testdata|benchmarks?|"
    r"vendor|third_party|node_modules|demos?)(?:/|$)"
    r"|(?:^|/)(?:test_[^/]*|[^/]*_test\.\w+|[^/]*\.test\.\w+|[^/]*\.spec\.\w+|(?-i:[^/]*Tests?)\.\w+|conftest\.py)$",
    re.IGNORECASE,
)


def is_test_path(path: str) -> bool:
    """Whether `path` is a test, an example, a fixture, a benchmark or vendored code."""
    return bool(_TEST_PATH.search(path))
