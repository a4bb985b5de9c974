"""OpenCode has no session end: its plugin sends the conversation at the end of each turn, which
only registers the session (R14: a working session never adds entries). The session is frozen and
handed off when its host process exits, when it has been quiet long enough, or when another
session starts; each hand-off carries only what the session added since the last one
(``git-memory`` processes with the payloads the shipped plugin sends, and the real worker against
the loopback model)."""
from __future__ import annotations

import json
import stat
import time
from pathlib import Path
from typing import Any

from chord_git.agents import sessions
from chord_git.agents.opencode import transcript_path
from chord_git.background import activity, queue
from chord_git.memory import project as project_mod
from chord_git.memory.summary import MEMORY_DISCIPLINE
from testing.fake_openai import FakeOpenAI
from testing.gitutil import git, index_digest, run_cli
from tests.agents.conftest import (
    CANARY,
    CANARY_SUMMARY,
    DATA,
    PNPM_SUMMARY,
    PNPM_WORDS,
    configure,
    conversation_of,
    run_hook,
    run_hook_then_exit,
    settled,
    wait_for,
)

SESSION = "ses_dcd3299a7ffeIZKysiD54HIO8E"
LATER_WORDS = "Also: the generated client under api/gen is never edited by hand."


def messages(*turns: tuple[str, str]) -> list[dict[str, Any]]:
    """Messages shaped as OpenCode's client returns them, from the captured ones (1.18.33)."""
    user, reply = [json.loads(line) for line in (DATA / "opencode-1.18.33-hook.jsonl").read_text().splitlines()]
    out: list[dict[str, Any]] = []
    for n, (said, answered) in enumerate(turns):
        for template, text in ((user, said), (reply, answered)):
            message = json.loads(json.dumps(template))
            message["info"]["id"] += f"-{n}"
            [part] = [p for p in message["parts"] if p["type"] == "text"]
            part["text"] = text
            out.append(message)
    return out


def plugin(name: str, repo: Path, **fields: Any) -> dict[str, Any]:
    return {"hook_event_name": name, "session_id": SESSION, "cwd": str(repo), **fields}


def state(repo: Path, session: str = SESSION) -> str | None:
    found = sessions.load(project_mod.discover(repo), "opencode", session)
    return found.state if found is not None else None


def test_a_working_session_adds_nothing_until_its_host_exits(memory_repo: Path, extraction: FakeOpenAI) -> None:
    configure(extraction.base_url)
    digest = index_digest(memory_repo)
    project = project_mod.discover(memory_repo)
    start = run_hook(plugin("SessionStart", memory_repo, source="startup"), host="opencode")
    assert start.returncode == 0 and start.stderr == b""
    text = start.stdout.decode()   # plain text: the plugin adds it to the system prompt
    assert text.startswith(MEMORY_DISCIPLINE) and CANARY_SUMMARY in text
    run_hook(plugin("UserPromptSubmit", memory_repo), host="opencode")
    assert activity.session_busy("opencode", SESSION)

    # The end of a turn, from a host that is still running (this test): the session stays open,
    # so nothing can be handed to extraction (only a frozen session is).
    first = [(PNPM_WORDS, "Noted.")]
    turn = run_hook(plugin("Stop", memory_repo, reason="idle", messages=messages(*first)), host="opencode")
    assert turn.returncode == 0 and turn.stdout == b"" and turn.stderr == b""
    assert not activity.session_busy("opencode", SESSION)
    kept = transcript_path(project.state_dir, SESSION)
    assert stat.S_IMODE(kept.stat().st_mode) == 0o600   # the user's words: owner only
    registered = sessions.load(project, "opencode", SESSION)
    assert registered is not None and registered.state == "open" and registered.transcript == str(kept)
    assert queue.pending(project) == [] and extraction.requests == []

    # A second turn, then the host exits: the whole session is handed over once.
    run_hook(plugin("UserPromptSubmit", memory_repo), host="opencode")
    both = messages(*first, (LATER_WORDS, "Understood."))
    assert state(memory_repo) == "open" and queue.pending(project) == []
    last = run_hook_then_exit(plugin("Stop", memory_repo, reason="idle", messages=both), "opencode")
    assert last.returncode == 0 and last.stderr == b""
    assert wait_for(lambda: len(extraction.requests) == 1 and settled(memory_repo), timeout=120)
    said = conversation_of(extraction.requests[0].body)
    assert PNPM_WORDS in said and LATER_WORDS in said and CANARY not in said
    assert PNPM_SUMMARY in (memory_repo / "MEMORY.md").read_text(encoding="utf-8")
    log = (project.state_dir / "agents" / "watch.log").read_text(encoding="utf-8")
    assert "has exited" in log and "turn end" not in log

    # The session resumed in a new process: only what it adds now goes to extraction.
    run_hook(plugin("UserPromptSubmit", memory_repo), host="opencode")
    more = messages(*first, (LATER_WORDS, "Understood."), ("Review docs/ before release.", "Will do."))
    run_hook_then_exit(plugin("Stop", memory_repo, reason="idle", messages=more), "opencode")
    assert wait_for(lambda: len(extraction.requests) == 2 and settled(memory_repo), timeout=120)
    again = conversation_of(extraction.requests[1].body)
    assert "Review docs/ before release." in again and PNPM_WORDS not in again
    assert index_digest(memory_repo) == digest and git(memory_repo, "diff", "--cached", "--name-only") == ""


