"""PHP names resolved as PHP resolves them, end to end: `use` imports (plain, aliased, grouped),
fully qualified and `namespace\\` names, the current namespace, `new`, `extends`, `self::`,
`static::` and `parent::`; a class the index does not hold is no edge."""

from __future__ import annotations

import pytest

from indexlib import open_engine, related
from indexlib.api import Engine
from indexlib.graph.view import SnapshotGraph
from tests.repokit import make_repo

LIB = {
    "src/Utils.php": (
        "<?php\n\nnamespace App;\n\nfinal class Utils\n{\n"
        "    public static function currentTime(): float\n    {\n        return 1.0;\n    }\n}\n"
    ),
    "src/Support/Utils.php": (
        "<?php\n\nnamespace App\\Support;\n\nfinal class Utils\n{\n"
        "    public static function currentTime(): float\n    {\n        return 2.0;\n    }\n}\n"
    ),
    "src/Cookie/SetCookie.php": (
        "<?php\n\nnamespace App\\Cookie;\n\nclass SetCookie extends BaseCookie\n{\n"
        "    public function __construct()\n    {\n        parent::__construct();\n"
        "        static::check();\n        self::check();\n    }\n\n"
        "    public static function check(): void\n    {\n    }\n}\n"
    ),
    "src/Cookie/BaseCookie.php": (
        "<?php\n\nnamespace App\\Cookie;\n\nabstract class BaseCookie\n{\n"
        "    public function __construct()\n    {\n    }\n\n"
        "    public static function fromString(string $s): self\n    {\n        return new static();\n    }\n}\n"
    ),
    "src/functions.php": (
        "<?php\n\nnamespace App;\n\nfunction helper(): int\n{\n    return 1;\n}\n\n"
        "function json_decode(string $s)\n{\n    return \\json_decode($s);\n}\n"
    ),
    "src/Handler/Multi.php": (
        "<?php\n\nnamespace App\\Handler;\n\n"
        "use App\\Utils;\nuse App\\Support\\Utils as SupportUtils;\nuse App\\Cookie\\{SetCookie, BaseCookie as Cookie};\n"
        "use Psr\\Log\\Logger;\nuse function App\\helper;\n\n"
        "class Multi extends \\App\\Cookie\\BaseCookie\n{\n"
        "    public function tick(): void\n    {\n"
        "        $a = Utils::currentTime();\n"  # 15: App\Utils
        "        $b = SupportUtils::currentTime();\n"  # 16: App\Support\Utils
        "        $c = new SetCookie();\n"  # 17: grouped import
        "        $d = Cookie::fromString('x');\n"  # 18: grouped import with alias
        "        $e = \\App\\Support\\Utils::currentTime();\n"  # 19: fully qualified
        "        $f = SetCookie::fromString('y');\n"  # 20: inherited static method
        "        $g = Logger::currentTime();\n"  # 21: a class the index does not hold
        "        helper();\n"  # 22: `use function`
        "        $h = namespace\\Local::make();\n"  # 23: the own namespace's Local
        "    }\n}\n"
    ),
    "src/Handler/Local.php": (
        "<?php\n\nnamespace App\\Handler;\n\nclass Local\n{\n"
        "    public static function make(): self\n    {\n        return new self();\n    }\n}\n"
    ),
}


@pytest.fixture(scope="module")
def engine(tmp_path_factory: pytest.TempPathFactory) -> Engine:
    return open_engine(make_repo(tmp_path_factory.mktemp("php"), LIB) / ".qry")


def _calls(engine: Engine, qualified: str, direction: str) -> list[tuple[str, int, bool]]:
    """(the other end's qualified name, the call's line, ambiguous) of every call edge of the one
    definition named `qualified`, in or out."""
    snap = engine.snapshot()
    graph = SnapshotGraph(snap)
    (uid,) = graph.find(kind=None, props={"qualified_name": qualified}, limit=2)
    out = []
    for e in graph.edges(uid, ("calls",), direction):
        other = graph.node(e.src if direction == "in" else e.dst)
        assert other is not None
        out.append((other.qualified_name, e.line, e.ambiguous))
    return sorted(out)


def test_a_class_imported_from_another_namespace_is_the_one_php_means(engine: Engine) -> None:
    assert _calls(engine, "App.Handler.Multi.tick", "out") == [
        ("App.Cookie.BaseCookie.fromString", 18, False),  # Cookie is BaseCookie, aliased in a group
        ("App.Cookie.BaseCookie.fromString", 20, False),  # SetCookie inherits it
        ("App.Cookie.SetCookie", 17, False),
        ("App.Handler.Local.make", 23, False),
        ("App.Support.Utils.currentTime", 16, False),  # as SupportUtils
        ("App.Support.Utils.currentTime", 19, False),  # \App\Support\Utils
        ("App.Utils.currentTime", 15, False),
        ("App.helper", 22, False),
    ]  # Logger::currentTime() (line 21): Psr's, not indexed, so no edge
    assert _calls(engine, "App.Utils.currentTime", "in") == [("App.Handler.Multi.tick", 15, False)]
    callers = related(engine, "src/Utils.php:Utils.currentTime", callees=False).related
    assert [(r.symbol, r.line) for r in callers] == [("App.Handler.Multi.tick", 15)]


def test_self_static_and_parent_calls_are_the_own_and_the_base_class(engine: Engine) -> None:
    assert _calls(engine, "App.Cookie.SetCookie.__construct", "out") == [
        ("App.Cookie.BaseCookie.__construct", 9, False),
        ("App.Cookie.SetCookie.check", 10, False),
        ("App.Cookie.SetCookie.check", 11, False),
    ]


def test_a_fully_qualified_global_name_is_not_the_namespaces_own(engine: Engine) -> None:
    """`\\json_decode()` inside `App\\json_decode` is PHP's function, not a recursive call; a class
    extending `\\App\\Cookie\\BaseCookie` extends that class."""
    assert _calls(engine, "App.json_decode", "out") == []
    bases = [r.symbol for r in related(engine, "App.Handler.Multi").related if r.edge == "inherits"]
    assert bases == ["App.Cookie.BaseCookie"]
