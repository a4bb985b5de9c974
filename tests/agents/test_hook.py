"""``git memory agent hook`` as the hosts run it: a process with the host's JSON payload on stdin."""
from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from chord_git.agents import sessions, watch
from chord_git.background import activity, queue
from chord_git.memory import project as project_mod
from chord_git.memory import store
from chord_git.memory.summary import MEMORY_DISCIPLINE
from testing.fake_openai import FakeOpenAI
from testing.gitutil import cli_env, git, index_digest, make_repo
from tests.agents.conftest import (
    CANARY,
    CANARY_SUMMARY,
    DATA,
    PNPM_SUMMARY,
    PNPM_WORDS,
    configure,
    conversation_of,
    event,
    git_memory,
    run_hook,
    wait_for,
)

CC_TRANSCRIPT = DATA / "claude-code-2.1.197-hook-context.jsonl"
CODEX_TRANSCRIPT = DATA / "codex-0.169.0-hook-context.jsonl"


def first_part(source: Path, target: Path, last_line_of_first_session: int) -> bytes:
    """Write the first session of a captured transcript (a later resume appended the rest)."""
    lines = source.read_bytes().splitlines(keepends=True)
    target.write_bytes(b"".join(lines[: last_line_of_first_session + 1]))
    return b"".join(lines[last_line_of_first_session + 1:])


def test_session_start_prints_the_summary_in_each_hosts_form(memory_repo: Path) -> None:
    cc = run_hook(event("SessionStart", memory_repo, "s1", source="startup"))
    assert cc.returncode == 0 and cc.stderr == b""
    context = json.loads(cc.stdout)["hookSpecificOutput"]
    assert context["hookEventName"] == "SessionStart"
    assert CANARY_SUMMARY in context["additionalContext"] and MEMORY_DISCIPLINE in context["additionalContext"]
    codex = run_hook(event("SessionStart", memory_repo, "s2", source="startup", model="m"), host="codex")
    assert codex.returncode == 0 and codex.stderr == b""
    # Codex takes the summary as JSON next to the line its TUI shows (plain text when there is none).
    shown = json.loads(codex.stdout)
    given = shown["hookSpecificOutput"]["additionalContext"]
    assert given.startswith(MEMORY_DISCIPLINE) and CANARY_SUMMARY in given
    assert shown["systemMessage"] == "memory: 1 entry loaded — git memory why"
    guessed = run_hook(event("SessionStart", memory_repo, "s3", turn_id="t", model="m"), host=None)
    assert guessed.stdout == codex.stdout  # Codex's payload fields are recognised without --host


def test_no_memory_and_extraction_off_prints_nothing(repo: Path) -> None:
    done = run_hook(event("SessionStart", repo, "s1", source="startup"))
    assert done.returncode == 0 and done.stdout == b"" and done.stderr == b""


def test_busy_and_idle_are_per_session_and_tied_to_the_host(memory_repo: Path) -> None:
    assert run_hook(event("UserPromptSubmit", memory_repo, "a", prompt="hi")).stdout == b""
    assert activity.session_busy("claude-code", "a") and not activity.session_busy("claude-code", "b")
    flag = json.loads(activity.session_flag_path("claude-code", "a").read_text())
    assert flag["owner_pid"] == os.getpid()  # the host (here: this test) owns the flag
    other = project_mod.discover(make_repo(memory_repo.parent / "other"))
    assert activity.anyone_busy(other.state_dir)  # another project's main-pool worker waits too
    assert run_hook(event("Stop", memory_repo, "a")).stdout == b""
    assert not activity.session_busy("claude-code", "a") and not activity.anyone_busy(other.state_dir)
    run_hook(event("UserPromptSubmit", memory_repo, "a", prompt="again"))
    compact = run_hook(event("SessionStart", memory_repo, "a", source="compact"))  # mid-turn compaction
    assert CANARY_SUMMARY in compact.stdout.decode() and activity.session_busy("claude-code", "a")
    run_hook(event("SessionEnd", memory_repo, "a", reason="other"))
    assert not activity.session_flag_path("claude-code", "a").exists()


