"""Dates as people and git write them -> unix seconds.

Owns: `--since/--until/--as-of` values: ISO dates and datetimes (`2026-01-31`, `2026-01-31T12:00`,
with or without a zone; naive means UTC, a bare date is its midnight UTC), relative phrases
(`2 weeks ago`, `3 days`, `an hour ago`, `last month`, `yesterday`, `today`, `now`), unix timestamps
(`@1700000000`), and git refs (`v1.2.0`, `HEAD~20`, a commit hash), which resolve to the **commit
time** (`%ct`) of that ref in the indexed repository: node times are committer times too (gittimes.py),
so `--as-of v1.2.0` compares like with like.

Does not own: what the times are compared with (streams.py filters on the nodes' times).

Safety: a value is never handed to git as an option. Values starting with `-` are refused before git
runs, and the ref is passed after `--end-of-options` as well.
"""

from __future__ import annotations

import os
import re
import time
from datetime import UTC, datetime
from pathlib import Path

from indexlib.errors import UsageError

_UNITS = {
    "s": 1, "sec": 1, "second": 1, "min": 60, "minute": 60, "h": 3600, "hr": 3600, "hour": 3600,
    "d": 86400, "day": 86400, "w": 604800, "week": 604800, "month": 2629746, "mo": 2629746,
    "y": 31556952, "yr": 31556952, "year": 31556952,
}  # fmt: skip
_RELATIVE = re.compile(r"^(\d+(?:\.\d+)?|an?)\s*([a-z]+?)s?(?:\s+ago)?$", re.IGNORECASE)
_LAST = re.compile(r"^last\s+([a-z]+)$", re.IGNORECASE)

_HINT = (
    "use an ISO date (2026-01-31, 2026-01-31T12:00+02:00), a phrase (2 weeks ago, yesterday), "
    "@UNIX_SECONDS, or a git ref of the indexed repository (v1.2.0, HEAD~20)"
)


def parse_when(
    text: str, repo: Path | str | None = None, *, now: float | None = None, end_of_day: bool = False
) -> int:
    """Parse a date-like value into unix seconds, or raise UsageError with the forms we accept.

    `repo` is the indexed folder, used only to resolve git refs; `now` pins the clock for relative
    phrases (tests). With `end_of_day` a bare date (`2026-01-31`, `today`, `yesterday`) means the last
    second of that day: `--until 2026-01-31` keeps what changed on the 31st.

    >>> parse_when("2026-01-31")
    1769817600
    >>> parse_when("2 days ago", now=1_000_000)
    827200
    """
    value = text.strip()
    current = time.time() if now is None else now
    if not value:
        raise UsageError("empty date", hint=_HINT)
    low = value.lower()
    if low == "now":
        return int(current)
    extra = 86399 if end_of_day else 0
    if low in ("today", "yesterday"):
        d = datetime.fromtimestamp(current - (86400 if low == "yesterday" else 0), UTC)
        return int(datetime(d.year, d.month, d.day, tzinfo=UTC).timestamp()) + extra
    if value.startswith("@") and value[1:].isdigit():
        return int(value[1:])
    seconds = _relative_seconds(low)
    if seconds is not None:
        return int(current - seconds)
    dt = _iso(value)
    if dt is not None:
        return int(dt.timestamp()) + (extra if _DATE_ONLY.match(value) else 0)
    if value.startswith("-"):
        raise UsageError(f"cannot read {text!r} as a date", hint=_HINT)
    if repo is None:
        raise UsageError(
            f"cannot read {text!r} as a date", hint=_HINT + " (git refs need an index of a git repository)"
        )
    ts = _git_ref_time(Path(repo), value)
    if ts is None:
        raise UsageError(f"cannot read {text!r} as a date or a git ref of {repo}", hint=_HINT)
    return ts


_DATE_ONLY = re.compile(r"^\d{4}-\d{2}-\d{2}$")


def _relative_seconds(low: str) -> float | None:
    m = _LAST.match(low)
    if m is not None:
        unit = m.group(1)
        unit = unit if unit in _UNITS else unit.rstrip("s")
        return float(_UNITS[unit]) if unit in _UNITS else None
    m = _RELATIVE.match(low)
    if m is None or m.group(2) not in _UNITS:
        return None
    count = 1.0 if m.group(1) in ("a", "an") else float(m.group(1))
    return count * _UNITS[m.group(2)]


def _iso(value: str) -> datetime | None:
    try:
        dt = datetime.fromisoformat(value.replace("Z", "+00:00").replace("z", "+00:00"))
    except ValueError:
        return None
    return dt if dt.tzinfo is not None else dt.replace(tzinfo=UTC)


def _git_ref_time(repo: Path, ref: str) -> int | None:
    """The committer time of `ref` (peeled to a commit) in `repo`, or None if git cannot say."""
    if ref.startswith("-"):
        return None  # never let a value become a git option
    import subprocess  # only dates that name git refs pay for it

    env = dict(os.environ, GIT_TERMINAL_PROMPT="0", GIT_OPTIONAL_LOCKS="0", LC_ALL="C")
    for var in ("GIT_DIR", "GIT_WORK_TREE"):
        env.pop(var, None)
    base = ["git", "-C", str(repo), "-c", "log.showSignature=false"]
    try:
        sha = subprocess.run(
            [*base, "rev-parse", "--verify", "--quiet", "--end-of-options", f"{ref}^{{commit}}"],
            capture_output=True, text=True, timeout=10, check=False, env=env, stdin=subprocess.DEVNULL,
        )  # fmt: skip
        commit = sha.stdout.strip()
        if sha.returncode != 0 or not re.fullmatch(r"[0-9a-f]{40}|[0-9a-f]{64}", commit):
            return None
        out = subprocess.run(
            [*base, "show", "-s", "--format=%ct", commit, "--"],
            capture_output=True, text=True, timeout=10, check=False, env=env, stdin=subprocess.DEVNULL,
        )  # fmt: skip
    except (OSError, subprocess.SubprocessError):
        return None
    line = out.stdout.strip().splitlines()[:1]
    if out.returncode != 0 or not line or not line[0].lstrip("-").isdigit():
        return None
    return int(line[0])
