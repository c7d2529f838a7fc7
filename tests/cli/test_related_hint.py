"""`qry related` on an ambiguous name: the spelling its hint suggests names one definition."""

from __future__ import annotations

import re
from pathlib import Path

from tests.cli.clikit import run_qry_process
from tests.repokit import make_repo

FILES = {
    # `def call` and `def self.call` in one class: `base.rb:App.Base.call` names both.
    "lib/app/base.rb": (
        "module App\n  class Base\n    def call(env)\n      env\n    end\n\n"
        "    def self.call(env)\n      new.call(env)\n    end\n  end\nend\n"
    ),
    "lib/guard/base.rb": "module Guard\n  class Base\n    def call(env)\n      env\n    end\n  end\nend\n",
    "lib/a.rb": "def helper\n  1\nend\n",
    "lib/b.rb": "def helper\n  2\nend\n",
}


def test_the_hint_of_an_ambiguous_name_names_one_definition(tmp_path: Path) -> None:
    repo = make_repo(tmp_path, FILES)
    for name in ("Base.call", "lib/app/base.rb:App.Base.call"):
        ambiguous = run_qry_process("related", name, cwd=repo)
        assert ambiguous.code == 2, ambiguous.describe()
        hint = re.search(r"such as (\S+)\)", ambiguous.err)
        assert hint is not None, ambiguous.err
        assert hint.group(1) == "lib/app/base.rb:3", ambiguous.err  # the first candidate, by its line
        picked = run_qry_process("related", hint.group(1), cwd=repo)
        assert picked.code == 0, picked.describe()
        assert picked.err.startswith("App.Base.call (method) lib/app/base.rb:3-5"), picked.err
    # Candidates of one name in different files keep the `path:name` example, which names one.
    other = run_qry_process("related", "helper", cwd=repo)
    assert other.code == 2 and "such as lib/a.rb:helper)" in other.err, other.describe()
    # It names one definition, which nothing calls: found, with nothing related (exit 1, as grep).
    one = run_qry_process("related", "lib/a.rb:helper", cwd=repo)
    assert one.code == 1 and one.err.startswith("helper (function) lib/a.rb:1-3\n"), one.describe()


def test_a_path_the_index_holds_names_that_file_not_every_file_it_ends(tmp_path: Path) -> None:
    """`finder.go:Finder` is the top folder's `finder.go`, though `internal/features/finder.go`
    ends with that path and defines a `Finder` too (viper: "names 2 definitions", exit 2); a path
    no file is still any file it ends (`base.rb:...` above)."""
    files = {
        "finder.go": "package viper\n\ntype Finder interface {\n\tFind() error\n}\n",
        "internal/features/finder.go": "package features\n\nconst Finder = true\n",
    }
    repo = make_repo(tmp_path, files)
    picked = run_qry_process("related", "finder.go:Finder", cwd=repo)
    assert picked.code == 0, picked.describe()
    assert picked.err.startswith("Finder (interface) finder.go:3-5"), picked.err
    suffix = run_qry_process("related", "features/finder.go:Finder", cwd=repo)
    assert suffix.err.startswith("Finder (constant) internal/features/finder.go:3"), suffix.describe()


def test_a_line_past_the_file_names_nothing(tmp_path: Path) -> None:
    """`qry related httpx/_client.py:9999` (a 2,019-line file) answered for the file's module node;
    line 0 too. A line past the file's code names no definition, and the hint says what PATH:LINE is."""
    repo = make_repo(tmp_path, FILES)
    for spelled in ("lib/a.rb:99", "lib/a.rb:0"):
        run = run_qry_process("related", spelled, cwd=repo)
        assert run.code == 1 and run.out == "", run.describe()
        assert "hint: PATH:LINE names the definition holding that line of an indexed file" in run.err, run.err
    assert run_qry_process("related", "lib/a.rb:2", cwd=repo).err.startswith("helper (function) lib/a.rb:1-3")


def test_a_name_that_is_a_definitions_qualified_name_is_that_one(tmp_path: Path) -> None:
    """A Lua module `lume.lua` returning its table `lume` keeps local helpers of its functions' names
    (`local serialize` beside `function lume.serialize`): `lume.serialize` named both (the local
    through its file's module name) and `lume.lua:serialize`, the hint's own example, both too."""
    files = {
        "lume.lua": "local lume = {}\n\nlocal serialize\n\nserialize = function(x, stk)\n  return tostring(x)\nend\n\n"
        "function lume.serialize(x)\n  return serialize(x)\nend\n\nreturn lume\n",
        "test/test.lua": 'local lume = require("lume")\n\nlocal function check()\n  return lume.serialize(1)\nend\n',
    }
    repo = make_repo(tmp_path, files)
    member = run_qry_process("related", "lume.serialize", cwd=repo)
    assert member.code == 0, member.describe()
    assert member.err.startswith("lume.serialize (function) lume.lua:9-11"), member.describe()
    local = run_qry_process("related", "lume.lua:serialize", cwd=repo)
    assert local.code == 0, local.describe()
    assert local.err.startswith("serialize (function) lume.lua:5-7"), local.describe()


def test_a_module_is_named_by_its_name_its_dotted_path_or_its_file(tmp_path: Path) -> None:
    """`qry related sessions` answered "no definition named 'sessions'" with the hint "the closest
    names: sessions (src/requests/sessions.py:2)", a name it then refused again (requests). A module
    is named by its stem, a dotted path ending at it, or its file, and answers with its importers and
    imports; two modules of one stem are ambiguous, and the hint's example (the file) names one."""
    files = {
        "pkg/sessions.py": "from pkg import helpers\n\n\ndef open_session():\n    return helpers.make()\n",
        "pkg/api.py": "from pkg import sessions\n\n\ndef get():\n    return sessions.open_session()\n",
        "pkg/helpers.py": "import os\n\n\ndef make():\n    return os.getpid()\n",
        "tools/helpers.py": "import sys\n\n\ndef make():\n    return sys.maxsize\n",
    }
    repo = make_repo(tmp_path, files)
    for name in ("sessions", "pkg.sessions", "pkg/sessions.py"):
        run = run_qry_process("related", name, cwd=repo)
        assert run.code == 0, run.describe()
        assert run.err.startswith("sessions (module) pkg/sessions.py:1"), run.describe()
        assert "<- imports\tapi\tmodule\tpkg/api.py:" in run.out, run.describe()
    several = run_qry_process("related", "helpers", cwd=repo)
    assert several.code == 2 and "names 2 definitions" in several.err, several.describe()
    hint = re.search(r"such as (\S+)\)", several.err)
    assert hint is not None and hint.group(1) == "pkg/helpers.py", several.err
    picked = run_qry_process("related", hint.group(1), cwd=repo)
    assert picked.code == 0 and picked.err.startswith("helpers (module) pkg/helpers.py:1"), picked.describe()
    assert run_qry_process("related", "sessionz", cwd=repo).code == 1
