"""Joining a Ray cluster (no Ray needed): the auth token `ray start --head` writes is sent, and a local
cluster without a CPU is refused."""

from __future__ import annotations

from pathlib import Path

import pytest

from indexlib.cluster.connect import _use_token_if_there


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("HOME", str(tmp_path))
    for name in ("RAY_AUTH_MODE", "RAY_AUTH_TOKEN", "RAY_AUTH_TOKEN_PATH"):
        monkeypatch.setenv(name, "")  # recorded, so what the code under test sets is undone after
        monkeypatch.delenv(name)
    return tmp_path


def test_a_token_file_turns_token_auth_on(home: Path) -> None:
    import os

    _use_token_if_there()
    assert "RAY_AUTH_MODE" not in os.environ  # no token anywhere: Ray's own default
    (home / ".ray").mkdir()
    (home / ".ray" / "auth_token").write_text("secret")
    _use_token_if_there()
    assert os.environ["RAY_AUTH_MODE"] == "token"


def test_a_token_in_the_environment_turns_it_on_and_a_mode_set_is_kept(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import os

    monkeypatch.setenv("RAY_AUTH_TOKEN", "secret")
    _use_token_if_there()
    assert os.environ["RAY_AUTH_MODE"] == "token"
    monkeypatch.setenv("RAY_AUTH_MODE", "disabled")  # the user's choice stands
    _use_token_if_there()
    assert os.environ["RAY_AUTH_MODE"] == "disabled"


def test_a_local_cluster_needs_a_cpu_count_of_at_least_one() -> None:
    from indexlib.cluster.connect import _local_cpus
    from indexlib.errors import UsageError

    assert _local_cpus("local") is None and _local_cpus("local:3") == 3
    for bad in ("local:0", "local:two", "local:-1"):
        with pytest.raises(UsageError, match="at least one CPU"):
            _local_cpus(bad)  # local:0 started a Ray whose tasks never ran: the build hung
