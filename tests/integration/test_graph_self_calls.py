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
    "    async def handle(self, scope):\n        await self.app(scope)\n"
)


def test_a_self_call_no_own_method_answers_is_a_guess(tmp_path: Path) -> None:
    """starlette's `Route.handle` runs `await self.app(scope)`, `app` an attribute set in
    `__init__`: it was linked to `Router.app`, another class's method in the file, as certain.
    It stays, marked ambiguous; a function nested in a method (a decorator's inner function)
    still reaches its class's own method through the `self` it closes over, certain."""
    engine = open_engine(make_repo(tmp_path, {"routing.py": ROUTING}) / ".qry")
    handle = [(r.symbol, r.ambiguous) for r in related(engine, "Route.handle", callers=False).related]
    assert ("Router.app", True) in handle
    inner = [
        (r.symbol, r.ambiguous) for r in related(engine, "Router.route.decorator", callers=False).related
    ]
    assert ("Router.add_route", False) in inner


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
