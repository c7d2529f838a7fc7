"""Per-language extraction tables: the tree-sitter query and the node types around a definition.

Owns: for each grammar, the query whose captures name definitions (`@function`, `@method`, `@class`,
`@struct`, `@interface`, `@enum`, `@trait`, `@type`, `@constant`, a type's value member `@field`), namespaces (`@scope`, Rust
`@impl`), call sites (`@call`) and imports (`@import`), plus which node types are comments, which
parents belong to a definition's span (decorators, `export`, `template <...>`, the declaration
around a lone declarator), which preceding siblings do (Rust attributes) and which comment opening
documents a definition across blank lines (JSDoc `/**`).
It holds data only; extract.py and references.py interpret it.

Why queries: they run in C and return only the nodes that matter, which is cheaper than visiting
every syntax node from Python (measured on the standard library: roughly the cost of the parse).
"""

from __future__ import annotations

from dataclasses import dataclass

MACROS = frozenset({"preproc_def", "preproc_function_def"})  # C/C++ `#define`s
# Definitions no namespace qualifies: C/C++ `#define`s and Rust `macro_rules!` (called by their bare
# name wherever they are in scope, or as `crate::name!` when exported).
UNQUALIFIED = MACROS | {"macro_definition"}
SPECIFIERS = frozenset({"struct_specifier", "union_specifier", "enum_specifier", "class_specifier"})


@dataclass(frozen=True, slots=True)
class Spec:
    """What extraction needs to know about one grammar."""

    query: str
    comments: frozenset[str]  # comment node types
    wrappers: frozenset[str] = frozenset()  # parents that belong to a definition's span
    prefixes: frozenset[str] = frozenset()  # preceding siblings that belong to it (Rust attributes)
    line_comment: tuple[str, ...] = ("//", "/*", "*")  # how a comment line starts (module trivia test)
    # A comment opening so (JSDoc `/**`) documents the next definition across blank lines too.
    doc_block: bytes = b""
    # Nodes whose last children may be the comments above the next definition (Kotlin's grammar
    # puts a doc comment after the imports inside `import_list`).
    trailing_comments: frozenset[str] = frozenset()


_C_LIKE_COMMENTS = frozenset({"comment"})

_PYTHON = Spec(
    query="""
    (function_definition) @function
    (class_definition) @class
    (module (assignment left: (identifier)) @constant)
    (module (expression_statement (assignment left: (identifier)) @constant))
    (call) @call
    (decorator (identifier) @decorator)
    (decorator (attribute) @decorator)
    (import_statement) @import
    (import_from_statement) @import
    (future_import_statement) @import
    """,
    comments=frozenset({"comment"}),
    wrappers=frozenset({"decorated_definition"}),
    line_comment=("#",),
)

