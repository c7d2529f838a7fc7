"""Which parsed nodes get a vector: trivial ones (an import block, a one-line constant) do not."""

from __future__ import annotations

from indexlib.index.embedtext import worth_embedding
from indexlib.index.parsing import parse_file


def _verdicts(path: str, source: str, language: str) -> dict[tuple[str, str], bool]:
    parsed = parse_file(path, source.encode(), language)
    return {(n.kind, n.name): worth_embedding(n) for n in parsed.nodes}


def test_python_import_block_and_one_line_constant_are_trivial() -> None:
    got = _verdicts(
        "pkg/config.py",
        "import os\nfrom typing import (  # the names below\n    Any,\n    Mapping as M,\n)\n\n"
        "DEFAULT_PORT = 8080\n\n"
        "RETRY_CODES = (\n    500,\n    502,\n)\n\n"
        "def load(path):\n    return os.environ.get(path)\n",
        "python",
    )
    assert got[("constant", "DEFAULT_PORT")] is False
    assert got[("constant", "RETRY_CODES")] is True  # several lines: its values say something
    assert got[("function", "load")] is True
    documented = _verdicts("c.py", "import os\n\n# The port we listen on.\nPORT = 80\n", "python")
    assert documented[("constant", "PORT")] is True  # its doc comment is worth a vector
    modules = [v for (kind, _n), v in got.items() if kind == "module"]
    assert modules == [False]


def test_a_one_line_struct_field_is_trivial_as_a_one_line_constant_is() -> None:
    got = _verdicts(
        "server.go",
        "package srv\n\ntype Server struct {\n\tAddr string\n\t// How long a request may take.\n"
        "\tTimeout int\n}\n",
        "go",
    )
    assert got[("field", "Addr")] is False
    assert got[("field", "Timeout")] is True  # its doc comment is worth a vector
    assert got[("struct", "Server")] is True


def test_a_module_remainder_with_code_keeps_its_vector() -> None:
    got = _verdicts(
        "app.py",
        "import flask\n\napp = flask.Flask(__name__)\napp.config.from_object('settings')\n\n"
        "def index():\n    return 'hi'\n",
        "python",
    )
    assert [v for (kind, _n), v in got.items() if kind == "module"] == [True]


def test_go_and_typescript_import_blocks_are_trivial() -> None:
    go = _verdicts(
        "main.go",
        'package main\n\nimport (\n\t"fmt"\n\t"os"\n)\n\nfunc main() {\n\tfmt.Println(os.Args)\n}\n',
        "go",
    )
    assert [v for (kind, _n), v in go.items() if kind == "module"] in ([], [False])
    assert go[("function", "main")] is True
    ts = _verdicts(
        "src/index.ts",
        "import { ref } from 'vue'\nimport type { App } from './app'\nexport * from './util'\n\n"
        "export function mount(app: App): void {\n  ref(app)\n}\n",
        "typescript",
    )
    assert [v for (kind, _n), v in ts.items() if kind == "module"] in ([], [False])
    assert ts[("function", "mount")] is True
