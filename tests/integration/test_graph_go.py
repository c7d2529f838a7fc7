"""Go calls resolved as Go scopes them: a bare name within its package, `c.Next()` by the declared
type of `c` (a parameter, a receiver's field, a function literal's parameter), and no edge for a
method of a type the index does not hold."""

from __future__ import annotations

from pathlib import Path

import pytest

from indexlib import open_engine, related
from indexlib.api import Engine
from tests.repokit import make_repo

GIN_LIKE = {
    "context.go": (
        'package gin\n\nimport "net/http"\n\ntype Context struct {\n\twritermem responseWriter\n'
        "\tRequest *http.Request\n}\n\nfunc (c *Context) Next() {}\n\nfunc (c *Context) Header(k string) {}\n"
    ),
    "response_writer.go": (
        'package gin\n\nimport "net/http"\n\ntype responseWriter struct {\n\thttp.ResponseWriter\n\tsize int\n}\n\n'
        "func (w *responseWriter) WriteHeaderNow() {}\n"
    ),
    "gin.go": (
        'package gin\n\nimport "sync"\n\ntype Engine struct {\n\tpool sync.Pool\n}\n\n'
        "func Default() *Engine { return &Engine{} }\n\n"
        "func (engine *Engine) handle(c *Context) {\n\tc.Next()\n\tc.writermem.WriteHeaderNow()\n"
        "\tc.writermem.Header()\n\tengine.pool.Get()\n}\n\n"
        "func (engine *Engine) Use(f func(*Context)) {}\n"
    ),
    "params.go": "package gin\n\ntype Params []string\n\nfunc (ps Params) Get(name string) string { return name }\n",
    "middleware_test.go": (
        'package gin\n\nimport "testing"\n\nfunc TestUse(t *testing.T) {\n\tr := Default()\n'
        "\tr.Use(func(c *Context) {\n\t\tc.Next()\n\t})\n}\n"
    ),
    "binding/binding.go": "package binding\n\nfunc Default(method string) string { return method }\n",
    "binding/binding_test.go": (
        'package binding\n\nimport "testing"\n\nfunc TestBindingDefault(t *testing.T) {\n\tDefault("GET")\n}\n'
    ),
    # Another package of the module naming the root package's type as `gin.Context`.
    "ginS/gins.go": (
        'package ginS\n\nimport "github.com/gin-gonic/gin"\n\nfunc Wrap(c *gin.Context) {\n\tc.Next()\n}\n'
    ),
    # A method called on a composite literal: the literal's type's, not the interface `Render`.
    "render/render.go": "package render\n\ntype Render interface {\n\tRender(w int) error\n}\n",
    "render/json.go": "package render\n\ntype JSON struct {\n\tData any\n}\n\nfunc (r JSON) Render(w int) error { return nil }\n",
    "render/render_test.go": (
        'package render\n\nimport "testing"\n\nfunc TestRenderJSON(t *testing.T) {\n\t(JSON{1}).Render(0)\n}\n'
    ),
    # A test type with a `Header` method: a name another type's call must not land on.
    "writer_test.go": "package gin\n\ntype mockWriter struct{}\n\nfunc (m *mockWriter) Header() {}\n",
}


@pytest.fixture(scope="module")
def gin(tmp_path_factory: pytest.TempPathFactory) -> Engine:
    return open_engine(make_repo(tmp_path_factory.mktemp("gin"), GIN_LIKE) / ".qry")


def _calls(engine: Engine, symbol: str, direction: str) -> list[tuple[str, str, bool]]:
    edges = related(engine, symbol, callers=direction == "in", callees=direction == "out").related
    return [(r.symbol, r.path, r.ambiguous) for r in edges if r.edge == "calls" and r.direction == direction]


