"""A call on a variable whose class is guessed from its name may dispatch to any subclass's override:
those overrides are candidates too, the set marked ambiguous. A declared type's call stays exact."""

from __future__ import annotations

from pathlib import Path

from indexlib import open_engine, related
from tests.repokit import make_repo

ROUTING = (
    "class BaseRoute:\n    def url_path_for(self, name):\n        raise NotImplementedError\n\n\n"
    "class Route(BaseRoute):\n    def url_path_for(self, name):\n        return name\n\n\n"
    "class Mount(BaseRoute):\n    def url_path_for(self, name):\n        return name\n\n\n"
    "class Host(Mount):\n    def url_path_for(self, name):\n        return name\n\n\n"
    "class Other:\n    def url_path_for(self, name):\n        return name\n\n\n"
    "class Router:\n"
    "    def __init__(self, routes):\n        self.routes = routes\n\n"
    "    def url_path_for(self, name):\n"
    "        for route in self.routes:\n            return route.url_path_for(name)\n\n"
    "    def first(self, base: Mount):\n        return base.url_path_for('x')\n"
)

SHAPES = (
    "package s;\n\n"
    "abstract class Shape { abstract double area(); }\n"
    "class Circle extends Shape { double area() { return 3.0; } }\n"
    "class Square extends Shape { double area() { return 1.0; } }\n"
    "class Field { double area() { return 0.0; } }\n"
    "class Sum { double total(Shape shape) { return shape.area(); } }\n"
)


def _callees(engine: object, name: str) -> dict[str, bool]:
    return {r.symbol: r.ambiguous for r in related(engine, name, callers=False).related if r.edge == "calls"}


def test_a_variable_named_after_a_class_reaches_its_subclasses_overrides(tmp_path: Path) -> None:
    """starlette's `route.url_path_for(..)` over `self.routes` (BaseRoute values) reached the
    classes named like `route` (BaseRoute, Route) but not `Mount` and `Host`, which derive from
    BaseRoute and override it; a class outside the hierarchy stays out."""
    engine = open_engine(make_repo(tmp_path, {"routing.py": ROUTING}) / ".qry")
    got = _callees(engine, "Router.url_path_for")
    assert set(got) == {
        "BaseRoute.url_path_for",
        "Route.url_path_for",
        "Mount.url_path_for",
        "Host.url_path_for",
    }
    assert all(got.values())


def test_a_declared_class_call_stays_an_exact_edge_to_its_method(tmp_path: Path) -> None:
    """`base: Mount` (Python) and `Shape shape` (Java): the declared class's method, exactly; its
    overrides below (Host, Circle, Square) are not added, which would make every call on a typed
    value of a class with subclasses a guess."""
    files = {"routing.py": ROUTING, "s/Shapes.java": SHAPES}
    engine = open_engine(make_repo(tmp_path, files) / ".qry")
    assert _callees(engine, "Router.first") == {"Mount.url_path_for": False}
    assert _callees(engine, "Sum.total") == {"Shape.area": False}
