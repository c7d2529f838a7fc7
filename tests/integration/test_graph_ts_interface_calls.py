"""A TypeScript interface names a type alone: no call or `new` reaches it (graph/family.py
`names_a_value`, read by graph/resolve.py). On honojs/hono 150 `new Response(..)` (the runtime's
class) linked, certain, to the client's `export interface Response extends
ClientResponse<unknown> {}`, and 28 `new Set(..)` to `src/context.ts`'s `interface Set<E>`; a class
or function of the name is still called, and a class still implements the interface."""

from __future__ import annotations

from pathlib import Path

from indexlib import open_engine, related
from tests.repokit import calls, make_repo

FILES = {
    "src/client/types.ts": "export interface Response {\n  ok: boolean\n}\n\n"
    "export interface Set<E> {\n  has(e: E): boolean\n}\n",
    "src/store.ts": "export class Store {\n  get(): number {\n    return 1\n  }\n}\n",
    "src/auth.ts": "import { Store } from './store'\n\n"
    "export function deny(msg: string) {\n  const seen = new Set([msg])\n"
    "  const store = new Store()\n  return new Response(msg, { status: 401 })\n}\n",
    "src/ok.ts": "import type { Response } from './client/types'\n\n"
    "export class Ok implements Response {\n  ok = true\n}\n",
}


def test_a_call_or_new_never_reaches_a_typescript_interface(tmp_path: Path) -> None:
    repo = make_repo(tmp_path, FILES)
    assert calls(repo, "deny") == [("Store", False)]
    assert calls(repo, "src/client/types.ts:Response", out=False) == []


def test_a_class_still_implements_the_interface(tmp_path: Path) -> None:
    repo = make_repo(tmp_path, FILES)
    rows = related(open_engine(repo / ".qry"), "Ok").related
    assert ("implements", "Response") in {(r.edge, r.symbol) for r in rows if r.direction == "out"}