def test_a_bare_call_is_to_its_own_packages_function(gin: Engine) -> None:
    assert _calls(gin, "gin.go:Default", "in") == [("TestUse", "middleware_test.go", False)]
    assert _calls(gin, "binding/binding.go:Default", "in") == [
        ("TestBindingDefault", "binding/binding_test.go", False)
    ]


def test_a_call_through_a_typed_variable_is_that_types_method(gin: Engine) -> None:
    """`c.Next()` with `c *Context` (a parameter, or a function literal's), `c.writermem.X()` by the
    field's type; a method promoted from `http.ResponseWriter` or of `sync.Pool` makes no edge,
    rather than one to every `Header` or `Get`."""
    assert _calls(gin, "Engine.handle", "out") == [
        ("Context.Next", "context.go", False),
        ("responseWriter.WriteHeaderNow", "response_writer.go", False),
    ]
    assert sorted(_calls(gin, "Context.Next", "in")) == [
        ("Engine.handle", "gin.go", False),
        ("TestUse", "middleware_test.go", False),
        ("Wrap", "ginS/gins.go", False),  # `c *gin.Context`: the type of the package imported as `gin`
    ]
    assert _calls(gin, "Params.Get", "in") == []
    assert _calls(gin, "mockWriter.Header", "in") == []


def test_a_method_called_on_a_composite_literal_is_the_literals_types(gin: Engine) -> None:
    assert _calls(gin, "TestRenderJSON", "out") == [("JSON.Render", "render/json.go", False)]


def test_a_go_name_qualified_by_its_package_or_as_a_method_expression_resolves(gin: Engine) -> None:
    """`gin.Context` (the root package's clause names it), `render.JSON` (the package is the folder,
    the file `json.go`), and Go's method expression `(*Context).Next`."""
    for name, where in (
        ("gin.Context", ("Context", "context.go")),
        ("render.JSON", ("JSON", "render/json.go")),
        ("(*Context).Next", ("Context.Next", "context.go")),
        ("gin.Context.Next", ("Context.Next", "context.go")),
    ):
        res = related(gin, name)
        assert res.node is not None and (res.node.symbol, res.node.path) == where, (name, res)


def test_a_call_into_a_modules_top_package_resolves_by_its_go_mod(tmp_path: Path) -> None:
    """`tea.Batch(..)` with `import tea "charm.land/bubbletea/v2"` made no edge: the import's last
    element (`v2`) names no folder, and the module's top package is in none. The module path an
    indexed go.mod declares names its folder (here the top, and `internal/ansi` under it), also
    from a nested module (`examples/go.mod`) that imports it."""
    files = {
        "go.mod": "module charm.land/bubbletea/v2\n\ngo 1.24\n",
        "commands.go": "package tea\n\nfunc Batch(cmds ...int) int { return len(cmds) }\n",
        "internal/ansi/ansi.go": "package ansi\n\nfunc Strip(s string) string { return s }\n",
        "examples/go.mod": "module examples\n\nreplace charm.land/bubbletea/v2 => ../\n",
        "examples/demo/main.go": (
            'package main\n\nimport (\n\ttea "charm.land/bubbletea/v2"\n'
            '\t"charm.land/bubbletea/v2/internal/ansi"\n)\n\n'
            'func main() {\n\ttea.Batch(1, 2)\n\tansi.Strip("x")\n}\n'
        ),
        # Another module's `Batch`: a call by name alone would be ambiguous.
        "other/batch.go": "package other\n\nfunc Batch(cmds ...int) int { return 0 }\n",
    }
    engine = open_engine(make_repo(tmp_path, files) / ".qry")
    callees = [(r.symbol, r.path, r.ambiguous) for r in related(engine, "main", callers=False).related]
    assert callees == [
        ("Batch", "commands.go", False),
        ("Strip", "internal/ansi/ansi.go", False),
    ]


