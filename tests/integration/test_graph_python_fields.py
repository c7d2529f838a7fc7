"""The class of a Python `self.x` a call goes through is what the class declares of `x`
(graph/pyfields.py, graph/locals.py `LocalTypes._own_field`): a class-body annotation, which a
method's parameter of that name does not contradict (psf/requests' `PreparedRequest.headers`), an
annotated attribute, a base class's declaration, or the class's own property's return type."""

from __future__ import annotations

from pathlib import Path

import pytest

from indexlib import open_engine, related
from tests.repokit import make_repo

# Each: a `Wanted` class and an `Other` with a method of the same name, which a guess by name lists.
CLASSES = (
    "class Wanted:\n    def copy(self):\n        return self\n\n\n"
    "class Other:\n    def copy(self):\n        return self\n\n\n"
)
CASES = {
    "a body annotation beside a parameter of its name": "class Req:\n    headers: Wanted\n\n"
    "    def prepare(self, headers: Other | None = None):\n        self.headers = Wanted()\n\n"
    "    def run(self):\n        return self.headers.copy()\n",
    "an annotated attribute": "class Req:\n    def __init__(self, given):\n        self.headers: Wanted = given\n\n"
    "    def run(self):\n        return self.headers.copy()\n",
    "a base class's annotation": "class Base:\n    headers: Wanted | None\n\n\nclass Req(Base):\n"
    "    def run(self):\n        return self.headers.copy()\n",
    "a property with a setter": "class Req:\n    @property\n    def headers(self) -> Wanted:\n"
    "        return Wanted()\n\n    @headers.setter\n    def headers(self, value: Wanted) -> None:\n"
    "        pass\n\n    def run(self):\n        return self.headers.copy()\n",
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_call_through_an_own_field_is_its_declared_classs(tmp_path: Path, case: str) -> None:
    repo = make_repo(tmp_path, {"models.py": CLASSES + CASES[case]})
    edges = related(open_engine(repo / ".qry"), "Req.run", callees=True).related
    got = sorted({(r.symbol, r.ambiguous) for r in edges if r.edge == "calls" and r.direction == "out"})
    assert got == [("Wanted.copy", False)]
