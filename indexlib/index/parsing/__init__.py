"""Parsing: a file's bytes -> searchable nodes and the references its code makes.

Public entry points: `detect_language` (pure; discovery uses it) and `parse_file`. Owns the policy
that ties the parts together: which route a language takes (tree-sitter symbols, Markdown sections,
line windows), the node cap, and the rule that bad content never raises but degrades to line windows
with a skip reason. It does not read files, redact secrets, or resolve references.
"""

from __future__ import annotations

from indexlib.index.parsing.chunks import text_chunks
from indexlib.index.parsing.languages import CODE_LANGUAGES, MARKDOWN, TEXT, detect_language, is_code
from indexlib.records import WINDOW_LINES, Node, ParsedFile, Ref, SkipReason

__all__ = ["CODE_LANGUAGES", "MARKDOWN", "PARSER_VERSION", "TEXT", "detect_language", "is_code", "parse_file"]

# What a file parses into (nodes, their text and docs, references), versioned apart from the on-disk
# layout (FORMAT_VERSION): an index recorded by another parser version is read as it is, and its
# next build parses every file again instead of reusing unchanged files' nodes. Bump on any change
# to what a file parses into. 1: Kotlin, Swift, Scala, Lua, shell and Vue/Svelte parsed, and the
# rest of format 8's parsing (an index of format 8 built before recorded no version). 2: a Go call
# on a composite literal (`(JSON{data}).Render(w)`) names the literal's type (`JSON.Render`). 3: Go
# struct fields and Kotlin, Swift and Scala properties in a type's body are `field`s, not `constant`s
# (a Kotlin `const val`, Swift `static let` and Scala `final val` stay `constant`s). 4: a Ruby
# constant in `class << self` is a constant of its class. 5: a PHP name written fully qualified
# (`\App\Utils::now()`, `extends \Exception`) keeps its leading backslash in the reference's target
# (`\App.Utils.now`), as PHP reads it apart from a relative name. 6: a signature starts past the
# attribute and annotation lines above the declaration in every language (C# `[Fact]`, PHP and Rust
# `#[...]`, Java `@Override`), and a window of a long definition takes the block edges after it
# (`{ ... }`, `}`) instead of leaving them to a part of their own. 7: a definition ends at its last
# code, not over the blank lines and outdented comments its grammar's block runs on to (a Scala
# `def a =` with its body on the next line held `def b`'s doc comment, which is `b`'s again), and a
# signature starts past an annotation whose arguments span lines (`@Deprecated(` ... `)`), and a
# Kotlin extension on a type parameter is its bound's (`fun <S : Sink> S.w()` -> `Sink.w`), a Swift
# extension of `[T]`, `[K: V]`, `T?` is `Array`'s, `Dictionary`'s, `Optional`'s, and Swift's
# `#error(...)` in a type's body no longer ends the type, and a Scala member access without
# arguments (`Lib.size`, `OParser.builder[Config]`) is a call reference (a call of a parameterless `def`).
# 8: a signature starts past comment and blank lines between or after the annotations and attributes
# above a declaration too (`@Deprecated` / `// why` / `@SuppressWarnings("x")` / `public void f()`
# was signed `// why @SuppressWarnings("x") public void f()` and shown by the comment's line).
# 9: a C/C++ struct, union or enum named in a typedef is signed as written (`typedef struct cJSON`,
# not `struct cJSON`, the head of its member line `struct cJSON *next;` too), and a C/C++ file whose
# copy without macros parses worse than as written is read without its statement macros alone when
# that parses better (fmt's base.h: `FMT_END_EXPORT` / `namespace detail {` was a function `namespace`),
# and a Lua function held by a file-level local (`local iteratee = function(x)`) is a definition.
# 10: a snake_case identifier's chunks that are camelCase themselves are terms of their own
# (`cJSON_Parse` -> `cjsonparse cjson c json parse`), so `cJSON` finds it as written.
# 11: a Lua function assigned to a string key (`t["close"] = function`) is t.close; one whose key is
# no name (`tests["parses numbers"]`) is no definition (each was one more definition named `t`).
# 12: in JavaScript, TypeScript and components' scripts `$` is a letter of a name, not a sigil:
# `interface $ZodType` was `ZodType`, and `core.$constructor(...)` called `core.constructor`.
# 13: a Rust blanket implementation's members are the trait's (`impl<'a, M: Matcher> Matcher for
# &'a M` defined `M.find_at`, qualified by a type parameter), and it implements nothing new.
# 14: a Rust macro defined in a test module (`#[cfg(test)] mod tests`) is qualified by it, so it is
# test code (`tests.matched`), where no `mod` qualified it and ripgrep's test macro led `matched`.
# 15: a C++ copy with macros written as access labels (`JSON_PRIVATE_UNLESS_TESTED:`), block macros
# whose `{` is on the next line and macros alone after a template's head blanked too is parsed, and
# kept when it holds at least the class bodies and more members (nlohmann/json's iter_impl.hpp: 9
# methods -> 32; its json.hpp, whose `basic_json` such a copy loses, keeps its former parse).
# 16: a Ruby `Foo.new` / `Jekyll::Site.new(config)` is a call of the class (target `Foo`), not of
#     a method `new`, so the class's callers are the code constructing it.
# 17: a C# base type and a `new T<...>(...)` keep the generic arity written (`Policy`1`), so the
#     resolver tells `Policy` from `Policy<T>` (and their constructors) instead of calling both ambiguous.
# 18: a Rust macro's arguments are read for calls (`tri!(f(x))`, `assert_eq!(parse(s), ..)`): tree-sitter
#     gives them as a token tree, so the calls inside had no edge.
# 19: an unaliased Go import of a `/vN` or `.vN` path binds the package's name (`task` for
#     `github.com/go-task/task/v3`, `yaml` for `gopkg.in/yaml.v3`), not `v3`.
# 20: not the parse but what is stored with it: a node's creation time leaves out the lines its file
#     repeats (`}`, `return nil`), which the diff may match to an older function's (gittimes).
# 21: a comment inside a call's callee (a method chain's `// why` line between two calls) is no part
#     of its target: fd's `.follow_links(x)` / `// No need ...` / `.max_depth(d)` was `follow_linksNoneed...`.
# 22: a Java, C# or C++ call keeps how many arguments it writes (`Ref.args`), so the resolver tells
#     overloads apart (`el.text()` from `text(String)`).
# 23: a call on a value no name holds (`", ".join(x)`, `(a or b).strip()`, `[a, b].each`) targets
#     `<expr>.join`, a receiver of unknown type, not a bare `join`; `(new Foo)->bar()` targets `Foo.bar`.
# 24: a Ruby `def obj.name` (a method of one object a variable holds, a test's stub) is no node: it
#     was a top-level function `name` that Kernel's `warn` and a bare `each` resolved to.
# 25: a PHP trait use (`use FormattableHandlerTrait;` in a class, trait or enum body) and a Ruby
#     mixin (`include Helpers`, `extend`, `prepend` in a class or module body) are `inherits`
#     references of the type, marked MIXIN (mixins.py), so the resolver walks them as bases; and a
#     Ruby `super` (bare or `super(x)`) in `def params` is a call of `super.params` (rubydefs.py).
# 26: a Kotlin call keeps how many arguments it writes, a trailing lambda one of them (`Ref.args`), so
#     the resolver tells overloads apart (moshi's `adapter(type, NO_ANNOTATIONS)` from `adapter(type)`);
#     a Kotlin companion's member is also indexed by the name its class's code calls it
#     (`JsonReader.Options.of` for `JsonReader.Options.Companion.of`).
# 27: a C/C++ conditional holding only a piece of a declaration (`#if X` / `constexpr` / `#endif`)
#     has its directive lines blanked when the file parses with errors (preproc.blank_fragments), so
#     the grammar no longer swallows the enclosing namespace's `}` (spdlog's `spdlog.level.throw_spdlog_ex`).
# 28: a JavaScript or TypeScript re-export (`export { a } from "./m"`, `export * as ns from`) is an
#     `imports` reference aliased by the name it passes on, `export * from` by REEXPORT_ALL, so a
#     call through a barrel `index.ts` reaches the module defining the name (graph/reexports.py);
#     a TypeScript overload list (signatures, then the body) is one node (overloads.py); and a member
#     a callback assigns to its own variable (`schema.parse = ...` in a `test(...)`) is none; nor is a
#     JavaScript call of a parameter (`new Class()` in `_string(Class, params)`) a reference.
# 29: a JavaScript or TypeScript call through a renamed import (`import { a as b }; b()`) targets `a`
#     with the alias `b` (references.renamed_calls), as a Python one does.
# 30: a Swift call keeps how many arguments it writes and their labels (`Ref.args`, `Ref.labels`, a
#     trailing closure one of them), so the resolver tells overloads apart by the labels Swift names
#     them by (Alamofire's `adapt(_:for:completion:)` from `adapt(_:using:completion:)`).
# 31: a bare Ruby name no local of its scope binds (`settings`, `request.path`'s `request`,
#     `render_page` on its own line) is a call (rubydefs.BareCalls): Sinatra's helpers call
#     `settings`, `request` and `response` so, and such calls made no reference.
# 32: a JavaScript member a callback patches on a global or an import (`Date.now = () => now` in a
#     test), or a function declared in a callback assigns to its own local, is no definition.
# 33: a call on an unbracketed `new Foo(..)` (`new Foo().bar()` in Java, C#, JavaScript, TypeScript)
#     targets `Foo.bar`, not `newFoo.bar`; on an array or anonymous object (`new[] { a }.Concat`) `<expr>`.
# 34: a C# target-typed `new(..)` calls the class its target declares (targettyped.py): the variable,
#     field or property it initialises or is assigned to, or the member it is returned from.
# 35: a C# construction (`new Foo(..)`, `new(..)`) marks its call `<new>` (records.CONSTRUCTS): it calls a
#     class or constructor, never a same-named method.
# 36: a JavaScript member assigned inside a function called where it is written (a library's
#     `(function(){ _.each = .. }.call(this))`, `(function($){ $.fn.tip = .. })(jQuery)`) is a
#     definition again; only a callback's (a function passed to a call) patches are dropped.
# 37: a Rust method called on an enum's variant or a type's associated constant
#     (`ExitCode::GeneralError.exit()`, `Color::Rgb(1, 2).to_hex()`) targets the type's method
#     (`ExitCode.exit`), not one of a type named as the variant (rustvalues.py).
# 38: a Java field's anonymous class (`BIT_SET = new TypeAdapter<BitSet>() {..}`) and an enum
#     constant's body (`DEFAULT { .. }`) qualify their methods: `TypeAdapters.BIT_SET.read`.
# 39: a one-letter part of an identifier is also a term joined to the word after it (`GZipDecoder`
#     -> `gzip`, analyzer.py): the index's terms changed, so every file is read again.
# 40: a Swift call whose trailing closure the grammar wraps in a second call (`let t = s.f(a) { .. }`)
#     is one call reference, its labels the closure's too (`("_", "")`), not two (arguments.py).
# 41: `playground/` and `e2e/` folders are test code (pathroles.py): the graph's resolver and the
#     vector stage treat them as tests.
# 42: a name a callee indexes keeps the mark `[]` (`self.items[k].close()` -> `self.items[].close`,
#     records.INDEXED), and a Swift subscript (`self.items[i]`) is no call reference (kotlinswift.py).
# 43: a Swift closure's anonymous parameter as a receiver (`$0.close()`) is a value no name holds
#     (`<expr>.close`), not a qualifier named `0` (text.py `callee_target`).
# 44: in a Rust macro's token tree a name a definition declares (`cfg_rt! { fn new() -> Self .. }`,
#     `struct Id(u64)`) is no call of it (rustmacros.py).
# 45: a Lua table field keyed by a string holding a name (`{ ["table"] = function(t, stk) }`) is a
#     function, as `{ table = function }` is (`serialize_map.table`).
# 46: a Rust receiver that is a call's result keeps the mark `()` (`self.inner().lock()` ->
#     `self.inner().lock`), no longer read as a field named `inner` (rustvalues.py `called_receiver`).
# 47: a C/C++ conditional whose branches are pieces of a statement or declaration (`#ifdef X` /
#     `if (a) {` / `#endif`) is read in the configuration defining no macro when the file parses
#     with errors (preproc.blank_split): jq's `jv_dump_string` was nested in `jv_dump_term`.
# 48: a Python call through an import's alias calls the name the caller's own import of it gives, else
#     the one name the file's imports give it (pyrenames.py), not the file's last import of it.
# 49: a Swift macro without arguments as a value (`= #_sourceLocation`, `= #isolation`) is read as its
#     name (kotlinswift.parse_view): the grammar lost the rest of the type.
# 50: a Ruby call assigned to (`self.url_prefix = url`) calls the writer `url_prefix=` (rubydefs.py
#     `assigned`), not the reader `url_prefix`; a Ruby constant path from the top level keeps its
#     mark (`::Logger.new` -> `\Logger`), which rubyconst.py looks up at the top level alone.
# 51: C++ decorations proven by their place (decorations.py): `FOO_EXPORT template <..> class X`,
#     `class FOO_VISIBILITY("default") X`, `FOO_CONSTEXPR X(..)` of a class X, `if FOO_CONSTEXPR (`.
# 52: a Rust `impl` for a type written by its shape qualifies its methods by the primitive's name
#     (rustimpls.py): `impl X for ()` -> `unit.x`, tuples, arrays, slices, `fn`, `!`, `dyn Tr + Send` -> `Tr`.
# 53: TypeScript properties of an interface or an object type alias (`readonly timeout?: number`)
#     are `field` nodes of it.
# 54: a JavaScript or TypeScript `fn.bind(..)`, `fn.call(..)` or `fn.apply(..)` is a call of `fn` too.
# 55: a Swift implicit member expression (`.retry(userInfo: nil)`) marks its call `<implicit>`
#     (records.IMPLICIT_MEMBER, kotlinswift.py): it calls a static member, never the caller's own method.
# 56: 53 undone: TypeScript properties are their interface's text again, not nodes of their own.
# 57: a Ruby call stores how many positional arguments it writes, its keywords as one (arguments.py
#     `_ruby_count`), so that a method's parameters narrow its name's candidates (callarity.py).
# 58: a Kotlin extension on a type parameter bounded by another (`fun <T : Base<T>, U : T> U.context()`)
#     is a member of the last bound (`Base.context`), not of a type named `T` (kotlinswift.py `receiver`).
# 59: a `def` of a top-level Scala 3 `extension (p: T)` block is a method of T (`P.repX`), not a
#     function named alone (scalaext.py); a Scala access on a value no name holds (`"b".rep`,
#     `(a ~ b).rep`) targets `<expr>.rep`, not `b.rep` or a bare `rep` (scalaaccess.py).
# 60: a C# call writing type arguments keeps their count (`ParseArguments<Options>(args)` ->
#     `ParseArguments`1`, text.py `with_arity`), as a generic type's reference does.
PARSER_VERSION = 60


