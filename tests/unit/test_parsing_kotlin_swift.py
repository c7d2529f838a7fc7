"""Kotlin and Swift are parsed into definitions, docs and references as the other languages are.

Kotlin's grammar names no fields and writes classes, interfaces and enum classes as one node type;
Swift's writes classes, structs, enums, actors and extensions as one, told apart by a keyword. Both
must still give each definition its kind, qualified name, container, doc and signature, and each
call, import and base type its target; a Kotlin class of the caller's package needs no import, and
a Kotlin file calls Java classes (the JVM family) as its own.
"""

from __future__ import annotations

from pathlib import Path

from indexlib import BuildOptions, build_index, open_engine, related
from indexlib.index.parsing import parse_file
from indexlib.index.parsing.languages import detect_language
from indexlib.records import ParsedFile
from tests.parsekit import node, one, table

ADAPTER_KT = b"""package com.example.json

import com.example.json.internal.Reader
import kotlin.reflect.KClass as K

/** How many times to retry. */
const val MAX_RETRIES = 3

/**
 * Adapts values of one type.
 */
@JsonClass(generateAdapter = true)
class Adapter<T>(private val name: String) : Base(), Factory {
  /** The count of values read. */
  val count: Int = 0

  override fun fromJson(reader: Reader): T? {
    val v = reader.nextString()
    return helper(v)
  }

  companion object {
    fun create(): Adapter<Int> = Adapter("x")
  }
}

interface Factory { fun create(type: String): Adapter<*>? }
object Registry { fun register(f: Factory) { list.add(f) } }
enum class Color(val rgb: Int) { RED(1), GREEN(2); fun hex() = rgb }
typealias Handler = (String) -> Unit
fun String.shout(): String = uppercase()
private fun helper(s: String): String = s.trim()
fun `reads an empty document`() = Unit
"""

SESSION_SWIFT = b"""import Foundation
import struct Networking.Endpoint

/// A session that makes requests.
///
/// Holds the configuration.
open class Session: NSObject, Sendable {
    /// The shared session.
    public static let `default` = Session()
    var count: Int = 0

    init(configuration: URLSessionConfiguration) {
        super.init()
    }

    /// Makes a request.
    @discardableResult
    open func request(_ url: URL) -> DataRequest {
        let r = DataRequest(url: url)
        return self.perform(r)
    }
}

struct Point { var x: Double; func length() -> Double { sqrt(x * x) } }
enum Method: String { case get = "GET", post
  func upper() -> String { rawValue } }
protocol Convertible { func asURL() throws -> URL; var name: String { get } }
extension Session: Convertible {
    func asURL() throws -> URL { URL(string: "x")! }
}
actor Counter { func inc() {} }
typealias Handler = (Int) -> Void
"""


def _refs(parsed: ParsedFile, kind: str) -> set[tuple[str, str]]:
    names = {n.uid: n.qualified_name for n in parsed.nodes}
    return {(names.get(r.src_uid, ""), r.target) for r in parsed.refs if r.kind == kind}


def test_kotlin_and_swift_files_are_code() -> None:
    assert detect_language("app/src/main/kotlin/App.kt") == "kotlin"
    assert detect_language("build.gradle.kts") == "kotlin"
    assert detect_language("Sources/Core/Session.swift") == "swift"


def test_kotlin_definitions_kinds_and_containers() -> None:
    parsed = parse_file("src/main/kotlin/com/example/json/Adapter.kt", ADAPTER_KT, "kotlin")
    defs = table(parsed)
    assert defs["MAX_RETRIES"][:1] == ("constant",)
    assert defs["Adapter"][0] == "class"
    assert defs["Adapter.count"] == ("field", 14, 15, "Adapter")  # a property, with its doc line
    assert defs["Adapter.fromJson"][0::3] == ("method", "Adapter")
    assert defs["Adapter.Companion"][0::3] == ("class", "Adapter")
    assert defs["Adapter.Companion.create"][0::3] == ("method", "Adapter.Companion")
    assert defs["Factory"][0] == "interface" and defs["Factory.create"][0] == "method"
    assert defs["Registry"][0] == "class" and defs["Registry.register"][0] == "method"
    assert defs["Color"][0] == "enum" and defs["Color.RED"][0::3] == ("constant", "Color")
    assert defs["Handler"][0] == "type"
    assert defs["String.shout"][0] == "method"  # an extension function is a member of what it extends
    assert defs["helper"][0] == "function"
    assert "reads an empty document" in defs  # a backticked name is found as written inside
    # The doc comment below the imports documents the first definition (the grammar nests it there).
    assert node(parsed, "MAX_RETRIES").doc == "How many times to retry."
    adapter = one(parsed, "class", "Adapter")
    assert adapter.doc == "Adapts values of one type."
    assert adapter.signature.startswith("class Adapter<T>")  # past its annotation line
    assert "val v = reader.nextString()" not in adapter.text  # a member's body is elided
    assert node(parsed, "Handler").signature == "typealias Handler = (String) -> Unit"


