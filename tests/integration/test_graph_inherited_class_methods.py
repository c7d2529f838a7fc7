"""A call on a class reaches the class method it inherits (graph/heirs.py): on thor,
`Thor::Options.split(given_args)` (`class Options < Arguments`, `def self.split` in `Arguments`)
linked to nothing, so `qry related Thor::Arguments.split --callers` missed `Thor.dispatch` and
`Thor::Group.dispatch`; Python's `Child.from_config()` and TypeScript's `Child.create()` alike."""

from __future__ import annotations

from pathlib import Path

from indexlib import open_engine, related
from tests.repokit import make_repo

RUBY = {
    "lib/thor/arguments.rb": "class Thor\n  class Arguments\n    def self.split(args)\n      args\n    end\n  end\nend\n",
    "lib/thor/options.rb": (
        "class Thor\n  class Options < Arguments\n    def self.parse(args)\n      args\n    end\n  end\nend\n"
    ),
    "lib/thor/runner.rb": (
        "class Thor\n  class Runner\n"
        "    def dispatch(given)\n      Thor::Options.split(given)\n    end\n\n"
        "    def nested(given)\n      Options.split(given)\n    end\n\n"
        "    def own(given)\n      Options.parse(given)\n    end\n\n"
        "    def library(path)\n      File.split(path)\n    end\n"
        "  end\nend\n"
    ),
}
PYTHON = {
    "app/base.py": "class Base:\n    @classmethod\n    def from_config(cls, config):\n        return cls()\n",
    "app/child.py": "from app.base import Base\n\n\nclass Child(Base):\n    pass\n\n\nclass Session(Base):\n    pass\n",
    "app/local.py": (
        "from app.base import Base\n\n\nclass Local(Base):\n    pass\n\n\n"
        "def load(config):\n    return Local.from_config(config)\n"
    ),
    "app/use.py": (
        "from app.child import Child\nfrom requests import Session\n\n\n"
        "def build(config):\n    return Child.from_config(config)\n\n\n"
        "def elsewhere(config):\n    return Session.from_config(config)\n"
    ),
}
TYPESCRIPT = {
    "src/base.ts": "export class Base {\n    static create(): Base { return new Base(); }\n}\n",
    "src/child.ts": "import {Base} from './base.js';\nexport class Child extends Base {}\n",
    "src/use.ts": "import {Child} from './child.js';\nexport function make() { return Child.create(); }\n",
}


def _callees(repo: Path, name: str) -> list[tuple[str, bool]]:
    rows = related(open_engine(repo / ".qry"), name, callers=False).related
    return [(r.symbol, r.ambiguous) for r in rows if r.edge == "calls"]


def test_a_ruby_constants_class_method_is_its_bases(tmp_path: Path) -> None:
    repo = make_repo(tmp_path, RUBY)
    assert _callees(repo, "Thor.Runner.dispatch") == [("Thor.Arguments.split", False)]
    assert _callees(repo, "Thor.Runner.nested") == [("Thor.Arguments.split", False)]
    assert _callees(repo, "Thor.Runner.own") == [("Thor.Options.parse", False)]
    assert _callees(repo, "Thor.Runner.library") == []  # Ruby's File, not an indexed class


def test_an_imported_python_class_reaches_its_bases_classmethod(tmp_path: Path) -> None:
    repo = make_repo(tmp_path, PYTHON)
    assert _callees(repo, "build") == [("Base.from_config", False)]
    assert _callees(repo, "load") == [("Base.from_config", False)]  # a class of its own module
    # `requests.Session` is not the index's `Session`, though both are named so
    assert _callees(repo, "elsewhere") == []


def test_an_imported_typescript_class_reaches_its_bases_static_method(tmp_path: Path) -> None:
    repo = make_repo(tmp_path, TYPESCRIPT)
    assert _callees(repo, "make") == [("Base.create", False)]