def test_summary_changes_only_at_the_next_session_start(memory_repo: Path) -> None:
    """R10: memory written during a session is injected at the next rebuild point, never mid-turn."""
    start = run_hook(event("SessionStart", memory_repo, "s1", source="startup"), host="codex").stdout.decode()
    text = (memory_repo / "MEMORY.md").read_text(encoding="utf-8")
    (memory_repo / "MEMORY.md").write_text(text.replace(
        "<!-- chord:memory:begin -->\n",
        "<!-- chord:memory:begin -->\n- [preference] Fresh entry. ([20261130-fresh-aa11](.chord/memory/records/20261130-fresh-aa11.md))\n"),
        encoding="utf-8")
    for name in ("UserPromptSubmit", "Stop"):
        assert run_hook(event(name, memory_repo, "s1", prompt="x"), host="codex").stdout == b""
    assert "Fresh entry." not in start
    for source in ("compact", "resume", "clear", "startup"):
        again = run_hook(event("SessionStart", memory_repo, "s1", source=source), host="codex").stdout.decode()
        assert "Fresh entry." in again


@pytest.mark.parametrize("stdin, message", [
    (b"", "no JSON payload on stdin"),
    (b"{not json", "payload is not JSON"),
    (b'["SessionStart"]', "payload is not a JSON object"),
    (b'{"hook_event_name": "Stop"}', "Stop: payload has no valid session_id"),
    (b'{"hook_event_name": "Stop", "session_id": "../../etc"}', "Stop: payload has no valid session_id"),
])
def test_bad_payloads_fail_open(memory_repo: Path, stdin: bytes, message: str) -> None:
    done = run_hook(stdin, cwd=memory_repo)
    assert done.returncode == 0 and done.stdout == b""
    lines = done.stderr.decode().splitlines()
    assert len(lines) == 1 and message in lines[0] and lines[0].startswith("chord-git: ")


def test_bad_usage_and_odd_places_fail_open(memory_repo: Path, tmp_path: Path) -> None:
    bogus = run_hook(event("Stop", memory_repo, "s1"), host="vim")
    assert bogus.returncode == 0 and "unknown agent host 'vim'" in bogus.stderr.decode()
    import subprocess

    extra = subprocess.run([git_memory(), "agent", "hook", "--frobnicate"], input=b"{}", capture_output=True,
                           env=cli_env(), timeout=60)
    assert extra.returncode == 0 and len(extra.stderr.decode().splitlines()) == 1  # exit 2 would block the prompt
    plain = tmp_path / "not-a-repo"
    plain.mkdir()
    outside = run_hook(event("SessionStart", plain, "s1", source="startup"))
    assert outside.returncode == 0 and outside.stdout == b"" and outside.stderr == b""
    assert not (plain / "MEMORY.md").exists()  # memory never starts in a random folder
    bare = tmp_path / "bare.git"
    git(tmp_path, "init", "-q", "--bare", str(bare))
    in_bare = run_hook(event("UserPromptSubmit", bare, "s1"))
    assert in_bare.returncode == 0 and "bare repository" in in_bare.stderr.decode()


def test_a_broken_config_still_injects_memory_and_sets_memory_fail(memory_repo: Path) -> None:
    config = memory_repo / ".chord" / "config.yaml"
    config.write_text("memory:\n  enabled: sometimes\n", encoding="utf-8")
    done = run_hook(event("SessionStart", memory_repo, "s1", source="startup"))
    assert done.returncode == 0
    assert CANARY_SUMMARY in json.loads(done.stdout)["hookSpecificOutput"]["additionalContext"]
    [line] = done.stderr.decode().splitlines()
    assert "config: " in line and ".chord/config.yaml:2" in line
    # The badge reads the config itself: nothing is recorded, so fixing the file clears it.
    assert store.read_status(project_mod.discover(memory_repo)) is None
    statusline = _statusline(memory_repo)
    assert statusline.startswith("MEMORY-FAIL: config: ") and len(statusline) < 120
    assert "clear" not in statusline  # nothing to clear: the file is to be fixed
    assert json.loads(done.stdout)["systemMessage"].startswith("memory: 1 entry loaded")
    config.write_text("memory:\n  enabled: false\n", encoding="utf-8")
    assert _statusline(memory_repo) == ""


