"""The hook with Gemini CLI, Qwen Code and Copilot CLI payloads, as their CLIs send them (captured
from the real CLIs), and memory injected again whenever a host rebuilds its prompt, on every host.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from chord_git.agents import hosts, sessions
from chord_git.background import activity, queue
from chord_git.memory import project as project_mod
from chord_git.memory.summary import MEMORY_DISCIPLINE
from testing.fake_openai import FakeOpenAI
from testing.gitutil import git, index_digest
from tests.agents.conftest import (
    CANARY,
    CANARY_SUMMARY,
    DATA,
    PNPM_SUMMARY,
    PNPM_WORDS,
    configure,
    conversation_of,
    event,
    run_hook,
    run_hook_then_exit,
    wait_for,
)

GEMINI_TRANSCRIPT = DATA / "gemini-0.61.0-hook-context.jsonl"
QWEN_TRANSCRIPT = DATA / "qwen-0.24.4-hook-context.jsonl"
COPILOT_TRANSCRIPT = DATA / "copilot-1.0.102-hook-context.jsonl"
RESUME_WORDS = "Also, the generated client under api/gen is never edited by hand."
FRESH = "- [preference] Fresh entry. ([20261130-fresh-aa11](.chord/memory/records/20261130-fresh-aa11.md))\n"


def injected(host: str, stdout: bytes) -> str:
    """The text the host puts into the model's context, from the hook's stdout in its form."""
    text = stdout.decode()
    if host in ("claude-code", "gemini", "qwen") or (host == "codex" and text.startswith("{")):
        return str(json.loads(text)["hookSpecificOutput"]["additionalContext"]) if text else ""
    if host == "copilot":
        return str(json.loads(text)["additionalContext"]) if text else ""
    return text


# ---------------------------------------------------------------------------- re-injection, every host
# The sources each host reports a prompt rebuild with (its docs and the real CLIs): a new, resumed,
# cleared or compacted session. Gemini CLI reports no compaction it could be told by (PreCompress
# fires before every turn's check, compressing or not); Copilot CLI reports one only before it
# happens (below).
REBUILDS = {"claude-code": ("startup", "resume", "clear", "compact"), "codex": ("startup", "resume", "clear", "compact"),
            "gemini": ("startup", "resume", "clear"), "qwen": ("startup", "resume", "clear", "compact"),
            "copilot": ("new", "resume"),
            # pi and OpenCode: their plugin files send a start and, after a compaction, a start with
            # source compact (chord_git/data/).
            "pi": ("startup", "compact"), "opencode": ("startup", "compact")}


def test_every_host_has_its_rebuild_sources_listed() -> None:
    assert set(REBUILDS) == set(hosts.BUILTIN.names())


@pytest.mark.parametrize("host", sorted(REBUILDS))
def test_memory_is_injected_again_at_every_rebuild_and_never_mid_session(memory_repo: Path, host: str) -> None:
    """R10 on every host: an entry written during a session reaches the model at the host's next
    SessionStart (new, resumed, cleared, compacted), and never from a prompt or a turn's end."""
    own = hosts.get(host)
    start = run_hook(event(own.host_event("SessionStart"), memory_repo, "s1", source=REBUILDS[host][0]), host=host)
    first = injected(host, start.stdout)
    assert CANARY_SUMMARY in first and MEMORY_DISCIPLINE in first and start.stderr == b""
    index = memory_repo / "MEMORY.md"
    index.write_text(index.read_text(encoding="utf-8").replace("<!-- chord:memory:begin -->\n",
                                                               "<!-- chord:memory:begin -->\n" + FRESH), encoding="utf-8")
    for ours in ("UserPromptSubmit", "Stop"):
        assert run_hook(event(own.host_event(ours), memory_repo, "s1", prompt="x"), host=host).stdout == b""
    for source in REBUILDS[host]:
        again = injected(host, run_hook(event(own.host_event("SessionStart"), memory_repo, "s1", source=source),
                                        host=host).stdout)
        assert "Fresh entry." in again and CANARY_SUMMARY in again and again.count("Fresh entry.") == 1


