"""A method implements (or overrides) the same-named method of a base it reaches through classes
that do not declare it: `class Stream extends Base`, `abstract class Base implements Handler`
with no `handle` of its own, makes `Stream::handle` an implementation of `Handler::handle`."""

from __future__ import annotations

import pytest

from indexlib import open_engine, related
from indexlib.api import Engine
from tests.repokit import make_repo

FILES = {
    "src/Handler.php": "<?php\nnamespace App;\ninterface Handler\n{\n    public function handle(): bool;\n}\n",
    "src/Base.php": (
        "<?php\nnamespace App;\nabstract class Base implements Handler\n{\n"
        "    public function close(): void\n    {\n    }\n}\n"
    ),
    "src/Processing.php": "<?php\nnamespace App;\nabstract class Processing extends Base\n{\n}\n",
    "src/Stream.php": (
        "<?php\nnamespace App;\nclass Stream extends Processing\n{\n"
        "    public function handle(): bool\n    {\n        return true;\n    }\n\n"
        "    public function close(): void\n    {\n    }\n}\n"
    ),
    "src/Rotating.php": (
        "<?php\nnamespace App;\nclass Rotating extends Stream\n{\n"
        "    public function handle(): bool\n    {\n        return false;\n    }\n}\n"
    ),
}


@pytest.fixture(scope="module")
def engine(tmp_path_factory: pytest.TempPathFactory) -> Engine:
    return open_engine(make_repo(tmp_path_factory.mktemp("links"), FILES) / ".qry")


def _links(engine: Engine, symbol: str, edge: str, direction: str) -> set[str]:
    res = related(engine, symbol)
    assert res.node is not None, res
    return {r.symbol for r in res.related if r.edge == edge and r.direction == direction}


def test_an_interface_method_is_implemented_through_classes_not_declaring_it(engine: Engine) -> None:
    """`Handler::handle` <- `Stream::handle` (through Processing and Base); Rotating's `handle`
    overrides Stream's, so it implements Handler's through it, not directly."""
    assert _links(engine, "App.Handler.handle", "implements", "in") == {"App.Stream.handle"}
    assert _links(engine, "App.Stream.handle", "implements", "out") == {"App.Handler.handle"}
    assert _links(engine, "App.Rotating.handle", "inherits", "out") == {"App.Stream.handle"}


def test_an_override_reaches_the_nearest_declaring_ancestor(engine: Engine) -> None:
    """`Stream::close` overrides `Base::close` through Processing, which declares none."""
    assert _links(engine, "App.Stream.close", "inherits", "out") == {"App.Base.close"}
    assert _links(engine, "App.Base.close", "inherits", "in") == {"App.Stream.close"}
