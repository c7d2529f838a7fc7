"""A PHP call on a variable or property tested with `instanceof` is the tested class's method."""

from __future__ import annotations

from pathlib import Path

from indexlib import open_engine, related
from tests.repokit import make_repo

FILES = {
    "src/Out.php": "<?php\nnamespace App;\n\n"
    "interface OutputInterface\n{\n    public function writeln(string $m): void;\n}\n\n"
    "interface ConsoleOutputInterface extends OutputInterface\n{\n"
    "    public function getErrorOutput(): OutputInterface;\n}\n\n"
    "class ConsoleOutput implements ConsoleOutputInterface\n{\n"
    "    public function writeln(string $m): void {}\n"
    "    public function getErrorOutput(): OutputInterface { return $this; }\n}\n\n"
    "class Other\n{\n    public function getErrorOutput(): int { return 1; }\n}\n",
    "src/Runner.php": "<?php\nnamespace App;\n\nclass Runner\n{\n"
    "    private OutputInterface $output;\n\n"
    "    public function run(OutputInterface $output): void\n    {\n"
    "        if ($output instanceof ConsoleOutputInterface) {\n"
    "            $output->getErrorOutput()->writeln('x');\n        }\n    }\n\n"
    "    public function err(): OutputInterface\n    {\n"
    "        return $this->output instanceof ConsoleOutputInterface ? $this->output->getErrorOutput() : $this->output;\n"
    "    }\n\n"
    "    public function guess($output): void\n    {\n        $output->getErrorOutput();\n    }\n}\n",
}


def test_an_instanceof_test_names_the_class_of_a_call_its_declared_type_lacks(tmp_path: Path) -> None:
    """On symfony/console `if ($output instanceof ConsoleOutputInterface) { $output->getErrorOutput()
    }` with `OutputInterface $output` linked, ambiguous, to `ConsoleOutput::getErrorOutput`, and the
    interface's own method had no caller. A test of a variable or of `$this->output` now names the
    class, and the chain goes on by what its method returns; an untested `$output` is still a guess."""
    engine = open_engine(make_repo(tmp_path, FILES) / ".qry")

    def callees(at: str) -> list[tuple[str, bool]]:
        return sorted((r.symbol, r.ambiguous) for r in related(engine, at, callers=False).related)

    assert callees("src/Runner.php:8") == [
        ("App.ConsoleOutputInterface.getErrorOutput", False),
        ("App.OutputInterface.writeln", False),
    ]
    assert callees("src/Runner.php:15") == [("App.ConsoleOutputInterface.getErrorOutput", False)]
    assert ("App.ConsoleOutputInterface.getErrorOutput", False) not in callees("src/Runner.php:20")
