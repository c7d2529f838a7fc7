"""Go's implicit interfaces (graph/goifaces.py): a type implements an interface when its methods
include every method the interface declares or embeds, so `qry related` lists implementations both
ways, and a method implements the interface method of its name."""

from __future__ import annotations

from pathlib import Path

import pytest

from indexlib import open_engine, related
from tests.repokit import make_repo

_SHAPES = """package shapes

type Shape interface {
	Area() float64
	Perimeter() float64
}

type Named interface {
	Shape
	Name() string
}

type Empty interface{}

type Square struct{ side float64 }

func (s Square) Area() float64      { return s.side * s.side }
func (s Square) Perimeter() float64 { return 4 * s.side }

type Line struct{}

func (l Line) Area() float64 { return 0 }

type Scaled struct{}

func (s Scaled) Area(by float64) float64 { return by }
func (s Scaled) Perimeter() float64      { return 0 }
"""

# Circle's methods live in another file of the package; Codec declares none of its own.
_CIRCLE = """package shapes

type Circle struct{ r float64 }

func (c *Circle) Area() float64      { return 3 * c.r * c.r }
func (c *Circle) Perimeter() float64 { return 6 * c.r }
"""
_CIRCLE_NAME = """package shapes

func (c *Circle) Name() string { return "circle" }
"""
_CODEC = """package codec

type Encoder interface {
	Encode(v any) ([]byte, error)
}

type Decoder interface {
	Decode(b []byte, v any) error
}

type Codec interface {
	Encoder
	Decoder
}

type JSON struct{}

func (JSON) Encode(v any) ([]byte, error) { return nil, nil }
func (JSON) Decode(b []byte, v any) error { return nil }
"""


# A named function type implements an interface by its method, as `http.HandlerFunc` does.
_HANDLER = """package serve

type Handler interface {
	Serve(name string) error
}

type HandlerFunc func(name string) error

func (f HandlerFunc) Serve(name string) error { return f(name) }
"""


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    files = {
        "shapes/shapes.go": _SHAPES,
        "shapes/circle.go": _CIRCLE,
        "shapes/circle_name.go": _CIRCLE_NAME,
        "codec/codec.go": _CODEC,
        "serve/handler.go": _HANDLER,
    }
    return make_repo(tmp_path_factory.mktemp("goifaces"), files)


def _links(repo: Path, symbol: str, direction: str) -> list[str]:
    res = related(open_engine(repo / ".qry"), symbol)
    return sorted(r.symbol for r in res.related if r.edge == "implements" and r.direction == direction)


def test_an_interface_lists_the_types_whose_methods_cover_it(repo: Path) -> None:
    # Line lacks Perimeter; Scaled's Area takes a parameter Shape's does not.
    assert _links(repo, "Shape", "in") == ["Circle", "Square"]
    # Through the embedded Shape, and Name declared in a third file.
    assert _links(repo, "Named", "in") == ["Circle"]
    assert _links(repo, "Empty", "in") == []  # every type implements it: no list


def test_a_type_lists_the_interfaces_it_implements_embedding_ones_too(repo: Path) -> None:
    assert _links(repo, "Circle", "out") == ["Named", "Shape"]
    assert _links(repo, "Square", "out") == ["Shape"]
    assert _links(repo, "Line", "out") == []
    assert _links(repo, "JSON", "out") == ["Codec", "Decoder", "Encoder"]
    assert _links(repo, "Shape", "out") == []  # an interface embeds others; it implements none


def test_a_method_implements_the_interface_method_of_its_name(repo: Path) -> None:
    assert _links(repo, "Square.Area", "out") == ["Shape.Area"]
    assert _links(repo, "Circle.Area", "out") == ["Shape.Area"]  # its methods are in another file
    assert _links(repo, "Shape.Area", "in") == ["Circle.Area", "Square.Area"]
    assert _links(repo, "Line.Area", "out") == []


def test_a_named_function_type_holds_its_methods_and_implements_by_them(repo: Path) -> None:
    res = related(open_engine(repo / ".qry"), "HandlerFunc")
    assert [(r.edge, r.symbol) for r in res.related if r.edge == "contains"] == [
        ("contains", "HandlerFunc.Serve")
    ]
    assert _links(repo, "Handler", "in") == ["HandlerFunc"]
    assert _links(repo, "HandlerFunc.Serve", "out") == ["Handler.Serve"]
