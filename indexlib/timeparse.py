"""Dates as people and git write them -> unix seconds.

Owns: `--since/--until/--as-of` values: ISO dates and datetimes (`2026-01-31`, `2026-01-31T12:00`,
with or without a zone; naive means UTC), relative phrases (`2 weeks ago`, `3 days`, `yesterday`,
`today`, `now`), unix timestamps (`@1700000000`), and git refs (`v1.2.0`, `HEAD~20`, a commit hash),
which resolve to the commit time of that ref in the indexed repository.
"""

from __future__ import annotations

import re
import subprocess
import time
from datetime import UTC, datetime
from pathlib import Path

from indexlib.errors import UsageError

_UNITS = {
    "s": 1, "sec": 1, "second": 1, "min": 60, "minute": 60, "h": 3600, "hour": 3600,
    "d": 86400, "day": 86400, "w": 604800, "week": 604800, "month": 2629746, "mo": 2629746,
    "y": 31556952, "year": 31556952,
}
_RELATIVE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([a-z]+?)s?\s*(?:ago)?\s*$", re.IGNORECASE)


def parse_when(text: str, repo: Path | str | None = None, *, now: float | None = None) -> int:
    """Parse a date-like value into unix seconds, or raise UsageError with the forms we accept.

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
    if low == "today":
        d = datetime.fromtimestamp(current, UTC)
        return int(datetime(d.year, d.month, d.day, tzinfo=UTC).timestamp())
    if low == "yesterday":
        d = datetime.fromtimestamp(current - 86400, UTC)
        return int(datetime(d.year, d.month, d.day, tzinfo=UTC).timestamp())
    if value.startswith("@") and value[1:].isdigit():
        return int(value[1:])
    m = _RELATIVE.match(value)
    if m and m.group(2).lower() in _UNITS:
        return int(current - float(m.group(1)) * _UNITS[m.group(2).lower()])
    try:
        dt = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        dt = None
    if dt is not None:
        if dt.tzinfo is None:
            dt = dt.replace(tzinfo=UTC)
        return int(dt.timestamp())
    if repo is not None:
        ts = _git_ref_time(Path(repo), value)
        if ts is not None:
            return ts
    raise UsageError(f"cannot read {text!r} as a date", hint=_HINT)


_HINT = "use an ISO date (2026-01-31), a phrase (2 weeks ago, yesterday) or a git ref (v1.2.0, HEAD~20)"


def _git_ref_time(repo: Path, ref: str) -> int | None:
    if ref.startswith("-"):
        return None  # never let a value become a git option
    try:
        out = subprocess.run(
            ["git", "-C", str(repo), "show", "-s", "--format=%ct", f"{ref}^{{commit}}", "--"],
            capture_output=True, text=True, timeout=10, check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    line = out.stdout.strip().splitlines()[:1]
    if out.returncode != 0 or not line or not line[0].isdigit():
        return None
    return int(line[0])
