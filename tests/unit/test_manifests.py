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


def test_cargo_package_name_after_an_array_value() -> None:
    # bat's Cargo.toml (keys sorted): `authors` and `categories` arrays come before `name`, and the
    # `[` inside them ended the `[package]` table, so the crate had no name and `use bat::..` in its
    # own binary linked nothing.
    text = (
        '[package]\nauthors = ["David Peter <mail@david-peter.de>"]\ncategories = [\n  "cli",\n]\n'
        'name = "bat"\nversion = "0.26.1"\n\n[dependencies]\nname = "x"\n'
    )
    assert cargo_package(text) == "bat"
    assert cargo_package('[package]\nversion = "1"\n\n[lib]\nname = "other"\n') is None  # another table's
