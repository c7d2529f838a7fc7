"""The name a Go import binds when it names none: its package's, as the Go tool reads it.

Go binds `import "example.com/a/b"` to the package clause of the files at that path, which the
convention makes the path's last element. Two conventions name a major version instead of a
package: a `/vN` element after the path (`github.com/go-task/task/v3` is package `task`) and a
`.vN` suffix (`gopkg.in/yaml.v3` is package `yaml`). Read as the last element, `task.Run()` was
bound to `v3`, a name no file's calls use, and the call had no edge through its import.
"""

from __future__ import annotations

import re

_MAJOR = re.compile(r"v\d+")
_DOT_MAJOR = re.compile(r"\.v\d+$")


def default_name(path: str) -> str:
    """The package name an unaliased Go import of `path` binds.

    >>> default_name("github.com/go-task/task/v3"), default_name("gopkg.in/yaml.v3"), default_name("fmt")
    ('task', 'yaml', 'fmt')
    """
    parts = path.rstrip("/").split("/")
    last = parts[-1]
    if _MAJOR.fullmatch(last) and len(parts) > 1:
        last = parts[-2]
    return _DOT_MAJOR.sub("", last)
