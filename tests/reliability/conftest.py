"""Fixtures of the reliability tests: the worlds of `worlds.py`, built once per session."""

from __future__ import annotations

import pytest

from tests.reliability.worlds import World, make_build_world, make_compact_world


@pytest.fixture(scope="session")
def build_world(tmp_path_factory: pytest.TempPathFactory) -> World:
    return make_build_world(tmp_path_factory.mktemp("crash-build"))


@pytest.fixture(scope="session")
def compact_world(tmp_path_factory: pytest.TempPathFactory) -> World:
    return make_compact_world(tmp_path_factory.mktemp("crash-compact"))
