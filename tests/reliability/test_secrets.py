"""Secrets end to end: what `qry index` stores, what `qry search` finds and prints, and who may read it.

A repository with fake credentials of the common forms (AWS key pair, PEM private key, GitHub and
Slack tokens, a JWT, a password in a URL, `password = "..."` assignments in code, .env and YAML) is
indexed; then no stored node (text, doc, signature), no raw index file we can read uncompressed, and
no search answer may contain any secret value, and snippets show `[REDACTED]` where it was. With
`--no-redact` the values are kept and found. The index directory is created readable by its owner
only (0700), whatever the umask.
"""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from tests.reliability.helpers import assert_clean, cli_env, qry

PEM_BODY = "\n".join(["MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gun",
                      "VTLw7onLRnrq0/IzW7yWR7QkrmBL7jTKEn5u+qKhbwKfBstIs+bMY2Zkp18gnTxK",
                      "LxoS2tFczGkPLPgizskuemMghRniWaoLcyehkd3qqGElvW/VDL5AaWTg0nLVkjRo"])  # fmt: skip
SECRETS = {
    "aws access key": "AKIAZ7Q3JX5TLW2RN4VP",
    "aws secret key": "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",
    "github token": "ghp_" + "aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3z5A",
    "slack token": "xoxb-2048-4096-Zq8RtY3uI9oP1aS5dF7g",
    "jwt": "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
    "url password": "S3cr3tP4ssw0rd",
    "python password": "hunter2-Xq9!vB7z",
    "env secret": "k8s9Df72hsQ01zLm",
    "yaml token": "tk_9f8e7d6c5b4a3210",
    "pem body line": PEM_BODY.splitlines()[1],
    # Round two: forms that were stored unredacted.
    "db pass": "Zx81kq-Lm2vQ",
    "azure account key": "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==",
    "rails secret_key_base": "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08" * 2,
    "basic auth": "YWRtaW46UzNjcjN0LUJhc2ljLTQy",  # admin:S3cr3t-Basic-42
    "signing salt": "3f786850e387550fdab836ed7e6dc881de23001b",
    "session hmac": "q8Zp3Lk9Xv2Rt7Yw1Nb5Mc4Hd6Gf0Js8Ae2Wu3Ki9Ol=",
    "token file name": "ghp_" + "Qw3eR5tY7uI9oP1aS3dF5gH7jK9lZ1xC3vB5",
}

FILES = {
    "settings.py": f'''"""Settings."""
AWS_ACCESS_KEY_ID = "{SECRETS['aws access key']}"
aws_secret_access_key = "{SECRETS['aws secret key']}"
GITHUB_TOKEN_VALUE = "{SECRETS['github token']}"
DATABASE_URL = "postgres://admin:{SECRETS['url password']}@db.internal:5432/app"


def connect_database():
    db_password = "{SECRETS['python password']}"
    slack = "{SECRETS['slack token']}"
    return open_connection(DATABASE_URL, db_password, slack)
''',
    "auth.js": f'''function sessionToken() {{
  const jwt = "{SECRETS['jwt']}";
  return jwt;
}}
''',
    "deploy/key.pem": f"-----BEGIN RSA PRIVATE KEY-----\n{PEM_BODY}\n-----END RSA PRIVATE KEY-----\n",
    "deploy/notes.md": f"# Deploy\n\nThe key:\n\n```\n-----BEGIN RSA PRIVATE KEY-----\n{PEM_BODY}\n"
                       "-----END RSA PRIVATE KEY-----\n```\n",
    ".env.txt": f"API_SECRET={SECRETS['env secret']}\n",
    "config.yaml": f"service:\n  auth_token: {SECRETS['yaml token']}\n",
    ".env.local.txt": f"DB_HOST=db.internal\nDB_PASS={SECRETS['db pass']}\n",
    "storage.py": f'CONN = "DefaultEndpointsProtocol=https;AccountName=acct;AccountKey={SECRETS["azure account key"]};'
                  'EndpointSuffix=core.windows.net"\n'
                  f'HEADERS = {{"Authorization": "Basic {SECRETS["basic auth"]}"}}\n',
    "config/secrets.yml": f"production:\n  secret_key_base: {SECRETS['rails secret_key_base']}\n"
                          f"  signing_salt: {SECRETS['signing salt']}\n"
                          f"  session_hmac: \"{SECRETS['session hmac']}\"\n",
    f"keys/{SECRETS['token file name']}.txt": "the deploy token is the file name\n",
}  # fmt: skip


