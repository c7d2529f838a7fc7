"""Package names out of manifests' text (indexlib/manifests.py)."""

from __future__ import annotations

from indexlib.manifests import cargo_package, go_module, go_package_name


def test_go_module_and_the_name_an_unaliased_import_binds() -> None:
    assert go_module('// x\nmodule "charm.land/bubbletea/v2"\n\ngo 1.24\n') == "charm.land/bubbletea/v2"
    assert go_module("go 1.22\n") is None
    names = [go_package_name(p) for p in ("github.com/go-task/task/v3", "gopkg.in/yaml.v3", "fmt", "a/b/")]
    assert names == ["task", "yaml", "fmt", "b"]


def test_cargo_package_name_and_a_workspace_manifest() -> None:
    assert (
        cargo_package('[package]\nversion = "1"\nname = "serde-json"\n[dependencies]\nname = "x"\n')
        == "serde-json"
    )
    assert cargo_package('[workspace]\nmembers = ["a"]\n[dependencies]\nname = "x"\n') is None
