"""Named workspaces: which indexes a `qry search --workspace W` runs over.

Owns: where workspace definitions live and their file format. Two places, both TOML:

* the user's file, `$XDG_CONFIG_HOME/qry/workspaces.toml` (default `~/.config/qry/`), written by
  `qry workspace add|remove`:  `[workspaces.NAME]` with `repos = [{name = "...", index = "..."}]`;
* a `qry.toml` at the root of a folder of repositories, read only: `[workspace]` with `name = "..."`
  and `[[workspace.repos]]` tables of `name` and `path` (relative to that folder).

`--workspace W` takes a name from the user's file, or a path to a `qry.toml` (or a folder holding
one). Each entry names one index directory and the label every hit from it carries (`repo`).
The file is rewritten whole through a temporary file and a rename, so a crash never leaves half of it.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from indexlib.errors import UsageError
from indexlib.store.locate import INDEX_DIRNAME, find_index

USER_FILE = "workspaces.toml"
FOLDER_FILE = "qry.toml"
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$")


@dataclass(frozen=True, slots=True)
class Member:
    """One index of a workspace and the repository label its hits carry."""

    name: str
    index: Path


@dataclass(slots=True)
class Workspace:
    name: str
    members: list[Member] = field(default_factory=list)
    source: Path | None = None  # the file it was read from


def config_dir() -> Path:
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "qry"


def user_file() -> Path:
    return config_dir() / USER_FILE


def check_name(name: str, what: str = "workspace") -> str:
    if not _NAME.match(name):
        raise UsageError(
            f"{what} name {name!r} is not allowed",
            hint="use letters, digits, '.', '_' or '-' (at most 64), starting with a letter or digit",
        )
    return name


def index_dir_of(path: Path) -> Path:
    """`path` itself when it is an index (holds HEAD), else `path/.qry`; an error if neither exists.

    The error's hint is a command that works: `qry index FILE` or `qry index MISSING` would fail, so
    a file points at its repository (or its folder) and a missing path says it is missing; a path
    the system refuses to look up (too long, a loop of links) says why.
    """
    try:
        return _index_dir_of(path.expanduser().resolve())
    except OSError as exc:
        raise UsageError(f"cannot look at {path}: {exc.strerror}", hint="check the path") from exc


def _index_dir_of(path: Path) -> Path:
    if (path / "HEAD").is_file():
        return path
    if (path / INDEX_DIRNAME / "HEAD").is_file():
        return path / INDEX_DIRNAME
    if not path.exists():
        raise UsageError(
            f"{path} does not exist",
            hint="pass a repository folder indexed with qry index, or its .qry folder",
        )
    if not path.is_dir():
        around = find_index(path)
        hint = (
            f"pass the folder of its repository: {around.parent}"
            if around is not None
            else f"pass a repository folder; index this file's folder first: qry index {_sh(path.parent)}"
        )
        raise UsageError(f"{path} is a file, not a repository folder or an index directory", hint=hint)
    around = find_index(path)
    if around is not None:  # `qry index SUBFOLDER` would make a second, nested index
        raise UsageError(
            f"{path} is inside the indexed repository {around.parent}, not a repository folder",
            hint=f"pass the folder of its repository: {_sh(around.parent)}",
        )
    raise UsageError(
        f"no qry index at {path}", hint=f"index it first: qry index {_sh(path)}, or pass its .qry folder"
    )


def _sh(path: Path | str) -> str:
    """`path` as a hint's command must spell it for a shell (`'my repos/api'`): a hint is run as
    printed, and a path with a space would otherwise name two arguments."""
    return shlex.quote(str(path))


def label_of(index: Path) -> str:
    """The default repository label: the folder the index sits in (`repo/.qry` -> `repo`)."""
    return index.parent.name if index.name == INDEX_DIRNAME else index.name


def _read_toml(path: Path) -> dict[str, object]:
    """The file's tables; any way it cannot be read or parsed is a UsageError naming it (tomllib
    decodes the bytes as UTF-8 before parsing, so a file in another encoding fails there)."""
    try:
        with path.open("rb") as f:
            return tomllib.load(f)
    except OSError as exc:
        raise UsageError(f"cannot read {path}: {exc.strerror}", hint="check the path") from exc
    except UnicodeDecodeError as exc:
        raise UsageError(
            f"{path} is not valid UTF-8 (byte {exc.object[exc.start]:#04x} at offset {exc.start})",
            hint="TOML files are UTF-8: save it as UTF-8, or fix or remove it",
        ) from exc
    except tomllib.TOMLDecodeError as exc:
        raise UsageError(f"{path} is not valid TOML: {exc}", hint="fix or remove the file") from exc


def check_members(members: list[Member], where: str) -> list[Member]:
    """`members` if every label is allowed and names one index, and no index is named twice.

    A label is printed before every path (`repo:path:line`) and matched by `repo:`, so it follows
    `check_name`; two entries for one index would answer every query twice."""
    seen: dict[str, str] = {}
    for m in members:
        check_name(m.name, f"{where}: repository")
        key = os.path.realpath(m.index)
        if key in seen:
            raise UsageError(
                f"{where} names the index {m.index} twice (as {seen[key]!r} and {m.name!r})",
                hint="keep one entry per index",
            )
        seen[key] = m.name
    labels = [m.name for m in members]
    twice = sorted({x for x in labels if labels.count(x) > 1})
    if twice:
        raise UsageError(f"{where} names the repository {twice[0]!r} twice", hint="label each index once")
    return members


def _members(raw: object, base: Path, key: str, where: str) -> list[Member]:
    if not isinstance(raw, list):
        raise UsageError(
            f"{where}: 'repos' must be a list of tables", hint=f"see {FOLDER_FILE} in docs/cli.md"
        )
    out: list[Member] = []
    for item in raw:
        if not isinstance(item, dict) or not isinstance(item.get(key), str):
            raise UsageError(f"{where}: every repo needs a '{key}' string", hint="e.g. {name = 'api', ...}")
        index = Path(os.path.normpath(base / Path(item[key]).expanduser()))
        if key == "path":  # a qry.toml is written by hand: a misspelt key must not be dropped unseen
            _known_keys(item, (key, "name"), f"{where}: the repo at {item[key]!r}")
        name = item.get("name") if isinstance(item.get("name"), str) else label_of(index)
        out.append(Member(name=str(name), index=index))
    return check_members(out, where)


def _known_keys(table: dict[str, object], known: tuple[str, ...], where: str) -> None:
    """Refuse a key `table` may not hold (`nmae = "api"`, `[[workspace.repo]]`) and a `name` that is
    not a string: ignored, they left a repository labelled by its folder, or none added at all."""
    unknown = sorted(k for k in table if k not in known)
    if unknown:
        raise UsageError(
            f"{where} has an unknown key {', '.join(map(repr, unknown))}",
            hint=f"the keys there are: {', '.join(known)}",
        )
    if "name" in table and not isinstance(table["name"], str):
        raise UsageError(f"{where}: 'name' must be a string", hint='e.g. name = "api"')


def load_user() -> dict[str, Workspace]:
    """Every workspace of the user's file (none when the file does not exist)."""
    path = user_file()
    if not path.is_file():
        return {}
    data = _read_toml(path)
    table = data.get("workspaces", {})
    if not isinstance(table, dict):
        raise UsageError(f"{path}: 'workspaces' must be a table", hint="fix or remove the file")
    out: dict[str, Workspace] = {}
    for name, body in table.items():
        repos = body.get("repos", []) if isinstance(body, dict) else None
        out[name] = Workspace(name, _members(repos, Path("/"), "index", f"{path} [{name}]"), path)
    return out


