"""C# preprocessor conditionals (`#if`/`#else`/`#endif`) do not break a file's structure.

serilog's ILogger.cs writes each default interface method as `Signature #if X body #else ; #endif`;
parsed as written it is ERROR nodes, the interface and its members garbled. A file with errors is
parsed again with its inactive branches and directive lines blanked (preproc.py), and that parse
is kept when it is less damaged; node text still comes from the file as written.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from indexlib.engines.treesitter import Deadline, parse
from indexlib.index.parsing import parse_file
from indexlib.index.parsing.preproc import blank_fragments, blank_inactive, blank_split, damage, parse_best
from indexlib.records import ParsedFile

# Cut from serilog's src/Serilog/ILogger.cs (Apache-2.0).
ILOGGER = b"""namespace Serilog;

/// <summary>
/// The core Serilog logging API, used for writing log events.
/// </summary>
public interface ILogger
{
    /// <summary>
    /// Create a logger that enriches log events via the provided enricher.
    /// </summary>
#if FEATURE_DEFAULT_INTERFACE
    [CustomDefaultMethodImplementation]
#endif
    ILogger ForContext(ILogEventEnricher enricher)
#if FEATURE_DEFAULT_INTERFACE
        => new LoggerConfiguration()
            .WriteTo.Logger(this)
            .CreateLogger()
            .ForContext(enricher)
#endif
    ;

    /// <summary>
    /// Create a logger that enriches log events via the provided enrichers.
    /// </summary>
    ILogger ForContext(IEnumerable<ILogEventEnricher> enrichers)
#if FEATURE_DEFAULT_INTERFACE
    {
        if (enrichers == null!)
            return this; // No context here, so little point writing to SelfLog.

        return ForContext(new SafeAggregateEnricher(enrichers));
    }
#else
        ;
#endif

    /// <summary>
    /// Write an event to the log.
    /// </summary>
    void Write(LogEvent logEvent)
#if FEATURE_DEFAULT_INTERFACE
    {
        DefaultLoggerImpl.Write(logEvent);
    }
#else
        ;
#endif
}
"""

# Cut from serilog's src/Serilog/Core/Logger.cs: a directive inside the base list and the parameters.
LOGGER = b"""namespace Serilog.Core;

/// <summary>
/// The core Serilog logging pipeline.
/// </summary>
public sealed class Logger : ILogger, ILogEventSink, IDisposable
#if FEATURE_ASYNCDISPOSABLE
    , IAsyncDisposable
#endif
{
    #region Construction
    internal Logger(
        ILogEventSink sink,
        Action? dispose = null,
#if FEATURE_ASYNCDISPOSABLE
        Func<ValueTask>? disposeAsync = null,
#endif
        LevelOverrideMap? overrideMap = null)
    {
        _sink = sink;
    }
    #endregion

    public void Dispose() => _dispose?.Invoke();
}
"""


def rows(parsed: ParsedFile) -> list[tuple[str, str, int, int]]:
    return [(n.kind, n.qualified_name, n.start_line, n.end_line) for n in parsed.nodes if n.kind != "module"]


def test_interface_members_under_conditionals_keep_their_interface() -> None:
    tree = parse(ILOGGER, "csharp", Deadline(5000))
    assert damage(tree.root_node) > (0, 0)  # the grammar alone cannot read it
    parsed = parse_file("src/Serilog/ILogger.cs", ILOGGER, "csharp")
    assert rows(parsed) == [
        ("interface", "Serilog.ILogger", 3, 49),
        ("method", "Serilog.ILogger.ForContext", 8, 21),
        ("method", "Serilog.ILogger.ForContext", 23, 33),
        ("method", "Serilog.ILogger.Write", 38, 45),
    ]  # as written: a method `SafeAggregateEnricher` and spans cut at the `#if`
    interface, first, second, write = [n for n in parsed.nodes if n.kind != "module"]
    # The signature is the declaration's line, past the `[CustomDefaultMethodImplementation]` above it.
    assert first.signature == "ILogger ForContext(ILogEventEnricher enricher)"
    # A blanked directive line between a doc comment and its definition does not part them.
    assert first.doc == "Create a logger that enriches log events via the provided enricher."
    assert second.signature == "ILogger ForContext(IEnumerable<ILogEventEnricher> enrichers)"
    assert write.parent_uid == interface.uid and write.signature == "void Write(LogEvent logEvent)"
    # Node text is the file as written, directives included; a trailing `#else` branch is the
    # container's text (the definition ends where its kept branch does).
    assert "#if FEATURE_DEFAULT_INTERFACE\n    {\n        DefaultLoggerImpl.Write(logEvent);" in write.text
    assert "#else\n        ;\n#endif\n}" in interface.text
    lines = ILOGGER.decode().split("\n")
    for n in parsed.nodes:
        assert n.text == "\n".join(lines[n.start_line - 1 : n.end_line]).strip() or n.kind == "interface"
    calls = {(r.target, r.src_uid) for r in parsed.refs if r.kind == "calls"}
    assert ("DefaultLoggerImpl.Write", write.uid) in calls  # read from the kept branch


def test_directives_in_base_lists_and_parameters() -> None:
    parsed = parse_file("src/Serilog/Core/Logger.cs", LOGGER, "csharp")
    assert rows(parsed) == [
        ("class", "Serilog.Core.Logger", 3, 25),
        ("method", "Serilog.Core.Logger.Logger", 12, 21),
        ("method", "Serilog.Core.Logger.Dispose", 24, 24),
    ]
    logger = next(n for n in parsed.nodes if n.kind == "class")
    assert (
        logger.signature
        == "public sealed class Logger : ILogger, ILogEventSink, IDisposable , IAsyncDisposable"
    )
    bases = {r.target for r in parsed.refs if r.kind in ("inherits", "implements")}
    assert bases == {"ILogger", "ILogEventSink", "IDisposable", "IAsyncDisposable"}
    ctor = next(n for n in parsed.nodes if n.name == "Logger" and n.kind == "method")
    assert "Func<ValueTask>? disposeAsync = null," in ctor.signature


def test_a_file_the_grammar_reads_is_parsed_as_written() -> None:
    source = b"""namespace N;

