"""The git runner the hook uses instead of ``subprocess``: both pipes drained while the input is
written, exit codes and error output kept, and the child started as ``subprocess`` would start it."""
from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from chord_git.errors import RepoError
from chord_git.git import command
from tests.conftest import needed


def test_input_and_output_larger_than_a_pipe_flow_both_ways() -> None:
    # cat writes back while it is still being fed: a runner that wrote all input before reading
    # would wait forever on the full pipes.
    data = bytes(range(256)) * 40_000  # 10 MB
    code, out, err = command._spawn(["cat"], data)
    assert (code, out == data, err) == (0, True, b"")


def test_exit_code_and_error_output_are_kept() -> None:
    code, out, err = command._spawn(["sh", "-c", "printf out; printf 'bad thing\\n' >&2; exit 3"], None)
    assert (code, out, err) == (3, b"out", b"bad thing\n")
    code, out, err = command._spawn(["sh", "-c", "kill -TERM $$"], b"")
    assert code == -15


def test_a_missing_program_raises_oserror_and_leaks_no_descriptor() -> None:
    before = set(os.listdir("/proc/self/fd")) if Path("/proc/self/fd").is_dir() else None
    with pytest.raises(OSError):
        command._spawn(["chord-git-no-such-program"], b"input")
    if before is not None:
        assert set(os.listdir("/proc/self/fd")) == before


def test_the_child_gets_sigpipe_back() -> None:
    if not Path("/proc/self/status").exists():
        needed("reads /proc/<pid>/status")
    # Python ignores SIGPIPE, and a spawned program keeps what is ignored unless it is reset.
    code, out, _ = command._spawn(["sh", "-c", "grep SigIgn /proc/$$/status"], None)
    ignored = int(out.split()[1], 16)
    assert code == 0 and not ignored & (1 << 12)  # bit 12: signal 13, SIGPIPE


def test_a_failing_git_call_names_its_first_error_line(tmp_path: Path) -> None:
    with pytest.raises(RepoError, match=r"^git ls-files failed: fatal: not a git repository"):
        command._run(tmp_path, "ls-files")


def test_discover_reads_a_path_with_non_utf8_bytes(tmp_path: Path) -> None:
    if sys.platform == "darwin":
        pytest.skip("the file system refuses such names")
    repo = tmp_path / os.fsdecode(b"repo-\xff")
    repo.mkdir()
    command._spawn(["git", "-C", str(repo), "init", "-q"], None)
    found = command.discover(repo)
    assert found is not None and found[2] == repo.resolve()


def test_without_posix_spawn_the_same_answers_come_through_subprocess(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delattr(os, "posix_spawnp")
    assert command._spawn(["cat"], b"abc") == (0, b"abc", b"")
    assert command._spawn(["sh", "-c", "printf x >&2; exit 4"], None) == (4, b"", b"x")