def test_another_session_starting_freezes_a_quiet_one(memory_repo: Path, extraction: FakeOpenAI) -> None:
    configure(extraction.base_url)
    project = project_mod.discover(memory_repo)
    run_hook(plugin("SessionStart", memory_repo, source="startup"), host="opencode")
    run_hook(plugin("UserPromptSubmit", memory_repo), host="opencode")
    run_hook(plugin("Stop", memory_repo, reason="idle", messages=messages((PNPM_WORDS, "Noted."))), host="opencode")
    assert state(memory_repo) == "open" and queue.pending(project) == [] and extraction.requests == []
    # A new session of the same project (this host still running): the idle one is over.
    other = {**plugin("SessionStart", memory_repo, source="startup"), "session_id": "ses_other0000000000000000000"}
    assert run_hook(other, host="opencode").returncode == 0
    assert state(memory_repo) in ("ended", "handed")
    assert wait_for(lambda: len(extraction.requests) == 1 and state(memory_repo) == "handed", timeout=120)
    assert PNPM_WORDS in conversation_of(extraction.requests[0].body)
    # The new session ends too (its host exits, having said nothing): the watcher has nothing left.
    run_hook_then_exit({**other, "hook_event_name": "Stop", "reason": "idle", "messages": []}, "opencode")
    assert wait_for(lambda: settled(memory_repo), timeout=120) and len(extraction.requests) == 1


def test_a_turn_the_plugin_could_not_read_is_reported(memory_repo: Path, extraction: FakeOpenAI) -> None:
    """OpenCode's client failed, so the payload has no messages: nothing is extracted, and the
    failure shows (MEMORY-FAIL) instead of the turn being lost silently."""
    configure(extraction.base_url)
    done = run_hook_then_exit(plugin("Stop", memory_repo, reason="idle"), "opencode")
    assert done.returncode == 0 and done.stderr == b""
    project = project_mod.discover(memory_repo)
    assert not transcript_path(project.state_dir, SESSION).exists()
    assert wait_for(lambda: settled(memory_repo) and state(memory_repo) == "failed", timeout=120)
    status = run_cli(memory_repo, "status").stdout
    assert "MEMORY-FAIL" in status and "no transcript" in status and extraction.requests == []


def test_a_kept_transcript_is_forgotten_with_its_session(memory_repo: Path) -> None:
    """Extraction off: the turn is settled at once; once the session is old enough to be forgotten,
    the conversation kept for it goes too."""
    run_hook(plugin("Stop", memory_repo, reason="idle", messages=messages((PNPM_WORDS, "Noted."))),
             host="opencode")
    project = project_mod.discover(memory_repo)
    kept = transcript_path(project.state_dir, SESSION)
    assert kept.exists()
    assert wait_for(lambda: settled(memory_repo) and state(memory_repo) == "handed", timeout=120)
    assert sessions.sweep(project, now=time.time()) == 0 and kept.exists()   # recent: kept
    assert sessions.sweep(project, now=time.time() + sessions.FORGET_AFTER_SECONDS + 60) == 1
    assert not kept.exists() and sessions.load(project, "opencode", SESSION) is None
