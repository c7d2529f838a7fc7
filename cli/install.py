"""How this qry was installed, so that an install hint names a command that works.

Owns: the distribution name and the install command of an optional extra. The distribution is
`qry-search` (the command stays `qry`, the import packages `cli` and `indexlib`): `qry` on PyPI is an
unrelated project, and `pip install 'qry[mcp]'` would replace this one with it. A source checkout
(the folder holding pyproject.toml next to `cli/`, as an editable install or `python -m cli` sees it)
gets `pip install -e 'DIR[mcp]'`; an installed wheel gets `pip install 'qry-search[mcp]'`.
"""

from __future__ import annotations

import shlex
from pathlib import Path

DISTRIBUTION = "qry-search"


def source_checkout() -> Path | None:
    """The source checkout this code runs from, or None for an installed wheel (site-packages)."""
    top = Path(__file__).resolve().parents[1]
    if (top / "pyproject.toml").is_file() and (top / "indexlib").is_dir():
        return top
    return None


def extra_install_command(extra: str) -> str:
    """The pip command that adds `extra`: `pip install 'qry-search[mcp]'`, or `-e` on a checkout."""
    checkout = source_checkout()
    if checkout is not None:
        return f"pip install -e {shlex.quote(f'{checkout}[{extra}]')}"
    return f"pip install {shlex.quote(f'{DISTRIBUTION}[{extra}]')}"