def _statusline(cwd: Path, payload: dict[str, object] | None = None) -> str:
    import subprocess

    data = json.dumps(payload if payload is not None else {"workspace": {"current_dir": str(cwd)}}).encode()
    done = subprocess.run([git_memory(), "agent", "statusline"], input=data, capture_output=True,
                          env=cli_env(), cwd="/", timeout=60)
    assert done.returncode == 0 and done.stderr == b""
    return done.stdout.decode().rstrip("\n")


def test_statusline(memory_repo: Path, tmp_path: Path) -> None:
    assert _statusline(memory_repo) == ""  # extraction off: nothing
    configure(None)
    assert _statusline(memory_repo) == "MEMORY"
    assert _statusline(memory_repo, {"cwd": str(memory_repo)}) == "MEMORY"
    project = project_mod.discover(memory_repo)
    store.write_status(project, False, "pool failed: " + "connection refused " * 20)
    line = _statusline(memory_repo)
    # The cause is cut; how to clear a recorded failure is not.
    assert line.startswith("MEMORY-FAIL: pool failed: connection refused") and len(line) <= 140
    assert line.endswith("… — clear: git memory status --clear-failure")
    store.write_status(project, True)
    assert _statusline(memory_repo) == "MEMORY"
    memory = memory_repo / "MEMORY.md"
    memory.write_text(memory.read_text(encoding="utf-8") + "<!-- chord:memory:end -->\n", encoding="utf-8")
    assert _statusline(memory_repo).startswith("MEMORY-FAIL: managed section unusable")
    # The line is cached by exactly the files the badge reads.
    from chord_git.agents import statusline as statusline_mod

    assert store.status_path(project) in statusline_mod.inputs(project, os.environ)
    plain = tmp_path / "plain"
    plain.mkdir()
    assert _statusline(plain) == ""


def test_session_end_hands_off_and_a_resumed_session_only_its_new_content(
        memory_repo: Path, extraction: FakeOpenAI, tmp_path: Path) -> None:
    configure(extraction.base_url)
    digest = index_digest(memory_repo)
    transcript = tmp_path / "session.jsonl"
    rest = first_part(CC_TRANSCRIPT, transcript, 8)
    sid = "3646db0a-5bde-4b53-a554-a8386a6a4a03"
    run_hook(event("SessionStart", memory_repo, sid, transcript, source="startup"))
    run_hook(event("UserPromptSubmit", memory_repo, sid, transcript, prompt=PNPM_WORDS))
    run_hook(event("Stop", memory_repo, sid, transcript))
    end = run_hook(event("SessionEnd", memory_repo, sid, transcript, reason="other"))
    assert end.returncode == 0 and end.stdout == b"" and end.stderr == b""
    project = project_mod.discover(memory_repo)
    assert wait_for(lambda: PNPM_SUMMARY in (memory_repo / "MEMORY.md").read_text(encoding="utf-8"))
    [first] = extraction.requests
    said = conversation_of(first.body)
    assert PNPM_WORDS in said and "CANARY-ADDL-CONTEXT-42" not in said
    assert "CANARY-ADDL-CONTEXT-42" in transcript.read_text(encoding="utf-8")  # it was in the transcript
    records = list((memory_repo / ".chord/memory/records").glob("*.md"))
    assert len(records) == 2 and CANARY not in "".join(p.name for p in records if "7731" not in p.name)
    with transcript.open("ab") as handle:  # the session is resumed and says one more thing
        handle.write(rest)
    run_hook(event("SessionStart", memory_repo, sid, transcript, source="resume"))
    run_hook(event("SessionEnd", memory_repo, sid, transcript, reason="other"))
    assert wait_for(lambda: len(extraction.requests) == 2)
    resumed = conversation_of(extraction.requests[1].body)
    assert "And run make check before review." in resumed and PNPM_WORDS not in resumed
    assert wait_for(lambda: sessions.load(project, "claude-code", sid).state == "handed")  # type: ignore[union-attr]
    run_hook(event("SessionStart", memory_repo, sid, transcript, source="resume"))
    run_hook(event("SessionEnd", memory_repo, sid, transcript, reason="other"))  # nothing new said
    assert wait_for(lambda: sessions.load(project, "claude-code", sid).state == "handed")  # type: ignore[union-attr]
    assert len(extraction.requests) == 2 and queue.pending(project) == []
    assert index_digest(memory_repo) == digest and git(memory_repo, "diff", "--cached", "--name-only") == ""


