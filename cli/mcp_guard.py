"""Guards on the MCP stdio wire, applied to each incoming line before the SDK sees it. Pure: no `mcp`.

Owns: what the server does with a line the SDK would drop without a reply (the client then waits
forever): malformed JSON gets JSON-RPC's -32700 Parse error; a message that is not a JSON-RPC 2.0
object, is larger than `MAX_MESSAGE_BYTES` or nested deeper than `MAX_JSON_DEPTH` gets -32600 Invalid
Request (100k-deep params used to take the SDK's parser past its recursion limit, silently); lone
surrogates (`"\\ud800"`, valid JSON but not UTF-8) become U+FFFD, as query text does on the command
line, so the call is answered; a `tools/call` naming an argument its tool does not take (`limit` for
`top_k`) gets a tool error naming it and the nearest argument, where the SDK would drop it and answer
as if it were never sent. Does not own: the protocol itself, or writing the replies
(`cli/mcp_wire.py` wires this into the SDK's stdio transport).
"""

from __future__ import annotations

import difflib
import json
import re
from collections.abc import Mapping
from typing import Any

__all__ = ["MAX_JSON_DEPTH", "MAX_MESSAGE_BYTES", "guard_line"]

MAX_MESSAGE_BYTES = 4 << 20  # a tools/call with a 4,096-character query is a few kB
MAX_JSON_DEPTH = 64  # our tools take flat arguments; graph params nest a little

PARSE_ERROR = -32700
INVALID_REQUEST = -32600

_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_BRACKET = re.compile(r"[\[\]{}]")
_SURROGATE = re.compile("[\ud800-\udfff]")


def _reply(code: int, message: str, msg_id: Any = None) -> str:
    return json.dumps({"jsonrpc": "2.0", "id": msg_id, "error": {"code": code, "message": message}})


def _depth(line: str) -> int:
    """The deepest bracket nesting outside strings (linear: strings first blanked by one regex pass)."""
    depth = deepest = 0
    for m in _BRACKET.finditer(_STRING.sub('""', line)):
        if m.group() in "[{":
            depth += 1
            deepest = max(deepest, depth)
        else:
            depth -= 1
    return deepest


def _clean(value: Any) -> tuple[Any, bool]:
    """`value` with lone surrogates in its strings (keys too) replaced by U+FFFD; (value, changed)."""
    if isinstance(value, str):
        fixed = _SURROGATE.sub("\ufffd", value)
        return fixed, fixed != value
    if isinstance(value, list):
        pairs = [_clean(v) for v in value]
        return [v for v, _c in pairs], any(c for _v, c in pairs)
    if isinstance(value, dict):
        out: dict[str, Any] = {}
        changed = False
        for k, v in value.items():
            k2, ck = _clean(k)
            v2, cv = _clean(v)
            out[k2] = v2
            changed = changed or ck or cv
        return out, changed
    return value, False


def _unknown_arguments(
    message: dict[str, Any], known: Mapping[str, frozenset[str]], msg_id: Any
) -> str | None:
    """The tool-error reply (a `CallToolResult` with `isError`, its text the usage error's JSON) to a
    `tools/call` whose arguments name one its tool does not take; None when every argument is known."""
    params = message.get("params")
    if message.get("method") != "tools/call" or msg_id is None or not isinstance(params, dict):
        return None
    name, args = params.get("name"), params.get("arguments")
    takes = known.get(name) if isinstance(name, str) else None
    if takes is None or not isinstance(args, dict):
        return None  # an unknown tool or malformed arguments: the SDK's own error says so
    extra = sorted(str(k) for k in args if k not in takes)
    if not extra:
        return None
    near = difflib.get_close_matches(extra[0], sorted(takes), n=1)
    error = {
        "isError": True,
        "error": f"{name} takes no argument {', '.join(repr(k) for k in extra)}",
        "hint": (f"did you mean {near[0]!r}? " if near else "") + f"{name} takes: {', '.join(sorted(takes))}",
        "code": "usage",
    }
    text = json.dumps(error, ensure_ascii=False)
    result = {"content": [{"type": "text", "text": text}], "isError": True}
    return json.dumps({"jsonrpc": "2.0", "id": msg_id, "result": result}, ensure_ascii=False)


def guard_line(line: str, known: Mapping[str, frozenset[str]] | None = None) -> tuple[str | None, str | None]:
    """(the line to hand to the SDK, or None; a JSON-RPC error reply to send back, or None).

    `known` maps each tool to the arguments it takes (from its input schema).

    >>> guard_line('{"jsonrpc": "2.0", "id": 1, "method": "ping"}')[1] is None
    True
    >>> guard_line("{oops")[1].startswith('{"jsonrpc": "2.0", "id": null, "error": {"code": -32700')
    True
    """
    text = line.strip()
    if not text:
        return None, None
    if len(text.encode("utf-8", "surrogatepass")) > MAX_MESSAGE_BYTES:
        return None, _reply(INVALID_REQUEST, f"Invalid Request: message over {MAX_MESSAGE_BYTES} bytes")
    if _depth(text) > MAX_JSON_DEPTH:
        return None, _reply(
            INVALID_REQUEST, f"Invalid Request: JSON nested deeper than {MAX_JSON_DEPTH} levels"
        )
    try:
        message = json.loads(text)
    except (ValueError, RecursionError) as exc:
        return None, _reply(PARSE_ERROR, f"Parse error: {str(exc)[:200]}")
    msg_id = message.get("id") if isinstance(message, dict) else None
    if not isinstance(msg_id, str | int) or isinstance(msg_id, bool):
        msg_id = None
    if (
        not isinstance(message, dict)
        or message.get("jsonrpc") != "2.0"
        or not ("method" in message or "result" in message or "error" in message)
    ):
        return None, _reply(INVALID_REQUEST, "Invalid Request: not a JSON-RPC 2.0 message object", msg_id)
    cleaned, changed = _clean(message)
    refused = _unknown_arguments(cleaned, known or {}, msg_id)
    if refused is not None:
        return None, refused
    return (json.dumps(cleaned, ensure_ascii=False) if changed else text), None
