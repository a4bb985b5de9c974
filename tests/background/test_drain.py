"""The worker loop with an injected runner (the real pipeline runs in test_background.py)."""
from __future__ import annotations

import fcntl
import os
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from chord_git.background import activity, queue, worker
from chord_git.config import Config, MemoryConfig, ModelEntry
from chord_git.errors import (
    ChordError,
    ExtractionFailed,
    InputError,
    LockTimeout,
    Preempted,
)
from chord_git.memory import project as project_mod
from chord_git.memory.project import Project

MAIN = Config(model_pool=(ModelEntry("m1"),), memory=MemoryConfig(enabled=True))
DEDICATED = Config(model_pool=(ModelEntry("m1"),),
                   memory=MemoryConfig(enabled=True, model_pool=(ModelEntry("mem"),)))
OFF = Config(model_pool=(ModelEntry("m1"),), memory=MemoryConfig(enabled=False))


@pytest.fixture
def project(repo: Path) -> Project:
    return project_mod.discover(repo)


def add(project: Project, tmp_path: Path, text: str, fmt: str = "auto") -> str:
    path = tmp_path / f"session-{abs(hash(text))}.jsonl"
    path.write_text(text, encoding="utf-8")
    return queue.enqueue(project, path, fmt)


class Runner:
    """Records each call; ``behave`` decides what a call does (return, raise, or wait)."""

    def __init__(self, behave: Callable[[int, Path, Callable[[], bool] | None], Any] | None = None) -> None:
        self.calls: list[tuple[str, str, Callable[[], bool] | None, float]] = []
        self.behave = behave

    def __call__(self, project: Project, cfg: Config, session_path: Path, *, fmt: str = "auto",
                 should_cancel: Callable[[], bool] | None = None, **_: Any) -> object:
        self.calls.append((session_path.read_text(encoding="utf-8"), fmt, should_cancel, time.monotonic()))
        if self.behave is not None:
            return self.behave(len(self.calls), session_path, should_cancel)
        return None


def test_drains_every_job_oldest_first_and_releases_the_lock(project: Project, tmp_path: Path) -> None:
    ids = [add(project, tmp_path, f"s{i}\n", "native") for i in range(3)]
    run = Runner()
    lines: list[str] = []
    result = worker.drain(project, MAIN, run=run, grace=0.0, log=lines.append)
    assert result.acquired and result.done == ids
    assert [c[0] for c in run.calls] == ["s0\n", "s1\n", "s2\n"] and {c[1] for c in run.calls} == {"native"}
    assert queue.pending(project) == []
    assert lines[0] == "lock acquired" and lines[-1] == "lock released"
    fd = os.open(worker.lock_path(project), os.O_RDWR)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)  # free again
    finally:
        os.close(fd)


def test_a_second_worker_exits_at_once(project: Project, tmp_path: Path) -> None:
    add(project, tmp_path, "s\n")
    fd = os.open(worker.lock_path(project), os.O_RDWR | os.O_CREAT)
    fcntl.flock(fd, fcntl.LOCK_EX)
    try:
        run = Runner()
        result = worker.drain(project, MAIN, run=run, grace=0.0)
    finally:
        os.close(fd)
    assert not result.acquired and run.calls == []
    assert len(queue.pending(project)) == 1


def test_main_pool_waits_for_idle_and_passes_the_busy_signal(project: Project, tmp_path: Path) -> None:
    add(project, tmp_path, "s\n")
    activity.set_busy(project.state_dir)
    run = Runner()
    released: list[float] = []

    def idle_later() -> None:
        time.sleep(0.4)
        released.append(time.monotonic())
        activity.set_idle(project.state_dir)

    thread = threading.Thread(target=idle_later)
    thread.start()
    worker.drain(project, MAIN, run=run, poll=0.02, grace=0.0)
    thread.join()
    [(_, _, should_cancel, called_at)] = run.calls
    assert called_at >= released[0]
    assert should_cancel is not None and should_cancel() is False
    activity.set_busy(project.state_dir)
    assert should_cancel() is True


