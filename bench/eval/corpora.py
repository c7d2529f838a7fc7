"""Pinned corpora for the retrieval evaluation, fetched through package registries into `bench/.cache/`.

Owns: the list of corpora (name, language, pinned version, where it comes from) and the idempotent
fetch that copies each one into `bench/.cache/corpora/<name>/`, with a stamp file beside it recording
what was copied. It does not generate queries (make_queries.py) or index anything (run.py).

Sources, all reachable without network beyond the package registries:
- the Python standard library of this interpreter (a pinned subset of modules; the version is the
  interpreter's, recorded in the stamp, so a different interpreter refetches);
- a Go package and a Rust crate from Debian (`apt-get install PKG=VERSION`, sources under
  /usr/share/gocode and /usr/share/cargo/registry);
- a TypeScript package from npm (`npm pack NAME@VERSION`), whose tarball ships its `.ts` sources.

Run `python bench/eval/corpora.py` to fetch (or check) them all; a second run does nothing.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import sysconfig
import tarfile
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
CACHE = HERE.parent / ".cache"
CORPORA = CACHE / "corpora"

# Bump when the copying rules below change, so cached copies are refreshed.
LAYOUT_VERSION = 1

# Standard-library modules copied for the Python corpus: varied domains (parsing, networking, files,
# numbers, text), mostly documented, about 3,500 definitions, so the dense tier embeds it in a minute or two.
PYTHON_MODULES = (
    "argparse.py", "calendar.py", "configparser.py", "csv.py", "datetime.py", "difflib.py",
    "fractions.py", "ftplib.py", "inspect.py", "pathlib.py", "random.py", "shutil.py", "smtplib.py",
    "statistics.py", "subprocess.py", "tarfile.py", "tempfile.py", "textwrap.py", "zipfile.py",
    "concurrent", "email", "http", "json", "logging", "urllib",
)  # fmt: skip


class FetchError(Exception):
    """A corpus could not be fetched; the message says which and what to try."""


@dataclass(frozen=True)
class Corpus:
    """One pinned corpus: what it is, how to fetch it, and its version as pinned."""

    name: str
    language: str  # the main language, as indexlib.index.parsing.detect_language names it
    version: str
    source: str  # a human-readable origin, e.g. "debian golang-github-spf13-cobra-dev"
    fetch: Callable[[Path], None] = field(repr=False, compare=False)

    @property
    def dir(self) -> Path:
        return CORPORA / self.name

    @property
    def stamp(self) -> Path:
        return CORPORA / f"{self.name}.json"

    def stamp_data(self) -> dict[str, object]:
        return {
            "name": self.name,
            "language": self.language,
            "version": self.version,
            "source": self.source,
            "layout": LAYOUT_VERSION,
        }


# --- fetchers -------------------------------------------------------------------------------------


def _copy_python_stdlib(dest: Path) -> None:
    stdlib = Path(sysconfig.get_paths()["stdlib"])
    ignore = shutil.ignore_patterns("__pycache__", "test", "tests", "*.pyc")
    for name in PYTHON_MODULES:
        src = stdlib / name
        if src.is_dir():
            shutil.copytree(src, dest / name, ignore=ignore)
        elif src.is_file():
            dest.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest / name)
        else:
            raise FetchError(f"standard-library module {name} not found under {stdlib}")


def _run(cmd: list[str], cwd: Path | None = None) -> str:
    proc = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        raise FetchError(f"{' '.join(cmd)} failed ({proc.returncode}): {proc.stderr.strip()[-2000:]}")
    return proc.stdout


def _dpkg_version(package: str) -> str | None:
    proc = subprocess.run(
        ["dpkg-query", "-W", "-f=${Status}|${Version}", package], capture_output=True, text=True, check=False
    )
    if proc.returncode != 0:
        return None
    status, _, version = proc.stdout.partition("|")
    return version if status.endswith("installed") else None


def _ensure_deb(package: str, version: str) -> None:
    """Install `package` at exactly `version` from Debian unless it already is."""
    if _dpkg_version(package) == version:
        return
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    cmd = ["apt-get", "install", "-y", "-qq", "--no-install-recommends", f"{package}={version}"]
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env, check=False)
    if proc.returncode != 0:  # the package lists may be missing on a fresh machine
        subprocess.run(["apt-get", "update", "-qq"], capture_output=True, env=env, check=False)
        proc = subprocess.run(cmd, capture_output=True, text=True, env=env, check=False)
    if proc.returncode != 0 or _dpkg_version(package) != version:
        raise FetchError(
            f"could not install {package}={version}: {proc.stderr.strip()[-1000:]}\n"
            f"  hint: check `apt-cache policy {package}`; if Debian moved on, pin the new version in corpora.py"
        )


def _debian_copier(
    package: str, version: str, src: str, exclude: tuple[str, ...] = ()
) -> Callable[[Path], None]:
    def fetch(dest: Path) -> None:
        _ensure_deb(package, version)
        root = Path(src)
        if not root.is_dir():
            raise FetchError(f"{package} {version} is installed but {src} is missing")
        shutil.copytree(root, dest, symlinks=False, ignore=shutil.ignore_patterns(*exclude))

    return fetch


def _npm_copier(spec: str, keep: tuple[str, ...]) -> Callable[[Path], None]:
    """`npm pack spec`, then copy the tarball members under the `keep` prefixes (relative to package/)."""

    def fetch(dest: Path) -> None:
        with tempfile.TemporaryDirectory(prefix="qry-eval-npm-") as tmp:
            out = _run(["npm", "pack", spec, "--silent"], cwd=Path(tmp)).strip().splitlines()
            if not out:
                raise FetchError(f"npm pack {spec} printed no tarball name")
            tarball = Path(tmp) / out[-1].strip()
            with tarfile.open(tarball) as tar:
                for member in tar.getmembers():
                    rel = member.name.removeprefix("package/")
                    if not member.isfile() or not rel.startswith(keep) or ".." in Path(rel).parts:
                        continue
                    target = dest / rel
                    target.parent.mkdir(parents=True, exist_ok=True)
                    extracted = tar.extractfile(member)
                    if extracted is not None:
                        target.write_bytes(extracted.read())

    return fetch


def _python_version() -> str:
    return ".".join(str(x) for x in sys.version_info[:3])


CORPUS_LIST: tuple[Corpus, ...] = (
    Corpus(
        name="python-stdlib",
        language="python",
        version=_python_version(),
        source=f"CPython {_python_version()} standard library ({len(PYTHON_MODULES)} modules, no tests)",
        fetch=_copy_python_stdlib,
    ),
    Corpus(
        name="go-cobra",
        language="go",
        version="1.6.1-1",
        source="debian golang-github-spf13-cobra-dev (github.com/spf13/cobra)",
        fetch=_debian_copier(
            "golang-github-spf13-cobra-dev", "1.6.1-1", "/usr/share/gocode/src/github.com/spf13/cobra"
        ),
    ),
    Corpus(
        name="rust-regex-syntax",
        language="rust",
        version="0.6.27-1",
        source="debian librust-regex-syntax-dev (crate regex-syntax 0.6.27)",
        fetch=_debian_copier(
            "librust-regex-syntax-dev",
            "0.6.27-1",
            "/usr/share/cargo/registry/regex-syntax-0.6.27",
            exclude=(".cargo-checksum.json", "debian"),
        ),
    ),
    Corpus(
        name="ts-rxjs",
        language="typescript",
        version="7.8.1",
        source="npm rxjs@7.8.1 (its src/ TypeScript sources and README)",
        fetch=_npm_copier("rxjs@7.8.1", keep=("src/", "README.md")),
    ),
)


def get(names: list[str] | None = None) -> list[Corpus]:
    """The pinned corpora, all or those named (unknown names raise FetchError)."""
    if not names:
        return list(CORPUS_LIST)
    by_name = {c.name: c for c in CORPUS_LIST}
    missing = [n for n in names if n not in by_name]
    if missing:
        raise FetchError(f"unknown corpus {', '.join(missing)}; known: {', '.join(by_name)}")
    return [by_name[n] for n in names]


def is_fetched(corpus: Corpus) -> bool:
    """True when the cached copy exists and its stamp matches the pin."""
    if not corpus.dir.is_dir() or not corpus.stamp.is_file():
        return False
    try:
        stamp = json.loads(corpus.stamp.read_text())
    except (OSError, ValueError):
        return False
    return all(stamp.get(k) == v for k, v in corpus.stamp_data().items())


def ensure(corpus: Corpus) -> Path:
    """Fetch `corpus` into the cache unless its pinned copy is already there; returns its folder.

    The copy is made in a temporary sibling and renamed into place, so an interrupted fetch never
    leaves a half corpus that a later run would take as complete.
    """
    if is_fetched(corpus):
        return corpus.dir
    CORPORA.mkdir(parents=True, exist_ok=True)
    tmp = CORPORA / f".{corpus.name}.tmp"
    shutil.rmtree(tmp, ignore_errors=True)
    corpus.fetch(tmp)
    files = sum(1 for p in tmp.rglob("*") if p.is_file())
    if files == 0:
        raise FetchError(f"fetching {corpus.name} produced no files")
    shutil.rmtree(corpus.dir, ignore_errors=True)
    tmp.rename(corpus.dir)
    corpus.stamp.write_text(json.dumps({**corpus.stamp_data(), "files": files}, indent=2) + "\n")
    return corpus.dir


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("corpus", nargs="*", help="corpus names (default: all)")
    args = parser.parse_args(argv)
    try:
        for corpus in get(args.corpus):
            cached = is_fetched(corpus)
            path = ensure(corpus)
            state = "cached" if cached else "fetched"
            print(f"{corpus.name:20} {corpus.version:10} {state:8} {path}")
    except FetchError as exc:
        print(f"corpora: error: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