public class Sink
{
#if NET8_0
    public void Emit(LogEvent e) { Write(e); }
#else
    public void Emit(LogEvent e) { WriteLegacy(e); }
#endif
}
"""
    tree, parsed_bytes = parse_best(source, "csharp", Deadline(5000))
    assert parsed_bytes is source and not tree.root_node.has_error
    parsed = parse_file("Sink.cs", source, "csharp")
    assert [(n.qualified_name, n.start_line) for n in parsed.nodes if n.kind == "method"] == [
        ("N.Sink.Emit", 6),
        ("N.Sink.Emit", 8),
    ]  # both branches, as the grammar reads them


def test_c_is_parsed_as_written() -> None:
    """Blanking `#else` branches lost definitions on hiredis (prototypes and `#define`s in `#else`,
    include guards turned constants), so C and C++ keep the grammar's reading of `#ifdef`."""
    source = b"""#ifndef ALLOC_H
#define ALLOC_H
#ifdef __cplusplus
extern "C" {
#endif
#if USE_INLINE
static inline void *hi_malloc(size_t size) { return malloc(size); }
#else
void *hi_malloc(size_t size);
#endif
#ifdef __cplusplus
}
#endif
#endif
"""
    _tree, parsed_bytes = parse_best(source, "c", Deadline(5000))
    # Only the split `extern "C" {` / `}` conditionals are resolved (blank_split); both branches
    # of `#if USE_INLINE`, whole declarations, are read.
    assert parsed_bytes.split(b"\n")[5:10] == source.split(b"\n")[5:10]
    assert blank_inactive(source, "c") is not None  # the mechanism knows C; the parse does not use it
    parsed = parse_file("alloc.h", source, "c")
    assert [n.start_line for n in parsed.nodes if n.name == "hi_malloc"] == [7, 9]


def test_a_conditional_piece_of_a_declaration_does_not_end_its_namespace_late() -> None:
    """Cut from spdlog's common-inl.h (MIT): a `#if` around a lone `constexpr` made the grammar read
    `namespace level`'s `}` as an error, so the definitions after it were qualified `spdlog.level.*`."""
    source = b"""namespace spdlog {
namespace level {

#if __cplusplus >= 201703L
constexpr
#endif
    static string_view_t level_string_views[] SPDLOG_LEVEL_NAMES;

const char *to_short_c_str(level_enum l) { return names[l]; }
}  // namespace level

void throw_spdlog_ex(std::string msg) { SPDLOG_THROW(spdlog_ex(std::move(msg))); }

#ifdef SPDLOG_WCHAR
inline
#endif
void wide() {}

}  // namespace spdlog
"""
    assert damage(parse(source, "cpp", Deadline(5000)).root_node) > (0, 0)
    parsed = parse_file("include/spdlog/common-inl.h", source, "cpp")
    assert [(n.qualified_name, n.start_line) for n in parsed.nodes if n.kind == "function"] == [
        ("spdlog.level.to_short_c_str", 9),
        ("spdlog.throw_spdlog_ex", 12),
        ("spdlog.wide", 15),
    ]
    throw = next(n for n in parsed.nodes if n.name == "throw_spdlog_ex")
    assert throw.text.startswith("void throw_spdlog_ex(std::string msg)")  # the file as written


def test_only_fragment_conditionals_are_blanked() -> None:
    """A conditional with an `#else`, a statement, a body, a directive inside or `#if 0` keeps its
    directives (the grammar reads those, and blanking them would lose or invent code)."""
    kept = [
        b'#ifdef __cplusplus\nextern "C" {\n#endif\n',
        b"#if X\nconstexpr\n#else\ninline\n#endif\n",
        b"#if X\nint a;\n#endif\n",
        b"#ifndef GUARD\n#define GUARD\n#endif\n",
        b"#if 0\nconstexpr\n#endif\n",
        b"#if X\n\n#endif\n",
    ]
    assert [blank_fragments(source) for source in kept] == [None] * len(kept)
    source = b"#if A\n#  if B\n[[nodiscard]]\n#  endif\n#endif\nint f();\n"
    assert blank_fragments(source) == b"#if A\n       \n[[nodiscard]]\n        \n#endif\nint f();\n"


