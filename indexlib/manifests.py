"""Package names as a project's manifests declare them: a Go module's path, a Rust crate's name, and
the package name an unaliased Go import binds.

Owns: reading these out of the manifests' text, in one place for the resolver (Go import paths by
each go.mod, crates by their Cargo.toml names), the parser (a Go import's bound name) and search (the
name a question uses for the project it searches). Pure: callers give the text.
"""

from __future__ import annotations

import re

GO_MOD = "go.mod"
CARGO = "Cargo.toml"
_GO_MODULE = re.compile(r"^\s*module\s+\"?([^\s\"/][^\s\"]*)", re.MULTILINE)
# `[package]` up to the next table header (a line starting with `[`), whose `name` line is the crate's:
# a value holding `[` (`authors = ["A <a@b>"]` above `name`, as cargo-sort orders keys) is no header.
_CARGO_PACKAGE = re.compile(
    r"^\[package\][^\n]*\n(?:(?![ \t]*\[)[^\n]*\n)*?[ \t]*name[ \t]*=[ \t]*[\"']([\w-]+)[\"']", re.MULTILINE
)
_MAJOR = re.compile(r"v\d+")
_DOT_MAJOR = re.compile(r"\.v\d+$")


def go_module(text: str) -> str | None:
    """The module path a go.mod's `module` line declares (`github.com/go-task/task/v3`), or None."""
    found = _GO_MODULE.search(text)
    return found.group(1) if found else None


def cargo_package(text: str) -> str | None:
    """The `[package] name` a Cargo.toml declares, as written (`serde-json`); None for a workspace's."""
    found = _CARGO_PACKAGE.search(text)
    return found.group(1) if found else None


def go_package_name(path: str) -> str:
    """The package name an unaliased Go import of `path` binds, as the Go tool reads it.

    The package clause of the files at that path, which the convention makes the path's last
    element; two conventions name a major version instead of a package: a `/vN` element after the
    path (`github.com/go-task/task/v3` is package `task`) and a `.vN` suffix (`gopkg.in/yaml.v3` is
    package `yaml`). Read as the last element, `task.Run()` was bound to `v3`, a name no call uses.

    >>> go_package_name("github.com/go-task/task/v3"), go_package_name("gopkg.in/yaml.v3"), go_package_name("fmt")
    ('task', 'yaml', 'fmt')
    """
    parts = path.rstrip("/").split("/")
    last = parts[-1]
    if _MAJOR.fullmatch(last) and len(parts) > 1:
        last = parts[-2]
    return _DOT_MAJOR.sub("", last)


__all__ = ["CARGO", "GO_MOD", "cargo_package", "go_module", "go_package_name"]
