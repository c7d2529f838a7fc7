"""A JavaScript function handed around by its `bind`, or run by its `call` or `apply`, has the code
doing so as a caller (sindresorhus/execa's `subprocess.kill = subprocessKill.bind(undefined, {..})`)."""

from __future__ import annotations

from pathlib import Path

from indexlib import open_engine, related
from indexlib.api import Engine
from tests.repokit import make_repo

FILES = {
    "lib/kill.js": "export const subprocessKill = ({kill}, signal) => kill(signal);\n",
    "lib/spawn.js": (
        "import {subprocessKill} from './kill.js';\n\n"
        "const onExit = function (code) { return code; };\n\n"
        "export const spawn = (subprocess, options) => {\n"
        "\tsubprocess.kill = subprocessKill.bind(undefined, {kill: subprocess.kill, options});\n"
        "\tonExit.call(subprocess, 0);\n"
        "\tonExit.apply(subprocess, [1]);\n"
        "};\n"
    ),
    "lib/rpc.js": (
        "export class Rpc {\n\tcall(name) { return name; }\n}\n\n"
        "export const ask = (rpc) => rpc.call('ping');\n"
    ),
    # A parameter's `call` runs what the caller passes, not the module's function of that name.
    "lib/run.js": "export const task = () => 1;\n\nexport const runIt = (task) => task.call(null);\n",
}


def _calls(engine: Engine, symbol: str, direction: str) -> list[str]:
    edges = related(engine, symbol, callers=direction == "in", callees=direction == "out").related
    return sorted(r.symbol for r in edges if r.edge == "calls" and r.direction == direction)


def test_a_bound_or_called_function_has_its_caller(tmp_path: Path) -> None:
    """`subprocessKill` had no callers: only its `bind` was a call. A method named `call` of the
    repository's own is still what `rpc.call(..)` may call (and, by its name, `onExit.call(..)`)."""
    engine = open_engine(make_repo(tmp_path, FILES) / ".qry")
    assert _calls(engine, "subprocessKill", "in") == ["spawn"]
    assert {"onExit", "subprocessKill"} <= set(_calls(engine, "spawn", "out"))
    assert "ask" in _calls(engine, "Rpc.call", "in")
    assert _calls(engine, "task", "in") == []