# ---------------------------------------------------------------------------- Gemini CLI
def test_gemini_events_busy_idle_and_end(memory_repo: Path, extraction: FakeOpenAI, tmp_path: Path) -> None:
    configure(extraction.base_url)
    digest = index_digest(memory_repo)
    transcript = tmp_path / "session-2026-12-01T18-03-e858d154.jsonl"
    transcript.write_bytes(b"".join(GEMINI_TRANSCRIPT.read_bytes().splitlines(keepends=True)[:6]))  # the first run
    sid = "e858d154-0000-4000-8000-000000000000"
    run_hook(event("SessionStart", memory_repo, sid, transcript, source="startup"), host="gemini")
    run_hook(event("BeforeAgent", memory_repo, sid, transcript, prompt=PNPM_WORDS), host="gemini")
    assert activity.session_busy("gemini", sid)
    run_hook(event("AfterAgent", memory_repo, sid, transcript, prompt_response="Noted."), host="gemini")
    assert not activity.session_busy("gemini", sid)
    end = run_hook(event("SessionEnd", memory_repo, sid, transcript, reason="exit"), host="gemini")
    assert end.returncode == 0 and end.stderr == b""
    assert wait_for(lambda: PNPM_SUMMARY in (memory_repo / "MEMORY.md").read_text(encoding="utf-8"))
    [request] = extraction.requests
    said = conversation_of(request.body)
    assert PNPM_WORDS in said and CANARY not in said and "<hook_context>" not in said
    assert CANARY in transcript.read_text(encoding="utf-8")  # it was inside the user's message
    assert index_digest(memory_repo) == digest and git(memory_repo, "diff", "--cached", "--name-only") == ""


def test_gemini_payloads_are_recognised_without_host(memory_repo: Path) -> None:
    done = run_hook(event("BeforeAgent", memory_repo, "g1", prompt="x"), host=None)
    assert done.returncode == 0 and activity.session_busy("gemini", "g1")
    run_hook(event("AfterAgent", memory_repo, "g1"), host=None)
    assert not activity.session_busy("gemini", "g1")


# ---------------------------------------------------------------------------- Qwen Code
def test_qwen_hands_off_once_the_session_is_over_and_only_what_is_new(memory_repo: Path, extraction: FakeOpenAI,
                                                                      tmp_path: Path) -> None:
    """No SessionEnd in ``qwen -p``: a turn's end only registers the session (R14: a working
    session never adds entries); it is handed off once its host process has exited, and the
    digests ("extracted up to here") keep a resumed session from sending it again."""
    configure(extraction.base_url)
    digest = index_digest(memory_repo)
    lines = QWEN_TRANSCRIPT.read_bytes().splitlines(keepends=True)
    transcript = tmp_path / "93ad743d-abc2-4137-a935-8d46efebc75d.jsonl"
    transcript.write_bytes(b"".join(lines[:4]))  # the first turn
    sid = "93ad743d-abc2-4137-a935-8d46efebc75d"
    project = project_mod.discover(memory_repo)
    run_hook(event("SessionStart", memory_repo, sid, transcript, source="startup"), host="qwen")
    run_hook(event("UserPromptSubmit", memory_repo, sid, transcript, prompt=PNPM_WORDS), host="qwen")
    stop = run_hook(event("Stop", memory_repo, sid, transcript, last_assistant_message="Noted."), host="qwen")
    assert stop.returncode == 0 and stop.stderr == b""
    # The host (this test) still runs: the session is open, so nothing is queued for extraction.
    assert sessions.load(project, "qwen", sid).state == "open"  # type: ignore[union-attr]
    assert queue.pending(project) == [] and extraction.requests == []
    ended = run_hook_then_exit(event("Stop", memory_repo, sid, transcript, last_assistant_message="Noted."), "qwen")
    assert ended.returncode == 0 and ended.stderr == b""
    assert wait_for(lambda: PNPM_SUMMARY in (memory_repo / "MEMORY.md").read_text(encoding="utf-8"))
    assert wait_for(lambda: sessions.load(project, "qwen", sid).state == "handed")  # type: ignore[union-attr]
    run_hook(event("UserPromptSubmit", memory_repo, sid, transcript, prompt=RESUME_WORDS), host="qwen")
    assert sessions.load(project, "qwen", sid).state == "open"  # type: ignore[union-attr]
    with transcript.open("ab") as handle:
        handle.write(b"".join(lines[4:]))
    run_hook_then_exit(event("Stop", memory_repo, sid, transcript, last_assistant_message="Noted."), "qwen")
    assert wait_for(lambda: len(extraction.requests) == 2)
    second = conversation_of(extraction.requests[1].body)
    assert RESUME_WORDS in second and PNPM_WORDS not in second
    assert wait_for(lambda: sessions.load(project, "qwen", sid).state == "handed")  # type: ignore[union-attr]
    run_hook(event("UserPromptSubmit", memory_repo, sid, transcript), host="qwen")
    run_hook_then_exit(event("Stop", memory_repo, sid, transcript), "qwen")  # nothing new: nothing sent
    assert wait_for(lambda: sessions.load(project, "qwen", sid).state == "handed")  # type: ignore[union-attr]
    assert len(extraction.requests) == 2
    assert index_digest(memory_repo) == digest and git(memory_repo, "diff", "--cached", "--name-only") == ""


