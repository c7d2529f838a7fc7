"""A PHP call through a variable or property whose declaration names its class (`$f = new
Factory()`, a typed parameter, a typed, promoted or documented property, a method's return type)
is that class's method, not a guess at every same-named one."""

from __future__ import annotations

import pytest

from indexlib import open_engine
from indexlib.api import Engine
from tests.repokit import call_lines, make_repo

LIB = {
    "src/Handler/FactoryInterface.php": (
        "<?php\n\nnamespace App\\Handler;\n\ninterface FactoryInterface\n{\n"
        "    public function create(array $o): string;\n}\n"
    ),
    "src/Handler/Factory.php": (
        "<?php\n\nnamespace App\\Handler;\n\nclass Factory implements FactoryInterface\n{\n"
        "    public function create(array $o): string\n    {\n        return 'x';\n    }\n\n"
        "    public function again(): self\n    {\n        return $this;\n    }\n}\n"
    ),
    "src/Stack.php": (
        "<?php\n\nnamespace App;\n\nclass Stack\n{\n"
        "    public static function create(): self\n    {\n        return new self();\n    }\n\n"
        "    public function push(): void\n    {\n    }\n}\n"
    ),
    "src/Queue.php": (
        "<?php\n\nnamespace App;\n\nclass Queue\n{\n    public function push(): void\n    {\n    }\n}\n"
    ),
    "src/Runner.php": (
        "<?php\n\nnamespace App;\n\nuse App\\Handler;\nuse App\\Handler\\FactoryInterface;\n\n"
        "class Runner\n{\n"
        "    /**\n     * @var FactoryInterface\n     */\n    private $factory;\n\n"  # 10-13
        "    private ?Queue $queue = null;\n\n"  # 15
        "    public function __construct(private Stack $stack, Handler\\Factory $made)\n    {\n"  # 17
        "        $this->kept = $made;\n    }\n\n"
        "    public function run(Handler\\Factory $given): void\n    {\n"  # 22
        "        $f = new Handler\\Factory();\n"  # 24
        "        $f->create([]);\n"  # 25
        "        $given->create([]);\n"  # 26
        "        $this->factory->create([]);\n"  # 27
        "        $this->kept->create([]);\n"  # 28
        "        $this->stack->push();\n"  # 29
        "        $this->queue->push();\n"  # 30
        "        $f->again()->create([]);\n"  # 31
        "    }\n}\n"
    ),
}


@pytest.fixture(scope="module")
def engine(tmp_path_factory: pytest.TempPathFactory) -> Engine:
    return open_engine(make_repo(tmp_path_factory.mktemp("phplocals"), LIB) / ".qry")


def test_calls_through_declared_locals_and_properties_are_their_classes_methods(engine: Engine) -> None:
    snap = engine.snapshot()
    assert call_lines(snap, "App.Runner.run") == [
        (24, "App.Handler.Factory", False),
        (25, "App.Handler.Factory.create", False),  # `$f = new Handler\Factory()`
        (26, "App.Handler.Factory.create", False),  # the parameter `Handler\Factory $given`
        (27, "App.Handler.FactoryInterface.create", False),  # `@var FactoryInterface`
        (28, "App.Handler.Factory.create", False),  # given the parameter `Handler\Factory $made`
        (29, "App.Stack.push", False),  # a promoted constructor parameter
        (30, "App.Queue.push", False),  # a typed property
        (31, "App.Handler.Factory.again", False),
        (31, "App.Handler.Factory.create", False),  # `again(): self`
    ]
