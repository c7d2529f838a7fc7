"""detect_language: extensions, special names, shebangs, .h disambiguation; and its purity."""

from __future__ import annotations

import subprocess
import sys

import pytest

from indexlib.index.parsing import detect_language


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        ("src/app.py", "python"),
        ("stubs/mod.pyi", "python"),
        ("web/app.js", "javascript"),
        ("web/app.mjs", "javascript"),
        ("web/App.jsx", "javascript"),
        ("web/app.ts", "typescript"),
        ("web/types.d.ts", "typescript"),
        ("web/App.tsx", "tsx"),
        ("cmd/main.go", "go"),
        ("src/Main.java", "java"),
        ("src/lib.rs", "rust"),
        ("src/main.c", "c"),
        ("src/util.h", "c"),
        ("src/main.cpp", "cpp"),
        ("src/main.cc", "cpp"),
        ("include/util.hpp", "cpp"),
        ("src/Program.cs", "csharp"),
        ("lib/billing.rb", "ruby"),
        ("Rakefile", "ruby"),
        ("Gemfile", "ruby"),
        ("src/index.php", "php"),
        ("README.md", "markdown"),
        ("docs/Guide.MARKDOWN", "markdown"),
        ("notes.txt", "text"),
        ("docs/index.rst", "text"),
        ("pyproject.toml", "text"),
        ("ci.yaml", "text"),
        (".github/workflows/ci.yml", "text"),
        ("package.json", "text"),
        ("setup.cfg", "text"),
        ("tox.ini", "text"),
        ("scripts/run.sh", "bash"),
        ("db/schema.sql", "text"),
        ("site/index.html", "text"),
        ("site/style.css", "text"),
        ("src/components/Card.vue", "vue"),
        ("Makefile", "text"),
        ("Dockerfile", "text"),
        ("Dockerfile.prod", "text"),
        ("app.kt", "kotlin"),
        ("CMakeLists.txt", "text"),
        ("views/user/index.ejs", "text"),  # templates: a view's text is searchable as any text
        ("app/views/layouts/application.html.erb", "text"),
        ("templates/base.twig", "text"),
        # configuration and templates nlohmann/json holds, which were skipped as unsupported
        ("tools/templates/test.cpp.jinja2", "text"),
        ("CITATION.cff", "text"),
        (".clang-format", "text"),
        ("tests/.clang-tidy", "text"),
        ("meson.build", "text"),
        ("include/x_macros.def", "text"),
        # rack's protocol spec, monolog's static-analysis settings and install-me copies
        ("SPEC.rdoc", "text"),
        ("phpstan.neon", "text"),
        ("phpunit.xml.dist", "text"),
        ("config/app.yml.example", "text"),
        ("src/app.py.sample", "text"),
        ("archive.dist", None),
        (".env.example", None),
        ("image.png", None),
        ("archive.tar.gz", None),
        ("bin/tool", None),
        ("", None),
    ],
)
def test_by_name(path: str, expected: str | None) -> None:
    assert detect_language(path) == expected


@pytest.mark.parametrize(
    ("head", "expected"),
    [
        (b"#!/usr/bin/env python3\nprint(1)\n", "python"),
        (b"#!/usr/bin/python3.11 -u\n", "python"),
        (b"#!/usr/bin/env node\n", "javascript"),
        (b"#!/usr/bin/env -S deno run\n", "typescript"),
        (b"#!/bin/bash\nset -e\n", "bash"),
        (b"#!/bin/sh\n", "bash"),
        (b"#!/usr/bin/env ruby\n", "ruby"),
        (b"#!/usr/bin/php\n", "php"),
        (b"#!/usr/bin/env unknown-thing\n", None),
        (b"no shebang here\n", None),
    ],
)
def test_shebang(head: bytes, expected: str | None) -> None:
    assert detect_language("bin/tool", head) == expected


def test_extension_wins_over_shebang() -> None:
    assert detect_language("tool.py", b"#!/bin/bash\n") == "python"


def test_header_with_cpp_syntax_is_cpp() -> None:
    assert detect_language("x.h", b"#pragma once\nnamespace billing {\nclass A {};\n}\n") == "cpp"
    assert detect_language("x.h", b"#include <vector>\nstd::vector<int> f();\n") == "cpp"
    assert detect_language("x.h", b"#ifndef X_H\nstruct point { int x; };\nint f(void);\n") == "c"


@pytest.mark.parametrize(
    "head",
    [
        b"#pragma once\n#include <cstdint>\n",  # a standard C++ header has no extension
        b'#include "detail/format.hpp"\n',
        b"#include <stdint.h>\nenum class color : uint32_t { red = 1 };\n",
        b"class FOO_API Widget : public Base\n{\n};\n",
        b"struct point {\n  int x;\n public:\n  int y;\n};\n",
        b"namespace {\nint counter;\n}\n",
        b"int Widget::size() const;\n",
        b"bool operator==(const point &a, const point &b);\n",
    ],
)
def test_header_with_more_cpp_syntax_is_cpp(head: bytes) -> None:
    assert detect_language("x.h", head) == "cpp"


@pytest.mark.parametrize(
    "head",
    [
        # C headers that serve C++ too: what only a C++ compiler reads is no hint.
        b'#ifdef __cplusplus\nextern "C" {\n#include <cstddef>\n#endif\nint f(void);\n',
        b'#if defined(__cplusplus)\nextern "C++" {\ntemplate <class T> T id(T x);\n}\n#else\n'
        b"int id(int x);\n#endif\n",
        b"/* See std::string and class Foo { in the C++ binding. */\nint f(void);\n",
        b'#define ADDR "fe80::abc"\nconst char *host = "a::b";\n',
        b"#include <stdio.h>\n#include <sys/types.h>\nstruct list { struct list *next; };\n",
    ],
)
def test_c_header_stays_c(head: bytes) -> None:
    assert detect_language("x.h", head) == "c"


def test_detection_does_not_import_tree_sitter() -> None:
    code = (
        "import sys\nfrom indexlib.index.parsing import detect_language\ndetect_language('a.py')\n"
        "assert 'tree_sitter' not in sys.modules and 'tree_sitter_language_pack' not in sys.modules\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_a_backslash_is_part_of_a_posix_name() -> None:
    """`x\\.py` on POSIX is a Python file whose name holds a backslash, not a dot-file `.py`."""
    assert detect_language("x\\.py") == "python"
    assert detect_language("dir/we\\ird\\.py") == "python"
    assert detect_language("a\\b") is None
