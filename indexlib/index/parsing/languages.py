"""File name (and first bytes) -> language name.

Owns: the table of extensions, special file names and shebang interpreters that decides how a file is
parsed: by a tree-sitter grammar (`python` ... `swift`), as Markdown sections, or as line windows of
"text". Pure on purpose: discovery calls it for every candidate file, so it must not import
tree-sitter. It does not read files; the caller passes the first bytes if it has them.
"""

from __future__ import annotations

import re
from pathlib import PurePosixPath

# Languages with a tree-sitter grammar we extract symbols from.
CODE_LANGUAGES = frozenset(
    {
        "python", "javascript", "typescript", "tsx", "go", "java", "rust", "c", "cpp", "csharp", "ruby",
        "php", "kotlin", "swift", "scala", "vue", "svelte", "bash", "lua",
    }
)  # fmt: skip
# Languages in which `$` is a letter of a name (zod's `$constructor`, jQuery's `$`, RxJS's `user$`);
# elsewhere it is a sigil (PHP `$this`, Ruby `$global`, shell) or macro syntax (Rust `$crate`).
DOLLAR_LANGUAGES = frozenset({"javascript", "typescript", "tsx", "vue", "svelte"})
MARKDOWN = "markdown"
TEXT = "text"  # any other text worth searching: chunked into line windows

_EXTENSIONS: dict[str, str] = {
    # Parsed by tree-sitter.
    ".py": "python",
    ".pyi": "python",
    ".pyw": "python",
    ".js": "javascript",
    ".mjs": "javascript",
    ".cjs": "javascript",
    ".jsx": "javascript",
    ".ts": "typescript",
    ".mts": "typescript",
    ".cts": "typescript",
    ".tsx": "tsx",
    ".go": "go",
    ".java": "java",
    ".rs": "rust",
    ".c": "c",
    ".h": "c",  # refined to cpp by content: see _looks_like_cpp
    ".cc": "cpp",
    ".cpp": "cpp",
    ".cxx": "cpp",
    ".c++": "cpp",
    ".hh": "cpp",
    ".hpp": "cpp",
    ".hxx": "cpp",
    ".h++": "cpp",
    ".ipp": "cpp",
    ".inl": "cpp",
    ".tpp": "cpp",
    ".cs": "csharp",
    ".rb": "ruby",
    ".rake": "ruby",
    ".gemspec": "ruby",
    ".ru": "ruby",
    ".php": "php",
    ".phtml": "php",
    ".kt": "kotlin",
    ".kts": "kotlin",
    ".swift": "swift",
    ".scala": "scala",
    ".sc": "scala",
    ".sbt": "scala",  # sbt and Mill builds are Scala
    ".mill": "scala",
    ".lua": "lua",
    ".rockspec": "lua",  # a LuaRocks package description is Lua assignments (`dependencies = {...}`)
    ".sh": "bash",  # shell scripts: their functions are definitions, the commands they run calls
    ".bash": "bash",
    ".zsh": "bash",
    ".ksh": "bash",
    ".vue": "vue",  # components: their <script> blocks are parsed (sfc.py)
    ".svelte": "svelte",
    # Split into sections by heading.
    ".md": MARKDOWN,
    ".markdown": MARKDOWN,
    ".mdown": MARKDOWN,
    ".mkd": MARKDOWN,
}

# Text we chunk into line windows: prose, configuration, and source in languages we do not parse
# (a window of Dart is still far better than nothing).
_TEXT_SUFFIXES = """
    .txt .text .rst .adoc .asciidoc .org .tex .rdoc .pod
    .toml .yaml .yml .json .jsonc .json5 .cfg .ini .conf .properties .xml .neon
    .fish .ps1 .bat .cmd
    .sql .graphql .gql .proto .thrift .avsc
    .html .htm .css .scss .sass .less
    .groovy .gradle .dart .pl .pm .r .jl .ex .exs .erl .hrl .hs .ml
    .mli .fs .fsx .clj .cljs .elm .nim .zig .v .sv .vhd .m .mm .f90 .cu .cuh
    .tf .hcl .nix .cmake .mk .bzl .star .dockerfile .j2 .jinja .jinja2 .tmpl .mustache .hbs .cff .def
    .ejs .erb .haml .pug .jade .twig .liquid .njk .handlebars .eta .tpl .jsp .cshtml .razor .ftl .vm
"""
_TEXT_EXTENSIONS = frozenset(_TEXT_SUFFIXES.split())
# A copy of a file kept as an example to install (`phpunit.xml.dist`, `config.yml.example`): read as
# text windows, for what the file inside it would be.
_COPY_SUFFIXES = frozenset({".dist", ".example", ".sample"})