def test_preempted_job_stays_queued_and_runs_again_at_the_next_idle(project: Project, tmp_path: Path) -> None:
    job_id = add(project, tmp_path, "s\n")

    def behave(n: int, _path: Path, _cancel: Callable[[], bool] | None) -> None:
        if n == 1:
            activity.set_busy(project.state_dir)
            threading.Timer(0.3, activity.set_idle, args=(project.state_dir,)).start()
            raise Preempted("the agent became busy")

    run = Runner(behave)
    result = worker.drain(project, MAIN, run=run, poll=0.02, grace=0.0)
    assert result.preempted == 1 and result.done == [job_id]
    assert len(run.calls) == 2 and run.calls[1][3] - run.calls[0][3] >= 0.25
    assert queue.pending(project) == [] and queue.failed(project) == []


def test_dedicated_pool_ignores_the_signal(project: Project, tmp_path: Path) -> None:
    add(project, tmp_path, "s\n")
    activity.set_busy(project.state_dir)
    run = Runner()
    result = worker.drain(project, DEDICATED, run=run, grace=0.0)
    assert len(result.done) == 1 and run.calls[0][2] is None


def test_failures_back_off_or_give_up(project: Project, tmp_path: Path) -> None:
    failing = add(project, tmp_path, "model down\n")
    broken = add(project, tmp_path, "not a transcript\n")
    locked = add(project, tmp_path, "store locked\n")

    def behave(_n: int, path: Path, _cancel: Callable[[], bool] | None) -> None:
        text = path.read_text(encoding="utf-8")
        if text == "model down\n":
            raise ExtractionFailed("all 1 models failed: m1 error:status-500")
        if text == "not a transcript\n":
            raise InputError(path, 1, "cannot tell the transcript format")
        raise LockTimeout("memory store is locked by another process")

    lines: list[str] = []
    result = worker.drain(project, MAIN, run=Runner(behave), grace=0.0, log=lines.append)
    assert result.retried == [failing, locked] and result.failed == [broken]
    waiting = {j.id: j for j in queue.pending(project)}
    assert waiting[failing].attempts == 1 and waiting[failing].not_before > time.time()
    assert waiting[failing].last_error == "all 1 models failed: m1 error:status-500"
    [gone] = queue.failed(project)
    assert gone.id == broken and "cannot tell the transcript format" in (gone.last_error or "")
    assert any("failed: bad transcript" in line for line in lines)


def test_an_input_error_about_another_file_is_retried(project: Project, tmp_path: Path) -> None:
    job_id = add(project, tmp_path, "s\n")

    def behave(_n: int, _path: Path, _cancel: Callable[[], bool] | None) -> None:
        raise InputError(project.memory_md, 3, "managed section unusable")

    result = worker.drain(project, MAIN, run=Runner(behave), grace=0.0)
    assert result.retried == [job_id] and queue.failed(project) == []


def test_an_unexpected_error_is_logged_and_counted(project: Project, tmp_path: Path) -> None:
    job_id = add(project, tmp_path, "s\n")

    def behave(_n: int, _path: Path, _cancel: Callable[[], bool] | None) -> None:
        raise KeyError("surprise")

    lines: list[str] = []
    for _ in range(queue.MAX_ATTEMPTS):
        worker.drain(project, MAIN, run=Runner(behave), grace=0.0, backoff_base=0.0, log=lines.append)
    assert queue.pending(project) == []
    [gone] = queue.failed(project)
    assert gone.id == job_id and gone.last_error == "KeyError: 'surprise'"
    assert any("Traceback" in line for line in lines)


