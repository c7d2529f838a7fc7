"""A Python call through an import's alias calls what the caller's own import of it names
(index/parsing/pyrenames.py): flask's `test_client` and `test_cli_runner` each import a class `as
cls` in their own body, and `cls(..)` in both linked, certain, to the file's last import of `cls`."""

from __future__ import annotations

from pathlib import Path

from tests.repokit import calls, make_repo

FILES = {
    "pkg/__init__.py": "",
    "pkg/testing.py": "class FlaskClient:\n    pass\n\n\nclass FlaskCliRunner:\n    pass\n",
    "pkg/options.py": "def option(x):\n    return x\n",
    "pkg/app.py": "from .options import option as opt\n\n\nclass Flask:\n    client_class = None\n\n"
    "    def test_client(self):\n        cls = self.client_class\n        if cls is None:\n"
    "            from .testing import FlaskClient as cls\n        return cls(self)\n\n"
    "    def test_cli_runner(self):\n        from .testing import FlaskCliRunner as cls\n\n"
    "        return cls(self)\n\n    def flag(self):\n        return opt(1)\n",
}


def test_a_call_through_an_alias_reads_the_callers_own_import_of_it(tmp_path: Path) -> None:
    repo = make_repo(tmp_path, FILES)
    assert calls(repo, "Flask.test_client") == [("FlaskClient", False)]
    assert calls(repo, "Flask.test_cli_runner") == [("FlaskCliRunner", False)]
    assert calls(repo, "Flask.flag") == [("option", False)]  # the module's import, in any function
