"""Finding the index directory a command should use.

Owns: the lookup rules, in precedence order: an explicit path > the `QRY_INDEX_DIR` environment
variable > walking up from the working directory for `.qry/HEAD`, the way git finds `.git`.
Does not own: opening or creating the index (`store.py`).
"""

from __future__ import annotations

import os
import shlex
from collections.abc import Mapping
from pathlib import Path

from indexlib.errors import IndexNotFound

INDEX_DIRNAME = ".qry"
ENV_VAR = "QRY_INDEX_DIR"


def default_index_dir(repo_root: Path) -> Path:
    """Where `qry index REPO` puts a new index: `<repo>/.qry`."""
    return Path(repo_root) / INDEX_DIRNAME


def find_index(start: Path) -> Path | None:
    """The nearest `.qry` directory holding a HEAD, at `start` or above it; None if there is none.

    Only a published index counts (HEAD exists), so an interrupted first `qry index` does not
    shadow an index further up. `start` may be a file or directory.
    """
    here = Path(start).resolve()
    if not here.is_dir():
        here = here.parent
    for folder in (here, *here.parents):
        candidate = folder / INDEX_DIRNAME
        if (candidate / "HEAD").is_file():
            return candidate
    return None


def open_hint(named: Path) -> str:
    """The hint for a file given as the index to read (`--index-dir src/main.py`): the index around
    the file when there is one, which it most likely meant. Not `qry index`'s "a new or empty
    directory": a search, status or gc never makes an index."""
    holder = Path(os.path.abspath(named)).parent
    found = holder if (holder / "HEAD").is_file() else find_index(named)
    if found is not None:
        return f"pass --index-dir {found} (the index around that file), or leave --index-dir out"
    return "point --index-dir at an index folder made by qry index (REPO/.qry), or at REPO itself"


def create_hint(index_dir: Path) -> str:
    """How to make the index that is missing at `index_dir`, as a command that works: read from a
    workspace or an MCP server, the generic `qry index PATH` left the user to work out which PATH
    (and a folder with a space in it must be quoted)."""
    if index_dir.name == INDEX_DIRNAME:
        return f"create one: qry index {shlex.quote(str(index_dir.parent))}"
    return f"create one: qry index FOLDER --index-dir {shlex.quote(str(index_dir))}"


def no_root_error(index_dir: Path) -> IndexNotFound:
    """Why an opened index has no root to read: its folder was removed since (under a long-lived MCP
    server or `qry serve`, whose engines stay open: not "no published root yet", which sent the
    user to wait for a build), or its first build has not published yet."""
    if not index_dir.is_dir():
        return IndexNotFound(f"no qry index at {index_dir}", hint=create_hint(index_dir))
    return IndexNotFound(f"the index at {index_dir} has no published root yet", hint="qry index PATH")


def resolve_index_dir(
    explicit: Path | None = None,
    *,
    start: Path | None = None,
    environ: Mapping[str, str] | None = None,
    walk: bool = True,
) -> Path:
    """The index directory a command works on, or IndexNotFound with a hint.

    Precedence: `explicit` (e.g. `--index-dir DIR`) > `$QRY_INDEX_DIR` > walk up from `start`
    (default: the working directory). An explicit or environment path is returned as given, even if
    it does not exist yet, so `Store.open` can report it or create it; one that names a repository
    (it holds no index but its `.qry` does) means that repository's index. `walk=False` stops before
    the walk (IndexNotFound when no path was named): `qry index` decides itself where a new index goes.
    """
    if explicit is not None:
        return _index_in(Path(explicit))
    env = os.environ if environ is None else environ
    if env.get(ENV_VAR):
        return _index_in(Path(env[ENV_VAR]))
    if not walk:
        raise IndexNotFound("no index directory named", hint=f"pass --index-dir DIR or set {ENV_VAR}")
    origin = Path.cwd() if start is None else Path(start)
    found = find_index(origin)
    if found is None:
        unpublished = _nearest_unpublished(origin)
        if unpublished is not None:
            raise IndexNotFound(
                f"the index in {unpublished} has no published root yet:"
                " its first qry index was interrupted, or is still running",
                hint=f"finish it: qry index {unpublished.parent}",
            )
        below = _indexes_below(origin)
        hint = (
            f"an index is in {below[0]}: run from there, or pass --index-dir {below[0]}"
            if below
            else f"create one: qry index PATH (or set {ENV_VAR})"
        )
        raise IndexNotFound(f"no qry index found in {origin.resolve()} or any parent directory", hint=hint)
    return found


def _indexes_below(origin: Path) -> list[str]:
    """The folders right under `origin` holding a published index (`qry index repo` run from the
    folder above `repo`, then `qry search` there), as paths from the working directory; one
    listing, no deeper walk."""
    try:
        folders = sorted(p for p in Path(origin).iterdir() if p.is_dir())
    except OSError:
        return []
    return [os.path.relpath(p) for p in folders if (p / INDEX_DIRNAME / "HEAD").exists()]


def _nearest_unpublished(start: Path) -> Path | None:
    """The nearest `.qry` folder at or above `start` that holds no HEAD (a first build that never
    published), so "no index found" is not said of a tree whose index is one build away."""
    here = Path(start).resolve()
    if not here.is_dir():
        here = here.parent
    for folder in (here, *here.parents):
        if (folder / INDEX_DIRNAME).is_dir() and not (folder / INDEX_DIRNAME / "HEAD").exists():
            return folder / INDEX_DIRNAME
    return None


def _index_in(path: Path) -> Path:
    """`path`, or `path/.qry` when `path` is a repository root rather than an index directory."""
    if not (path / "HEAD").exists() and (path / INDEX_DIRNAME / "HEAD").is_file():
        return path / INDEX_DIRNAME
    return path
