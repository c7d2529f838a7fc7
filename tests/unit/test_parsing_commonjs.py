"""JavaScript written as statements: what a CommonJS module or a prototype-style class defines by
assignment, and a getter by a property-definition call (real tree-sitter parsing).

A chained assignment defines every name it assigns; `exports.X = value` is a module constant named as
`exports.run = function` is (`X`); `defineGetter(obj, 'x', fn)` and `Object.defineProperty(obj, 'x',
{get})` define `obj.x`; a member assigned to a module-level object or constructor is its member; and a
JSDoc block documents the definition below it across blank lines, unless it is the file's own.
"""

from __future__ import annotations

from indexlib.index.parsing import parse_file
from indexlib.records import Node, ParsedFile


def parse(source: str, path: str = "response.js", language: str = "javascript") -> ParsedFile:
    parsed = parse_file(path, source.encode(), language)
    assert parsed.skip is None, parsed.note
    return parsed


def table(parsed: ParsedFile) -> dict[str, tuple[str, int, int, str]]:
    """qualified name -> (kind, start line, end line, parent's qualified name) of every definition."""
    names = {node.uid: node.qualified_name for node in parsed.nodes}
    return {
        n.qualified_name: (n.kind, n.start_line, n.end_line, names.get(n.parent_uid, ""))
        for n in parsed.nodes
        if n.kind != "module"
    }


def node(parsed: ParsedFile, qualified: str) -> Node:
    (found,) = [n for n in parsed.nodes if n.qualified_name == qualified and n.part == 0]
    return found


CHAINED = """var res = Object.create(http.ServerResponse.prototype);

/**
 * Set header `field` to `val`.
 */
res.set =
res.header = function header(field, val) {
  return this.setHeader(field, val);
};

res.contentType = res.type = function contentType(type) { return this.set('Content-Type', type); };
"""


def test_a_chained_assignment_defines_every_name_it_assigns() -> None:
    parsed = parse(CHAINED)
    assert table(parsed) == {
        "res": ("constant", 1, 1, ""),
        "res.set": ("method", 3, 9, "res"),
        "res.header": ("method", 3, 9, "res"),
        "res.contentType": ("method", 11, 11, "res"),
        "res.type": ("method", 11, 11, "res"),
    }
    first, second = node(parsed, "res.set"), node(parsed, "res.header")
    assert first.uid != second.uid
    assert first.text == second.text and first.text.startswith("/**\n * Set header")
    assert first.doc == second.doc == "Set header `field` to `val`."
    # Each signature runs from its own name: the first shows the chain, the last what the file says.
    assert first.signature == "res.set = res.header = function header(field, val)"
    assert second.signature == "res.header = function header(field, val)"
    # What the definition calls, each of its names calls.
    calls = {(r.src_uid, r.target) for r in parsed.refs if r.kind == "calls"}
    assert (first.uid, "this.setHeader") in calls and (second.uid, "this.setHeader") in calls


def test_jsdoc_parted_by_blank_lines_documents_the_next_definition() -> None:
    source = """/**
 * Response prototype.
 * @public
 */

var res = Object.create(http.ServerResponse.prototype);

/**
 * Send a response.
 * @public
 */

res.send = function send(body) {
  return body;
};
"""
    parsed = parse(source)
    send = node(parsed, "res.send")
    assert (send.doc, send.start_line, send.end_line) == ("Send a response.\n@public", 8, 15)
    assert send.text.startswith("/**\n * Send a response.")
    assert node(parsed, "res").doc == "Response prototype.\n@public"
    assert not [n for n in parsed.nodes if n.kind == "module"]  # nothing left outside definitions


def test_file_comments_and_comments_above_other_code_stay_out_of_a_definition() -> None:
    source = """/**
 * @license MIT
 */

function licensed() {}

/** Module dependencies. */

var send = require('send');

function first() {}

/****************** helpers ******************/

function banner() {}

/**
 * @typedef {Object} Options
 */

function typed() {}

// A line comment.

function lined() {}
"""
    parsed = parse(source, "helpers.js")
    assert {n.name: n.doc for n in parsed.nodes if n.kind == "function"} == {
        "licensed": "",
        "first": "",  # the comment documents the `require` between them, not `first`
        "banner": "",
        "typed": "",
        "lined": "",
    }


def test_typescript_jsdoc_parted_by_a_blank_line() -> None:
    source = "/**\n * Create an app.\n */\n\nexport function createApp(): App {\n  return new App();\n}\n"
    parsed = parse(source, "app.ts", "typescript")
    app = node(parsed, "createApp")
    assert (app.doc, app.start_line) == ("Create an app.", 1)


def test_exports_of_values_are_module_constants() -> None:
    source = """var Router = require('router');
var bodyParser = require('body-parser');

function createApplication() {}

exports = module.exports = createApplication;
exports.later = void 0;
exports.static = require('serve-static');
exports.Router = Router;
exports.json = bodyParser.json;
module.exports.version = '5.0.0';
exports.createApplication = createApplication;
exports.init = function init() {};
res.locals = {};

function setup() {
  exports.inner = 1;
}
"""
    parsed = parse(source, "express.js")
    assert table(parsed) == {
        "createApplication": ("function", 4, 4, ""),
        # `exports.later = void 0` is a placeholder, no value.
        "static": ("constant", 8, 8, ""),
        "Router": ("constant", 9, 9, ""),
        "json": ("constant", 10, 10, ""),
        "version": ("constant", 11, 11, ""),
        # `exports.createApplication = createApplication` exports the function above: no second node.
        "init": ("function", 13, 13, ""),
        "setup": ("function", 16, 18, ""),
    }
    assert node(parsed, "static").signature == "exports.static = require('serve-static')"
    assert ("serve-static", "imports") in {(r.target, r.kind) for r in parsed.refs}