def test_an_unaliased_import_of_a_major_version_path_binds_the_package_name(tmp_path: Path) -> None:
    """`import "example.com/task/v3"` binds `task` (the package the path's last element before `/v3`
    names), not `v3`: `task.Run()` in another package is the module's `Run`."""
    files = {
        "go.mod": "module example.com/task/v3\n\ngo 1.22\n",
        "task.go": "package task\n\nfunc Run() int { return 1 }\n",
        "cmd/task/main.go": 'package main\n\nimport "example.com/task/v3"\n\nfunc main() {\n\ttask.Run()\n}\n',
        "other/run.go": "package other\n\nfunc Run() int { return 0 }\n",
    }
    engine = open_engine(make_repo(tmp_path, files) / ".qry")
    callees = [(r.symbol, r.path, r.ambiguous) for r in related(engine, "main", callers=False).related]
    assert callees == [("Run", "task.go", False)]


def test_a_call_through_a_package_name_is_its_function_and_a_call_on_its_result_a_method(
    tmp_path: Path,
) -> None:
    """`logx.WithField()` reaches only a package-level definition (Go reaches no method through a
    package name), though `Entry.WithField` and `Logger.WithField` share the name; a method called
    on what the package returns (`logx.NewEntry().WithField()`) is never the package's function."""
    files = {
        "go.mod": "module example.com/logx\n\ngo 1.22\n",
        "entry.go": (
            "package logx\n\ntype Entry struct{}\n\nfunc NewEntry() *Entry { return &Entry{} }\n\n"
            "func (e *Entry) WithField(k string) *Entry { return e }\n"
        ),
        "logger.go": "package logx\n\ntype Logger struct{}\n\nfunc (l *Logger) WithField(k string) *Entry { return nil }\n",
        "exported.go": "package logx\n\nfunc WithField(k string) *Entry { return NewEntry().WithField(k) }\n",
        "cmd/app/main.go": (
            'package main\n\nimport "example.com/logx"\n\nfunc main() {\n\tlogx.WithField("a")\n}\n\n'
            'func chain() {\n\tlogx.NewEntry().WithField("b")\n}\n'
        ),
    }
    engine = open_engine(make_repo(tmp_path, files) / ".qry")
    assert _calls(engine, "main", "out") == [("WithField", "exported.go", False)]
    assert ("WithField", "exported.go") not in [(s, p) for s, p, _ in _calls(engine, "chain", "out")]
    assert _calls(engine, "exported.go:WithField", "in") == [("main", "cmd/app/main.go", False)]


def test_a_call_through_a_local_variable_of_a_written_type_is_that_types_method(tmp_path: Path) -> None:
    """`f := &JSONFormatter{...}` and `var t TextFormatter` declare the variable's type where it is
    made: `f.Format()` is JSONFormatter's, not an ambiguous edge to every `Format`, and
    `var b bytes.Buffer; b.Reset()` is the standard library's (no edge)."""
    files = {
        "formatter.go": (
            "package logx\n\ntype Formatter interface {\n\tFormat(e int) ([]byte, error)\n}\n\n"
            "type JSONFormatter struct{ Pretty bool }\n\n"
            "func (f *JSONFormatter) Format(e int) ([]byte, error) { return nil, nil }\n\n"
            "type TextFormatter struct{}\n\nfunc (f *TextFormatter) Format(e int) ([]byte, error) { return nil, nil }\n"
            "\nfunc (f *TextFormatter) Reset() {}\n"
        ),
        "formatter_test.go": (
            'package logx\n\nimport (\n\t"bytes"\n\t"testing"\n)\n\nfunc TestFormat(t *testing.T) {\n'
            "\tf := &JSONFormatter{\n\t\tPretty: true,\n\t}\n\tf.Format(1)\n\tvar tf TextFormatter\n"
            "\ttf.Format(2)\n\tvar b bytes.Buffer\n\tb.Reset()\n}\n"
        ),
    }
    engine = open_engine(make_repo(tmp_path, files) / ".qry")
    assert _calls(engine, "TestFormat", "out") == [
        ("JSONFormatter.Format", "formatter.go", False),
        ("TextFormatter.Format", "formatter.go", False),
    ]


