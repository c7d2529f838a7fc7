"""A Tantivy writer whose background thread died is reported as a full disk only when it is one."""

import os
from pathlib import Path
from types import SimpleNamespace

import pytest

from indexlib.engines import lexical
from indexlib.errors import DiskFull

_KILLED = ValueError("An error occurred in a thread: 'An index writer was killed.. A worker thread ...'")


def _free(monkeypatch: pytest.MonkeyPatch, free_bytes: int) -> None:
    monkeypatch.setattr(os, "statvfs", lambda _p: SimpleNamespace(f_bavail=free_bytes // 4096, f_frsize=4096))


def test_a_killed_writer_on_a_nearly_full_disk_is_disk_full(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _free(monkeypatch, 12 << 10)
    full = lexical._writer_failure(_KILLED, tmp_path)
    assert isinstance(full, DiskFull) and str(tmp_path) in str(full) and full.hint


def test_a_killed_writer_with_room_to_spare_keeps_its_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _free(monkeypatch, 10 << 30)
    assert lexical._writer_failure(_KILLED, tmp_path) is None


def test_an_os_error_text_is_disk_full_whatever_the_free_space(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _free(monkeypatch, 10 << 30)
    exc = ValueError("An IO error occurred: 'No space left on device (os error 28)'")
    assert isinstance(lexical._writer_failure(exc, tmp_path), DiskFull)


def test_other_writer_errors_stand(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _free(monkeypatch, 0)
    assert lexical._writer_failure(ValueError("Invalid document: field 'x' unknown"), tmp_path) is None


def test_aborting_a_segment_stops_both_its_writers(tmp_path: Path) -> None:
    writer = lexical.GramIndexWriter(tmp_path / "grams")
    writer.add("abc")
    writer.abort()
    writer.abort()  # twice is harmless: failure paths may repeat it
    assert not hasattr(writer, "_writer")