def _repo(root: Path) -> Path:
    for rel, text in FILES.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root


def _stored_texts(index: Path) -> list[str]:
    """Every text field of every live node, read back through the snapshot."""
    from indexlib.snapshot import Snapshot
    from indexlib.store.store import Store

    snap = Snapshot.open(Store.open(index))
    out = []
    for _seg, stored in snap.iter_live_nodes():
        n = stored.node
        out += [n.text, n.doc, n.signature, n.name, n.qualified_name, n.path]
    return out


@pytest.fixture(scope="module")
def redacted(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict]:
    base = tmp_path_factory.mktemp("secrets")
    repo = _repo(base / "repo")
    index = base / "index"
    run = qry("index", repo, "--embed", "hash", "--no-git-times", "--json", "--index-dir", index)
    assert_clean(run, allowed=(0,))
    return index, json.loads(run.out)


def test_no_secret_is_stored(redacted: tuple[Path, dict]) -> None:
    index, report = redacted
    assert report["redacted"] >= len(SECRETS), report
    texts = "\n".join(_stored_texts(index))
    assert "[REDACTED]" in texts
    for what, value in SECRETS.items():
        assert value not in texts, f"{what} is stored in a node"
    # The raw files we can read without decompressing: tables, manifests, Tantivy's term dictionaries.
    raw = [p for p in index.rglob("*") if p.is_file() and (p.suffix in (".msgpack", ".json", ".term"))]
    assert raw
    for path in raw:
        data = path.read_bytes()
        for what, value in SECRETS.items():
            assert value.encode() not in data, f"{what} is in {path.relative_to(index)}"
            assert value.lower().encode() not in data, f"{what} (lower-cased) is in {path.relative_to(index)}"


@pytest.mark.parametrize("what", list(SECRETS))
def test_searching_for_a_secret_finds_nothing_that_shows_it(redacted: tuple[Path, dict], what: str) -> None:
    index, _report = redacted
    run = qry("search", "--json", "--index-dir", index, SECRETS[what])
    assert_clean(run)
    for hit in json.loads(run.out)["results"] if run.code == 0 else []:
        assert SECRETS[what] not in json.dumps(hit), f"{what} shown by {hit['path']}"


def test_snippets_show_redacted_where_the_secret_was(redacted: tuple[Path, dict]) -> None:
    index, _report = redacted
    run = qry("search", "--json", "--index-dir", index, "connect_database")
    assert_clean(run, allowed=(0,))
    top = json.loads(run.out)["results"][0]
    assert top["symbol"] == "connect_database"
    assert 'db_password = "[REDACTED]"' in top["snippet"]["text"], top["snippet"]["text"]
    run = qry("search", "--json", "--index-dir", index, "RSA PRIVATE KEY")
    texts = " ".join(h["snippet"]["text"] for h in json.loads(run.out)["results"])
    assert "-----BEGIN RSA PRIVATE KEY-----" in texts and PEM_BODY.splitlines()[0] not in texts


def test_no_redact_keeps_the_values(tmp_path: Path) -> None:
    repo = _repo(tmp_path / "repo")
    index = tmp_path / "index"
    run = qry(
        "index", repo, "--no-redact", "--embed", "none", "--no-git-times", "--json", "--index-dir", index
    )
    assert_clean(run, allowed=(0,))
    assert json.loads(run.out)["redacted"] == 0
    texts = "\n".join(_stored_texts(index))
    for what, value in SECRETS.items():
        assert value in texts, f"{what} should be kept with --no-redact"
    run = qry("search", "--json", "--index-dir", index, "connect_database")
    assert SECRETS["python password"] in json.loads(run.out)["results"][0]["snippet"]["text"]


