"""Reference targets as written, read: the qualifier and name of a call (`split_target`), and the
file an import names (`anchored`, `module_path_matches`). Pure string rules, kept apart from the
resolver (resolve.py), which applies them against a snapshot's definitions.
"""

from __future__ import annotations

import posixpath
import re

_ARITY = re.compile(r"`(\d+)$")


def written_arity(target: str) -> int:
    """The type arguments a C# reference wrote after its type (`Policy`1` -> 1; none -> 0)."""
    found = _ARITY.search(target)
    return int(found.group(1)) if found else 0


def split_target(target: str) -> tuple[str, str]:
    """`self.retry` -> ("self", "retry"); `a.b.c` -> ("a.b", "c"); `foo` -> ("", "foo"); a C# type's
    arity left off (`Policy`1` -> ("", "Policy"): written_arity reads it)."""
    t = _ARITY.sub("", target).replace("::", ".").replace("->", ".").replace("\\", ".").strip(".")
    t = re.sub(r"\((?!\)\.).*$", "", t)  # a receiver marked called (CALLED: `self.inner().lock`) stays
    if "." in t:
        q, _, last = t.rpartition(".")
        return q, last
    return "", t


def anchored(module: str, importer: str) -> str:
    """A relative path import (`./Foo.vue`, `../../app/utils`, a sourced `./lib.sh`) as the path it
    names from the index's root, marked by a leading `/` (`/src/app/utils`); any other import as
    written. Resolved against the importer's folder, it names one file, not every file ending so."""
    m = module.strip().strip("\"'<>").replace("\\", "/")
    if not m.startswith(("./", "../")):
        return module
    joined = posixpath.normpath(posixpath.join(posixpath.dirname(importer), m))
    return module if joined.startswith("..") else "/" + joined


def module_path_matches(path: str, module: str, *, package_dirs: bool = False) -> bool:
    """Does file `path` implement import target `module` (`billing.retry`, `/src/retry` (`anchored`),
    `net/http`)?

    Python-style dotted modules and path imports name a file (or a package's `__init__`/`index`/`mod`
    file, its extension and a TypeScript `.d` aside); an anchored path names exactly one; with
    `package_dirs` (Go) a slash-separated import may name the file's directory.
    """
    m = module.strip().strip("\"'<>").replace("\\", "/")
    if not m:
        return False
    file = path.rsplit(".", 1)[0].removesuffix(".d")  # no extension; `types.d.ts` declares `types`
    p = file.rsplit("/", 1)[0] if file.endswith(("/__init__", "/index", "/mod")) else file
    if m.startswith("/") and not m.startswith("//"):
        if package_dirs:  # Go: a package's folder, `/` for the top (gomodules.package_folder)
            return (path.rsplit("/", 1)[0] if "/" in path else "") == m[1:]
        # `./Foo.vue`, `./util.helpers`; `../core/index.js` names the index file itself
        return re.sub(r"\.\w+$", "", m[1:]) in (p, file) or p == m[1:]
    m = m.lstrip("./")
    # Rust paths start at the crate or the current module: `crate::retry` names `src/retry.rs`.
    m = re.sub(r"^(?:(?:crate|self|super)[./])+", "", m)
    if "/" in m:
        target = re.sub(r"\.\w+$", "", m)  # ./retry.js -> retry
    else:
        target = m.replace(".", "/")
    if not target:
        return False
    # Go: a one-element import path names a standard package (`os`, `path`) or, by an indexed
    # go.mod, the module's own folder (anchored above), never a file: afero's `os.go` is no `os`.
    if (p == target or p.endswith("/" + target)) and not (package_dirs and "/" not in m):
        return True
    if "/" in m and package_dirs:  # Go: an import path names a package directory
        directory = p.rsplit("/", 1)[0] if "/" in p else ""
        last = target.rsplit("/", 1)[-1]
        return directory == last or directory.endswith("/" + last)
    return False


__all__ = ["anchored", "module_path_matches", "split_target"]