def test_a_job_queued_during_a_run_or_the_grace_period_is_not_stranded(project: Project, tmp_path: Path) -> None:
    add(project, tmp_path, "first\n")
    # The grace period runs on a stepped clock: the third job arrives on the worker's second wait,
    # well inside the grace; then the clock runs on until the grace is over.
    now = [100.0]
    waits: list[float] = []

    def wait(seconds: float) -> None:
        waits.append(seconds)
        if len(waits) == 2:
            add(project, tmp_path, "queued during the grace\n")
        now[0] += seconds

    def behave(n: int, _path: Path, _cancel: Callable[[], bool] | None) -> None:
        if n == 1:
            add(project, tmp_path, "queued during the run\n")

    run = Runner(behave)
    result = worker.drain(project, MAIN, run=run, poll=0.25, grace=1.0, wait=wait, clock=lambda: now[0])
    assert [c[0] for c in run.calls] == ["first\n", "queued during the run\n", "queued during the grace\n"]
    assert len(result.done) == 3 and queue.pending(project) == []
    assert len(waits) == 2 + 4  # two waits before the third job, then a whole grace period of polls


def test_memory_off_sends_nothing(project: Project, tmp_path: Path) -> None:
    add(project, tmp_path, "s\n")
    run = Runner()
    result = worker.drain(project, OFF, run=run, grace=0.0)
    assert not result.acquired and run.calls == [] and len(queue.pending(project)) == 1


def test_submit_queues_and_starts_a_worker_only_when_none_runs(project: Project, tmp_path: Path) -> None:
    started: list[Project] = []
    path = tmp_path / "s.jsonl"
    path.write_text("s\n", encoding="utf-8")
    first = worker.submit(project, MAIN, path, spawn=started.append)
    assert first is not None and first.worker_started and started == [project]
    fd = os.open(worker.lock_path(project), os.O_RDWR | os.O_CREAT)
    fcntl.flock(fd, fcntl.LOCK_EX)
    try:
        path.write_text("another\n", encoding="utf-8")
        second = worker.submit(project, MAIN, path, spawn=started.append)
    finally:
        os.close(fd)
    assert second is not None and not second.worker_started and len(started) == 1
    assert len(queue.pending(project)) == 2


def test_submit_with_memory_off_or_a_missing_file(project: Project, tmp_path: Path) -> None:
    started: list[Project] = []
    path = tmp_path / "s.jsonl"
    path.write_text("s\n", encoding="utf-8")
    assert worker.submit(project, OFF, path, spawn=started.append) is None
    with pytest.raises(InputError, match="missing.jsonl: cannot read session file"):
        worker.submit(project, MAIN, tmp_path / "missing.jsonl", spawn=started.append)
    assert started == [] and queue.pending(project) == []


def test_a_worker_that_cannot_start_leaves_the_job_queued(project: Project, tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    path.write_text("s\n", encoding="utf-8")

    def broken_spawn(_project: Project) -> None:
        raise PermissionError(13, "Permission denied")

    with pytest.raises(ChordError, match="queued as [0-9a-f]{16}, but the worker could not start: Permission denied"):
        worker.submit(project, MAIN, path, spawn=broken_spawn)
    assert len(queue.pending(project)) == 1


def test_main_pool_waits_while_a_session_in_another_project_is_busy(project: Project, tmp_path: Path) -> None:
    """The pool is the user's, not the project's: a busy agent session anywhere holds the worker."""
    add(project, tmp_path, "s\n")
    activity.set_session_busy("codex", "elsewhere", owner_pid=os.getpid())
    run = Runner()
    waiting = threading.Event()

    def log(line: str) -> None:
        if "waiting for the agent sessions to be idle" in line:
            waiting.set()

    thread = threading.Thread(target=worker.drain, args=(project, MAIN),
                              kwargs={"run": run, "poll": 0.02, "grace": 0.0, "log": log})
    thread.start()
    assert waiting.wait(30)
    assert run.calls == []  # nothing is sent while the other session works
    activity.set_session_idle("codex", "elsewhere")
    thread.join(30)
    assert not thread.is_alive() and len(run.calls) == 1
    [(_, _, should_cancel, _)] = run.calls
    assert should_cancel is not None and should_cancel() is False
    activity.set_session_busy("claude-code", "another", owner_pid=os.getpid())
    assert should_cancel() is True  # and a session turning busy cancels an in-flight call
