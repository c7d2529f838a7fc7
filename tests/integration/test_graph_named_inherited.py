"""A variable named after its class reaches the methods the class inherits or mixes in, as it
reaches those the class declares (qualified.named_after): on sidekiq `@capsule.config[..]` in
`Processor.process` (`class Capsule` includes `Sidekiq::Component`, whose `attr_reader :config`
it is) was a guess at five `config` methods, and starlette's `request.url_for(..)` (`class
Request(HTTPConnection)`) a guess too. A class only a function declares (a test's local `class
App(Starlette)`) names no variable elsewhere."""

from __future__ import annotations

import pytest

from indexlib import open_engine, related
from indexlib.api import Engine
from tests.repokit import make_repo

FILES = {
    "lib/component.rb": "module Component\n  attr_reader :config\nend\n",
    "lib/capsule.rb": "class Capsule\n  include Component\nend\n",
    "lib/web.rb": "class Web\n  def config\n    1\n  end\nend\n",
    "lib/processor.rb": (
        "class Processor\n  def initialize(capsule)\n    @capsule = capsule\n  end\n\n"
        "  def process\n    @capsule.config\n  end\nend\n"
    ),
    "app/requests.py": (
        "class HTTPConnection:\n    def url_for(self, name):\n        return name\n\n\n"
        "class Request(HTTPConnection):\n    pass\n\n\n"
        "class Router:\n    def url_for(self, name):\n        return name\n"
    ),
    "app/auth.py": "def wrapper(request):\n    return request.url_for('home')\n",
    "tests/test_app.py": (
        "from app.requests import Router\n\n\ndef test_local():\n"
        "    class Router2(Router):\n        pass\n\n"
        "    class App(Router):\n        pass\n\n    return App\n\n\n"
        "def test_paths(app):\n    assert app.url_for('home')\n"
    ),
}


@pytest.fixture(scope="module")
def engine(tmp_path_factory: pytest.TempPathFactory) -> Engine:
    return open_engine(make_repo(tmp_path_factory.mktemp("named"), FILES) / ".qry")


def _calls(engine: Engine, symbol: str) -> list[tuple[str, bool]]:
    res = related(engine, symbol)
    assert res.node is not None, res
    return sorted((r.symbol, r.ambiguous) for r in res.related if r.edge == "calls" and r.direction == "out")


def test_a_ruby_variable_named_after_its_class_reaches_a_mixed_in_method(engine: Engine) -> None:
    assert _calls(engine, "Processor.process") == [("Component.config", False)]


def test_a_python_variable_named_after_its_class_reaches_an_inherited_method(engine: Engine) -> None:
    assert _calls(engine, "wrapper") == [("HTTPConnection.url_for", False)]


def test_a_class_a_function_declares_names_no_variable_elsewhere(engine: Engine) -> None:
    """`app.url_for(..)` is not `App`'s (a class local to another test) for certain."""
    assert all(ambiguous for _, ambiguous in _calls(engine, "test_paths"))