def load_folder(path: Path) -> Workspace:
    """The workspace of a `qry.toml` (or of the folder holding one); paths are relative to its folder."""
    # absolute: the indexes it names are reported (and an MCP server or `qry serve` reads them)
    # from wherever the command runs, not relative to the folder it was started in
    file = Path(os.path.abspath(path / FOLDER_FILE if path.is_dir() else path))
    data = _read_toml(file)
    body = data.get("workspace")
    if not isinstance(body, dict):
        raise UsageError(f"{file} has no [workspace] table", hint="add [workspace] and [[workspace.repos]]")
    _known_keys(body, ("name", "repos"), f"{file}: [workspace]")
    name = body.get("name") if isinstance(body.get("name"), str) else file.parent.name
    members = [
        Member(m.name, m.index if (m.index / "HEAD").is_file() else m.index / INDEX_DIRNAME)
        for m in _members(body.get("repos", []), file.parent, "path", str(file))
    ]
    return Workspace(str(name), check_members(members, str(file)), file)


def resolve(spec: str, *, empty_ok: bool = False) -> Workspace:
    """`--workspace SPEC`: a name in the user's file, else a qry.toml or a folder holding one.

    A SPEC that is not a workspace name (it holds a `/` or ends in `.toml`) is read as a path first,
    so a broken user file does not stand in the way of a qry.toml named outright. A workspace with
    no indexes is an error (`require_indexes`) unless `empty_ok` (`qry workspace list`, which shows
    it): every command over it would otherwise check, grep or build nothing and call that success."""
    ws = _find(spec)
    return ws if empty_ok else require_indexes(ws)