def parse_file(
    path: str,
    data: bytes,
    language: str,
    *,
    max_nodes: int = 5000,
    timeout_ms: int = 5000,
    window_lines: int = WINDOW_LINES,
) -> ParsedFile:
    """Nodes and refs of one file; never raises for bad content.

    `language` is what `detect_language` returned. Code is parsed with tree-sitter into a module
    remainder plus one node per definition (a Vue or Svelte component's `<script>` blocks as the
    JavaScript or TypeScript they are, its template in the module remainder); Markdown is split
    into sections; anything else into overlapping line windows. When parsing runs past `timeout_ms` (or extraction fails) the file
    becomes line windows with `skip="parse_timeout"` and a note. More than `max_nodes` nodes keeps
    the first `max_nodes` in source order, drops refs from the rest, and sets `skip="node_cap"`.

    >>> parse_file("a.py", b"def f():\\n    return g()\\n", "python").nodes[0].qualified_name
    'f'
    """
    if is_code(language):
        parsed = _parse_code(path, data, language, timeout_ms=timeout_ms, window_lines=window_lines)
    elif language == MARKDOWN:
        from indexlib.index.parsing.markdown import sections

        parsed = ParsedFile(
            path=path, language=language, nodes=sections(path, data, window_lines=window_lines), refs=[]
        )
    else:
        parsed = ParsedFile(path=path, language=language, nodes=text_chunks(path, language, data), refs=[])
    return _cap(parsed, max_nodes)