def test_a_typed_call_is_to_the_method_of_the_types_own_package(tmp_path: Path) -> None:
    """Each codec package declares its own `Codec` with an `Encode` method: `codec := Codec{};
    codec.Encode()` in the yaml package calls yaml's `Codec.Encode` alone, not every package's
    method of that qualified name (viper's four internal/encoding packages each had four callers)."""
    files = {
        f"encoding/{pkg}/codec.go": f"package {pkg}\n\ntype Codec struct{{}}\n\nfunc (Codec) Encode(v int) error {{ return nil }}\n"
        for pkg in ("yaml", "json")
    }
    files["encoding/yaml/codec_test.go"] = (
        'package yaml\n\nimport "testing"\n\nfunc TestEncode(t *testing.T) {\n\tcodec := Codec{}\n\tcodec.Encode(1)\n}\n'
    )
    engine = open_engine(make_repo(tmp_path, files) / ".qry")
    assert _calls(engine, "TestEncode", "out") == [("Codec.Encode", "encoding/yaml/codec.go", False)]
    assert _calls(engine, "encoding/json/codec.go:Codec.Encode", "in") == []


def test_a_variable_made_by_a_call_or_declared_at_package_level_has_that_type(tmp_path: Path) -> None:
    """`v := New()`, `c, err := Open()`, `x := cfg.New()` (another package's) take the called
    function's result type, and a package-level `var v *Config` or `var std = New()` is that type in
    every function of the package binding no `v` of its own: the package functions forwarding to a
    global instance (viper's `GetString` calling `v.GetString`) and the tests calling methods on
    `New()`'s result linked by name alone, ambiguous, and `v.Set()` to a test's `stringValue.Set`."""
    files = {
        "go.mod": "module example.com/cfg\n\ngo 1.22\n",
        "cfg.go": (
            "package cfg\n\nvar v *Config\n\nvar std = New()\n\ntype Config struct{}\n\n"
            "func New() *Config { return &Config{} }\n\n"
            "func Open(p string) (c *Config, err error) { return New(), nil }\n\n"
            "func (c *Config) Set(k string) {}\n\nfunc (c *Config) Get(k string) string { return k }\n\n"
            "func Set(k string) { v.Set(k) }\n\nfunc Get(k string) string { return std.Get(k) }\n\n"
            "type store struct{}\n\nfunc (s store) Get(k string) string { return k }\n\n"
            'func shadowed(v store) string { return v.Get("a") }\n'
        ),
        "value_test.go": "package cfg\n\ntype stringValue struct{}\n\nfunc (s *stringValue) Set(x string) {}\n",
        "cfg_test.go": (
            'package cfg\n\nimport "testing"\n\nfunc TestSet(t *testing.T) {\n\tv := New()\n\tv.Set("a")\n'
            '\tc, err := Open("p")\n\t_ = err\n\tc.Get("b")\n}\n'
        ),
        "cmd/app/main.go": (
            'package main\n\nimport "example.com/cfg"\n\nfunc main() {\n\tx := cfg.New()\n\tx.Get("c")\n}\n'
        ),
    }
    engine = open_engine(make_repo(tmp_path, files) / ".qry")
    assert _calls(engine, "cfg.go:Set", "out") == [("Config.Set", "cfg.go", False)]
    assert _calls(engine, "cfg.go:Get", "out") == [("Config.Get", "cfg.go", False)]
    assert sorted(_calls(engine, "TestSet", "out")) == [
        ("Config.Get", "cfg.go", False),
        ("Config.Set", "cfg.go", False),
        ("New", "cfg.go", False),
        ("Open", "cfg.go", False),
    ]
    assert _calls(engine, "main", "out") == [("New", "cfg.go", False), ("Config.Get", "cfg.go", False)]
    # A parameter `v` is not the package's `v`: its own type's method.
    assert _calls(engine, "shadowed", "out") == [("store.Get", "cfg.go", False)]