# ---------------------------------------------------------------------------- Copilot CLI
def test_copilot_session_end_without_a_transcript_uses_the_one_stop_named(
        memory_repo: Path, extraction: FakeOpenAI, tmp_path: Path) -> None:
    configure(extraction.base_url)
    lines = COPILOT_TRANSCRIPT.read_bytes().splitlines(keepends=True)
    transcript = tmp_path / "session-state" / "3f2f8057" / "events.jsonl"
    transcript.parent.mkdir(parents=True)
    transcript.write_bytes(b"".join(lines[:16]))  # the first run, to its shutdown
    sid = "3f2f8057-987e-4966-9bcd-539d2428aaf7"
    start = run_hook(event("SessionStart", memory_repo, sid, source="new", initial_prompt=PNPM_WORDS), host="copilot")
    assert CANARY_SUMMARY in json.loads(start.stdout)["additionalContext"]
    run_hook(event("UserPromptSubmit", memory_repo, sid, prompt=PNPM_WORDS), host="copilot")
    run_hook(event("Stop", memory_repo, sid, transcript, stop_reason="end_turn"), host="copilot")
    end = run_hook(event("SessionEnd", memory_repo, sid, reason="complete"), host="copilot")
    assert end.returncode == 0 and end.stderr == b""
    assert wait_for(lambda: PNPM_SUMMARY in (memory_repo / "MEMORY.md").read_text(encoding="utf-8"))
    said = conversation_of(extraction.requests[0].body)
    assert PNPM_WORDS in said and CANARY not in said
    assert CANARY in transcript.read_text(encoding="utf-8")  # the hook's output is in the file
    assert run_hook(event("Stop", memory_repo, "c2", transcript), host=None).returncode == 0
    assert sessions.load(project_mod.discover(memory_repo), "copilot", "c2") is not None  # recognised by its path


def test_copilot_injects_memory_again_at_the_first_prompt_after_a_compaction(memory_repo: Path) -> None:
    """Copilot sends PreCompact and no SessionStart after it: the next prompt carries the summary
    (once), with what was written meanwhile; prompts without a compaction carry nothing."""
    project = project_mod.discover(memory_repo)
    run_hook(event("SessionStart", memory_repo, "c1", source="new"), host="copilot")
    assert run_hook(event("UserPromptSubmit", memory_repo, "c1", prompt="x"), host="copilot").stdout == b""
    index = memory_repo / "MEMORY.md"
    index.write_text(index.read_text(encoding="utf-8").replace("<!-- chord:memory:begin -->\n",
                                                               "<!-- chord:memory:begin -->\n" + FRESH), encoding="utf-8")
    pre = run_hook(event("PreCompact", memory_repo, "c1", trigger="manual"), host="copilot")
    assert pre.returncode == 0 and pre.stdout == b"" and pre.stderr == b""
    assert run_hook(event("UserPromptSubmit", memory_repo, "c2", prompt="x"), host="copilot").stdout == b""  # another session
    again = injected("copilot", run_hook(event("UserPromptSubmit", memory_repo, "c1", prompt="y"), host="copilot").stdout)
    assert "Fresh entry." in again and CANARY_SUMMARY in again
    assert run_hook(event("UserPromptSubmit", memory_repo, "c1", prompt="z"), host="copilot").stdout == b""  # once
    # A compaction followed by a resume: the resume's SessionStart injects, the prompt does not again.
    run_hook(event("PreCompact", memory_repo, "c1", trigger="auto"), host="copilot")
    assert "Fresh entry." in injected("copilot", run_hook(event("SessionStart", memory_repo, "c1", source="resume"),
                                                          host="copilot").stdout)
    assert run_hook(event("UserPromptSubmit", memory_repo, "c1", prompt="w"), host="copilot").stdout == b""
    # Hosts that report the compaction with a SessionStart ignore PreCompact.
    run_hook(event("PreCompact", memory_repo, "q1", trigger="auto"), host="qwen")
    assert run_hook(event("UserPromptSubmit", memory_repo, "q1", prompt="x"), host="qwen").stdout == b""
    assert not list((project.state_dir / "agents" / "compacted").iterdir())


def test_a_prompt_hook_running_beside_the_start_hook_keeps_the_session_busy(memory_repo: Path) -> None:
    """Copilot CLI starts SessionStart and UserPromptSubmit side by side: whichever finishes last,
    the turn that is about to call the model stays busy. A flag left by another process is cleared."""
    import subprocess
    import sys

    run_hook(event("UserPromptSubmit", memory_repo, "c1", prompt="x"), host="copilot")
    run_hook(event("SessionStart", memory_repo, "c1", source="new"), host="copilot")  # finished second
    assert activity.session_busy("copilot", "c1")
    gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    activity.set_session_busy("copilot", "c2", owner_pid=int(gone.stdout))  # an earlier run of the session
    run_hook(event("SessionStart", memory_repo, "c2", source="resume"), host="copilot")
    assert activity.session_flag("copilot", "c2") is None
