"""Lua: `function M.greet()` and `local function helper()` are definitions with their `---`
comments, `M:method` a member of M; calls are references, and `local x = require("a.b")` imports
a.b bound to x, so a call through x reaches the module it names."""

from __future__ import annotations

from pathlib import Path

from indexlib import BuildOptions, build_index, open_engine, related
from indexlib.index.parsing import parse_file
from indexlib.index.parsing.languages import detect_language
from tests.parsekit import node, table

GREET = b"""local json = require("cjson")
local util = require "lib.util"

local M = {}

--- Greets someone.
-- @param name the name
function M.greet(name)
  return util.format("hi %s", name)
end

function M:method(x) self:other(x) end

local function helper(a) print(a) end

return M
"""


def test_lua_table_functions_are_named_by_their_table() -> None:
    source = b"""local M = {
  --- Opens the window.
  on_open = function(win) return win end,
  keys = { close = function() end },
}
return M
"""
    parsed = parse_file("lua/ui.lua", source, "lua")
    on_open = node(parsed, "M.on_open")
    assert (on_open.kind, on_open.doc, on_open.start_line) == ("function", "Opens the window.", 2)
    assert node(parsed, "M.keys.close").kind == "function"


def test_lua_files_are_code() -> None:
    assert detect_language("lua/plugin/init.lua") == "lua"
    assert detect_language("bin/tool", b"#!/usr/bin/env lua\n") == "lua"
    assert detect_language("rockspecs/luarocks-3.11.1-1.rockspec") == "lua"  # was left out


def test_lua_definitions_and_references() -> None:
    parsed = parse_file("lua/greet.lua", GREET, "lua")
    defs = table(parsed)
    assert defs["M.greet"][:3] == ("function", 6, 10)
    assert node(parsed, "M.greet").doc == "Greets someone.\n@param name the name"
    assert defs["M.method"][0] == "function" and defs["helper"][0] == "function"
    assert node(parsed, "M.method").signature == "function M:method(x)"
    imports = {(r.target, r.alias) for r in parsed.refs if r.kind == "imports"}
    assert imports == {("cjson", "json"), ("lib.util", "util")}
    names = {n.uid: n.qualified_name for n in parsed.nodes}
    calls = {(names[r.src_uid], r.target) for r in parsed.refs if r.kind == "calls"}
    assert {("M.greet", "util.format"), ("M.method", "self.other"), ("helper", "print")} <= calls


def test_a_call_through_a_required_module_resolves(tmp_path: Path) -> None:
    (tmp_path / "lua/lib").mkdir(parents=True)
    (tmp_path / "lua/lib/util.lua").write_text("local U = {}\nfunction U.format(s) return s end\nreturn U\n")
    (tmp_path / "lua/greet.lua").write_bytes(GREET)
    build_index(tmp_path, BuildOptions(embed="none"))
    res = related(open_engine(tmp_path / ".qry"), "M.greet", callers=False, callees=True, depth=1)
    callees = {(r.symbol, r.path) for r in res.related if r.direction == "out"}
    assert ("U.format", "lua/lib/util.lua") in callees


def test_lua_assigned_functions_self_calls_and_file_local_tables(tmp_path: Path) -> None:
    """`M.greet = function()` is a function; `self:layout()` in `function M:mount()` calls the file's
    `M.layout`; `M.load()` calls its own file's `M.load`, not another module's table named M too."""
    (tmp_path / "lua/view").mkdir(parents=True)
    (tmp_path / "lua/view/float.lua").write_text(
        "local M = {}\n--- Greets.\nM.greet = function(name)\n  return name\nend\n"
        "function M:layout() end\nfunction M:mount()\n  self:layout()\n  M.load()\nend\n"
        "function M.load() end\nreturn M\n"
    )
    (tmp_path / "lua/core.lua").write_text(
        "local M = {}\nfunction M.load() end\nfunction M.layout() end\nreturn M\n"
    )
    parsed = parse_file("lua/view/float.lua", (tmp_path / "lua/view/float.lua").read_bytes(), "lua")
    greet = node(parsed, "M.greet")
    assert (greet.kind, greet.doc, greet.signature) == ("function", "Greets.", "M.greet = function(name)")
    build_index(tmp_path, BuildOptions(embed="none"))
    res = related(
        open_engine(tmp_path / ".qry"), "lua/view/float.lua:M.mount", callers=False, callees=True, depth=1
    )
    callees = {(r.symbol, r.path, r.ambiguous) for r in res.related if r.direction == "out"}
    assert callees == {("M.layout", "lua/view/float.lua", False), ("M.load", "lua/view/float.lua", False)}