def test_a_method_of_a_dependencys_type_links_to_nothing_indexed(tmp_path: Path) -> None:
    """`cm.Get()` on a `crypt.ConfigManager` (a package under no indexed go.mod's module path) is
    the dependency's method: no edge, as for the standard library's `sync.Pool`, rather than one by
    name alone to every indexed `Get` (viper's remote provider called `Viper.Get` so). A type of
    another indexed module's package still resolves."""
    files = {
        "go.mod": "module example.com/cfg\n\ngo 1.22\n",
        "cfg.go": 'package cfg\n\nimport "strings"\n\ntype Config struct{}\n\nfunc (c *Config) Get(k string) string { return strings.ToLower(k) }\n',
        "remote/go.mod": "module example.com/cfg/remote\n\ngo 1.22\n",
        "remote/remote.go": (
            'package remote\n\nimport (\n\t"example.com/cfg"\n\tcrypt "github.com/acme/crypt/config"\n)\n\n'
            'func Read(cm crypt.ConfigManager, c *cfg.Config) {\n\tcm.Get("a")\n\tc.Get("b")\n}\n'
        ),
    }
    engine = open_engine(make_repo(tmp_path, files) / ".qry")
    assert _calls(engine, "Read", "out") == [("Config.Get", "cfg.go", False)]


def test_a_type_of_a_major_version_modules_package_types_its_variables(tmp_path: Path) -> None:
    """`cmd *cli.Command` with `import "example.com/cli/v3"` (urfave/cli's layout: the module's top
    package is `cli`) is that package's `Command`: the import path's last element is `v3`, no package
    clause, so `cmd.String()` in the build script had no edge and `(&cli.Command{}).Run()` and
    `app := &cli.Command{}; app.Run()` were ambiguous with a same-named method elsewhere."""
    files = {
        "go.mod": "module example.com/cli/v3\n\ngo 1.22\n",
        "command.go": (
            "// Package cli builds command line programs.\npackage cli\n\ntype Command struct{ Name string }\n\n"
            "func (cmd *Command) Run(args []string) error { return nil }\n\n"
            "func (cmd *Command) String(name string) string { return name }\n"
        ),
        "runner/runner.go": (
            "package runner\n\ntype Job struct{}\n\nfunc (j *Job) Run(args []string) error { return nil }\n\n"
            "func (j *Job) String(name string) string { return name }\n"
        ),
        "scripts/build.go": (
            'package main\n\nimport "example.com/cli/v3"\n\nfunc vet(cmd *cli.Command) string {\n'
            '\treturn cmd.String("top-dir")\n}\n\nfunc main() {\n\tapp := &cli.Command{Name: "b"}\n'
            "\tapp.Run(nil)\n}\n\nfunc tiny() {\n\t_ = (&cli.Command{}).Run(nil)\n}\n"
        ),
        # A test type of the package's own folder with a `Run` method, which no other type's call is.
        "command_test.go": "package cli\n\ntype runCase struct{}\n\nfunc (c runCase) Run(args []string) error { return nil }\n",
    }
    engine = open_engine(make_repo(tmp_path, files) / ".qry")
    assert _calls(engine, "vet", "out") == [("Command.String", "command.go", False)]
    assert _calls(engine, "main", "out") == [("Command.Run", "command.go", False)]
    assert _calls(engine, "tiny", "out") == [("Command.Run", "command.go", False)]