def test_switching_redaction_on_purges_secrets_of_unchanged_files(tmp_path: Path) -> None:
    repo = _repo(tmp_path / "repo")
    index = tmp_path / "index"
    for extra in (["--no-redact"], []):
        run = qry("index", repo, *extra, "--embed", "none", "--no-git-times", "--quiet", "--index-dir", index)
        assert_clean(run, allowed=(0,))
    texts = "\n".join(_stored_texts(index))
    for what, value in SECRETS.items():
        assert value not in texts, f"{what} is still stored after re-indexing with redaction on"


def _modes(index: Path) -> dict[str, int]:
    return {
        p.relative_to(index).as_posix() or ".": stat.S_IMODE(p.lstat().st_mode)
        for p in [index, *index.rglob("*")]
    }


def _loose(index: Path) -> list[str]:
    """Everything under `index` that is not 0700 (directories) or 0600 (files)."""
    out = []
    for rel, mode in _modes(index).items():
        want = 0o700 if (index / rel).is_dir() else 0o600
        if mode != want:
            out.append(f"{rel}: {mode:o}")
    return out


@pytest.mark.parametrize("umask", [0o000, 0o022, 0o077])
def test_everything_qry_creates_is_private(tmp_path: Path, umask: int) -> None:
    """The permission matrix: index (with vectors), search (query caches), gc, under three umasks:
    every directory 0700 and every file 0600, Tantivy's and numpy's included."""
    repo = tmp_path / "repo"
    (repo / "src").mkdir(parents=True)
    (repo / "src" / "a.py").write_text("def a():\n    pass\n")
    (repo / "src" / "b.py").write_text("def b():\n    return a()\n")
    for args in (
        ("index", str(repo), "--embed", "hash", "--no-git-times", "--quiet"),
        ("search", "--index-dir", str(repo / ".qry"), "what calls a"),
        ("index", str(repo), "--embed", "hash", "--no-git-times", "--quiet", "--rebuild"),
        ("gc", "--keep", "1", "--index-dir", str(repo / ".qry")),
    ):
        proc = subprocess.run(
            [sys.executable, "-m", "cli", *args], capture_output=True, text=True, env=cli_env(), umask=umask, check=False
        )  # fmt: skip
        assert proc.returncode in (0, 1), proc.stderr
    index = repo / ".qry"
    assert any(p.name.startswith("vectors-") for p in index.rglob("*")), "vectors were written"
    assert _loose(index) == []


@pytest.mark.parametrize("umask", [0o000, 0o022])
def test_the_library_writes_private_files_too(tmp_path: Path, umask: int) -> None:
    """Without the CLI (which tightens the umask at entry), `build_index` holds the writer lock, and
    the lock adds 077 to the umask while held, then restores the caller's."""
    repo = tmp_path / "repo"
    (repo / "src").mkdir(parents=True)
    (repo / "src" / "a.py").write_text("def a():\n    pass\n")
    code = (
        "import os, sys; from pathlib import Path; from indexlib import BuildOptions, build_index; "
        "build_index(Path(sys.argv[1]), BuildOptions(embed='hash', git_times=False)); "
        "print(oct(os.umask(0)))"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code, str(repo)], capture_output=True, text=True, env=cli_env(), umask=umask, check=False
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert int(proc.stdout.strip(), 8) == umask, "the caller's umask is restored"
    assert _loose(repo / ".qry") == []


def test_an_existing_index_directory_is_made_private(tmp_path: Path) -> None:
    """`mkdir .qry` before the first `qry index` (umask 022): the build still leaves it 0700."""
    repo = tmp_path / "repo"
    (repo / "src").mkdir(parents=True)
    (repo / "src" / "a.py").write_text("def a():\n    pass\n")
    (repo / ".qry").mkdir()
    os.chmod(repo / ".qry", 0o755)
    proc = subprocess.run(
        [sys.executable, "-m", "cli", "index", str(repo), "--embed", "none", "--no-git-times", "--quiet"],
        capture_output=True, text=True, env=cli_env(), umask=0o022, check=False,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert stat.S_IMODE((repo / ".qry").stat().st_mode) == 0o700
