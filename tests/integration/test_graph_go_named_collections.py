"""A Go value of a named slice or map type read by index holds the type's element."""

from __future__ import annotations

from pathlib import Path

from indexlib import open_engine, related
from tests.repokit import make_repo

FILES = {
    "go.mod": "module example.com/m\n\ngo 1.21\n",
    "cmd.go": "package m\n\ntype Command struct {\n\tname string\n}\n\n"
    "func (c *Command) Name() string {\n\treturn c.name\n}\n\n"
    'type Flag struct{}\n\nfunc (f *Flag) Name() string {\n\treturn ""\n}\n\n'
    "type commandSorterByName []*Command\n\n"
    "func (c commandSorterByName) Less(i, j int) bool {\n\treturn c[i].Name() < c[j].Name()\n}\n\n"
    "type byKey map[string]*Command\n\n"
    "type Root struct {\n\tsubs commandSorterByName\n}\n\n"
    'func first(m byKey, r *Root) string {\n\treturn m["a"].Name() + r.subs[0].Name()\n}\n',
}


def test_an_element_of_a_named_slice_or_map_type_is_its_element_types(tmp_path: Path) -> None:
    """On cobra `commandSorterByName.Less`'s `c[i].Name()` (`type commandSorterByName []*Command`)
    was a guess at every `Name` method: the element type was read only from a written `[]T` or
    `map[K]V`. A named type's declaration says it too: for a receiver, a parameter, a field."""
    engine = open_engine(make_repo(tmp_path, FILES) / ".qry")
    for at in ("cmd.go:20", "cmd.go:30"):
        callees = {(r.symbol, r.ambiguous) for r in related(engine, at, callers=False).related}
        assert callees == {("Command.Name", False)}, at