# Whole file names (matched case-sensitively first, then lower-cased).
_FILENAMES: dict[str, str] = {
    "Rakefile": "ruby",
    "Gemfile": "ruby",
    "Guardfile": "ruby",
    "Vagrantfile": "ruby",
    "Podfile": "ruby",
    "Brewfile": "ruby",
    "go.mod": TEXT,  # a Go module's path and requirements (the resolver reads the path: gomodules.py)
    "go.work": TEXT,
    "Makefile": TEXT,
    "makefile": TEXT,
    "GNUmakefile": TEXT,
    "Dockerfile": TEXT,
    "Containerfile": TEXT,
    "Jenkinsfile": TEXT,
    "Procfile": TEXT,
    "Justfile": TEXT,
    "justfile": TEXT,
    "CMakeLists.txt": TEXT,
    "BUILD": TEXT,
    "BUILD.bazel": TEXT,
    "WORKSPACE": TEXT,
    "LICENSE": TEXT,
    "LICENCE": TEXT,
    "COPYING": TEXT,
    "NOTICE": TEXT,
    "AUTHORS": TEXT,
    "CONTRIBUTORS": TEXT,
    "CODEOWNERS": TEXT,
    "README": TEXT,
    "CHANGELOG": TEXT,
    "CHANGES": TEXT,
    "HISTORY": TEXT,
    "TODO": TEXT,
    ".gitignore": TEXT,
    ".gitattributes": TEXT,
    ".dockerignore": TEXT,
    ".editorconfig": TEXT,
    ".clang-format": TEXT,
    ".clang-tidy": TEXT,
    ".prettierrc": TEXT,
    ".eslintrc": TEXT,
    "meson.build": TEXT,
}

# Shebang interpreter (basename, version digits stripped) -> language.
_INTERPRETERS: dict[str, str] = {
    "python": "python",
    "pypy": "python",
    "node": "javascript",
    "nodejs": "javascript",
    "deno": "typescript",
    "ts-node": "typescript",
    "tsx": "typescript",
    "bun": "javascript",
    "ruby": "ruby",
    "php": "php",
    "lua": "lua",
    "luajit": "lua",
    "sh": "bash",
    "bash": "bash",
    "zsh": "bash",
    "dash": "bash",
    "ksh": "bash",
    "fish": TEXT,
    "perl": TEXT,
    "awk": TEXT,
    "make": TEXT,
}

_SHEBANG = re.compile(rb"^#!\s*(\S+)(?:[ \t]+(\S+))?")
_VERSION_SUFFIX = re.compile(r"[\d.]+$")
# C++-only syntax near the top of a .h file, read without comments and without the branches only a
# C++ compiler reads (`_c_view`); a plain C header has none of it: namespaces, templates, class
# heads (`class A {`, `class FOO_API A : public B`), access labels, scoped enums, an out-of-line
# member (`int A::b(`), C++ operators, and an include of a standard header without an extension
# (`<string>`, `<cstdio>`) or of a C++ header (`x.hpp`). The words C23 shares with C++ (`constexpr`,
# `nullptr`, `bool`) are no hint.
_CPP_HINT = re.compile(
    rb"^\s*(?:namespace(?:\s+\w|\s*\{)|template\s*<|using\s+namespace\b|extern\s+\"C\\+\\+\")"
    rb"|^\s*(?:(?:template\s*<[^;{}]*>|typedef)\s*)?class\s+\w+(?:\s+\w+)*\s*(?:\{|:(?!:))"
    rb"|^\s*(?:public|private|protected)\s*:|\benum\s+(?:class|struct)\b|\bstd::"
    rb"|^[ \t]*(?:[\w<>,*&:]+[ \t]+)*[*&]*\w+::~?\w+[ \t]*\("
    rb"|\boperator\s*(?:==|!=|<=|>=|<<|>>|\[\]|\(\)|[-+*/=<>!])\s*\("
    rb"|^\s*#\s*include\s*(?:<\w+>|[<\"][^>\"\n]*\.(?:hpp|hh|hxx|h\+\+|ipp|tpp)[>\"])",
    re.MULTILINE,
)
_COMMENT = re.compile(rb"/\*.*?(?:\*/|\Z)|//[^\n]*", re.DOTALL)
_CONDITIONAL = re.compile(rb"^[ \t]*#[ \t]*(if|ifdef|ifndef|elif|else|endif)\b(.*)")
_CPLUSPLUS = re.compile(rb"^[ \t(]*(?:defined[ \t]*\(?[ \t]*)?__cplusplus\b")