_JS_COMMON = """
    (function_declaration) @function
    (generator_function_declaration) @function
    (class_declaration) @class
    (method_definition) @method
    (variable_declarator name: (identifier) value: [(arrow_function) (function_expression) (generator_function)]) @function
    (variable_declarator name: (identifier) value: (class)) @class
    (assignment_expression left: (member_expression) right: [(arrow_function) (function_expression)]) @function
    (arguments (function_expression name: (identifier)) @function)
    ; `defineGetter(obj, 'x', fn)`, `Object.defineProperty(obj, 'x', {get})`, and each key of
    ; `Object.defineProperties(obj, {x: {get}})`: jsdefs.py keeps the calls that define a property
    (call_expression arguments: (arguments . (_) . (string) . [(function_expression) (arrow_function) (object)])) @function
    (call_expression arguments: (arguments . (_) . (object (pair value: (object)) @function)))
    (call_expression) @call
    (new_expression) @call
    ; the names a call of a parameter may use (jsdefs.Parameters)
    (formal_parameters) @parameters
    (arrow_function parameter: (identifier) @parameters)
    (import_statement) @import
    (export_statement source: (_)) @import
    (program (lexical_declaration (variable_declarator name: (identifier)) @constant))
    (program (variable_declaration (variable_declarator name: (identifier)) @constant))
    (program (export_statement (lexical_declaration (variable_declarator name: (identifier)) @constant)))
    (program (export_statement (variable_declaration (variable_declarator name: (identifier)) @constant)))
    ; `exports.X = value`: jsdefs.py keeps the exports
    (program (expression_statement (assignment_expression left: (member_expression)) @constant))
"""
_JAVASCRIPT = Spec(
    query=_JS_COMMON
    + """
    (field_definition property: (_) value: [(arrow_function) (function_expression)]) @method
    """,
    comments=_C_LIKE_COMMENTS,
    wrappers=frozenset(
        {"export_statement", "lexical_declaration", "variable_declaration", "expression_statement"}
    ),
    doc_block=b"/**",
)
_TYPESCRIPT = Spec(
    query=_JS_COMMON
    + """
    (public_field_definition name: (_) value: [(arrow_function) (function_expression)]) @method
    (abstract_class_declaration) @class
    (interface_declaration) @interface
    (enum_declaration) @enum
    (internal_module) @scope
    (type_alias_declaration) @type
    (method_signature) @method
    (abstract_method_signature) @method
    (function_signature) @function
    """,
    comments=_C_LIKE_COMMENTS,
    wrappers=frozenset(
        {"export_statement", "lexical_declaration", "variable_declaration", "expression_statement"}
    ),
    prefixes=frozenset({"decorator"}),
    doc_block=b"/**",
)
_GO = Spec(
    query="""
    (function_declaration) @function
    (method_declaration) @method
    (type_spec type: (struct_type)) @struct
    (type_spec type: (interface_type)) @interface
    (type_spec) @type
    (type_alias) @type
    (method_elem) @method
    (type_spec type: (struct_type (field_declaration_list (field_declaration name: (_)) @field)))
    (source_file (const_declaration (const_spec) @constant))
    (source_file (var_declaration (var_spec) @constant))
    (source_file (var_declaration (var_spec_list (var_spec) @constant)))
    (call_expression) @call
    (import_declaration) @import
    """,
    comments=_C_LIKE_COMMENTS,
    wrappers=frozenset({"type_declaration", "const_declaration", "var_declaration"}),
)
_JAVA = Spec(
    query="""
    (class_declaration) @class
    (record_declaration) @class
    (interface_declaration) @interface
    (annotation_type_declaration) @interface
    (enum_declaration) @enum
    (method_declaration) @method
    (constructor_declaration) @method
    (field_declaration declarator: (variable_declarator value: (_)) @scope)
    (constant_declaration declarator: (variable_declarator value: (_)) @scope)
    (enum_constant body: (class_body)) @scope
    (method_invocation) @call
    (object_creation_expression) @call
    (import_declaration) @import
    """,
    comments=frozenset({"line_comment", "block_comment"}),
)
_RUST = Spec(
    query="""
    (function_item) @function
    (struct_item) @struct
    (union_item) @struct
    (enum_item) @enum
    (trait_item) @trait
    (function_signature_item) @function
    (macro_definition) @function
    (enum_variant_list (enum_variant) @constant)
    (const_item) @constant
    (static_item) @constant
    (type_item) @type
    (impl_item) @impl
    (mod_item body: (_)) @scope
    (mod_item !body) @import
    (extern_crate_declaration) @import
    (use_declaration) @import
    (call_expression) @call
    (macro_invocation) @call
    """,
    comments=frozenset({"line_comment", "block_comment"}),
    prefixes=frozenset({"attribute_item"}),
)
# `#define`s are captured at any depth of conditionals and namespaces, typedefs whatever they
# declare: items.py leaves out include guards, a typedef of a struct with a body (the struct is
# the node) and whatever is written inside a function body.
_C_QUERY = """
    (function_definition) @function
    (struct_specifier body: (_)) @struct
    (union_specifier body: (_)) @struct
    (enum_specifier body: (_)) @enum
    (call_expression) @call
    (preproc_include) @import
    (declaration declarator: (function_declarator)) @function
    (declaration declarator: (pointer_declarator declarator: (function_declarator))) @function
    (declaration declarator: (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator)))) @function
    (preproc_def) @constant
    (preproc_function_def) @function
    (type_definition) @type
"""
_C = Spec(query=_C_QUERY, comments=_C_LIKE_COMMENTS, wrappers=frozenset({"type_definition"}))
_CPP = Spec(
    query=_C_QUERY
    + """
    (class_specifier body: (_)) @class
    (field_declaration declarator: (function_declarator)) @function
    (field_declaration declarator: (pointer_declarator declarator: (function_declarator))) @function
    (field_declaration declarator: (reference_declarator (function_declarator))) @function
    (namespace_definition) @scope
    (new_expression) @call
    (declaration declarator: (reference_declarator (function_declarator))) @function
    (alias_declaration) @type
    """,
    comments=_C_LIKE_COMMENTS,
    wrappers=frozenset({"type_definition", "template_declaration"}),
)
# C#: a property or an event is a `method` (its accessors run code); a field is a definition only when
# `const` (items.py drops the others), as other languages' fields are not definitions, except Go's
# struct fields (a Go type's API).
_CSHARP = Spec(
    query="""
    (class_declaration) @class
    (record_declaration) @class
    (struct_declaration) @struct
    (interface_declaration) @interface
    (enum_declaration) @enum
    (method_declaration) @method
    (constructor_declaration) @method
    (local_function_statement) @function
    (property_declaration) @method
    (event_declaration) @method
    (event_field_declaration (variable_declaration (variable_declarator) @method))
    (field_declaration (variable_declaration (variable_declarator) @constant))
    (namespace_declaration) @scope
    (file_scoped_namespace_declaration) @scope
    (invocation_expression) @call
    (object_creation_expression) @call
    (implicit_object_creation_expression) @call
    (using_directive) @import
    """,
    comments=_C_LIKE_COMMENTS,
    wrappers=frozenset({"variable_declaration", "field_declaration", "event_field_declaration"}),
)
# A Ruby module is a container, not only a namespace: it holds methods (`def self.parse_query`,
# `module_function`) and constants, and is an object at run time (Class is a subclass of Module). So
# it is a `class` node, unlike the C#/PHP/TS namespaces and Rust `mod` blocks, which only qualify names
# (and unlike a module holding only classes and modules, which items.py makes a scope).
# A statement of a class, module or `class << self` body may define methods too (`attr_reader :a`,
# `alias_method :b, :c`, `define_method(:d)`, also as `private attr_reader :a`): every call there
# is captured and rubydefs.py keeps those that define a name.
_RUBY_BODY_DEFINITIONS = """
    (BODY body: (body_statement (call method: (identifier) arguments: (argument_list)) @method))
    (BODY body: (body_statement (call arguments: (argument_list
        (call method: (identifier) arguments: (argument_list)) @method))))
    (BODY body: (body_statement (alias) @method))
"""
_RUBY = Spec(
    query="""
    (method) @method
    (singleton_method) @method
    (class) @class
    (module) @class
    (program (assignment left: (constant)) @constant)
    (class body: (body_statement (assignment left: (constant)) @constant))
    (module body: (body_statement (assignment left: (constant)) @constant))
    (singleton_class body: (body_statement (assignment left: (constant)) @constant))
    (call) @call
    (super) @call
    (identifier) @bare
    """
    + "".join(
        _RUBY_BODY_DEFINITIONS.replace("BODY", body) for body in ("class", "module", "singleton_class")
    ),
    comments=_C_LIKE_COMMENTS,
    line_comment=("#",),
)
_PHP = Spec(
    query="""
    (function_definition) @function
    (method_declaration) @method
    (class_declaration) @class
    (interface_declaration) @interface
    (trait_declaration) @trait
    (enum_declaration) @enum
    (const_declaration (const_element) @constant)
    (namespace_definition) @scope
    (function_call_expression) @call
    (member_call_expression) @call
    (nullsafe_member_call_expression) @call
    (scoped_call_expression) @call
    (object_creation_expression) @call
    (namespace_use_declaration) @import
    (require_expression) @import
    (require_once_expression) @import
    (include_expression) @import
    (include_once_expression) @import
    """,
    comments=_C_LIKE_COMMENTS,
    wrappers=frozenset({"const_declaration"}),
    line_comment=("//", "#", "/*", "*"),
)

