"""A PHP local given a chain of method calls on another variable (`$mapped = $listing->map($f);`,
`$c = $this->config()->without('a');`) holds the class the last call's declaration says it
returns (graph/phpmade.py), so a call on it is that class's method, not a guess at every
same-named one."""

from __future__ import annotations

from pathlib import Path

from indexlib import open_engine
from tests.repokit import call_lines, make_repo

FILES = {
    "src/Listing.php": (
        "<?php\n\nnamespace App;\n\nclass Listing\n{\n"
        "    public function map(callable $f): Listing\n    {\n        return new Listing();\n    }\n\n"
        "    public function toArray(): array\n    {\n        return [];\n    }\n}\n"
    ),
    "src/Config.php": (
        "<?php\n\nnamespace App;\n\nclass Config\n{\n"
        "    public function without(string $k): Config\n    {\n        return $this;\n    }\n\n"
        "    public function toArray(): array\n    {\n        return [];\n    }\n}\n"
    ),
    "src/Runner.php": (
        "<?php\n\nnamespace App;\n\nclass Runner\n{\n"
        "    private function config(): Config\n    {\n        return new Config();\n    }\n\n"
        "    public function run(): void\n    {\n"  # 12
        "        $listing = new Listing();\n"  # 14
        "        $mapped = $listing->map(function (int $i) { return $i * 2; });\n"  # 15
        "        $mapped = $mapped->map(fn ($i) => $i);\n"  # 16
        "        $mapped->toArray();\n"  # 17
        "        $c = $this->config()->without('a');\n"  # 18
        "        $c->toArray();\n"  # 19
        "    }\n}\n"
    ),
}


def test_a_local_made_by_calls_on_a_variable_holds_what_they_return(tmp_path: Path) -> None:
    """Lines 17 and 19 were each ambiguous between `Listing::toArray` and `Config::toArray`."""
    snap = open_engine(make_repo(tmp_path, FILES) / ".qry").snapshot()
    assert call_lines(snap, "App.Runner.run") == [
        (14, "App.Listing", False),
        (15, "App.Listing.map", False),
        (16, "App.Listing.map", False),
        (17, "App.Listing.toArray", False),
        (18, "App.Config.without", False),
        (18, "App.Runner.config", False),
        (19, "App.Config.toArray", False),
    ]