def test_a_go_test_files_definitions_are_called_from_its_folders_tests_alone(tmp_path: Path) -> None:
    """Go builds a `_test.go` file into its own folder's tests: urfave/cli's `help.go` calling
    `f.Names()` on a `Flag` linked to the test type `customBoolFlag.Names` (48 such edges from its
    code), and a program in another folder to a test type's `Run`. A test of the folder, of its
    package or the external `_test` one, still calls it."""
    files = {
        "flag.go": "package cli\n\ntype Flag interface {\n\tNames() []string\n}\n",
        "flag_bool.go": "package cli\n\ntype BoolFlag struct{}\n\nfunc (b *BoolFlag) Names() []string { return nil }\n",
        # `f` made by a function value: no type read, so the call is linked by its name.
        "help.go": "package cli\n\nfunc visible(get func() Flag) {\n\tf := get()\n\tf.Names()\n}\n",
        "flag_test.go": (
            "package cli\n\ntype customBoolFlag struct{}\n\nfunc (c *customBoolFlag) Names() []string { return nil }\n\n"
            "func helper(get func() Flag) {\n\tf := get()\n\tf.Names()\n}\n"
        ),
        "export_test.go": "package cli_test\n\nfunc names(f *customBoolFlag) []string {\n\treturn f.Names()\n}\n",
        "other/other.go": "package other\n\nfunc use(f interface{ Names() []string }) {\n\tf.Names()\n}\n",
    }
    engine = open_engine(make_repo(tmp_path, files) / ".qry")
    assert {s for s, _, _ in _calls(engine, "visible", "out")} == {"Flag.Names", "BoolFlag.Names"}
    assert "customBoolFlag.Names" in {s for s, _, _ in _calls(engine, "helper", "out")}
    assert sorted(s for s, _, _ in _calls(engine, "customBoolFlag.Names", "in")) == ["helper", "names"]


def test_a_method_on_what_a_standard_or_dependency_function_returns_links_to_nothing(tmp_path: Path) -> None:
    """`cmd := exec.CommandContext(ctx, "go"); cmd.Run()` runs os/exec's `Cmd.Run`: urfave/cli's
    build script linked it to the indexed `Command.Run` (and a test type's), ambiguous. So with a
    dependency's function (`remote.Dial()`); a function of an indexed package still types its result."""
    files = {
        "go.mod": "module example.com/cli\n\ngo 1.22\n",
        "command.go": (
            'package cli\n\nimport "context"\n\ntype Command struct{}\n\n'
            "func New() *Command { return &Command{} }\n\n"
            "func (c *Command) Run(ctx context.Context) error { return nil }\n"
        ),
        "job/job.go": "package job\n\ntype Job struct{}\n\nfunc (j *Job) Run() error { return nil }\n",
        "scripts/build.go": (
            'package main\n\nimport (\n\t"context"\n\t"os/exec"\n\n\t"example.com/cli"\n'
            '\t"github.com/acme/remote"\n)\n\n'
            'func runCmd(ctx context.Context) error {\n\tcmd := exec.CommandContext(ctx, "go")\n\treturn cmd.Run()\n}\n\n'
            "func dial() {\n\tconn := remote.Dial()\n\tconn.Run()\n}\n\n"
            "func main() {\n\tapp := cli.New()\n\tapp.Run(context.Background())\n}\n"
        ),
    }
    engine = open_engine(make_repo(tmp_path, files) / ".qry")
    assert _calls(engine, "runCmd", "out") == []
    assert _calls(engine, "dial", "out") == []
    assert _calls(engine, "main", "out") == [
        ("New", "command.go", False),
        ("Command.Run", "command.go", False),
    ]