def test_blanking_keeps_the_first_branch_and_every_offset() -> None:
    source = b"""a
#if X
b
#  if Y
c
#  elif Z
d
#  endif
#else
e
#endif
#if false
f
#else
g
#endif
#region R
h\r
#pragma warning disable CS1
"""
    blanked = blank_inactive(source, "csharp")
    assert blanked is not None and len(blanked) == len(source)
    kept = [line.strip() for line in blanked.decode().split("\n") if line.strip()]
    assert kept == ["a", "b", "c", "g", "h"]
    assert blanked.count(b"\n") == source.count(b"\n") and b"h\r\n" in blanked
    assert blank_inactive(b"class A { }\n", "csharp") is None


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            ["#if A", "#elif B", "#else", "#endif", "#if false", "  # region x", "x();", "é", "\r", ""]
        ),
        max_size=30,
    )
)
def test_blanking_preserves_offsets_and_lines(lines: list[str]) -> None:
    source = "\n".join(lines).encode()
    blanked = blank_inactive(source, "csharp")
    if blanked is None:
        return
    assert len(blanked) == len(source)
    assert [i for i, b in enumerate(blanked) if b == 10] == [i for i, b in enumerate(source) if b == 10]
    assert all(b == s or b == 32 for b, s in zip(blanked, source, strict=True))


def test_a_split_conditional_is_read_with_no_macro_defined() -> None:
    """Cut from jq's jv_print.c and main.c (MIT): `} else {` split across two `#ifdef USE_DECNUM`
    made `jv_dump_term`'s body run on to the end of the file, each later function nested in it
    (`jv_dump_term.jv_dump_string`); `int umain(..) {` / `#else` / `int main(..) {` opened two bodies."""
    source = b"""static void jv_dump_term(jv x, int flags) {
  if (nan) {
    put_null();
  } else {
#ifdef USE_DECNUM
    const char *lit = literal(x);
    if (lit) {
      put_str(lit);
    } else {
#endif
      put_str(fmt(x));
#ifdef USE_DECNUM
    }
#endif
  }
}

jv jv_dump_string(jv x, int flags) {
  jv_dump_term(x, flags);
  return x;
}

#ifdef WIN32
int umain(int argc, char* argv[]);
int wmain(int argc, wchar_t* wargv[]) {
  return umain(argc, 0);
}
int umain(int argc, char* argv[]) {
#else
int main(int argc, char* argv[]) {
#endif
  return jv_dump_string(0, 0);
}
"""
    assert damage(parse(source, "c", Deadline(5000)).root_node) > (0, 0)
    parsed = parse_file("src/jv_print.c", source, "c")
    functions = [(n.qualified_name, n.start_line, n.end_line) for n in parsed.nodes if n.kind == "function"]
    assert functions == [("jv_dump_term", 1, 16), ("jv_dump_string", 18, 21), ("main", 30, 33)]
    main = next(n for n in parsed.nodes if n.name == "main")
    assert main.text.startswith("int main(int argc, char* argv[]) {")  # the file as written


def test_only_split_conditionals_are_resolved() -> None:
    """A conditional of whole statements or declarations keeps its directives and branches; a
    split one keeps the branch a compiler reads with no macro defined (`#ifndef`, `#if !defined`,
    an `#else`), or its first when the condition is not understood."""
    assert blank_split(b"#ifdef X\nint a;\n#else\nint b;\n#endif\n") is None
    extern_c = b'#ifdef __cplusplus\nextern "C" {\n#endif\n'
    assert blank_split(extern_c) == bytes(b if b == ord("\n") else ord(" ") for b in extern_c)
    assert blank_split(b"#if !defined(X) && 1\nif (a)\n#else\nif (b)\n#endif\n") == (
        b"                    \nif (a)\n     \n      \n      \n"
    )
    assert blank_split(b"#if X ? 1 : 2\nf(a,\n#endif\n") == b"             \nf(a,\n      \n"
    assert blank_split(b'#if X\n  "-b"\n#endif\n') == b"     \n      \n      \n"  # a string piece


def test_a_split_conditional_nested_past_pythons_stack_keeps_its_branch() -> None:
    """An `#if` condition is evaluated as a Python expression: one nested deeper than the
    interpreter's stack (`!!!...0` as written in a file) or longer than any configuration switch is
    not understood, so its branch is kept, never an error that fails the file."""
    for condition in (b"!" * 5000 + b"0", b"1" + b" + 1" * 20000):
        assert blank_split(b"#if " + condition + b"\nif (a)\n#endif\n") == (
            b" " * (len(condition) + 4) + b"\nif (a)\n      \n"
        )
