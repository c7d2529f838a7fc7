"""Which Rust crate a file is in and where its modules' files sit, by Cargo's layout.

A package's `src/lib.rs` is its library and `src/main.rs` its default binary; each
`src/bin/<name>.rs` and `src/bin/<name>/main.rs` is a binary crate of its own, whose `mod x;` and
`crate::x` name files beside its root (`src/bin/<name>/x.rs`), not the library's: the binary
reaches the library by the package's name (`use bat::config::Config`). A crate root keeps its
child modules beside it, as a `mod.rs` does, and so does each file directly under `tests/`,
`examples/` and `benches/` (a crate of its own too, counted here with its package's, which its
code names by the package's name); any other `a/b.rs` keeps them under `a/b/`.

Pure path rules: the resolver (resolve.py, imported.py, rustpaths.py) and the read-time containment
(outside.py) ask them.
"""

from __future__ import annotations

import posixpath

CRATE_FOLDERS = frozenset({"src", "tests", "benches", "examples"})  # a Rust crate's folders under its root
TARGET_FOLDERS = frozenset({"tests", "benches", "examples"})  # each file directly in one: a crate root
BIN_FOLDER = "bin"  # under `src/`: the package's further binaries, one crate each
ROOT_FILES = ("lib", "main", "mod")  # a file whose child modules sit beside it, in its own folder
PACKAGE_ROOTS = ("lib", "main")  # a package's crate roots under its src/: a library's, else a program's


def package_src(package: str) -> str:
    """The `src` folder of the package in folder `package` ('' for one at the top)."""
    return f"{package}/src" if package else "src"


def package_roots(src: str) -> tuple[str, ...]:
    """A package's crate roots in its `src` folder, as anchored module paths: `/src/lib`, `/src/main`."""
    return tuple(f"/{src}/{r}" for r in PACKAGE_ROOTS)


def _layout(path: str) -> tuple[str, str, tuple[str, ...]]:
    """(crate, the folder its root's child modules sit in, its root files as anchored module paths)."""
    parts = path.split("/")
    for i, p in enumerate(parts[:-1]):
        if p not in CRATE_FOLDERS:
            continue
        package, src = "/".join(parts[:i]), "/".join(parts[: i + 1])
        if p == "src" and len(parts) > i + 2 and parts[i + 1] == BIN_FOLDER:
            folder = f"{src}/{BIN_FOLDER}"
            if len(parts) == i + 3:  # `src/bin/tool.rs`: the file is the crate's root
                root = f"{folder}/{parts[-1].rsplit('.', 1)[0]}"
                return root, folder, (f"/{root}",)
            folder = f"{folder}/{parts[i + 2]}"  # `src/bin/tool/`: its main.rs is the root
            return folder, folder, (f"/{folder}/main",)
        return package, package_src(package), package_roots(package_src(package))
    package = "/".join(parts[:-1])
    return package, package_src(package), package_roots(package_src(package))


def crate_of(path: str) -> str:
    """The Rust crate a file is in, named by its package's folder (`clap_lex/src/ext.rs` ->
    `clap_lex`, `src/lib.rs` -> ''), or, for a binary under `src/bin`, by its root's folder
    (`src/bin/bat/config.rs` -> `src/bin/bat`) or file (`src/bin/tool.rs` -> `src/bin/tool`)."""
    return _layout(path)[0]


def crate_src(path: str) -> str:
    """The folder holding the child modules of the root of the crate `path` is in: `clap_lex/src`,
    `src` at the top, `src/bin/bat` for a binary of several files, `src/bin` for a one-file one."""
    return _layout(path)[1]


def crate_roots(path: str) -> tuple[str, ...]:
    """The root files of the crate `path` is in as anchored module paths (targets.anchored), which
    a bare `crate` names: `/src/lib` and `/src/main`, `/src/bin/bat/main`, `/src/bin/tool`."""
    return _layout(path)[2]


def _target_root(folder: str) -> bool:
    """Whether a file in `folder` is a crate's root by where it sits: a one-file binary under
    `src/bin/`, or a file directly under a package's `tests/`, `examples/` or `benches/`."""
    parts = folder.split("/")
    first = next((i for i, p in enumerate(parts) if p in CRATE_FOLDERS), -1)
    if first < 0:
        return False
    binary = parts[first:] == ["src", BIN_FOLDER]
    return binary or (first == len(parts) - 1 and parts[first] in TARGET_FOLDERS)


def children_folder(path: str) -> str:
    """The folder holding the child modules of the module file `path`: a crate root and a `mod.rs`
    keep theirs beside them (`src/lib.rs`, `src/value/mod.rs`, `tests/cli.rs`: `src`, `src/value`,
    `tests`), `src/ser.rs` under `src/ser`."""
    folder, name = posixpath.split(path)
    stem = name.rsplit(".", 1)[0]
    return folder if stem in ROOT_FILES or _target_root(folder) else posixpath.join(folder, stem)


__all__ = [
    "CRATE_FOLDERS",
    "children_folder",
    "crate_of",
    "crate_roots",
    "crate_src",
    "package_roots",
    "package_src",
]
