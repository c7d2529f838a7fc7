"""A Python call through a module-level variable whose declaration names its class (graph/modulevars.py):
`current_app.url_for()` after `from .globals import current_app`, with `current_app: AppProxy = ..` in
`globals.py`, is the class's method (inherited too), as is `application.render()` after `application =
App()` in the function's own module."""

from __future__ import annotations

from pathlib import Path

from indexlib import open_engine, related
from indexlib.graph.modulevars import shadows
from indexlib.records import Node
from tests.repokit import make_repo

_APP = (
    "class App:\n    def url_for(self, endpoint):\n        return endpoint\n\n"
    "    def render(self, name):\n        return name\n"
)
_FILES = {
    "src/web/app.py": _APP,
    "src/web/mailer.py": "class Mailer:\n    def render(self, name):\n        return name\n",
    "src/web/globals.py": (
        "from .app import App\n\n\nclass AppProxy(App):\n    pass\n\n\n"
        "current_app: AppProxy = make_proxy('app')\n"
    ),
    "src/web/__init__.py": "from .globals import current_app as current_app\n",
    "src/web/helpers.py": (
        "from .globals import current_app\n\n\ndef url_for(endpoint):\n    return current_app.url_for(endpoint)\n"
    ),
    "examples/site.py": (
        "from web import current_app\nfrom web.app import App\n\napplication = App()\n\n\n"
        "def index():\n    return application.render('index')\n\n\ndef link():\n    return current_app.url_for('index')\n\n\n"
        "def render_with(application, name):\n    return application.render(name)\n"
    ),
}


def _calls(repo: Path, symbol: str, *, callers: bool = False) -> list[tuple[str, str, bool]]:
    res = related(open_engine(repo / ".qry"), symbol, callers=callers, callees=not callers)
    return sorted((r.symbol, r.path, r.ambiguous) for r in res.related if r.edge == "calls")


def test_a_call_through_an_imported_or_own_module_variable_is_its_classs_method(tmp_path: Path) -> None:
    repo = make_repo(tmp_path, _FILES)
    # Imported from the module declaring it: no edge before (`globals.py` defines no `url_for`).
    assert _calls(repo, "src/web/helpers.py:url_for") == [("App.url_for", "src/web/app.py", False)]
    # Through the package passing it on, and an instance of the function's own module.
    assert _calls(repo, "link") == [("App.url_for", "src/web/app.py", False)]
    assert _calls(repo, "index") == [("App.render", "src/web/app.py", False)]
    # A parameter of the same name is another object: its call is a name's guess, as before.
    guessed = _calls(repo, "render_with")
    assert {s for s, _p, _a in guessed} == {"App.render", "Mailer.render"}
    assert all(ambiguous for _s, _p, ambiguous in guessed)


def test_a_function_binding_the_name_itself_shadows_the_module_variable() -> None:
    def fn(signature: str, text: str) -> Node:
        return Node(
            uid=1, path="a.py", language="python", kind="function", name="f", qualified_name="f",
            signature=signature, start_line=1, end_line=3, start_byte=0, end_byte=len(text), text=text,
            content_hash="",
        )  # fmt: skip

    assert shadows(fn("def f(x, app):", "def f(x, app):\n    app.run()\n"), "app")
    assert shadows(fn("def f():", "def f():\n    app = make()\n    app.run()\n"), "app")
    assert shadows(fn("def f():", "def f():\n    with open_app() as app:\n        app.run()\n"), "app")
    assert not shadows(fn("def f(apps):", "def f(apps):\n    app.run(apps)\n"), "app")
    assert not shadows(fn("def f():", "def f():\n    global app\n    app = App()\n    app.run()\n"), "app")
    assert not shadows(fn("def f():", "def f():\n    if app == other:\n        app.run()\n"), "app")
