"""Shared helpers of the reliability tests: run `qry` as a real process, generate repositories, compare
answers, and check an index directory for leftovers.

Owns: how these tests launch qry (`python -m cli`, no tty, NO_COLOR, no inherited QRY_INDEX_DIR, git
times off so builds are quick and deterministic), the "clean exit" contract every hostile case must
meet (exit 0/1, or 2 with `qry: error:`, never a traceback), the projection of a `--json` answer that
two equal snapshots must share, and the post-gc orphan check. Does not own any assertion about a
particular scenario: the test modules do that.
"""

from __future__ import annotations

import io
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

QRY = (sys.executable, "-m", "cli")
WORDS = (
    "alpha", "beta", "gamma", "delta", "parse", "config", "charge", "retry", "socket", "buffer", "token",
    "render", "index", "query", "cache", "merge",
)  # fmt: skip


def cli_env(**extra: str) -> dict[str, str]:
    """The environment qry runs in: no colour, fixed width, and no index named by the caller's shell."""
    env = {k: v for k, v in os.environ.items() if k != "QRY_INDEX_DIR"}
    env.update({"NO_COLOR": "1", "COLUMNS": "120", "PYTHONDONTWRITEBYTECODE": "1"})
    env.update(extra)
    return env


@dataclass(frozen=True, slots=True)
class Run:
    """One finished qry process."""

    args: tuple[str | bytes, ...]
    code: int
    out: str
    err: str

    def describe(self) -> str:
        shown = " ".join(a if isinstance(a, str) else repr(a) for a in self.args)
        return (
            f"qry {shown[:300]} -> {self.code}\n--- stdout\n{self.out[:2000]}\n--- stderr\n{self.err[-3000:]}"
        )


def qry(*args: str | bytes | Path, timeout: float = 300, cwd: Path | None = None) -> Run:
    """Run qry to completion. Arguments may be bytes (argv that is not valid UTF-8)."""
    argv = [a if isinstance(a, bytes) else str(a) for a in args]
    proc = subprocess.run(
        [*QRY, *argv], capture_output=True, timeout=timeout, cwd=cwd, env=cli_env(), check=False
    )
    return Run(
        args=tuple(argv),
        code=proc.returncode,
        out=proc.stdout.decode("utf-8", "replace"),
        err=proc.stderr.decode("utf-8", "replace"),
    )


def start_qry(*args: str | Path) -> subprocess.Popen[bytes]:
    """Start qry in the background, in its own session (so its process group holds qry and any worker
    processes it forks, and a signal can reach exactly those). Output goes to temporary files, not
    pipes: a leftover worker holding a pipe open would otherwise block the reader forever."""
    # Closed by finish(): they must outlive this call.
    out, err = tempfile.TemporaryFile(), tempfile.TemporaryFile()  # noqa: SIM115
    proc = subprocess.Popen(
        [*QRY, *map(str, args)], stdout=out, stderr=err, env=cli_env(), start_new_session=True
    )
    _OUTPUTS[proc.pid] = (out, err)
    return proc


_OUTPUTS: dict[int, tuple[Any, Any]] = {}


def finish(proc: subprocess.Popen[bytes], timeout: float = 300) -> Run:
    """Wait for a background qry and collect it as a Run; a hang fails the test (after the process
    group is killed, so nothing is left running)."""
    try:
        proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        kill_group(proc)
        proc.wait()
        raise AssertionError(f"qry did not exit within {timeout} s: {_read(proc)[1][-2000:]}") from None
    out, err = _read(proc)
    for handle in _OUTPUTS.pop(proc.pid, ()):
        handle.close()
    args = proc.args if isinstance(proc.args, list) else []
    return Run(args=tuple(str(a) for a in args[len(QRY) :]), code=proc.returncode, out=out, err=err)


def _read(proc: subprocess.Popen[bytes]) -> tuple[str, str]:
    texts = []
    for handle in _OUTPUTS.get(proc.pid, ()):
        handle.seek(0)
        texts.append(handle.read().decode("utf-8", "replace"))
    return (texts[0], texts[1]) if len(texts) == 2 else ("", "")


