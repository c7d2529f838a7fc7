"""What role code plays by where it lives: test or supporting code (tests, examples, fixtures, test
helpers, vendored code) rather than the code that does the work.

Owns: `is_test_path` (a file, by its path) and `is_test_code` (a node, by its path or its
container), the one definition both the ranking (which demotes such code unless a query asks for it)
and the vector stage (which embeds less of it) use.
"""

from __future__ import annotations

import re
from functools import lru_cache

__all__ = ["is_test_code", "is_test_container", "is_test_path", "is_tests_own"]

# Vendored code by its folder's usual names: `third-party/`, `3rdparty/`, pip's `_vendor/`, and
# `bundled/` (spdlog's copy of fmt, `include/spdlog/fmt/bundled/`, outranked spdlog's own code).
_VENDORED_FOLDERS = r"vendor|_vendor|third[_-]?party|3rdparty|_?bundled|node_modules"
_VENDORED = re.compile(rf"(?:^|/)(?:{_VENDORED_FOLDERS})/", re.IGNORECASE)
# End-to-end suites and playgrounds by their folder's name: `e2e/`, and `playground/`, the apps a
# library's own tests build and drive (vite's 1,800 files, which outranked its plugins for commit
# titles) or a module's development app; a folder merely containing the word (`sfc-playground/`,
# a product) is not one. Each may be written with a leading underscore, which Go's tools skip
# (`_examples/`, whose `func validateStruct()` outranked go-playground/validator's own method).
_TEST_PATH = re.compile(
    r"(?:^|/)_?(?:tests?|testing|spec|specs|__tests__|examples?|samples?|fixtures?|testdata|benchmarks?|bench(?:es)?|"
    rf"{_VENDORED_FOLDERS}|demos?|playgrounds?|e2e)(?:/|$)"
    r"|(?:^|/)(?:tests?\.\w+|test_[^/]*|[^/]*_test\.\w+|[^/]*\.test\.\w+|[^/]*\.spec\.\w+|(?-i:[^/]*Tests?)\.\w+|conftest\.py)$"
    # Test helpers by name, as a folder or a file (`testutil.rs`, Go's `internal/testutil/`).
    r"|(?:^|/)(?:testutils?|testhelpers?|testsupport)(?:/|\.\w+$)"
    # A Gradle test source set (`src/commonTest/`, `src/androidTest/`) or a Swift package's test
    # support target (`Sources/ArgumentParserTestHelpers/`): a folder whose camel-cased name ends so.
    r"|(?:^|/)(?-i:[A-Za-z]\w*[a-z]Test(?:s|Helpers?|Support|Utils?|Fixtures)?)/",
    re.IGNORECASE,
)
# Containers that hold tests inside a source file: Rust's `#[cfg(test)] mod tests` (or `mod test`,
# `mod fmt_tests`, `mod test_parse`). Lower case only: a Python `class Tests` in a source file is
# more often a real type than a suite.
_TEST_CONTAINER = re.compile(r"tests?|\w+_tests?|tests?_\w+")
_QUALIFIER = re.compile(r"::|\.")


def is_test_path(path: str) -> bool:
    """Whether `path` is a test, an example, a fixture, a benchmark or vendored code."""
    return bool(_TEST_PATH.search(path))


@lru_cache(maxsize=1 << 16)  # asked once per candidate of every reference resolved: few paths
def is_tests_own(path: str) -> bool:
    """Whether `path` is a file of the tests (a test, fixture, example or benchmark): `is_test_path`
    without vendored code, which the project's own code does call. The project's own code calls
    no definition of such a file unless an import or a type names it (graph/resolve.py)."""
    return is_test_path(path) and not _VENDORED.search(path)


def is_test_container(name: str) -> bool:
    """Whether a container named `name` holds tests inside a source file (Rust's `mod tests`)."""
    return _TEST_CONTAINER.fullmatch(name) is not None


def is_test_code(path: str, qualified_name: str) -> bool:
    """Whether a node is test or supporting code: its file is (`is_test_path`), or a container in its
    qualified name is a test module, so a Rust unit test beside the code it tests is a test too."""
    if is_test_path(path):
        return True
    containers = _QUALIFIER.split(qualified_name)[:-1]
    return any(is_test_container(c) for c in containers)
