"""Our append-only logs (errors.log, runs.jsonl, the detached processes' logs) share one append
and one rotation: past their size a log becomes ``<name>.1`` and a fresh one starts."""
from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from chord_git import errors
from chord_git.background import worker
from chord_git.errors import append_log, one_line, rotate_log
from chord_git.extraction import runlog
from chord_git.memory.project import discover


def test_append_rotates_once_past_the_size_and_keeps_one_old_generation(tmp_path: Path) -> None:
    log = tmp_path / "x.log"
    append_log(log, b"a" * 10, keep_bytes=10, mode=0o600)
    append_log(log, b"b\n", keep_bytes=10, mode=0o600)  # 10 bytes is not past 10: no rotation
    assert log.read_bytes() == b"a" * 10 + b"b\n"
    append_log(log, b"c\n", keep_bytes=10, mode=0o600)
    assert log.read_bytes() == b"c\n" and (tmp_path / "x.log.1").read_bytes() == b"a" * 10 + b"b\n"
    append_log(log, b"d" * 20, keep_bytes=10, mode=0o600)
    append_log(log, b"e\n", keep_bytes=10, mode=0o600)
    assert (tmp_path / "x.log.1").read_bytes() == b"c\n" + b"d" * 20  # the older generation is gone
    assert stat.S_IMODE(log.stat().st_mode) == 0o600


def test_append_can_refuse_to_write_through_a_link(tmp_path: Path) -> None:
    target = tmp_path / "elsewhere"
    target.write_bytes(b"")
    (tmp_path / "x.log").symlink_to(target)
    with pytest.raises(OSError):
        append_log(tmp_path / "x.log", b"no\n", keep_bytes=100, mode=0o600, follow_links=False)
    append_log(tmp_path / "x.log", b"yes\n", keep_bytes=100, mode=0o600)
    assert target.read_bytes() == b"yes\n"


def test_rotating_a_missing_log_does_nothing(tmp_path: Path) -> None:
    rotate_log(tmp_path / "none.log", 0)
    assert list(tmp_path.iterdir()) == []


def test_the_logs_of_the_package_rotate(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    project = discover(repo)
    monkeypatch.setattr(runlog, "ROTATE_BYTES", 10)
    runlog.append(project, runlog.entry(session="s1", outcome="ok"))
    runlog.append(project, runlog.entry(session="s2", outcome="ok"))
    assert [line["session"] for line in runlog.read(project)] == ["s2"]
    assert (project.state_dir / (runlog.LOG_NAME + ".1")).exists()

    monkeypatch.setattr(errors, "_LOG_KEEP_BYTES", 10)
    for _ in range(2):
        path = errors.log_unexpected(ValueError("boom"), [project.state_dir], ["status"])
    assert path == project.state_dir / errors.ERROR_LOG
    assert (project.state_dir / (errors.ERROR_LOG + ".1")).exists()
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600

    log = project.state_dir / "w.log"
    log.write_bytes(b"x" * (worker.LOG_KEEP_BYTES + 1))
    worker._trim_log(log)
    assert not log.exists() and (project.state_dir / "w.log.1").exists()


def test_one_line_folds_white_space_and_cuts() -> None:
    assert one_line(" a\n b\t c ") == "a b c"
    assert one_line("abcdef", 4) == "abcd"
    assert one_line("abcdef", 4, cut_mark="…") == "abc…"
    assert one_line("abcd", 4, cut_mark="…") == "abcd"
    assert one_line(ValueError("x  y")) == "x y"
