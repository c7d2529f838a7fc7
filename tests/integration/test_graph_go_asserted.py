"""A Go local declared by a type assertion has the asserted type: `rctx :=
r.Context().Value(key).(*Context)` then `rctx.RoutePattern()`, and `if subr, ok := h.(*Mux); ok {
subr.NotFound(..) }`. On go-chi/chi `qry related Mux.routeHTTP` marked `Context.RoutePattern`
ambiguous, and `qry related Mux.Mount --callees` its `subr.NotFound(..)` and
`subr.MethodNotAllowed(..)`, each a guess by name between `Mux`'s method and the `Router`
interface's."""

from __future__ import annotations

import pytest

from indexlib import open_engine, related
from indexlib.api import Engine
from tests.repokit import make_repo

SOURCE = """package mux

type Context struct{}

func (x *Context) RoutePattern() string { return "" }

type Other struct{}

func (o *Other) RoutePattern() string { return "" }

type Mux struct{}

func (m *Mux) NotFound(h int) {}

type Table struct{}

func (t Table) NotFound(h int) {}

func route(v interface{}, h interface{}) {
	rctx := v.(*Context)
	rctx.RoutePattern()
	if subr, ok := h.(*Mux); ok {
		subr.NotFound(1)
	}
	t, _ := h.(Table)
	t.NotFound(2)
	switch w := h.(type) {
	case *Other:
		w.RoutePattern()
	}
}
"""


@pytest.fixture(scope="module")
def engine(tmp_path_factory: pytest.TempPathFactory) -> Engine:
    return open_engine(make_repo(tmp_path_factory.mktemp("goassert"), {"mux.go": SOURCE}) / ".qry")


def test_a_local_asserted_to_a_type_calls_its_methods(engine: Engine) -> None:
    """`v.(*Context)`, `h.(*Mux)` in an `if`, `h.(Table)` with `, _`: each local's own type's method,
    certain; a type switch's variable (`w := h.(type)`) is no asserted type."""
    res = related(engine, "route", callers=False)
    assert res.node is not None, res
    found = {(r.symbol, r.ambiguous) for r in res.related if r.edge == "calls"}
    assert ("Context.RoutePattern", False) in found
    assert ("Mux.NotFound", False) in found
    assert ("Table.NotFound", False) in found
    assert ("Other.RoutePattern", False) not in found
