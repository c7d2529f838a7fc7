"""A Go struct field's type is read from the struct of the calling code's package: two packages'
`Fs` structs may both have a `client` field, of different types (spf13/afero's `sftpfs.Fs` holds a
`*sftp.Client`, its `gcsfs.Fs` a `stiface.Client`)."""

from __future__ import annotations

from pathlib import Path

from indexlib import open_engine, related
from indexlib.api import Engine
from tests.repokit import make_repo

FILES = {
    "go.mod": "module example.com/afs\n\ngo 1.22\n",
    "afs.go": (
        "package afs\n\ntype Fs interface {\n\tMkdir(name string) error\n}\n\n"
        "type MemFs struct{}\n\nfunc (m *MemFs) Mkdir(name string) error { return nil }\n"
    ),
    # gcs sorts before sftp: its `Fs.client` is the first one a lookup by name finds.
    "gcs/client.go": "package gcs\n\ntype Client interface {\n\tClose() error\n}\n",
    "gcs/fs.go": (
        "package gcs\n\ntype Fs struct {\n\tclient Client\n}\n\n"
        "func (f Fs) Close() error {\n\treturn f.client.Close()\n}\n"
    ),
    "sftp/fs.go": (
        'package sftp\n\nimport "github.com/pkg/sftp"\n\n'
        "type Fs struct {\n\tclient *sftp.Client\n}\n\n"
        "func (s Fs) Mkdir(name string) error {\n\treturn s.client.Mkdir(name)\n}\n"
    ),
}


def _callees(engine: Engine, symbol: str) -> list[tuple[str, str, bool]]:
    edges = related(engine, symbol, callers=False, callees=True).related
    return [(r.symbol, r.path, r.ambiguous) for r in edges if r.edge == "calls" and r.direction == "out"]


def test_a_fields_type_is_its_own_packages_structs(tmp_path: Path) -> None:
    """`s.client.Mkdir(name)` on sftp's `client *sftp.Client` (a dependency's type) calls none of the
    indexed `Mkdir`s; it was linked to `MemFs.Mkdir`, ambiguous, since `Fs.client` was read from
    gcs's `Fs`, an indexed interface without `Mkdir`. gcs's own call still reaches its `Client`."""
    engine = open_engine(make_repo(tmp_path, FILES) / ".qry")
    assert _callees(engine, "sftp/fs.go:Fs.Mkdir") == []
    assert _callees(engine, "gcs/fs.go:Fs.Close") == [("Client.Close", "gcs/client.go", False)]


def test_what_a_dependency_types_method_returns_is_the_dependencys(tmp_path: Path) -> None:
    """`f, err := s.client.OpenFile(name)` on a `*sftp.Client` gives a value of sftp's, so
    `f.Chmod()` is none of the indexed `Chmod`s; it was linked to the own `Fs.Chmod`, ambiguous."""
    files = {
        "go.mod": "module example.com/afs\n\ngo 1.22\n",
        "sftp/fs.go": (
            'package sftp\n\nimport "github.com/pkg/sftp"\n\n'
            "type Fs struct {\n\tclient *sftp.Client\n}\n\n"
            "func (s Fs) Chmod(name string) error { return nil }\n\n"
            "func (s Fs) OpenFile(name string) error {\n\tf, err := s.client.OpenFile(name)\n"
            "\tif err != nil {\n\t\treturn err\n\t}\n\treturn f.Chmod(name)\n}\n"
        ),
    }
    engine = open_engine(make_repo(tmp_path, files) / ".qry")
    assert _callees(engine, "Fs.OpenFile") == []