# Kotlin: one `class_declaration` for classes, interfaces and enum classes (kotlinswift.py reads the
# keyword); an `object`, a `companion object`, a secondary constructor (named as its class, as a
# Java constructor is) and a class's properties are its members; a property
# at top level is a `constant`, one in a class or object body a `field` (a Kotlin type's API is its
# properties, as a Go type's is its fields); statements in a function body are the function's.
_KOTLIN = Spec(
    query="""
    (class_declaration) @class
    (object_declaration) @class
    (companion_object) @class
    (function_declaration) @function
    (secondary_constructor) @function
    (type_alias) @type
    (source_file (property_declaration) @constant)
    (class_body (property_declaration) @field)
    (enum_class_body (enum_entry) @constant)
    (call_expression) @call
    (import_header) @import
    """,
    comments=frozenset({"line_comment", "multiline_comment"}),
    doc_block=b"/**",
    trailing_comments=frozenset({"import_list", "package_header"}),
)
# Swift: `declaration_kind` tells a class, struct, enum, actor and extension apart; an extension adds
# members to the type it names, as a Rust `impl` does; `init` and `subscript` are functions so named.
_SWIFT = Spec(
    query="""
    (class_declaration declaration_kind: "class") @class
    (class_declaration declaration_kind: "actor") @class
    (class_declaration declaration_kind: "struct") @struct
    (class_declaration declaration_kind: "enum") @enum
    (class_declaration declaration_kind: "extension") @impl
    (protocol_declaration) @interface
    (function_declaration) @function
    (protocol_function_declaration) @function
    (init_declaration) @function
    (subscript_declaration) @function
    (typealias_declaration) @type
    (associatedtype_declaration) @type
    (source_file (property_declaration) @constant)
    (class_body (property_declaration) @field)
    (protocol_body (protocol_property_declaration) @field)
    (enum_class_body (enum_entry) @constant)
    (call_expression) @call
    (import_declaration) @import
    """,
    comments=frozenset({"comment", "multiline_comment"}),
    doc_block=b"/**",
)