def test_kotlin_references() -> None:
    parsed = parse_file("src/main/kotlin/com/example/json/Adapter.kt", ADAPTER_KT, "kotlin")
    imports = {(r.target, r.alias) for r in parsed.refs if r.kind == "imports"}
    assert imports == {("com.example.json.internal.Reader", "Reader"), ("kotlin.reflect.KClass", "K")}
    calls = _refs(parsed, "calls")
    assert {("Adapter.fromJson", "reader.nextString"), ("Adapter.fromJson", "helper")} <= calls
    assert ("Adapter.Companion.create", "Adapter") in calls  # a constructor call names the class
    assert ("Registry.register", "list.add") in calls
    # A superclass is called in the header; an interface is not.
    assert ("Adapter", "Base") in _refs(parsed, "inherits")
    assert ("Adapter", "Factory") in _refs(parsed, "implements")


def test_a_member_declared_constant_is_a_constant_and_other_properties_are_fields() -> None:
    kotlin = b"class Pool(val size: Int) {\n    val idle: Int = 0\n    companion object {\n"
    kotlin += b"        @JvmStatic const val MAX = 8\n        val shared = Pool(1)\n    }\n}\nval DEFAULT = Pool(2)\n"
    defs = table(parse_file("Pool.kt", kotlin, "kotlin"))
    assert defs["Pool.idle"][0] == defs["Pool.Companion.shared"][0] == "field"
    assert defs["Pool.Companion.MAX"][0] == defs["DEFAULT"][0] == "constant"
    swift = b"struct Pool {\n    static let max = 8\n    static var made = 0\n    let size: Int\n}\n"
    defs = table(parse_file("Pool.swift", swift, "swift"))
    assert defs["Pool.max"][0] == "constant"
    assert defs["Pool.made"][0] == defs["Pool.size"][0] == "field"
    scala = b"class Pool(size: Int) {\n  final val Max = 8\n  var idle = 0\n}\n"
    defs = table(parse_file("Pool.scala", scala, "scala"))
    assert (defs["Pool.Max"][0], defs["Pool.idle"][0]) == ("constant", "field")


def test_swift_definitions_kinds_and_containers() -> None:
    parsed = parse_file("Source/Core/Session.swift", SESSION_SWIFT, "swift")
    defs = table(parsed)
    assert defs["Session"][0] == "class"
    # `static let` declares a constant of the type; a stored or computed property is a field.
    assert defs["Session.default"][0::3] == ("constant", "Session")  # `default` unquoted
    assert defs["Session.init"][0::3] == ("method", "Session")
    assert defs["Session.request"][0::3] == ("method", "Session")
    assert defs["Point"][0] == "struct" and defs["Point.x"][0] == "field"
    assert defs["Method"][0] == "enum"
    assert defs["Method.get"][0] == defs["Method.post"][0] == "constant"  # each name of one `case`
    assert defs["Convertible"][0] == "interface"
    assert defs["Convertible.asURL"][0] == "method" and defs["Convertible.name"][0] == "field"
    # An extension's members belong to the type it extends, here declared in the same file.
    assert defs["Session.asURL"][0::3] == ("method", "Session")
    assert defs["Counter"][0] == "class" and defs["Handler"][0] == "type"
    session = one(parsed, "class", "Session")
    assert session.doc == "A session that makes requests.\n\nHolds the configuration."
    assert session.signature == "open class Session: NSObject, Sendable"
    request = node(parsed, "Session.request")
    assert request.doc == "Makes a request."
    assert request.signature == "open func request(_ url: URL) -> DataRequest"


