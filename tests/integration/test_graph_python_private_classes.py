"""A Python class private to its module (`_ClassBuilder`, `__Cache`) is read as a class wherever a
public one is (graph/pyfields.py `PY_CLASS`, used by graph/locals.py, declared.py and pymade.py): a
local it constructs, a parameter or a `with` it annotates, an own field it constructs. On
python-attrs/attrs every call of `attrs.wrap`'s `builder = _ClassBuilder(..)` (`builder.add_repr()`,
`builder.build_class()`) was an ambiguous guess by name, since only capitalised names were classes."""

from __future__ import annotations

from pathlib import Path

import pytest

from indexlib import open_engine, related
from tests.repokit import make_repo

# Each: a private `_Wanted` class and an `Other` with a method of the same name, which a guess by
# name lists beside it.
CLASSES = (
    "class _Wanted:\n    def __init__(self, a=None):\n        self.a = a\n\n"
    "    def __enter__(self):\n        return self\n\n    def __exit__(self, *exc):\n        return None\n\n"
    "    def build(self):\n        return 1\n\n\n"
    "class Other:\n    def build(self):\n        return 2\n\n\n"
)
CASES = {
    "a local it constructs, in a nested function": "def outer(flag=True):\n    def run(cls):\n"
    "        builder = _Wanted(\n            cls,\n        )\n        return builder.build()\n\n    return run\n",
    "a local of a double-underscore class": "class __Cache(_Wanted):\n    pass\n\n\n"
    "def run():\n    builder = __Cache()\n    return builder.build()\n",
    "an annotated parameter": "def run(builder: _Wanted):\n    return builder.build()\n",
    "a with statement": "def run():\n    with _Wanted() as builder:\n        return builder.build()\n",
    "an own field it constructs": "class Req:\n    def __init__(self):\n        self.builder = _Wanted()\n\n"
    "    def run(self):\n        return self.builder.build()\n",
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_call_on_a_private_classs_value_is_that_classs(tmp_path: Path, case: str) -> None:
    repo = make_repo(tmp_path, {"models.py": CLASSES + CASES[case]})
    name = {
        "a local it constructs, in a nested function": "outer.run",
        "an own field it constructs": "Req.run",
    }
    edges = related(open_engine(repo / ".qry"), name.get(case, "run"), callees=True).related
    got = sorted({(r.symbol, r.ambiguous) for r in edges if r.edge == "calls" and r.direction == "out"})
    assert ("_Wanted.build", False) in got
    assert not [s for s, _ in got if s == "Other.build"]
