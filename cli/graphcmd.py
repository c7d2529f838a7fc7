"""Bodies of `qry related` and `qry graph`."""

from __future__ import annotations

import re
from pathlib import Path

from cli.console import Env, Exit, guarded
from cli.render import print_table, safe_line, to_json


def related_command(
    env: Env,
    symbol: str,
    callers: bool,
    callees: bool,
    depth: int,
    index_dir: Path | None,
    root: str | None,
    json: bool,
) -> int:
    def run() -> int:
        from indexlib import open_engine, related

        both = not callers and not callees
        res = related(
            open_engine(index_dir),
            symbol,
            callers=callers or both,
            callees=callees or both,
            depth=depth,
            root=root,
        )
        if json:
            env.out(to_json(res) + "\n")
            if res.ambiguous:
                return Exit.ERROR
            return Exit.OK if res.node else Exit.NO_MATCH
        if res.ambiguous:
            env.err(f"qry: error: {symbol!r} names {len(res.candidates)} definitions\n")
            for c in res.candidates:
                env.err(
                    f"  {safe_line(c.symbol)}  {c.kind}  {safe_line(c.path)}:{c.start_line}  (uid {c.uid})\n"
                )
            first = res.candidates[0]
            env.err(
                f"  hint: qualify the name (module.name, Class.method, or path:name such as "
                f"{safe_line(first.path)}:{safe_line(first.symbol)}) or pass one of the uids\n"
            )
            return Exit.ERROR
        if res.node is None:
            env.err(f"qry: no definition named {symbol!r}\n")
            if res.closest:
                near = ", ".join(
                    f"{safe_line(c.symbol)} ({safe_line(c.path)}:{c.start_line})" for c in res.closest
                )
                env.err(f"  hint: the closest names: {near}\n")
            else:
                env.err(f"  hint: qry search {safe_line(symbol)!r} finds where the words occur\n")
            return Exit.NO_MATCH
        n = res.node
        env.err(f"{safe_line(n.symbol)} ({n.kind}) {safe_line(n.path)}:{n.start_line}-{n.end_line}\n")
        rows = [
            [
                ("<- " if r.direction == "in" else "-> ") + r.edge,
                r.symbol,
                r.kind,
                f"{r.path}:{r.start_line}",
                r.depth,
                "ambiguous" if r.ambiguous else "",
            ]
            for r in res.related
        ]
        print_table(
            env, f"related to {n.symbol}", ["edge", "symbol", "kind", "location", "depth", "note"], rows
        )
        return Exit.OK

    return guarded(env, run, json_out=json)


def _parse_params(items: list[str]) -> dict[str, object]:
    from indexlib import UsageError

    out: dict[str, object] = {}
    for item in items:
        name, sep, value = item.partition("=")
        if not sep or not name.strip():
            raise UsageError(f"--param {item!r} is not NAME=VALUE", hint="e.g. --param name=parse_config")
        v: object = value
        if value.lstrip("-").isdigit():
            v = int(value)
        out[name.strip()] = v
    return out


def graph_command(
    env: Env, query: str, params: list[str], index_dir: Path | None, root: str | None, json: bool
) -> int:
    def run() -> int:
        from indexlib import QryError, graph_query, open_engine

        try:
            res = graph_query(open_engine(index_dir), query, _parse_params(params), root=root)
        except QryError as exc:
            if exc.code != "param_missing":
                raise
            name = re.search(r"\$(\w+)", exc.message)
            exc.hint = (  # the library's hint speaks of MCP's params object; here it is an option
                f"pass it with --param {name.group(1) if name else 'NAME'}=VALUE; "
                "values are bound, never spliced into the text"
            )
            raise
        if json:
            env.out(to_json(res) + "\n")
        else:
            # A node or a list (RETURN f, collect(...)) is shown as JSON, never as a Python repr.
            rows = [
                [v if isinstance(v, str | int | float) or v is None else to_json(v) for v in r]
                for r in res.rows
            ]
            print_table(env, "graph query", list(res.columns), rows)
            if res.truncated:
                env.err("qry: note: more rows matched than LIMIT returned (truncated)\n")
        return Exit.OK if res.rows else Exit.NO_MATCH

    return guarded(env, run, json_out=json)