def test_swift_references() -> None:
    parsed = parse_file("Source/Core/Session.swift", SESSION_SWIFT, "swift")
    imports = {(r.target, r.alias) for r in parsed.refs if r.kind == "imports"}
    assert imports == {("Foundation", "*"), ("Networking.Endpoint", "Endpoint")}
    calls = _refs(parsed, "calls")
    assert {("Session.request", "DataRequest"), ("Session.request", "self.perform")} <= calls
    assert ("Session.init", "super.init") in calls
    assert {("Session", "NSObject"), ("Session", "Sendable")} <= _refs(parsed, "inherits")
    implements = _refs(parsed, "implements")
    assert ("Session", "Convertible") in implements  # declared by the extension, owned by the class


def test_a_kotlin_class_of_the_callers_package_needs_no_import(tmp_path: Path) -> None:
    """Two classes share a name in two packages; a caller in one package, under another source set,
    calls its own package's class; a Kotlin caller reaches a Java class of its package too."""
    main = tmp_path / "lib/src/main/java/com/example/json/reflect"
    test = tmp_path / "lib/src/test/kotlin/com/example/json/reflect"
    legacy = tmp_path / "lib/src/main/java/com/example/json"
    for folder in (main, test, legacy):
        folder.mkdir(parents=True, exist_ok=True)
    (main / "AdapterFactory.kt").write_text("package com.example.json.reflect\n\nclass AdapterFactory\n")
    (legacy / "AdapterFactory.kt").write_text("package com.example.json\n\nclass AdapterFactory\n")
    (main / "Types.java").write_text(
        "package com.example.json.reflect;\n\npublic final class Types {\n"
        "  public static String canonicalize(String t) { return t; }\n}\n"
    )
    (test / "AdapterFactoryTest.kt").write_text(
        "package com.example.json.reflect\n\nclass AdapterFactoryTest {\n"
        '  fun builds() { val f = AdapterFactory(); Types.canonicalize("x") }\n}\n'
    )
    build_index(tmp_path, BuildOptions(embed="none"))
    engine = open_engine(tmp_path / ".qry")
    res = related(engine, "AdapterFactoryTest.builds", callers=False, callees=True, depth=1)
    callees = {(r.symbol, r.path, r.ambiguous) for r in res.related if r.direction == "out"}
    assert (
        "AdapterFactory",
        "lib/src/main/java/com/example/json/reflect/AdapterFactory.kt",
        False,
    ) in callees
    assert ("Types.canonicalize", "lib/src/main/java/com/example/json/reflect/Types.java", False) in callees
    assert not any(path.endswith("json/AdapterFactory.kt") for _s, path, _a in callees)


SPLIT_HEADERS_KT = b"""@Retention(RUNTIME)
public annotation class JsonClass(val generateAdapter: Boolean)

class CollectionAdapter<C : Collection<T>?, T>
private constructor(private val element: Adapter<T>) : Adapter<C>() {
  /** From a size. */
  constructor(size: Int) : this(Adapter(size)) {
    println(size)
  }
  fun fromJson(reader: Reader): C = TODO()
}

public class ByteString
// Not a member.
internal actual constructor(data: ByteArray) : Comparable<ByteString> {
  fun hex(): String = ""
}
"""

CONDITIONAL_SWIFT = b"""public enum AFError: Error {
    case explicitlyCancelled
    #if canImport(Security)
    case serverTrustEvaluationFailed(reason: String)
    #endif
    case sessionDeinitialized
}

final class Protected<Value> {
    #if canImport(Darwin)
    private let lock = UnfairLock()
    #endif
    init(_ value: Value) {}
    /// The value at an index.
    subscript(index: Int) -> Value { fatalError() }
}

protocol Serializer { associatedtype SerializedObject }
"""


def test_a_kotlin_class_whose_constructor_starts_the_next_line_keeps_its_members() -> None:
    parsed = parse_file("src/main/kotlin/CollectionAdapter.kt", SPLIT_HEADERS_KT, "kotlin")
    defs = table(parsed)
    assert defs["CollectionAdapter"][:3] == ("class", 4, 11)
    assert defs["CollectionAdapter.fromJson"][0::3] == ("method", "CollectionAdapter")
    ctor = node(parsed, "CollectionAdapter.CollectionAdapter")  # a secondary constructor
    assert (ctor.kind, ctor.doc) == ("method", "From a size.")
    assert defs["ByteString.hex"][0::3] == ("method", "ByteString")
    bases = {(r.kind, r.target) for r in parsed.refs if r.kind in ("inherits", "implements")}
    assert {("inherits", "Adapter"), ("implements", "Comparable")} <= bases
    # A signature starts at the declaration, past annotation lines, and holds no comment.
    assert one(parsed, "class", "JsonClass").signature == (
        "public annotation class JsonClass(val generateAdapter: Boolean)"
    )
    assert "Not a member" not in one(parsed, "class", "ByteString").signature


