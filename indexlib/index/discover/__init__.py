"""Walk a source tree and decide, per file, whether it is indexed or skipped and why.

Owns: the walk and its symlink policy (walk.py), ignore rules (`.gitignore`, `.ignore`, `.rgignore`
and `.qryignore` at every level, `.git/info/exclude`, extra `--exclude` patterns, with ripgrep's
precedence: ignore.py), vendored folders, file-name checks (lock files, `*.min.js`, source maps), the
size limit, the content checks (binary, encoding, minified; generated code is marked, not skipped:
checks.py), and
opening files without following links (beneath.py).
This module ties them together: `discover` walks, sorts, and yields. Every file ends up as exactly one
`SourceFile` or one `Skipped`; pruned directories give one `Skipped` each (vendored, unreadable, ...),
except ignored directories and VCS folders, which are pruned silently.
Does not own: languages (`parsing/languages.py` decides by name and first bytes), parsing, hashing,
or the incremental decision (the build compares size and mtime with the previous manifest).

Cost model. `discover(root, read=False)` lists directories and stats files: no file is opened except
those with no extension (`shebang_decides`: their first 256 bytes may carry a shebang that decides
the language). That is the mode for incremental builds: the build compares (size, mtime_ns) with the
previous manifest and calls `load()` only for the files that changed, which reads each once, runs the
content checks and returns the bytes in `SourceFile.data`. `discover(root)` (read=True, the default, so a caller that forgets the
second step still gets every check) does the same `load()` for every file. Either way a file is read at
most once per build.

Symlinks. A link whose target resolves outside the root is skipped (`symlink_outside`). Links inside
the root are resolved after the plain walk: a linked directory is walked under the link's path only if
its real directory was not walked already (tracked by (st_dev, st_ino), which also ends loops), and a
linked file is indexed under the link's path only if its target was not indexed under its own path.
Duplicates are skipped with reason `ignored` and a detail naming the link; indexing the same bytes
twice would only duplicate search results. A link is judged by its own path's ignore rules; its target
is checked for being outside the root, inside a vendored folder, or already indexed.

Paths. Names are read as `str` with `surrogateescape` (os.fsdecode), so any byte string survives. A path
that is not valid UTF-8 cannot be stored in the index, the JSON output or Tantivy, so it is skipped with
reason `encoding`; its reported path shows the bad bytes backslash-escaped.

Ignore rules of folders above the root apply when the root is a subfolder of a git repository, unless
they ignore the root itself (see `ignore.base_stack`). Files git tracks despite an ignore rule are still
skipped: discovery reads ignore files, not the git index.

Order. Results come sorted by path (code-point order of the POSIX relative path), so builds are
reproducible. The stat phase collects the whole listing before anything is yielded; only the reading
is streamed.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from pathlib import Path

from indexlib.errors import UsageError
from indexlib.index.discover.beneath import open_beneath
from indexlib.index.discover.checks import (
    Skipped,
    SourceFile,
    check_content,
    generated_marker,
    load,
    load_stream,
    os_error_skip,
    refused,
)
from indexlib.index.discover.ignore import (
    IGNORE_FILES,
    IgnoreFile,
    base_stack,
    compile_ignore,
    inside_repository_below_top,
)
from indexlib.index.discover.walk import ALWAYS_SKIPPED, VENDORED_DIRS, Walk, WalkRecord

__all__ = [
    "ALWAYS_SKIPPED",
    "IGNORE_FILES",
    "VENDORED_DIRS",
    "IgnoreFile",
    "Skipped",
    "SourceFile",
    "WalkRecord",
    "check_content",
    "discover",
    "generated_marker",
    "load",
    "load_stream",
    "open_beneath",
    "os_error_skip",
    "refused",
    "walks_into",
]


def discover(
    root: Path,
    *,
    max_file_bytes: int = 1 << 20,
    include_vendored: bool = False,
    max_line_chars: int = 1000,
    extra_excludes: Sequence[str] = (),
    read: bool = True,
    use_ignore_files: bool = True,
    record: WalkRecord | None = None,
    unparsed: bool = False,
) -> Iterator[SourceFile | Skipped]:
    """Yield every file under `root` as a SourceFile to index or a Skipped with its reason, sorted by path.

    `extra_excludes` are gitignore-style patterns relative to the root that override every ignore file.
    With `read=False` no content is read (see the module docstring): `SourceFile.data` is None and the
    caller runs `load()` on the files it needs, which applies the remaining checks.
    `use_ignore_files=False` (grep's `--no-ignore`) reads no ignore file; `extra_excludes` still apply.
    `record`, when given, is filled with the directories and file entries the walk looked at.
    `unparsed=True` (grep) also lists the files no language claims, with language "", instead of
    skipping them as unsupported: rg searches every text file, and the content checks `load` runs
    still leave out the binary, not-UTF-8 and minified ones.
    """
    root_str = os.fspath(root)
    if not os.path.isdir(root_str):
        raise UsageError(f"{root_str} is not a directory", hint="pass the folder to index")
    abs_root = os.path.abspath(root_str)
    real_root = os.path.realpath(root_str)
    extra = compile_ignore(list(extra_excludes)) if extra_excludes else None
    walk = Walk(abs_root, real_root, max_file_bytes, include_vendored, extra, use_ignore_files, record)
    walk.root_is_top = not inside_repository_below_top(real_root)
    walk.unparsed = unparsed
    walk.walk_dir(abs_root, "", base_stack(real_root) if use_ignore_files else (), "")
    walk.resolve_links()
    walk.out.sort(key=lambda item: item.path)
    for item in walk.out:
        if isinstance(item, Skipped):
            yield item
            continue
        src = SourceFile(
            path=item.path,
            abspath=item.abspath,
            size=item.size,
            mtime_ns=item.mtime_ns,
            language=item.language,
            root=real_root,
            real=item.real,
            unhidden=item.unhidden,
            ctime_ns=item.ctime_ns,
        )
        yield load(src, max_file_bytes=max_file_bytes, max_line_chars=max_line_chars) if read else src


def walks_into(root: Path, rel_dir: str, *, use_ignore_files: bool = True) -> bool:
    """Whether `discover(root)` lists the folder `rel_dir` (POSIX, relative to `root`): `Walk.enters`.

    Why: `qry grep PATH` searches a folder named on the command line even when the walk from the
    index's root would skip it, as ripgrep does; the grep then scans that folder as its own root."""
    real_root = os.path.realpath(os.fspath(root))
    walk = Walk(os.path.abspath(os.fspath(root)), real_root, 1 << 20, False, None, use_ignore_files)
    walk.root_is_top = not inside_repository_below_top(real_root)
    return walk.enters(rel_dir, base_stack(real_root) if use_ignore_files else ())
