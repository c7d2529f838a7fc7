"""A Go local keeps the type its declaration gives it whatever it is later assigned: `p :=
c.Parent()` then `p = p.Parent()` is a `*Command` still, and so is `p` of `for p := c; p != nil; p =
p.Parent()`, a copy of the parameter `c`. The re-assignment's type was read as a second declaration
(unknown while `p`'s own type is read), so `p` was left untyped and `p.Name()` a guess at every
`Name`."""

from __future__ import annotations

import pytest

from indexlib import open_engine, related
from indexlib.api import Engine
from tests.repokit import make_repo

SOURCE = """package a

type Command struct{ parent *Command }

func (c *Command) Parent() *Command { return c.parent }
func (c *Command) Root() *Command   { return c }
func (c *Command) Name() string     { return "" }

type Flag struct{}

func (f *Flag) Name() string { return "" }

func Walk(c *Command) {
	for p := c; p != nil; p = p.Parent() {
		p.Name()
	}
}

func Up(c *Command) string {
	p := c.Root()
	for p.Parent() != nil {
		p = p.Parent()
	}
	return p.Name()
}
"""


@pytest.fixture(scope="module")
def engine(tmp_path_factory: pytest.TempPathFactory) -> Engine:
    return open_engine(make_repo(tmp_path_factory.mktemp("reassigned"), {"a.go": SOURCE}) / ".qry")


def _calls(engine: Engine, symbol: str) -> list[tuple[str, bool]]:
    res = related(engine, symbol)
    assert res.node is not None, res
    return sorted((r.symbol, r.ambiguous) for r in res.related if r.edge == "calls" and r.direction == "out")


def test_a_local_reassigned_from_a_method_keeps_its_declared_type(engine: Engine) -> None:
    assert _calls(engine, "a.go:Up") == [
        ("Command.Name", False),
        ("Command.Parent", False),
        ("Command.Root", False),
    ]


def test_a_loop_variable_copied_from_a_parameter_has_its_type(engine: Engine) -> None:
    assert _calls(engine, "a.go:Walk") == [("Command.Name", False), ("Command.Parent", False)]