def test_swift_conditional_compilation_inside_a_type_keeps_the_type_whole() -> None:
    parsed = parse_file("Source/Core/AFError.swift", CONDITIONAL_SWIFT, "swift")
    defs = table(parsed)
    assert defs["AFError"][:3] == ("enum", 1, 7)
    for case in ("explicitlyCancelled", "serverTrustEvaluationFailed", "sessionDeinitialized"):
        assert defs[f"AFError.{case}"][0::3] == ("constant", "AFError")  # every branch is kept
    assert defs["Protected.init"][0::3] == ("method", "Protected")
    subscript = node(parsed, "Protected.subscript")
    assert (subscript.kind, subscript.doc) == ("method", "The value at an index.")
    assert defs["Serializer.SerializedObject"][0] == "type"  # an associated type


def test_receivers_named_after_their_type_and_kotlin_extensions(tmp_path: Path) -> None:
    """`sink.write(...)` on a variable named after `Sink` links to `Sink.write` (kept ambiguous: the
    type is a guess), although `write` is a name too common to link on an unknown receiver; and a
    Kotlin extension function yields to the member it shares a qualified name with."""
    src = tmp_path / "src/main/kotlin/okio"
    src.mkdir(parents=True)
    (src / "Sink.kt").write_text(
        "package okio\n\ninterface Sink {\n  fun write(source: Buffer, byteCount: Long)\n}\n"
    )
    (src / "Moshi.kt").write_text("package okio\n\nclass Moshi {\n  fun adapter(type: String): Int = 1\n}\n")
    (src / "Extensions.kt").write_text(
        'package okio\n\n/** Deprecated. */\nfun Moshi.adapter(): Int = adapter("x")\n'
    )
    (src / "Copier.kt").write_text(
        "package okio\n\nfun copy(sink: Sink, data: Buffer) {\n  sink.write(data, 1L)\n}\n"
    )
    build_index(tmp_path, BuildOptions(embed="none"))
    engine = open_engine(tmp_path / ".qry")
    res = related(engine, "copy", callers=False, callees=True, depth=1)
    assert ("Sink.write", "src/main/kotlin/okio/Sink.kt") in {(r.symbol, r.path) for r in res.related}
    member = related(engine, "Moshi.adapter", callers=True, callees=False, depth=1)
    assert member.node is not None and member.node.path == "src/main/kotlin/okio/Moshi.kt"


EXTENSIONS_KT = b"""interface BufferedSink { fun write(b: Int) }

inline fun <S : BufferedSink> S.writeUShort(s: Int): S {
  write(s); write(s)
  return this
}
fun <T> T.flushed(): T where T : BufferedSink, T : Closeable = this
fun <T : BufferedSink?> T?.orEmpty() = 1
fun <K, M : Map<K, Int>> M.total() = 1
fun <T> T.anything() = 1
"""

EXTENSIONS_SWIFT = b"""struct HTTPHeader { let name: String }

extension [HTTPHeader] {
    func index(of name: String) -> Int? { nil }
}
extension [String: Int] { func total() -> Int { 0 } }
extension Int? { func orZero() -> Int { 0 } }
extension Array where Element == HTTPHeader { func names() -> [String] { [] } }
"""


def test_an_extension_on_a_type_parameter_or_sugared_type_names_the_type() -> None:
    """okio's `fun <S : BufferedSink> S.writeUShort` extends `BufferedSink` (the bound, in `<...>` or
    a `where` clause), not a type named `S`; Alamofire's `extension [HTTPHeader]` extends `Array`, as
    `extension Array where Element == HTTPHeader` does (`[K: V]` is `Dictionary`, `T?` `Optional`)."""
    kotlin = table(parse_file("Unsigned.kt", EXTENSIONS_KT, "kotlin"))
    for name in ("writeUShort", "flushed", "orEmpty"):
        assert kotlin[f"BufferedSink.{name}"][0] == "method", name
    assert "Map.total" in kotlin and "T.anything" in kotlin  # an unbounded parameter: as written
    swift = table(parse_file("HTTPHeaders.swift", EXTENSIONS_SWIFT, "swift"))
    assert {"Array.index", "Dictionary.total", "Optional.orZero", "Array.names"} <= set(swift)