def _c_view(head: bytes) -> bytes:
    """`head` without comments and without `#ifdef __cplusplus` branches (a C header's `extern "C"`
    guard, its C++ conveniences): what a C compiler reads of it, near enough to sniff."""
    lines: list[bytes] = []
    skipping = 0  # depth of conditionals inside a C++-only branch being skipped
    for line in _COMMENT.sub(b"", head).split(b"\n"):
        match = _CONDITIONAL.match(line)
        word = match.group(1) if match else b""
        if skipping:
            if word in (b"if", b"ifdef", b"ifndef"):
                skipping += 1
            elif word == b"endif" or (skipping == 1 and word in (b"else", b"elif")):
                skipping -= 1  # an `#else` of the C++ branch is the C one: read from here
            continue
        if word in (b"if", b"ifdef") and match is not None and _CPLUSPLUS.match(match.group(2).strip()):
            skipping = 1
            continue
        lines.append(line)
    return b"\n".join(lines)


def detect_language(path: str, head: bytes = b"") -> str | None:
    """The language `path` should be parsed as, or None when it is not a file we index.

    Decided by the file name first (extension, then well-known names such as `Makefile`), then by a
    shebang in `head` for other scripts (`shebang_decides`). `.h` headers are C unless `head` shows C++ syntax.
    Returns one of CODE_LANGUAGES, "markdown", "text", or None.

    >>> detect_language("src/app.py"), detect_language("bin/tool", b"#!/usr/bin/env python3\\n")
    ('python', 'python')
    """
    # `path` is POSIX (discovery's relative paths): a backslash is part of a name (`x\.py` is a .py file).
    name = PurePosixPath(path).name
    if not name:
        return None
    by_name = _FILENAMES.get(name) or _FILENAMES.get(name.lower())
    if by_name is not None:
        return by_name
    lower = name.lower()
    if lower.startswith("dockerfile") or lower.endswith(".dockerfile"):
        return TEXT
    if lower.startswith("makefile"):
        return TEXT
    suffix = _suffix(lower)
    if suffix:
        language = _EXTENSIONS.get(suffix)
        if language == "c" and suffix == ".h" and _CPP_HINT.search(_c_view(head[:8192])):
            return "cpp"
        if language is not None:
            return language
        if suffix in _TEXT_EXTENSIONS:
            return TEXT
        inner = _suffix(lower.removesuffix(suffix)) if suffix in _COPY_SUFFIXES else ""
        if inner and (inner in _TEXT_EXTENSIONS or inner in _EXTENSIONS):
            return TEXT
    return _from_shebang(head)


def is_code(language: str | None) -> bool:
    """True when `language` is parsed by a tree-sitter grammar into symbols."""
    return language in CODE_LANGUAGES


# What may follow a name's last dot as its extension: a word, not starting with a digit. nvm's test
# scripts are named as sentences (`Running 'nvm use iojs' uses latest io.js version`, `node 0.6.21
# should install 0.6.21-pre`); what follows their last dot is no extension, and their shebang decides.
_EXTENSION = re.compile(r"\.[a-z_~+-][a-z0-9_~+-]{0,15}")


def shebang_decides(name: str) -> bool:
    """Whether a file named `name`, when no language claims the name, may be a script whose shebang
    names its language: it has no extension (a dot-file's leading dot is none), or what follows its
    last dot is no extension.

    >>> shebang_decides("deploy"), shebang_decides("node 0.6.21 should install"), shebang_decides("a.png")
    (True, True, False)
    """
    suffix = _suffix(name.lower())
    return not suffix or _EXTENSION.fullmatch(suffix) is None


def _suffix(lower_name: str) -> str:
    dot = lower_name.rfind(".")
    if dot <= 0:  # no dot, or a dot-file such as `.bashrc`
        return ""
    return lower_name[dot:]


def _from_shebang(head: bytes) -> str | None:
    match = _SHEBANG.match(head[:256])
    if match is None:
        return None
    program = match.group(1).decode("utf-8", "replace").rsplit("/", 1)[-1]
    if program == "env" and match.group(2):
        program = match.group(2).decode("utf-8", "replace")
        if program.startswith("-"):  # `env -S python3 -u`: not worth a parser; guess from the rest
            rest = head[: head.find(b"\n")] if b"\n" in head else head
            for word in rest.decode("utf-8", "replace").split()[2:]:
                if not word.startswith("-"):
                    program = word.rsplit("/", 1)[-1]
                    break
    program = _VERSION_SUFFIX.sub("", program) or program
    return _INTERPRETERS.get(program)