def _parse_code(path: str, data: bytes, language: str, *, timeout_ms: int, window_lines: int) -> ParsedFile:
    # Imported here so that `detect_language` (used by discovery on every file) never loads tree-sitter.
    from indexlib.engines.treesitter import Deadline, ParseTimeout
    from indexlib.index.parsing.extract import extract
    from indexlib.index.parsing.preproc import parse_best
    from indexlib.index.parsing.sfc import COMPONENT_LANGUAGES, script_view, template_refs

    deadline = Deadline(timeout_ms)
    grammar, view = script_view(data) if language in COMPONENT_LANGUAGES else (language, data)
    try:
        tree, parsed = parse_best(view, grammar, deadline)
        result = extract(
            tree,
            parsed,
            path,
            grammar,
            window_lines=window_lines,
            deadline=deadline,
            text=data,
            file_language=language,
        )
    except ParseTimeout as exc:
        return _fallback(path, data, language, f"{exc.message}; indexed as line windows")
    except RecursionError as exc:
        return _fallback(path, data, language, f"extraction failed ({exc!r}); indexed as line windows")
    except Exception as exc:  # a bug or a grammar surprise must not lose the file: keep it as windows
        return _fallback(
            path, data, language, f"extraction failed ({type(exc).__name__}: {exc}); indexed as line windows"
        )
    refs = result.refs
    if language in COMPONENT_LANGUAGES:
        refs = refs + template_refs(result.nodes, data)
    return ParsedFile(path=path, language=language, nodes=result.nodes, refs=refs)


def _fallback(path: str, data: bytes, language: str, note: str) -> ParsedFile:
    return ParsedFile(
        path=path,
        language=language,
        nodes=text_chunks(path, language, data),
        refs=[],
        skip=SkipReason.PARSE_TIMEOUT.value,
        note=note,
    )


def _cap(parsed: ParsedFile, max_nodes: int) -> ParsedFile:
    if len(parsed.nodes) <= max_nodes:
        return parsed
    kept: list[Node] = parsed.nodes[: max(max_nodes, 0)]
    live = {node.uid for node in kept}
    refs: list[Ref] = [ref for ref in parsed.refs if ref.src_uid in live]
    note = f"kept the first {len(kept)} of {len(parsed.nodes)} nodes"
    return ParsedFile(
        path=parsed.path,
        language=parsed.language,
        nodes=kept,
        refs=refs,
        skip=SkipReason.NODE_CAP.value,
        note=(parsed.note + "; " + note) if parsed.note else note,
    )
