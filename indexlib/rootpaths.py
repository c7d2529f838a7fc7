"""Path filters written as absolute paths, read as the paths below the indexed root they name.

Owns: turning a `path:` glob that spells the indexed folder's absolute path
(`/home/u/repo/src/**`, what an agent or a shell holds after `pwd` or an editor's file name) into
the root-relative glob every index path is compared with (`src/**`). Without it such a glob matched
no file: `search` said only that the filter matched nothing, and `grep` (exhaustive by contract)
answered an empty list, which reads as "no such line". A glob starting with `/` that does not start
with the root's path keeps its meaning: anchored at the root, as in a `.gitignore`.

Does not own: glob syntax (pathglob.py) or which folder an index describes (store/manifest.py).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable

__all__ = ["root_relative", "root_relative_globs"]


def root_relative(glob: str, root: str | os.PathLike[str]) -> str:
    """`glob` with the absolute path of `root` (as given, or with its links resolved) taken off its
    front: `/r/src/**` -> `src/**`, `/r` or `/r/` -> `**`; any other glob as given.

    >>> root_relative("/r/src/**", "/r"), root_relative("/r/", "/r"), root_relative("/src/**", "/r")
    ('src/**', '**', '/src/**')
    >>> root_relative("/rx/a.py", "/r"), root_relative("src/*.py", "/r")
    ('/rx/a.py', 'src/*.py')
    """
    text = glob.strip()
    if not text.startswith("/"):
        return glob
    for base in _spellings(root):
        if text.rstrip("/") == base:
            return "**"
        if text.startswith(base + "/"):
            return text[len(base) + 1 :]
    return glob


def root_relative_globs(
    globs: Iterable[str], root: str | os.PathLike[str] | Callable[[], os.PathLike[str]]
) -> list[str]:
    """Each of `globs` as `root_relative` reads it. `root` may be a function giving it (an engine's
    `source_root`, which opens the snapshot): it is called only when a glob starts with `/`."""
    given = list(globs)
    if not any(g.strip().startswith("/") for g in given):
        return given
    folder = root() if callable(root) else root
    return [root_relative(g, folder) for g in given]


def _spellings(root: str | os.PathLike[str]) -> list[str]:
    """The absolute spellings of `root`, without a trailing `/`: as given and with links resolved
    (`/tmp` is `/private/tmp` on macOS), the longer first. The filesystem's top (`/`) has none: every
    absolute glob is already below it."""
    given = os.path.abspath(os.fspath(root)).rstrip("/")
    real = os.path.realpath(given).rstrip("/")
    return [s for s in sorted({given, real}, key=len, reverse=True) if s]
