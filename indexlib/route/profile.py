"""A repository's routing profile, read from its index: slug, branch, README head, names and paths.

Owns: what of a repository the router may match (and the bounds), and caching the profile per publish
root in the index's cache folder, so routing a question reads one small file per repository instead
of walking every node. Fields, lower-cased:

* labels: the slug (host/owner/name from the `origin` remote, else the workspace label), the branch,
  and the workspace label;
* readme: the first README_CHARS characters of the top-level README;
* names: up to MAX_NAMES module-level qualified names (top-level definitions) and file paths, source
  files before tests and docs, in path order, a camelCase one also spelt split (`issafeattribute
  is_safe_attribute`: the router matches words, and the lower-cased name has none inside); not
  hidden files (`.gitignore`, `.github/...`): nearly every repository has the same ones, so they only
  gave words like `gitignore` or `github` a document frequency of all repositories (an idf of 0)
  even where one repository is about them.
"""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import msgspec

from indexlib.records import DEFINITION_KINDS
from indexlib.retrieval.search import Engine
from indexlib.route.score import RepoText

README_CHARS = 2000
MAX_NAMES = 1500
PROFILE_VERSION = 3  # 2: hidden paths left out; 3: camelCase names also spelt split
_HUMP = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")
_README = re.compile(r"^readme(\.[a-z0-9]+)?$", re.IGNORECASE)
_HIDDEN = re.compile(r"(^|/)\.")
_SECONDARY = re.compile(
    r"(^|/)(tests?|testing|docs?|examples?|benchmarks?|fixtures?|scripts)(/|$)|_test\.|\.spec\.|\.test\."
)


class _Cached(msgspec.Struct):
    version: int
    root: str
    text: RepoText


def slug_of(source_root: Path, fallback: str) -> str:
    """`host/owner/name` from the `origin` remote, or `fallback` outside git / without a remote."""
    try:
        out = subprocess.run(
            ["git", "-C", str(source_root), "config", "--get", "remote.origin.url"],
            capture_output=True,
            text=True,
            timeout=5,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return fallback
    url = out.stdout.strip() if out.returncode == 0 else ""
    if not url:
        return fallback
    url = re.sub(r"^[a-z+]+://", "", url)
    url = re.sub(r"^[^@/]+@", "", url).replace(":", "/")
    return url.removesuffix(".git").strip("/") or fallback


def profile(engine: Engine, label: str) -> RepoText:
    """The routing profile of the index behind `engine`, from the cache when its root has one."""
    snap = engine.snapshot()
    cache = engine.store.cache_dir / f"route-{snap.root_id[:24]}.json"
    try:
        cached = msgspec.json.decode(cache.read_bytes(), type=_Cached)
        if cached.version == PROFILE_VERSION and cached.root == snap.root_id and cached.text.repo == label:
            return cached.text
    except (OSError, msgspec.DecodeError, msgspec.ValidationError):
        pass
    text = build_profile(engine, label)
    try:
        tmp = cache.with_name(f".{cache.name}.{os.getpid()}.tmp")
        tmp.write_bytes(msgspec.json.encode(_Cached(PROFILE_VERSION, snap.root_id, text)))
        os.replace(tmp, cache)
    except OSError:
        pass  # a read-only index still routes, it just rebuilds the profile each time
    return text


def build_profile(engine: Engine, label: str) -> RepoText:
    snap = engine.snapshot()
    manifest = snap.manifest
    source = Path(manifest.source_root)
    labels = " ".join([slug_of(source, label), manifest.git_branch or "", label]).lower()
    readme = ""
    for path in sorted(p for p in manifest.files if "/" not in p and _README.match(p)):
        try:
            readme = (source / path).read_text(encoding="utf-8", errors="replace")[:README_CHARS]
        except OSError:
            readme = "\n".join(s.node.text for s in snap.nodes_in_file(path))[:README_CHARS]
        if readme:
            break
    top: dict[str, list[str]] = {}
    for _seg, stored in snap.iter_live_nodes():
        n = stored.node
        if n.parent_uid == 0 and n.kind in DEFINITION_KINDS and n.part == 0:
            top.setdefault(n.path, []).append(n.qualified_name)
    names: list[str] = []
    visible = (p for p in manifest.files if not _HIDDEN.search(p))
    for path in sorted(visible, key=lambda p: (bool(_SECONDARY.search(p)), p)):
        for entry in (path, *sorted(top.get(path, []))):
            if len(names) >= MAX_NAMES:
                break
            split = _HUMP.sub("_", entry)
            names.append(entry if split == entry else f"{entry} {split}")
    return RepoText(repo=label, labels=labels, readme=readme.lower(), names="\n".join(names).lower())