def test_a_range_variable_has_its_collections_element_type(tmp_path: Path) -> None:
    """`for _, f := range flags` over a `[]Flag` parameter, a `map[string]*Task` local, a field
    (`cmd.flags`) or a method's result (`cmd.all()`): `f.Names()` is `Flag.Names`, not an ambiguous
    edge to every `Names`; a map's key (a `string`) types nothing."""
    files = {
        "flag.go": (
            "package cli\n\ntype Flag interface {\n\tNames() []string\n}\n\n"
            "type Task struct{}\n\nfunc (t *Task) Names() []string { return nil }\n\n"
            "type Command struct {\n\tflags []Flag\n}\n\n"
            "func (c *Command) Names() []string { return nil }\n\n"
            "func (c *Command) all() []Flag { return c.flags }\n"
        ),
        "use.go": (
            "package cli\n\nfunc params(flags []Flag) {\n\tfor _, f := range flags {\n\t\tf.Names()\n\t}\n}\n\n"
            "func locals() {\n\tvar byName map[string]*Task\n\tfor name, t := range byName {\n"
            "\t\tt.Names()\n\t\tname.Names()\n\t}\n}\n\n"
            "func (c *Command) field() {\n\tfor _, f := range c.flags {\n\t\tf.Names()\n\t}\n}\n\n"
            "func (c *Command) result() {\n\tfor _, f := range c.all() {\n\t\tf.Names()\n\t}\n}\n"
        ),
    }
    engine = open_engine(make_repo(tmp_path, files) / ".qry")
    assert _calls(engine, "params", "out") == [("Flag.Names", "flag.go", False)]
    assert ("Task.Names", "flag.go", False) in _calls(engine, "locals", "out")
    assert _calls(engine, "Command.field", "out") == [("Flag.Names", "flag.go", False)]
    assert ("Flag.Names", "flag.go", False) in _calls(engine, "Command.result", "out")


def test_a_types_own_method_shadows_an_embedded_types_and_a_method_result_types_a_variable(
    tmp_path: Path,
) -> None:
    """Go promotes an embedded type's method only when the outer type lacks one of that name:
    `engine.Use()` on an `*Engine` that embeds `RouterGroup` is Engine's alone (gin: every
    `router.Use(..)` was an ambiguous edge to both). `group := engine.Group(..)` is typed by the
    result of the method it calls (promoted from `RouterGroup`), so `group.Use()` is RouterGroup's.
    A parameter `r render.Render` calls the interface's method `Render.Render`, never the interface
    `Render` itself, though its name, unqualified, is the method's owner's."""
    files = {
        "routergroup.go": (
            "package gin\n\ntype RouterGroup struct {\n\tbase string\n}\n\n"
            "func (g *RouterGroup) Use(f ...int) {}\n\n"
            "func (g *RouterGroup) Group(p string) *RouterGroup { return g }\n"
        ),
        "gin.go": (
            "package gin\n\ntype Engine struct {\n\tRouterGroup\n}\n\nfunc New() *Engine { return &Engine{} }\n\n"
            "func (engine *Engine) Use(f ...int) {\n\tengine.RouterGroup.Use(f...)\n}\n"
        ),
        "render/render.go": "package render\n\ntype Render interface {\n\tRender(w int) error\n}\n",
        "context.go": (
            'package gin\n\nimport "example.com/gin/render"\n\n'
            "func Draw(code int, r render.Render) {\n\tr.Render(code)\n}\n"
        ),
        "gin_test.go": (
            'package gin\n\nimport "testing"\n\nfunc TestUse(t *testing.T) {\n\tengine := New()\n\tengine.Use(1)\n'
            '\tgroup := engine.Group("/v1")\n\tgroup.Use(2)\n}\n'
        ),
        "go.mod": "module example.com/gin\n\ngo 1.22\n",
    }
    engine = open_engine(make_repo(tmp_path, files) / ".qry")
    assert sorted(_calls(engine, "TestUse", "out")) == [
        ("Engine.Use", "gin.go", False),
        ("New", "gin.go", False),
        ("RouterGroup.Group", "routergroup.go", False),
        ("RouterGroup.Use", "routergroup.go", False),
    ]
    assert _calls(engine, "Engine.Use", "in") == [("TestUse", "gin_test.go", False)]
    assert _calls(engine, "Draw", "out") == [("Render.Render", "render/render.go", False)]


