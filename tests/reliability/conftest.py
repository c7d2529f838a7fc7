"""Fixtures of the reliability tests (the worlds of `worlds.py`, built once per session) and the `slow`
marker: slow tests (a 100k-file repository) run only when asked for, with `-m slow` or
QRY_RUN_SLOW=1, so the default run stays within a few minutes.
"""

from __future__ import annotations

import os

import pytest

from tests.reliability.worlds import World, make_build_world, make_compact_world, make_git_world

SLOW_ENV = "QRY_RUN_SLOW"


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if os.environ.get(SLOW_ENV) or "slow" in (config.option.markexpr or ""):
        return
    skip = pytest.mark.skip(reason=f"slow: run with -m slow or {SLOW_ENV}=1")
    for item in items:
        if item.get_closest_marker("slow") is not None:
            item.add_marker(skip)


@pytest.fixture(scope="session")
def build_world(tmp_path_factory: pytest.TempPathFactory) -> World:
    return make_build_world(tmp_path_factory.mktemp("crash-build"))


@pytest.fixture(scope="session")
def git_world(tmp_path_factory: pytest.TempPathFactory) -> World:
    return make_git_world(tmp_path_factory.mktemp("crash-git"))


@pytest.fixture(scope="session")
def compact_world(tmp_path_factory: pytest.TempPathFactory) -> World:
    return make_compact_world(tmp_path_factory.mktemp("crash-compact"))


@pytest.fixture(scope="session")
def large_world(tmp_path_factory: pytest.TempPathFactory) -> World:
    """2,500 modules (~22k nodes): an uninterrupted run takes tens of seconds here (slow tests only)."""
    return make_build_world(tmp_path_factory.mktemp("crash-large"), files=2500)
