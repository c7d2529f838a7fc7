"""A Go import path names a package, a folder, never a file: `import "os"` is the standard library's
`os` even where the repository has an `os.go` (spf13/afero's `os.go` defines its `OsFs`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from indexlib import open_engine, related
from tests.repokit import make_repo

FILES = {
    "os.go": 'package afs\n\nimport "os"\n\ntype OsFs struct{}\n\nfunc (OsFs) Remove(n string) error {\n\treturn os.Remove(n)\n}\n',
    "path.go": 'package afs\n\nimport "path/filepath"\n\nfunc Walk(root string) error { return nil }\n',
    "util.go": (
        'package afs\n\nimport (\n\t"os"\n\t"path"\n)\n\n'
        'func Clean(p string) string {\n\tos.Getenv("X")\n\treturn path.Clean(p)\n}\n'
    ),
    "mem/mem.go": 'package mem\n\nimport "os"\n\nfunc Mode() os.FileMode { return 0 }\n',
}


@pytest.mark.parametrize("go_mod", [True, False])
def test_a_standard_import_is_no_file_of_its_name(tmp_path: Path, go_mod: bool) -> None:
    """`qry related os.go --callers` listed every file importing the standard `os` (afero: 20), and
    `path.go` every one importing `path`; a package's folder is still what an import path names."""
    files = {**FILES, "go.mod": "module example.com/afs\n\ngo 1.22\n"} if go_mod else FILES
    engine = open_engine(make_repo(tmp_path, files) / ".qry")
    for module in ("os.go", "path.go"):
        edges = related(engine, module, callers=True, callees=False).related
        assert [(r.edge, r.symbol) for r in edges if r.direction == "in"] == []
    out = related(engine, "util.go", callers=False, callees=True).related
    assert [r.symbol for r in out if r.edge == "imports"] == []