def test_a_later_value_of_a_multi_value_assignment_has_the_result_type_at_its_position(
    tmp_path: Path,
) -> None:
    """gin's `c, r := CreateTestContext(w)` then `r.Use(..)`: `r` holds the function's second
    result (`*Engine`), yet only the first name was typed, so `r.Use` was a guess at every `Use`.
    Each name takes the result at its position, of a function or a method, named results too
    (`a, b *T` counts two)."""
    files = {
        "routergroup.go": "package gin\n\ntype RouterGroup struct {\n\tbase string\n}\n\nfunc (g *RouterGroup) Use(f ...int) {}\n",
        "gin.go": (
            "package gin\n\ntype Engine struct {\n\tRouterGroup\n}\n\n"
            "type Context struct {\n\tengine *Engine\n}\n\n"
            "func (engine *Engine) Use(f ...int) {}\n\nfunc (c *Context) Use(f ...int) {}\n\n"
            "func CreateTestContext(w int) (*Context, *Engine) { return nil, nil }\n\n"
            "func (engine *Engine) Pair() (c, d *Context, g *RouterGroup) { return nil, nil, nil }\n"
        ),
        "gin_test.go": (
            'package gin\n\nimport "testing"\n\nfunc TestPair(t *testing.T) {\n\tc, r := CreateTestContext(1)\n'
            "\tr.Use(1)\n\tc.Use(2)\n\t_, d, g := r.Pair()\n\td.Use(3)\n\tg.Use(4)\n}\n"
        ),
        "go.mod": "module example.com/gin\n\ngo 1.22\n",
    }
    engine = open_engine(make_repo(tmp_path, files) / ".qry")
    assert sorted(_calls(engine, "TestPair", "out")) == [
        ("Context.Use", "gin.go", False),
        ("CreateTestContext", "gin.go", False),
        ("Engine.Pair", "gin.go", False),
        ("Engine.Use", "gin.go", False),
        ("RouterGroup.Use", "routergroup.go", False),
    ]


def test_a_call_on_a_method_calls_result_is_the_result_types_method(tmp_path: Path) -> None:
    """cobra's `c.Root().Find(args)`: a reference writes the call's qualifier without parentheses
    (`c.Root.Find`), which read as a type `Root` the index does not hold, so the edge was dropped:
    `qry related Command.Root --callees` missed the recursive `c.Parent().Root()`. Each step of the
    chain is a field of the type so far or else a method, whose declared result types the next;
    a step giving another package's type (`c.Flags()`'s `*flag.FlagSet`) links to nothing."""
    files = {
        "command.go": (
            'package cobra\n\nimport flag "github.com/spf13/pflag"\n\n'
            "type Command struct {\n\tparent *Command\n\thelp *Help\n}\n\n"
            "type Help struct{}\n\nfunc (h *Help) Show() {}\n\n"
            "func (c *Command) Parent() *Command { return c.parent }\n\n"
            "func (c *Command) Root() *Command {\n\treturn c.Parent().Root()\n}\n\n"
            "func (c *Command) Find(a []string) (*Command, error) { return c, nil }\n\n"
            "func (c *Command) Flags() *flag.FlagSet { return nil }\n\n"
            "func (c *Command) Lookup(n string) {}\n\n"
            "func Run(cmd *Command) {\n\tcmd.Root().Find(nil)\n\tcmd.Root().parent.help.Show()\n"
            '\tcmd.Flags().Lookup("x")\n}\n'
        ),
        "go.mod": "module example.com/cobra\n\ngo 1.22\n",
    }
    engine = open_engine(make_repo(tmp_path, files) / ".qry")
    assert sorted(_calls(engine, "Command.Root", "out")) == [
        ("Command.Parent", "command.go", False),
        ("Command.Root", "command.go", False),
    ]
    assert sorted(_calls(engine, "Run", "out")) == [
        ("Command.Find", "command.go", False),
        ("Command.Flags", "command.go", False),
        ("Command.Root", "command.go", False),
        ("Help.Show", "command.go", False),
    ]