CHAINED_BOUNDS_KT = b"""package app

abstract class Command<T : Command<T>> {
    fun resetContext() {}
}

fun <T : Command<T>, U : T> U.context(block: () -> Unit): U = apply { block() }
fun <T : Command<T>, C : T> C.subcommands(vararg commands: T): C = this
fun <A : B, B : A> A.looped() {}
"""


def test_an_extension_on_a_parameter_bounded_by_another_names_the_last_bound() -> None:
    """ajalt/clikt's `fun <T : BaseCliktCommand<T>, U : T> U.context(..)` extends `BaseCliktCommand`
    (U's bound is T, T's is the class), not a type named `T`; a cycle of bounds ends on a name."""
    kotlin = table(parse_file("Command.kt", CHAINED_BOUNDS_KT, "kotlin"))
    assert kotlin["Command.context"][0] == "method"
    assert kotlin["Command.subcommands"][0] == "method"
    assert "T.context" not in kotlin and "T.subcommands" not in kotlin
    assert "A.looped" in kotlin


def test_related_lists_an_extension_on_a_bounded_type_parameter(tmp_path: Path) -> None:
    (tmp_path / "Unsigned.kt").write_bytes(EXTENSIONS_KT)
    build_index(tmp_path, BuildOptions(embed="none"))
    res = related(open_engine(tmp_path / ".qry"), "BufferedSink")
    members = {r.symbol for r in res.related if r.edge == "contains"}
    assert {"BufferedSink.write", "BufferedSink.writeUShort", "BufferedSink.flushed"} <= members


DIAGNOSTIC_SWIFT = b"""final class Box<Value> {
    #if canImport(Darwin)
    private let lock = 1
    #elseif os(Linux)
    #warning("a slower lock (see \\"Lock\\")")
    private let lock = 2
    #else
    #error("needs a lock")
    #endif

    func read() -> Int {
        return 1
    }
}
"""


def test_a_swift_compiler_diagnostic_in_a_type_keeps_the_type_whole() -> None:
    """Alamofire's `Protected`: `#error(...)` in an `#else` branch of a class body made the grammar end
    the class at its first line, its members top-level definitions."""
    defs = table(parse_file("Source/Core/Protected.swift", DIAGNOSTIC_SWIFT, "swift"))
    assert defs["Box"][:3] == ("class", 1, 14)
    assert defs["Box.lock"][0::3] == ("field", "Box") and defs["Box.read"][:4] == ("method", 11, 13, "Box")


BARE_MACRO_SWIFT = b"""struct SplitArgumentTests {
  func assertEmpty(_ x: Int, sourceLocation: SourceLocation = #_sourceLocation) {
    print(x)
  }

  func empty(isolation: isolated (any Actor)? = #isolation, line: UInt = #line) {
    assertEmpty(1)
  }
}
"""


def test_a_swift_macro_without_arguments_as_a_default_keeps_the_type_whole() -> None:
    """swift-argument-parser's tests: `sourceLocation: SourceLocation = #_sourceLocation` made the
    grammar lose the rest of the struct (its methods no nodes); the grammar's own `#line` always read."""
    parsed = parse_file("Tests/SplitArgumentTests.swift", BARE_MACRO_SWIFT, "swift")
    defs = table(parsed)
    assert defs["SplitArgumentTests"][:3] == ("struct", 1, 9)
    assert defs["SplitArgumentTests.assertEmpty"][:4] == ("method", 2, 4, "SplitArgumentTests")
    assert defs["SplitArgumentTests.empty"][:4] == ("method", 6, 8, "SplitArgumentTests")
    assert "= #_sourceLocation" in one(parsed, "method", "SplitArgumentTests.assertEmpty").text  # as written


COMPANIONS_KT = """package com.example.json

abstract class JsonReader {
  class Options {
    companion object {
      fun of(vararg names: String): Options = Options()
    }
  }

  companion object {
    fun of(source: String): JsonReader = TODO()
  }
}
"""