# Scala: classes, objects (a companion object shares its class's name), traits, Scala 3 enums and
# their cases, `def`s (bodiless ones in traits), type members, and `val`/`var`s at top level
# (`constant`s) or in a template body (`field`s), as Kotlin's properties are. A member access
# without arguments (`Lib.size`, `OParser.builder[Config]`) may call a parameterless `def`, so it is
# read as a call site too (references.py says which are, resolve.py keeps those naming a `def`).
_SCALA = Spec(
    query="""
    (class_definition) @class
    (object_definition) @class
    (trait_definition) @trait
    (enum_definition) @enum
    (function_definition) @function
    (function_declaration) @function
    (given_definition) @constant
    (type_definition) @type
    (compilation_unit (val_definition) @constant)
    (compilation_unit (var_definition) @constant)
    (template_body (val_definition) @field)
    (template_body (var_definition) @field)
    (simple_enum_case) @constant
    (full_enum_case) @constant
    (call_expression) @call
    (instance_expression) @call
    (field_expression) @call
    (generic_function) @call
    (import_declaration) @import
    """,
    comments=frozenset({"comment", "block_comment"}),
    doc_block=b"/**",
)

# Shell (sh, bash, zsh, ksh): functions are definitions; every command is a call by its name (most
# name programs, which resolve to nothing), and `source FILE` / `. FILE` an import.
_BASH = Spec(
    query="""
    (function_definition) @function
    (command) @call
    """,
    comments=frozenset({"comment"}),
    line_comment=("#",),
)

# Lua: `function M.greet(name)`, `M.greet = function(name)`, a table's `on_open = function()` (or
# `["on_open"] = function()`) and
# `local function helper()` are functions (`M:method` a method of M, `on_open` of the table's
# variable); a call is a `function_call`, `require("lib.util")` an import.
_LUA = Spec(
    query="""
    (function_declaration) @function
    (chunk (assignment_statement (expression_list value: (function_definition))) @function)
    (chunk (variable_declaration (assignment_statement (expression_list value: (function_definition))) @function))
    (field name: (identifier) value: (function_definition)) @function
    (field name: (string) value: (function_definition)) @function
    (function_call) @call
    """,
    comments=frozenset({"comment"}),
    line_comment=("--",),
    wrappers=frozenset({"variable_declaration"}),  # `local f = function() end`: from `local` on
)

SPECS: dict[str, Spec] = {
    "python": _PYTHON,
    "javascript": _JAVASCRIPT,
    "typescript": _TYPESCRIPT,
    "tsx": _TYPESCRIPT,
    "go": _GO,
    "java": _JAVA,
    "rust": _RUST,
    "c": _C,
    "cpp": _CPP,
    "csharp": _CSHARP,
    "ruby": _RUBY,
    "php": _PHP,
    "kotlin": _KOTLIN,
    "swift": _SWIFT,
    "scala": _SCALA,
    "bash": _BASH,
    "lua": _LUA,
}
