"""`self.m()` resolved as the caller's own object's method, and only as a guess beyond it; a
JavaScript `#private` member as its own class body's, on whichever object it is read."""

from __future__ import annotations

from pathlib import Path

from indexlib import open_engine, related
from tests.repokit import make_repo

ROUTING = (
    "class Router:\n"
    "    def add_route(self, path):\n        return path\n\n"
    "    def route(self, path):\n"
    "        def decorator(func):\n            self.add_route(path)\n            return func\n\n"
    "        return decorator\n\n"
    "    async def app(self, scope):\n        return scope\n\n\n"
    "class Route:\n"
    "    def __init__(self, app):\n        self.app = app\n\n"
    "    async def handle(self, scope):\n        await self.app(scope)\n\n\n"
    "class Hooks:\n"
    "    async def run(self, scope):\n        await self.app(scope)\n"
)


def test_a_self_call_no_own_method_answers_is_a_guess(tmp_path: Path) -> None:
    """`self.app()` in a class that neither declares nor assigns `app` (a mixin's, whose host sets
    it) may be another class's `app`: kept, marked ambiguous. A function nested in a method (a
    decorator's inner function) still reaches its class's own method through the `self` it
    closes over, certain."""
    engine = open_engine(make_repo(tmp_path, {"routing.py": ROUTING}) / ".qry")
    run = [(r.symbol, r.ambiguous) for r in related(engine, "Hooks.run", callers=False).related]
    assert ("Router.app", True) in run
    inner = [
        (r.symbol, r.ambiguous) for r in related(engine, "Router.route.decorator", callers=False).related
    ]
    assert ("Router.add_route", False) in inner


def test_a_self_call_of_an_assigned_attribute_calls_no_method(tmp_path: Path) -> None:
    """starlette's `Route.handle` runs `await self.app(scope)` with `self.app = app` set in
    `__init__`: the call runs the value the attribute holds, yet it was an ambiguous edge to
    `Router.app`, and every middleware's `await self.app(scope, receive, send)` a caller of
    `Router.app` and of the `HTTPConnection.app` property. An attribute the class or a base
    assigns (`self.x = ..`, `this.x = ..`) makes no edge; a subclass inherits the assignment."""
    child = "from routing import Route\n\n\nclass Child(Route):\n    async def go(self, s):\n        await self.app(s)\n"
    script = (
        "class Server {\n  app(s) { return s }\n}\n"
        "class Wrap {\n  constructor(app) { this.app = app }\n  run(s) { return this.app(s) }\n}\n"
    )
    files = {"routing.py": ROUTING, "child.py": child, "wrap.js": script}
    engine = open_engine(make_repo(tmp_path, files) / ".qry")
    for caller in ("Route.handle", "Child.go", "Wrap.run"):
        assert [r.symbol for r in related(engine, caller, callers=False).related if r.edge == "calls"] == []
    callers = {r.symbol for r in related(engine, "Router.app", callees=False).related}
    assert "Route.handle" not in callers and "Hooks.run" in callers


def test_a_javascript_private_member_is_its_own_class_bodys(tmp_path: Path) -> None:
    """`app.#addRoute()` inside class Hono can only be Hono's `#addRoute` (a private name is the
    class body's): one edge, not an ambiguous pair with another class's `#addRoute`."""
    source = (
        "export class Hono {\n  #addRoute(m: string) { return m }\n"
        "  route(path: string, app: Hono) {\n    app.#addRoute(path)\n  }\n}\n"
        'export class Other {\n  #addRoute(x: string) { return x }\n  go() { this.#addRoute("x") }\n}\n'
    )
    engine = open_engine(make_repo(tmp_path, {"app.ts": source}) / ".qry")
    edges = related(engine, "Hono.route", callers=False).related
    assert [(r.symbol, r.ambiguous) for r in edges if r.edge == "calls"] == [("Hono.#addRoute", False)]
