"""The watcher's decisions and the hand-off, in-process: when a session counts as frozen, what is
handed over, and that a piece of content goes to extraction once."""
from __future__ import annotations

import json
import os
import threading
import time
import tracemalloc
from pathlib import Path

import pytest

from chord_git import config as config_mod
from chord_git.agents import handoff, sessions, watch
from chord_git.agents.sessions import AgentSession
from chord_git.background import activity, queue
from chord_git.errors import InputError, LockTimeout
from chord_git.memory import project as project_mod
from chord_git.transcripts import Compaction, Message
from tests.agents.conftest import DATA

CODEX_TRANSCRIPT = DATA / "codex-0.169.0-hook-context.jsonl"


def codex_session(project: project_mod.Project, transcript: Path, sid: str = "c1") -> AgentSession:
    session = sessions.transition(None, "codex", sid, str(transcript), "open", now=time.time() - 100)
    sessions.save(project, session)
    return session


def age(path: Path, seconds: float) -> None:
    then = time.time() - seconds
    os.utime(path, (then, then))


def enabled(**memory: object) -> config_mod.Config:
    return config_mod.Config(memory=config_mod.MemoryConfig(enabled=True, **memory))  # type: ignore[arg-type]


def test_a_codex_session_freezes_once_quiet_and_not_busy(repo: Path, tmp_path: Path) -> None:
    project = project_mod.discover(repo)
    rollout = tmp_path / "rollout.jsonl"
    rollout.write_bytes(CODEX_TRANSCRIPT.read_bytes())
    codex_session(project, rollout)
    said: list[str] = []
    cfg = config_mod.Config(memory=config_mod.MemoryConfig(enabled=False, freeze_after_seconds=60))
    age(rollout, 30)
    assert watch.freeze_due(sessions.load(project, "codex", "c1"), 60, time.time()) is False  # type: ignore[arg-type]
    age(rollout, 61)
    activity.set_session_busy("codex", "c1")
    assert watch.freeze_due(sessions.load(project, "codex", "c1"), 60, time.time()) is False  # type: ignore[arg-type]
    activity.set_session_idle("codex", "c1")
    assert watch.freeze_due(sessions.load(project, "codex", "c1"), 60, time.time()) is True  # type: ignore[arg-type]
    # With extraction off the session is settled without being read or sent (R7).
    assert watch.one_pass(project, cfg, said.append) is False
    assert sessions.load(project, "codex", "c1").state == "handed"  # type: ignore[union-attr]
    assert said == [] and queue.pending(project) == []


def test_one_pass_waits_for_a_session_that_is_not_quiet_yet(repo: Path, tmp_path: Path) -> None:
    project = project_mod.discover(repo)
    rollout = tmp_path / "rollout.jsonl"
    rollout.write_bytes(CODEX_TRANSCRIPT.read_bytes())
    codex_session(project, rollout)
    assert watch.one_pass(project, enabled(freeze_after_seconds=900), lambda _t: None) is True
    assert sessions.load(project, "codex", "c1").state == "open"  # type: ignore[union-attr]


def test_a_transcript_not_written_yet_counts_from_its_registration(repo: Path, tmp_path: Path) -> None:
    project = project_mod.discover(repo)
    session = codex_session(project, tmp_path / "not-yet.jsonl")
    assert watch.freeze_due(session, 120, time.time()) is False
    assert watch.freeze_due(session, 120, time.time() + 30) is True


def test_a_hook_reopening_the_session_during_a_hand_off_wins(repo: Path, tmp_path: Path) -> None:
    project = project_mod.discover(repo)
    seen = sessions.transition(None, "claude-code", "s1", str(tmp_path / "t.jsonl"), "ended", end_size=10)
    sessions.save(project, seen)
    reopened = sessions.transition(seen, "claude-code", "s1", None, "open")
    sessions.save(project, reopened)
    watch._settle(project, seen, "handed", ("d1", "d2"), None)
    now = sessions.load(project, "claude-code", "s1")
    assert now is not None and now.state == "open" and now.handed == ("d1", "d2")


def test_new_items_match_in_order_so_repeats_stay_new() -> None:
    yes, reply = Message("user", "yes"), Message("assistant", "Done.")
    summary = Compaction("Earlier: set up pnpm.", 0)
    items = [yes, reply, summary, yes, reply]
    handed = [handoff.digest(i) for i in items[:2]]
    assert handoff.new_items(items, handed) == [summary, yes, reply]
    assert handoff.new_items(items, [handoff.digest(i) for i in items]) == []
    assert handoff.new_items(items, []) == items