def _proc_stats() -> list[tuple[int, list[bytes]]]:
    """(pid, the /proc/PID/stat fields after the command name) of every live process (Linux)."""
    out = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as fh:
                stat = fh.read()
        except OSError:
            continue
        out.append((int(entry), stat[stat.rfind(b")") + 2 :].split()))
    return out


def children(pid: int) -> list[int]:
    """Pids whose parent is `pid` (Linux /proc), e.g. the parse workers of a running build."""
    return [p for p, fields in _proc_stats() if len(fields) > 1 and int(fields[1]) == pid]


def group_members(pgid: int) -> list[int]:
    """Live pids of process group `pgid` (zombies excluded)."""
    return [p for p, f in _proc_stats() if len(f) > 2 and f[0] != b"Z" and int(f[2]) == pgid]


def assert_clean(run: Run, allowed: Iterable[int] = (0, 1)) -> None:
    """The hostile-input contract: an allowed exit status, or 2 with a `qry: error:` line and a hint;
    never a traceback and never a swallowed internal failure reported as a warning."""
    assert "Traceback" not in run.err, run.describe()
    assert "stream failed" not in run.err and "expansion failed" not in run.err, run.describe()
    if run.code == 2:
        assert run.err.startswith("qry: error: "), run.describe()
    else:
        assert run.code in tuple(allowed), run.describe()


# -- repositories ---------------------------------------------------------------------------------


def write_repo(root: Path, n_files: int, *, variant: str = "a", seed: int = 0) -> None:
    """A deterministic Python repository of `n_files` small modules (about 9 nodes each).

    Variant "a" and "b" write the same paths with different content, so indexing b over a's index
    re-parses every file. Each variant has a marker word only it contains (`alphaonlya`, `omegaonlyb`),
    so a query can tell the two snapshots apart.
    """
    rnd = random.Random(f"{seed}-{variant}")
    marker = "alphaonlya" if variant == "a" else "omegaonlyb"
    for i in range(n_files):
        d = root / f"pkg{i % 40:02d}" / f"sub{i % 7}"
        d.mkdir(parents=True, exist_ok=True)
        lines = [f'"""Module {i} ({variant})."""', "import os", ""]
        for j in range(6):
            a, b = rnd.choice(WORDS), rnd.choice(WORDS)
            lines += [
                f"def {a}_{b}_{i}_{j}(x, y):",
                f'    """Do {a} with {b}."""',
                "    z = os.path.join(str(x), str(y))",
                f"    return {a}_{b}_helper(z)",
                "",
            ]
        if i % 50 == 0:
            lines += [f"def {marker}_{i}():", f"    return {i}", ""]
        lines += [f"class {WORDS[i % 16].title()}Thing{i}:", "    def run(self):", f"        return {i}", ""]
        (d / f"mod_{i}.py").write_text("\n".join(lines))


def touch_file(root: Path, i: int, generation: int) -> None:
    """Change one module of a `write_repo` tree (an incremental edit)."""
    path = root / f"pkg{i % 40:02d}" / f"sub{i % 7}" / f"mod_{i}.py"
    path.write_text(path.read_text() + f"\ndef edited_{generation}_{i}():\n    return {generation}\n")


# -- answers ---------------------------------------------------------------------------------------

Answer = list[tuple[Any, ...]]


def project(result: dict[str, Any]) -> Answer:
    """What two readers of the same root must agree on: the hits, their scores and snippets, and the
    related nodes. Volatile or disk-dependent fields (elapsed, stale, last_changed) are left out."""
    return [
        (
            h["uid"],
            h["path"],
            h["symbol"],
            h["start_line"],
            h["end_line"],
            round(h["score"], 6),
            h["snippet"]["text"],
            tuple(r["uid"] for r in h.get("related", [])),
        )
        for h in result["results"]
    ]


