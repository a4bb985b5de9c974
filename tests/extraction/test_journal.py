"""A run killed between writing its records and writing the index (M6, item 9): the next run
links those records; they are never taken for memories the user deleted. The kill point is
deterministic: the child process kills itself with SIGKILL exactly where the index write begins
(``store.write_index``, after the records were created under the lock)."""
from __future__ import annotations

import os
import signal
from pathlib import Path

from chord_git.extraction import journal
from chord_git.extraction.pipeline import extract_session
from chord_git.memory import view
from testing.fake_openai import FakeOpenAI, Reply
from tests.extraction.extract_support import KEY_ENV, configure, project_and_config, record, reply, user, write_session

RULES = [f"rule {n}: the {word} service logs as structured JSON lines"
         for n, word in enumerate(("billing", "search", "auth", "mailer", "ledger", "export"))]


def _session(tmp: Path) -> Path:
    return write_session(tmp / "s.jsonl", [user(". ".join(RULES))])


def _reply() -> dict[str, object]:
    return reply(*(record(f"The {r.split()[3]} service logs as JSON lines.", f"{r.capitalize()}.", r,
                          why="Log shippers parse one JSON object per line.",
                          how_to_apply="Emit logs with the structured logger.") for r in RULES))


def _killed_at_index_write(repo: Path, session: Path) -> None:
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child dies by SIGKILL
        try:
            from chord_git.memory import store

            def die(*_args: object, **_kwargs: object) -> None:
                os.kill(os.getpid(), signal.SIGKILL)

            store.write_index = die  # type: ignore[assignment] - the kill point: records made, index not
            project, cfg = project_and_config(repo)
            extract_session(project, cfg, session, env=KEY_ENV)
        finally:
            os._exit(3)
    _pid, status = os.waitpid(pid, 0)
    assert os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL


def test_a_killed_run_is_finished_by_the_next_one(repo: Path) -> None:
    with FakeOpenAI() as server:
        server.script("m1", Reply(_reply()))
        configure(repo, server)
        session = _session(repo.parent)
        _killed_at_index_write(repo, session)
        project, cfg = project_and_config(repo)
        orphaned = view.orphan_ids(project)
        assert len(orphaned) == len(RULES)  # the crash left records no index line points to
        assert len(list(journal.runs_dir(project).iterdir())) == 1

        report = extract_session(project, cfg, session, env=KEY_ENV)  # the queue's retry
    state = view.read_index(project)
    assert sorted(e.id for e in state.entries) == sorted(orphaned)  # linked, not "deleted"
    assert view.orphan_ids(project) == []
    assert report.written == () and report.dropped == {"duplicate": len(RULES)}  # nothing written twice
    assert list(journal.runs_dir(project).iterdir()) == []


def test_another_sessions_run_also_recovers(repo: Path) -> None:
    with FakeOpenAI() as server:
        server.script("m1", Reply(_reply()))
        configure(repo, server)
        _killed_at_index_write(repo, _session(repo.parent))
        other = write_session(repo.parent / "other.jsonl", [user("unrelated: please keep answers short")],
                              session_id="sess-2")
        server.script("m1", Reply(reply()))
        project, cfg = project_and_config(repo)
        extract_session(project, cfg, other, env=KEY_ENV)
    assert len(view.read_index(project).entries) == len(RULES) and view.orphan_ids(project) == []


def test_a_live_run_is_left_alone(repo: Path) -> None:
    """A journal whose run still holds its lock is not touched by recovery."""
    from chord_git.memory import index_file, store

    project, _cfg = project_and_config(repo)
    run = journal.start(project, index_file.IndexDelta(insert=(index_file.Entry("fact", "x", "20261129-x-0001"),)))
    try:
        with store.locked(project):
            assert journal.recover(project) == journal.Recovery()
        assert run.path.exists()
    finally:
        run.finish()
    assert not run.path.exists()


def test_an_entry_a_stale_editor_buffer_overwrote_may_be_written_again(repo: Path) -> None:
    """R35 collision: an editor saves a buffer read before an extraction wrote its entry. The entry
    is gone, but that was no deletion: a later extraction may write the conclusion again. An entry
    removed through the tool (``forget``) stays deleted (R34)."""
    from chord_git.memory import store
    from chord_git.memory.index_file import IndexDelta

    rule = RULES[0]
    one = reply(record("The billing service logs as JSON lines.", f"{rule.capitalize()}.", rule,
                       why="Log shippers parse one JSON object per line.",
                       how_to_apply="Emit logs with the structured logger."))
    with FakeOpenAI() as server:
        server.script("m1", Reply(one))
        configure(repo, server)
        project, cfg = project_and_config(repo)
        (repo / "MEMORY.md").write_text("# Notes\n\n<!-- chord:memory:begin -->\n<!-- chord:memory:end -->\n")
        stale_buffer = (repo / "MEMORY.md").read_text().replace("# Notes", "# Notes\n\nmy edit")
        session = write_session(repo.parent / "a.jsonl", [user(rule)], session_id="a")
        (first,) = extract_session(project, cfg, session, env=KEY_ENV).written
        (repo / "MEMORY.md").write_text(stale_buffer)  # the editor saves what it read before
        assert view.orphan_ids(project) == [first]
        again = extract_session(project, cfg, write_session(repo.parent / "b.jsonl", [user(rule)], session_id="b"),
                                env=KEY_ENV)
        assert len(again.written) == 1 and again.dropped == {}
        (second,) = again.written
        store.apply_delta(project, IndexDelta(remove=frozenset({second})))  # what `git memory forget` does
        server.script("m1", Reply(one))
        third = extract_session(project, cfg, write_session(repo.parent / "b.jsonl", [user(rule)], session_id="b"),
                                env=KEY_ENV)
    # Session b extracted again (a retried job) does not bring back what was forgotten after it.
    assert third.written == () and third.dropped == {"forgotten": 1}
    assert "my edit" in (repo / "MEMORY.md").read_text()