def test_frozen_lines_stop_at_the_size_and_at_a_line_being_written(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    path.write_bytes(b'{"a": 1}\n{"b": 2}\n{"c": 3')

    def read(size: int | None) -> list[str]:
        with path.open("rb") as handle:
            return list(handoff.frozen_lines(handle, size))

    assert read(None) == ['{"a": 1}', '{"b": 2}']
    assert read(12) == ['{"a": 1}']
    assert read(9) == ['{"a": 1}'] and read(8) == []
    assert read(3) == []


def test_a_fifo_as_transcript_fails_the_session_without_blocking(repo: Path, tmp_path: Path) -> None:
    """A FIFO would hold the watcher in ``open`` for good, with its lock: it is refused unread."""
    project = project_mod.discover(repo)
    fifo = tmp_path / "transcript.jsonl"
    os.mkfifo(fifo)
    sessions.save(project, sessions.transition(None, "claude-code", "s1", str(fifo), "ended"))
    said: list[str] = []
    passing = threading.Thread(target=watch.one_pass, args=(project, enabled(), said.append), daemon=True)
    passing.start()
    passing.join(60)
    if passing.is_alive():
        os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))  # let the blocked open return
        passing.join(10)
        pytest.fail("the hand-off blocked opening a FIFO")
    session = sessions.load(project, "claude-code", "s1")
    assert session is not None and session.state == "failed"
    assert "not a regular file" in (session.last_error or "") and said


def _tool_traffic(path: Path, lines: int, size: int) -> None:
    """A Claude Code transcript of ``lines`` tool results of ``size`` bytes each, no user words."""
    with path.open("w", encoding="utf-8") as handle:
        for n in range(lines):
            result = {"type": "tool_result", "tool_use_id": f"t{n}", "content": "x" * size}
            handle.write(json.dumps({"type": "user", "sessionId": "s1",
                                     "message": {"role": "user", "content": [result]}}) + "\n")


def test_the_hand_off_reads_a_transcript_one_line_at_a_time(repo: Path, tmp_path: Path) -> None:
    project = project_mod.discover(repo)
    transcript = tmp_path / "big.jsonl"
    _tool_traffic(transcript, 24, 1 << 20)  # 24 MiB of tool output
    session = sessions.transition(None, "claude-code", "s1", str(transcript), "ended")
    tracemalloc.start()
    try:
        result = handoff.hand_off(project, enabled(), session, "claude-code")
        _current, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert result.new_items == 0 and result.job_id is None  # tool traffic only: nothing to extract
    assert peak < 8 << 20  # about one line at a time, not the whole file (four copies of it before)


def test_the_hand_off_refuses_a_transcript_above_the_queues_cap(repo: Path, tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    project = project_mod.discover(repo)
    transcript = tmp_path / "big.jsonl"
    _tool_traffic(transcript, 3, 1 << 20)
    monkeypatch.setattr(queue, "MAX_TRANSCRIPT_BYTES", 2 << 20)
    session = sessions.transition(None, "claude-code", "s1", str(transcript), "ended")
    with pytest.raises(InputError, match="larger than 2 MiB"):
        handoff.hand_off(project, enabled(), session, "claude-code")
    first_line = len(transcript.read_bytes().split(b"\n", 1)[0]) + 1
    frozen_early = sessions.transition(None, "claude-code", "s1", str(transcript), "ended", end_size=first_line)
    assert handoff.hand_off(project, enabled(), frozen_early, "claude-code").job_id is None  # the part it froze at fits


def test_native_lines_carry_only_conversation() -> None:
    lines = handoff.native_lines("sid", [Message("user", "We use pnpm."), Compaction("Summary.", 1)])
    assert lines == ['{"type": "session", "id": "sid", "frozen": true}',
                     '{"type": "message", "role": "user", "content": "We use pnpm.", "complete": true}',
                     '{"type": "compaction", "summary": "Summary."}']


def test_settled_sessions_are_forgotten_after_a_while(repo: Path) -> None:
    project = project_mod.discover(repo)
    old = sessions.transition(None, "codex", "old", None, "handed", now=1000.0)
    open_old = sessions.transition(None, "codex", "open-old", None, "open", now=1000.0)
    fresh = sessions.transition(None, "codex", "fresh", None, "handed")
    for session in (old, open_old, fresh):
        sessions.save(project, session)
    assert sessions.sweep(project) == 1
    assert {s.session_id for s in sessions.all_sessions(project)} == {"open-old", "fresh"}


def test_a_held_register_lock_times_out_instead_of_blocking(repo: Path) -> None:
    """A hook waits at most a few seconds for the register, then fails open (LockTimeout)."""
    project = project_mod.discover(repo)
    with sessions.locked(project):
        with pytest.raises(LockTimeout):
            with sessions.locked(project, timeout=0.05):
                pass
    with sessions.locked(project, timeout=0.05):
        pass  # free again


def test_a_watcher_stopped_by_a_broken_config_records_no_failure(repo: Path) -> None:
    from chord_git.memory import store

    project = project_mod.discover(repo)
    config = repo / ".chord" / "config.yaml"
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text("memory:\n  enabled: sometimes\n", encoding="utf-8")
    said: list[str] = []
    watch.watch(project, poll=0, log=said.append)
    assert len(said) == 1 and said[0].startswith("config: ") and "config.yaml:2" in said[0]
    # The badge reads the config itself, so fixing the file is all it takes to clear it.
    assert store.read_status(project) is None
