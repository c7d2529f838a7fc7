"""A method called on an indexed receiver (`self.items[k].shutdown()`, `bags[0].Shutdown()`) is the
element's: its class as the collection's declaration writes it (`list[Item]`, `[]*Item`, `Item[]`,
`Vec<Item>`, `[Item]`), else a guess by the method's name, never the collection's own method. Read
as `self.items.shutdown`, the call linked to a method of whatever class `self.items` was declared
with, and a Go method of a slice type calling `errs[i].Error()` linked to itself, for certain."""

from __future__ import annotations

import pytest

from indexlib import open_engine, related
from indexlib.api import Engine
from indexlib.index.parsing import parse_file
from tests.repokit import make_repo

FILES = {
    "bag.py": (
        "class Item:\n    def shutdown(self) -> None:\n        pass\n\n\n"
        "class Bag:\n    def __init__(self) -> None:\n        self.items: list[Item] = []\n\n"
        "    def __getitem__(self, k: int) -> Item:\n        return self.items[k]\n\n"
        "    def shutdown(self) -> None:\n        for k in range(3):\n            self.items[k].shutdown()\n\n\n"
        "def first(bag: Bag) -> None:\n    bag[0].shutdown()\n"
    ),
    "bag.go": (
        "package bag\n\ntype Item struct{}\n\nfunc (i *Item) Shutdown() {}\n\n"
        "type Bag struct {\n\titems []*Item\n}\n\n"
        "func (b *Bag) Shutdown() {\n\tfor i := range b.items {\n\t\tb.items[i].Shutdown()\n\t}\n}\n\n"
        "func ShutdownAll(bags []*Bag, byName map[string]*Item) {\n\tbags[0].Shutdown()\n"
        '\tbyName["a"].Shutdown()\n}\n\n'
        "type Errs []error\n\nfunc (errs Errs) Error() string {\n\treturn errs[0].Error()\n}\n"
    ),
    "bag.ts": (
        "class Item {\n  shutdown(): void {}\n}\n\n"
        "class Bag {\n  items: Item[] = [];\n  shutdown(): void {\n"
        "    for (let i = 0; i < this.items.length; i++) {\n      this.items[i].shutdown();\n    }\n  }\n}\n"
    ),
    "bag.rs": (
        "struct Item;\nimpl Item {\n    fn shutdown(&self) {}\n}\n"
        "struct Bag {\n    items: Vec<Item>,\n}\n"
        "impl Bag {\n    fn shutdown(&self) {\n        self.items[0].shutdown();\n    }\n}\n"
    ),
    "Bag.swift": (
        "class Item {\n    func shutdown() {}\n}\n"
        "class Bag {\n    var items: [Item] = []\n"
        "    func shutdown() {\n        self.items[0].shutdown()\n    }\n}\n"
    ),
}


@pytest.fixture(scope="module")
def engine(tmp_path_factory: pytest.TempPathFactory) -> Engine:
    return open_engine(make_repo(tmp_path_factory.mktemp("indexed"), FILES) / ".qry")


def _calls(engine: Engine, symbol: str) -> list[tuple[str, str, bool]]:
    res = related(engine, symbol)
    assert res.node is not None, res
    return sorted(
        (r.path, r.symbol, r.ambiguous) for r in res.related if r.edge == "calls" and r.direction == "out"
    )


@pytest.mark.parametrize("path", ["bag.py", "bag.ts", "bag.rs", "Bag.swift"])
def test_an_element_of_a_declared_collection_field_is_its_element_class(engine: Engine, path: str) -> None:
    """`self.items[k].shutdown()` with `items: list[Item]` (`Item[]`, `Vec<Item>`, `[Item]`) calls
    `Item.shutdown`, for certain."""
    assert _calls(engine, f"{path}:Bag.shutdown") == [(path, "Item.shutdown", False)]


def test_a_go_element_is_typed_by_the_slice_or_map_it_is_read_from(engine: Engine) -> None:
    """`b.items[i]` of `items []*Item`, `bags[0]` of `[]*Bag`, `byName["a"]` of `map[string]*Item`."""
    assert _calls(engine, "bag.go:Bag.Shutdown") == [("bag.go", "Item.Shutdown", False)]
    assert _calls(engine, "bag.go:ShutdownAll") == [
        ("bag.go", "Bag.Shutdown", False),
        ("bag.go", "Item.Shutdown", False),
    ]


def test_an_element_of_a_go_receiver_is_not_the_receiver(engine: Engine) -> None:
    """`errs[0].Error()` in `Errs.Error` calls the element's `Error` (an `error`'s), not itself."""
    assert _calls(engine, "bag.go:Errs.Error") == []


def test_an_element_of_a_collection_class_is_no_call_of_its_method_for_sure(engine: Engine) -> None:
    """`bag[0].shutdown()` on a `Bag` reads an element: not `Bag.shutdown` for certain."""
    assert ("bag.py", "Bag.shutdown", False) not in _calls(engine, "bag.py:first")


def test_an_indexed_receiver_is_marked_in_the_reference() -> None:
    """The reference keeps the mark, and a Swift subscript (a call to its grammar) is no call of the
    collection."""
    parsed = parse_file("a.go", b"package a\n\nfunc f() {\n\tn.children[i].find(1)\n}\n", "go")
    assert [r.target for r in parsed.refs] == ["n.children[].find"]
    swift = parse_file("A.swift", b"func f() {\n    self.items[i].close()\n    let x = ys[0]\n}\n", "swift")
    assert [r.target for r in swift.refs] == ["self.items[].close"]