CALLERS_KT = """package com.example.json

class ClassAdapter {
  val options = JsonReader.Options.of("a", "b")

  fun read(json: String) = JsonReader.of(json)
}
"""


def test_a_kotlin_companion_member_is_called_and_named_through_its_class(tmp_path: Path) -> None:
    """moshi's `JsonReader.of(source)` and `JsonReader.Options.of(...)` call members of the classes'
    unnamed companion objects (`JsonReader.Companion.of`): the same-package call made no edge (no
    container named `JsonReader` held an `of`), an imported one linked every `of` of the file,
    ambiguous; and `qry related JsonReader.Options.of` found no definition."""
    (tmp_path / "JsonReader.kt").write_text(COMPANIONS_KT)
    (tmp_path / "ClassAdapter.kt").write_text(CALLERS_KT)
    build_index(tmp_path, BuildOptions(embed="none"))
    engine = open_engine(tmp_path / ".qry")
    read = related(engine, "ClassAdapter.read", callers=False, callees=True, depth=1)
    assert [(r.symbol, r.ambiguous) for r in read.related if r.edge == "calls"] == [
        ("JsonReader.Companion.of", False)
    ]
    options = related(engine, "ClassAdapter.options", callers=False, callees=True, depth=1)
    assert [(r.symbol, r.ambiguous) for r in options.related if r.edge == "calls"] == [
        ("JsonReader.Options.Companion.of", False)
    ]
    named = related(engine, "JsonReader.Options.of", callers=True, callees=False, depth=1)
    assert named.node is not None and named.node.symbol == "JsonReader.Options.Companion.of"
    assert "ClassAdapter.options" in {r.symbol for r in named.related}
    companion = related(engine, "JsonReader.Companion", callers=False, callees=False, depth=1)
    assert companion.node is not None and companion.node.kind == "class"  # the object keeps its name


OVERLOADS_KT = """package com.example.json

class Moshi {
  fun adapter(type: String): Int = adapter(type, emptySet())

  fun adapter(type: String, annotations: Set<String>): Int = adapter(type, annotations, null)

  fun adapter(type: String, annotations: Set<String>, fieldName: String?): Int = 1

  fun retry(times: Int, block: (Int) -> Unit) {}

  fun retry(block: () -> Unit) {}

  fun twice() {
    retry(2) { println(it) }
    retry { println() }
  }
}
"""


def test_kotlin_overloads_are_told_apart_by_the_arguments_a_call_writes(tmp_path: Path) -> None:
    """moshi's `adapter(type, NO_ANNOTATIONS)` linked to all eight `Moshi.adapter` overloads; a Kotlin
    call now keeps its argument count, a trailing lambda one of them, and a parameter of function type
    (`block: (Int) -> Unit`) no longer hides the parameters after its arrow."""
    parsed = parse_file("Moshi.kt", OVERLOADS_KT.encode(), "kotlin")
    counts = sorted((r.line, r.args) for r in parsed.refs if r.kind == "calls" and r.target == "retry")
    assert counts == [(15, 2), (16, 1)]
    (tmp_path / "Moshi.kt").write_text(OVERLOADS_KT)
    build_index(tmp_path, BuildOptions(embed="none"))
    engine = open_engine(tmp_path / ".qry")

    def callees(where: str) -> list[tuple[str, int, bool]]:
        res = related(engine, where, callers=False, callees=True, depth=1)
        return sorted((r.symbol, r.decl_line, r.ambiguous) for r in res.related if r.edge == "calls")

    assert callees("Moshi.kt:4") == [("Moshi.adapter", 6, False)]
    assert callees("Moshi.kt:6") == [("Moshi.adapter", 8, False)]
    assert callees("Moshi.twice") == [("Moshi.retry", 10, False), ("Moshi.retry", 12, False)]


LABELED_SWIFT = """open class Interceptor {
    open func adapt(_ r: Request, for session: Session, completion: @escaping (Result) -> Void) {
        adapt(r, for: session, using: adapters, completion: completion)
    }

    private func adapt(_ r: Request, for session: Session, using adapters: [Adapter], completion: @escaping (Result) -> Void) {
        adapter.go(r) { result in completion(result) }
    }

    open func adapt(_ r: Request, using state: State, completion: @escaping (Result) -> Void) {
        adapt(r, using: state, adapters: adapters) { result in completion(result) }
    }

    private func adapt(_ r: Request, using state: State, adapters: [Adapter], completion: @escaping (Result) -> Void) {
        adapter.go(r) { result in completion(result) }
    }

    func validate(statusCode codes: [Int]) -> Self { self }

    func validate(contentType types: [String], strict: Bool = false) -> Self { self }

    func check() {
        validate(statusCode: [200]).validate(contentType: ["a"])
    }
}
"""


