"""`self.m()` resolved as the caller's own object's method, and only as a guess beyond it."""

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
    inner = [(r.symbol, r.ambiguous) for r in related(engine, "Router.route.decorator", callers=False).related]
    assert ("Router.add_route", False) in inner