def require_indexes(ws: Workspace) -> Workspace:
    """`ws` if it names an index; else the error every command over it gives, its hint saying where
    to add one: `qry workspace add` writes the user's file, so a qry.toml's own `repos` for one."""
    if ws.members:
        return ws
    if ws.source is not None and ws.source != user_file():  # a qry.toml (by any name)
        hint = f'add the repositories to {ws.source}: [[workspace.repos]] with path = "FOLDER" for each'
    else:
        hint = f"add one: qry workspace add {ws.name} PATH..."
    raise UsageError(f"workspace {ws.name!r} has no indexes", hint=hint)


def _find(spec: str) -> Workspace:
    if not spec.strip():
        raise UsageError(
            "the workspace name is empty", hint="pass --workspace NAME (see: qry workspace list)"
        )
    p = Path(spec).expanduser()
    if not _NAME.match(spec) and _names_a_folder_file(p):
        return load_folder(p)
    known = load_user()
    if spec in known:
        return known[spec]
    if _names_a_folder_file(p):
        return load_folder(p)
    names = ", ".join(sorted(known)) or "none yet"
    raise UsageError(
        f"no workspace {spec!r}",
        hint=f"known workspaces: {names}; create one: qry workspace add {spec} PATH...",
    )


def _names_a_folder_file(p: Path) -> bool:
    """Whether `p` is a file or a folder holding a qry.toml; a path the system refuses to look up
    (too long, a loop) is none: `is_file` raises for those on Python 3.11."""
    try:
        return p.is_file() or (p / FOLDER_FILE).is_file()
    except OSError:
        return False


def _quote(s: str) -> str:
    """A TOML basic string (JSON's escapes are a subset of TOML's)."""
    return json.dumps(s, ensure_ascii=False)


def save_user(workspaces: dict[str, Workspace]) -> Path:
    """Rewrite the user's file whole: temporary file, fsync, rename."""
    path = user_file()
    path.parent.mkdir(parents=True, exist_ok=True)
    lines = ["# qry workspaces: edit with `qry workspace add|remove`.", ""]
    for name in sorted(workspaces):
        lines.append(f"[workspaces.{_quote(name)}]")
        entries = ", ".join(
            f"{{name = {_quote(m.name)}, index = {_quote(str(m.index))}}}" for m in workspaces[name].members
        )
        lines.extend([f"repos = [{entries}]", ""])
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    with tmp.open("w", encoding="utf-8") as f:
        f.write("\n".join(lines))
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)
    return path


def add(workspace: str, paths: list[Path], name: str | None = None) -> Workspace:
    """Add indexes (repository folders or index directories) to a workspace, creating it if needed.

    An index already there keeps its place and, without `name`, its label: re-adding is how a
    moved index is refreshed, and the label the user chose (often because the folder's name is
    not one) must not turn back into the folder's name."""
    if not _NAME.match(workspace):
        _refuse_folder_file(workspace)
    check_name(workspace)
    if name is not None and len(paths) != 1:
        raise UsageError("--name labels one index", hint="add the indexes one at a time to name them")
    all_ws = load_user()
    if workspace not in all_ws:
        _refuse_shadowing(workspace)
    ws = all_ws.setdefault(workspace, Workspace(workspace))
    for p in paths:
        index = index_dir_of(p)
        at = next((i for i, m in enumerate(ws.members) if m.index == index), None)
        label = name or (ws.members[at].name if at is not None else label_of(index))
        if name is None and not _NAME.match(label):
            raise UsageError(
                f"the folder name {label!r} is not allowed as a repository label",
                hint=f"label it: qry workspace add {workspace} {_sh(p)} --name LABEL (letters, digits, '.', '_', '-')",
            )
        check_name(label, "repository")
        if any(m.name == label and m.index != index for m in ws.members):
            raise UsageError(
                f"workspace {workspace!r} would label two indexes {label!r}",
                hint=f"add this one on its own with another label: qry workspace add {workspace} {_sh(p)} --name OTHER",
            )
        if at is None:
            ws.members.append(Member(label, index))
        else:  # already there: relabelled in place, so the workspace's order stays
            ws.members[at] = Member(label, index)
    save_user(all_ws)
    return ws