def test_swift_overloads_are_told_apart_by_their_argument_labels(tmp_path: Path) -> None:
    """Alamofire's `Interceptor` declares four `adapt`s, two of four parameters: a call of
    `adapt(_:for:using:completion:)` was ambiguous between the two four-parameter ones, and
    `validate(statusCode:)` linked to `validate(contentType:)` too. A Swift call now keeps its labels
    (a trailing closure's included), and a declaration admits the calls its external labels spell, a
    parameter with a default value left out or not."""
    parsed = parse_file("Interceptor.swift", LABELED_SWIFT.encode(), "swift")
    called = ("adapt", "validate", "validate.validate")  # a chain's call targets its receiver's
    labels = sorted((r.line, r.args, r.labels) for r in parsed.refs if r.target in called)
    assert labels == [
        (3, 4, ("_", "for", "using", "completion")),
        (11, 4, ("_", "using", "adapters", "")),
        (23, 1, ("contentType",)),
        (23, 1, ("statusCode",)),
    ]
    (tmp_path / "Interceptor.swift").write_text(LABELED_SWIFT)
    build_index(tmp_path, BuildOptions(embed="none"))
    engine = open_engine(tmp_path / ".qry")

    def callees(where: str) -> list[tuple[str, int, bool]]:
        res = related(engine, where, callers=False, callees=True, depth=1)
        return sorted((r.symbol, r.decl_line, r.ambiguous) for r in res.related if r.edge == "calls")

    assert callees("Interceptor.swift:2") == [("Interceptor.adapt", 6, False)]
    assert callees("Interceptor.swift:10") == [("Interceptor.adapt", 14, False)]
    # The chained `.validate(contentType:)` is on a value of a type unread (ambiguous), yet one overload.
    assert callees("Interceptor.check") == [
        ("Interceptor.validate", 18, False),
        ("Interceptor.validate", 20, True),
    ]


SHAPED_SWIFT = """protocol StateProvider {
    func request(for task: Int) -> Int?
}

class Session {
    func request(_ url: String, method: String = "GET") -> Int { 0 }
}

extension Session: StateProvider {
    func request(for task: Int) -> Int? { nil }
}
"""

SHAPED_JAVA = """interface Handler { void handle(String s); }

class Impl implements Handler {
    public void handle(String s) {}
    public void handle(String s, int times) {}
}
"""


def test_an_overload_of_another_shape_implements_nothing(tmp_path: Path) -> None:
    """Alamofire's `Session.request(_:method:...)` implemented `SessionStateProvider.request(for:)`:
    a method linked to every same-named method of its type's protocols. Swift's labels (Java's,
    C#'s and Kotlin's parameter counts) now tell the implementation from an overload beside it."""
    (tmp_path / "Session.swift").write_text(SHAPED_SWIFT)
    (tmp_path / "Handler.java").write_text(SHAPED_JAVA)
    build_index(tmp_path, BuildOptions(embed="none"))
    engine = open_engine(tmp_path / ".qry")

    def implemented(where: str) -> list[str]:
        res = related(engine, where, callers=True, callees=True, depth=1)
        return [
            r.symbol for r in res.related if r.edge in ("implements", "inherits") and r.direction == "out"
        ]

    assert implemented("Session.swift:6") == []
    assert implemented("Session.swift:10") == ["StateProvider.request"]
    assert implemented("Handler.java:4") == ["Handler.handle"]
    assert implemented("Handler.java:5") == []


def test_a_swift_closures_anonymous_parameter_is_no_qualifier_named_by_its_digits() -> None:
    """`$0.close()` is a call on a value no name holds (as `", ".join` is), not on a `0`."""
    data = b"func f(items: [Item]) {\n    items.forEach { $0.close() }\n    pairs.map { $1[0].name() }\n}\n"
    targets = [r.target for r in parse_file("A.swift", data, "swift").refs]
    assert "<expr>.close" in targets and "<expr>.name" in targets
    assert not any(t.split(".")[0].isdigit() for t in targets), targets
