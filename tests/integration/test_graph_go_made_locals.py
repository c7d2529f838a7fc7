"""A Go local made by a call through an interface is typed by what the interface's method
declares it returns (`Field() reflect.Value`): on go-playground/validator `field := fl.Field()`
with `fl FieldLevel`, then `field.Kind()`, linked by the name alone to `FieldError.Kind` and
`fieldError.Kind` (144 such ambiguous edges, all calls of `reflect.Value`'s methods).

A Go `if` or `switch` statement may declare its variable in an init statement (`if r :=
c.Root(); r != nil {`, `switch f := v.Field(); f.Kind() {`): the variable is typed by the call's
result as a line of its own (`r := c.Root()`) is. It was not read, so on go-playground/validator
`switch field := v.Field(); field.Kind()` (a `reflect.Value`) linked, by the name alone, to the
package's own `FieldError.Kind` and `fieldError.Kind`."""

from __future__ import annotations

import pytest

from indexlib import open_engine, related
from indexlib.api import Engine
from tests.repokit import make_repo

SOURCE = """package a

import "reflect"

type Command struct{ parent *Command }

func (c *Command) Root() *Command  { return c }
func (c *Command) Name() string    { return "" }
func (c *Command) Value() reflect.Value { return reflect.Value{} }

type Flag struct{}

func (f *Flag) Name() string      { return "" }
func (f *Flag) Kind() string      { return "" }

type Other struct{}

func (o *Other) Kind() string { return "" }

type Level interface {
	Field() reflect.Value
	Command() *Command
}

func ThroughAnInterface(l Level) string {
	f := l.Field()
	f.Kind()
	c := l.Command()
	return c.Name()
}

func InIf(c *Command) string {
	if r := c.Root(); r != nil {
		return r.Name()
	}
	return ""
}

func InSwitch(c *Command) {
	switch r := c.Root(); r.Name() {
	case "":
	}
}

func OfAnotherPackage(c *Command) {
	switch v := c.Value(); v.Kind() {
	default:
	}
}
"""


@pytest.fixture(scope="module")
def engine(tmp_path_factory: pytest.TempPathFactory) -> Engine:
    return open_engine(make_repo(tmp_path_factory.mktemp("initstmt"), {"a.go": SOURCE}) / ".qry")


def _calls(engine: Engine, symbol: str) -> list[tuple[str, bool]]:
    res = related(engine, symbol)
    assert res.node is not None, res
    return sorted((r.symbol, r.ambiguous) for r in res.related if r.edge == "calls" and r.direction == "out")


def test_an_if_init_statement_types_its_variable(engine: Engine) -> None:
    assert _calls(engine, "a.go:InIf") == [("Command.Name", False), ("Command.Root", False)]


def test_a_switch_init_statement_types_its_variable(engine: Engine) -> None:
    assert _calls(engine, "a.go:InSwitch") == [("Command.Name", False), ("Command.Root", False)]


def test_a_value_of_another_package_links_to_no_own_method(engine: Engine) -> None:
    assert _calls(engine, "a.go:OfAnotherPackage") == [("Command.Value", False)]


def test_a_call_through_an_interface_types_its_result(engine: Engine) -> None:
    assert _calls(engine, "a.go:ThroughAnInterface") == [
        ("Command.Name", False),
        ("Level.Command", False),
        ("Level.Field", False),
    ]