def search_json(
    index_dir: Path, query: str, *, root: str | None = None, top_k: int = 10
) -> tuple[int, str, str]:
    """Run the body of `qry search --json` in this process: (exit status, stdout, stderr).

    It is the same code path as the CLI after argument parsing (cli/searchcmd.py), without paying an
    interpreter start per query, so loops can sample many times during a concurrent build.
    """
    from cli.console import Env
    from cli.searchcmd import search_command

    out, err = io.StringIO(), io.StringIO()
    env = Env(stdout=out, stderr=err, stdout_tty=False, stderr_tty=False, color=False)
    values: dict[str, Any] = {"index_dir": str(index_dir), "json": True, "top_k": top_k, "root": root}
    code = search_command(env, query, values)
    return code, out.getvalue(), err.getvalue()


def answers(index_dir: Path, queries: Sequence[str], *, root: str | None = None) -> dict[str, Answer]:
    """Projected answers of `queries` on `root` (default HEAD); fails on any error."""
    found: dict[str, Answer] = {}
    for q in queries:
        code, out, err = search_json(index_dir, q, root=root)
        assert code in (0, 1) and "Traceback" not in err and "failed" not in err, (q, code, err)
        found[q] = project(json.loads(out))
    return found


# -- the index directory ---------------------------------------------------------------------------


def head_of(index_dir: Path) -> str | None:
    try:
        return (index_dir / "HEAD").read_text().strip()
    except FileNotFoundError:
        return None


def load_manifest(index_dir: Path, root_id: str) -> Any:
    from indexlib.store.manifest import decode_manifest

    return decode_manifest((index_dir / "roots" / f"{root_id}.json").read_bytes())


def assert_no_orphans(index_dir: Path) -> list[str]:
    """After `qry gc`: nothing in tmp/, every root file is a kept root (HEAD's chain), every segment
    directory is named by a kept root, and every kept root verifies. Returns the kept root ids."""
    tmp = index_dir / "tmp"
    leftovers = sorted(p.name for p in tmp.iterdir()) if tmp.is_dir() else []
    assert not leftovers, f"staging left in tmp/ after gc: {leftovers}"
    head = head_of(index_dir)
    assert head is not None
    kept: list[str] = []
    rid: str | None = head
    while rid is not None and rid not in kept and (index_dir / "roots" / f"{rid}.json").exists():
        kept.append(rid)
        rid = load_manifest(index_dir, rid).parent
    on_disk = sorted(p.name[: -len(".json")] for p in (index_dir / "roots").iterdir())
    assert sorted(kept) == on_disk, f"roots on disk {on_disk}, kept chain {kept}"
    named = {seg.id for r in kept for seg in load_manifest(index_dir, r).segments}
    seg_dirs = {p.name for p in (index_dir / "segments").iterdir()}
    assert seg_dirs == named, f"orphan segments {seg_dirs - named}, missing {named - seg_dirs}"
    from indexlib.store.store import Store

    store = Store.open(index_dir)
    for r in kept:
        assert store.verify(r) == [], f"kept root {r} does not verify"
    return kept


def wait_for(predicate: Callable[[], bool], timeout: float, *, poll: float = 0.001) -> bool:
    """Poll until `predicate()` holds or `timeout` seconds pass; True if it held."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(poll)
    return predicate()


def holds_lock(index_dir: Path, pid: int) -> bool:
    """True once process `pid` has taken the writer lock (the lock file names its holder)."""
    try:
        return f"pid={pid} " in (index_dir / "lock").read_text()
    except OSError:
        return False


def kill(proc: subprocess.Popen[bytes], sig: int = signal.SIGKILL, *, group: bool = False) -> None:
    """Send `sig` to a background qry: to its process only (`kill PID`), or with group=True to its
    whole process group, workers included (what a terminal's Ctrl-C or a CI timeout does)."""
    try:
        if group:
            os.killpg(proc.pid, sig)
        elif proc.poll() is None:
            os.kill(proc.pid, sig)
    except ProcessLookupError:
        pass


def kill_group(proc: subprocess.Popen[bytes]) -> None:
    """SIGKILL whatever is left of a background qry's process group (cleanup after a test)."""
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