def test_another_codex_session_starting_freezes_the_first(memory_repo: Path, extraction: FakeOpenAI,
                                                           tmp_path: Path) -> None:
    configure(extraction.base_url)  # freeze_after_seconds stays 900: only the new session can freeze it
    rollout = tmp_path / "rollout-a.jsonl"
    first_part(CODEX_TRANSCRIPT, rollout, 14)
    run_hook(event("UserPromptSubmit", memory_repo, "codex-a", rollout, turn_id="t1"), host="codex")
    run_hook(event("Stop", memory_repo, "codex-a", rollout, turn_id="t1"), host="codex")
    project = project_mod.discover(memory_repo)
    assert sessions.load(project, "codex", "codex-a").state == "open"  # type: ignore[union-attr]
    start = run_hook(event("SessionStart", memory_repo, "codex-b", tmp_path / "rollout-b.jsonl",
                           source="startup"), host="codex")
    assert start.returncode == 0 and CANARY_SUMMARY in start.stdout.decode()
    assert wait_for(lambda: len(extraction.requests) == 1)
    said = conversation_of(extraction.requests[0].body)
    assert "We use pnpm, never npm, in this repo." in said and "CANARY-CODEX-STDOUT-77" not in said
    assert wait_for(lambda: sessions.load(project, "codex", "codex-a").state == "handed")  # type: ignore[union-attr]
    assert sessions.load(project, "codex", "codex-b").state == "open"  # type: ignore[union-attr]
    run_hook(event("SessionEnd", memory_repo, "codex-b", reason="other"), host="codex")  # let the watcher go


def test_a_busy_codex_session_is_not_frozen_by_another_start(memory_repo: Path, tmp_path: Path) -> None:
    configure(None)
    rollout = tmp_path / "rollout-a.jsonl"
    shutil.copy(CODEX_TRANSCRIPT, rollout)
    run_hook(event("UserPromptSubmit", memory_repo, "codex-a", rollout, turn_id="t1"), host="codex")
    run_hook(event("SessionStart", memory_repo, "codex-b", source="startup"), host="codex")
    project = project_mod.discover(memory_repo)
    assert sessions.load(project, "codex", "codex-a").state == "open"  # type: ignore[union-attr]
    for sid in ("codex-a", "codex-b"):
        run_hook(event("SessionEnd", memory_repo, sid, reason="other"), host="codex")


def test_with_extraction_off_nothing_is_queued(memory_repo: Path, tmp_path: Path) -> None:
    transcript = tmp_path / "s.jsonl"
    shutil.copy(CC_TRANSCRIPT, transcript)
    run_hook(event("SessionStart", memory_repo, "s-off", transcript, source="startup"))
    run_hook(event("SessionEnd", memory_repo, "s-off", transcript, reason="other"))
    project = project_mod.discover(memory_repo)
    assert wait_for(lambda: sessions.load(project, "claude-code", "s-off").state == "handed")  # type: ignore[union-attr]
    assert queue.pending(project) == [] and not project.state_dir.joinpath("worker.log").exists()


def test_stop_starts_a_watcher_only_for_an_open_codex_session(memory_repo: Path, tmp_path: Path) -> None:
    project = project_mod.discover(memory_repo)
    sessions.save(project, sessions.transition(None, "codex", "done", str(tmp_path / "r.jsonl"), "handed"))
    run_hook(event("Stop", memory_repo, "done", tmp_path / "r.jsonl", turn_id="t"), host="codex")
    assert not watch.log_path(project).exists()  # a settled session needs nobody to watch it
    run_hook(event("Stop", memory_repo, "claude", tmp_path / "c.jsonl"))
    assert not watch.log_path(project).exists()  # Claude Code reports its ends: no watcher either