def test_property_definition_calls_define_object_members() -> None:
    source = """var req = Object.create(http.IncomingMessage.prototype);

/**
 * The protocol string.
 */

defineGetter(req, 'protocol', function protocol() {
  return this.connection.encrypted ? 'https' : 'http';
});
defineGetter(req, 'fresh', () => isFresh());
Object.defineProperty(req, 'secure', { get: function () { return this.protocol === 'https'; } });
Object.defineProperty(req, 'path', {
  get() { return parse(this).pathname; },
  set(value) { this.url = value; },
});
Object.defineProperties(req, { ip: { get() { return addr(this); } }, ips: { value: [] } });
Object.defineProperty(req, 'flag', { value: false });
emitter.on(req, 'data', function onData() {});
"""
    parsed = parse(source, "request.js")
    assert table(parsed) == {
        "req": ("constant", 1, 1, ""),
        "req.protocol": ("method", 3, 9, "req"),
        "req.fresh": ("method", 10, 10, "req"),
        "req.secure": ("method", 11, 11, "req"),
        "req.path": ("method", 12, 15, "req"),  # its `get` and `set` are its own code, not nodes
        "req.ip": ("method", 16, 16, "req"),
        # `ips` and `flag` are values, not code; `emitter.on` defines no property of `req`.
        "onData": ("function", 18, 18, ""),
    }
    protocol = node(parsed, "req.protocol")
    assert protocol.doc == "The protocol string."
    assert protocol.signature == "defineGetter(req, 'protocol', function protocol()"
    assert node(parsed, "req.path").signature == "Object.defineProperty(req, 'path'"


def test_assigned_members_belong_to_their_module_level_object_or_constructor() -> None:
    source = """var app = exports = module.exports = {};

app.init = function init() {};

function View(name) { this.name = name; }

View.prototype.render = function render(options) {};

it('renders', function () {
  function View() {}
  View.prototype.lookup = function lookup() {};
});
"""
    parsed = parse(source, "application.js")
    parents = {name: parent for name, (_k, _s, _e, parent) in table(parsed).items()}
    assert parents["app.init"] == "app"
    assert parents["View.render"] == "View"
    # A constructor declared in a callback is one of many: its members keep no container.
    assert [parent for name, parent in parents.items() if name == "View.lookup"] == [""]


def test_a_member_a_callback_assigns_to_its_own_variable_is_no_definition() -> None:
    """zod's `schema.parse = () => "overridden"` in a `test(...)` callback (`const schema = ...` there)
    was a method `schema.parse` with no container, what every `schema.parse()` of the repository
    then called (1,430 edges, 455 unambiguous). A parameter's member likewise; a factory function's
    object and a module-level object keep theirs."""
    source = """const obj = {};
obj.top = function () {};

test("overrides", () => {
  const schema = z.string();
  schema.parse = () => "overridden";
});

it("sends", function (res) {
  res.send = function () { return helper(); };
});

function createApp() {
  const app = {};
  app.handle = function () {};
  return app;
}
"""
    parsed = parse(source, "footprint.test.js")
    assert set(table(parsed)) == {"obj", "obj.top", "createApp", "createApp.app.handle"}
    module = next(n for n in parsed.nodes if n.kind == "module")
    assert ("helper", module.uid) in {(r.target, r.src_uid) for r in parsed.refs if r.kind == "calls"}
    assert 'schema.parse = () => "overridden";' in module.text


def test_a_member_a_callback_patches_on_a_global_or_an_import_is_no_definition() -> None:
    """ky's tests patch `Date.now = () => now` in a test callback, and `response.text = ...` on a
    local of a function declared in one: each was a method (`Date.now`, `customFetch.response.text`)
    that the library's own `Date.now()` and `response.text()` then called. A global's or an
    import's member patched in a callback defines nothing, nor does a local's in a function a
    callback declares; a module-level object's member and a factory's object's stay definitions."""
    source = """import ky from "ky";
const server = {};

test("retries", async t => {
  Date.now = () => 0;
  ky.stop = () => {};
  server.close = () => {};
  const customFetch = async () => {
    const response = new Response();
    response.text = async () => "";
    return response;
  };
});

export function createInstance() {
  const api = {};
  api.extend = () => {};
  return api;
}
"""
    parsed = parse(source, "test/retry.ts")
    assert set(table(parsed)) == {
        "server",
        "server.close",
        "customFetch",
        "createInstance",
        "createInstance.api.extend",
    }


def test_a_librarys_members_inside_its_self_calling_wrapper_stay_definitions() -> None:
    """underscore and jQuery plugins define their API inside a function called where it is written
    (`(function(){ .. }.call(this))`, `(function($){ .. })(jQuery)`): that is the module's code, not
    a callback's, so `_.each`, `Foo.bar` and `tooltip` are definitions (they were dropped as members
    a callback patches on objects the module declares nowhere)."""
    source = """(function(){
  var _ = function(){};
  _.each = _.forEach = function(){};
  _.map = function(){};
  function Foo(){}
  Foo.prototype.bar = function(){};
}.call(this));
(function($){ $.fn.tooltip = function(){}; })(jQuery);
test("stubs", () => { Date.now = () => 0; });
"""
    names = set(table(parse(source, "lib/underscore.js")))
    assert {"_.each", "_.map", "Foo.bar"} <= names and any(n.endswith("tooltip") for n in names), names
    assert not any(n.endswith("now") for n in names), names  # a test callback's stub stays none