# lume's private helpers are all written this way: `local iteratee = function(x)`.
LOCALS = b"""local lume = {}

--- Does nothing.
local noop = function()
end

-- Returns its argument.
local identity = function(x)
  return x
end

function lume.fn(fn, ...)
  return function() return fn(...) end
end

function lume.map(t, fn)
  fn = identity(fn)
  local rtn = {}
  for k, v in pairs(t) do rtn[k] = fn(v) end
  noop()
  return rtn
end

return lume
"""


def test_a_function_held_by_a_file_local_is_a_definition_from_local_on() -> None:
    parsed = parse_file("lume.lua", LOCALS, "lua")
    defs = table(parsed)
    assert defs["noop"][:3] == ("function", 3, 5) and defs["identity"][:3] == ("function", 7, 10)
    identity = node(parsed, "identity")
    assert (identity.signature, identity.doc) == ("local identity = function(x)", "Returns its argument.")
    assert identity.text.startswith("-- Returns its argument.\nlocal identity")


def test_a_bare_call_never_reaches_a_function_of_a_table(tmp_path: Path) -> None:
    """`fn(v)` in `lume.map` calls its parameter: `lume.fn` is reached only as `lume.fn`."""
    (tmp_path / "lume.lua").write_bytes(LOCALS)
    build_index(tmp_path, BuildOptions(embed="none"))
    res = related(open_engine(tmp_path / ".qry"), "lume.map", callers=False, callees=True, depth=1)
    assert {(r.symbol, r.ambiguous) for r in res.related if r.direction == "out"} == {
        ("identity", False),
        ("noop", False),
    }


def test_a_function_under_a_string_key_is_named_by_the_key_when_it_is_a_name() -> None:
    """`t["close"] = function` is `t.close`; under a key that is no name (a busted-style test title,
    a computed index) it is no definition, where each was one more definition named `t`."""
    source = b"""local t = {}
t["close"] = function() end
t.ui["open"] = function() end
t["parses numbers"] = function() assert(true) end
t[1] = function() end
return t
"""
    parsed = parse_file("t.lua", source, "lua")
    defined = [(n.qualified_name, n.start_line) for n in parsed.nodes if n.kind == "function"]
    assert defined == [("t.close", 2), ("t.ui.open", 3)]


def test_a_table_field_keyed_by_a_string_holding_a_name_is_a_function() -> None:
    """lume's serializers by type (`local serialize_map = { ["table"] = function(t, stk) .. end }`)
    were no definitions, so "circular reference" found the module; a string key holding a name is
    that name, as `table = function` is, at any depth; one that is no name still defines nothing."""
    source = b"""local serialize_map = {
  [ "boolean" ] = tostring,
  [ "table"   ] = function(t, stk)
    if stk[t] then error("circular reference") end
  end,
  ["not a name"] = function() end,
  ["ui"] = { ["open"] = function() end, close = function() end },
}
"""
    parsed = parse_file("s.lua", source, "lua")
    defined = [(n.qualified_name, n.start_line, n.end_line) for n in parsed.nodes if n.kind == "function"]
    assert defined == [
        ("serialize_map.table", 3, 5),
        ("serialize_map.ui.open", 7, 7),
        ("serialize_map.ui.close", 7, 7),
    ]