def remove(workspace: str, repos: list[str]) -> Workspace | None:
    """Remove repositories (by label or path) from a workspace, or the whole workspace when none are named."""
    all_ws = load_user()
    if workspace not in all_ws:
        _refuse_folder_file(workspace)
        names = ", ".join(sorted(all_ws)) or "none yet"
        raise UsageError(f"no workspace {workspace!r}", hint=f"known workspaces: {names}")
    ws = all_ws[workspace]
    if not repos:
        del all_ws[workspace]
        save_user(all_ws)
        return None
    for r in repos:
        given = os.path.realpath(Path(r).expanduser())  # a path as `add` takes it, relative or not
        keep = [
            m
            for m in ws.members
            if m.name != r and given not in (os.path.realpath(m.index), os.path.realpath(m.index.parent))
        ]
        if len(keep) == len(ws.members):
            raise UsageError(
                f"workspace {workspace!r} has no repository {r!r}",
                hint=f"see: qry workspace list {workspace}",
            )
        ws.members = keep
    save_user(all_ws)
    return ws


def _refuse_folder_file(spec: str) -> None:
    """A qry.toml named where the user's file is edited: it is read, never written, so say that
    (not "no workspace", which reads as if `-w SPEC` would fail too)."""
    p = Path(spec).expanduser()
    if _names_a_folder_file(p):
        file = p / FOLDER_FILE if p.is_dir() else p
        raise UsageError(
            f"{file} is a {FOLDER_FILE}: qry reads it, read only, and edits only its own workspaces",
            hint=f"edit its [[workspace.repos]] tables, or name a workspace of {user_file()}",
        )


def _refuse_shadowing(name: str) -> None:
    """A new workspace of the user's file named as a folder here that holds a qry.toml: `-w NAME`
    reads the user's file first, so from then on it would stop reading that qry.toml, unsaid."""
    if _names_a_folder_file(Path(name)):
        raise UsageError(
            f"{name!r} is a folder here holding a {FOLDER_FILE}: a workspace of that name would stand "
            f"in its place for -w {name}",
            hint=f"name the workspace otherwise, or edit ./{name}/{FOLDER_FILE}'s [[workspace.repos]] tables",
        )


def members_of_dirs(paths: list[str]) -> list[Member]:
    """`--index-dir` given several times: each index labelled by its folder (made unique by a suffix).

    There is no `--name` here, so a folder whose name is not a label (`owner+repo`, `my repo`) is
    labelled with each character a label cannot hold as '-' rather than refused."""
    out: list[Member] = []
    for p in paths:
        index = index_dir_of(Path(p))
        base = label_like(label_of(index))
        label, n = base, 2
        while any(m.name == label for m in out):
            label, n = f"{base}-{n}", n + 1
        out.append(Member(label, index))
    return check_members(out, "--index-dir")


def label_like(name: str) -> str:
    """`name` as a repository label: the characters a label cannot hold become '-', and it starts
    with a letter or digit (`owner+web` -> `owner-web`; nothing usable: `repo`)."""
    if _NAME.match(name):
        return name
    cleaned = re.sub(r"[^A-Za-z0-9._-]", "-", name).lstrip("._-")[:64]
    return cleaned or "repo"


# The names indexlib's public API exports.
resolve_workspace = resolve
load_workspaces = load_user
workspace_add = add
workspace_remove = remove
workspace_config_file = user_file
