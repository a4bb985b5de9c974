"""OpenCode has no session end: its plugin sends the conversation at the end of each turn, and each
turn hands over only what the session added since the last one (``git-memory`` processes with the
payloads the shipped plugin sends, and the real worker against the loopback model)."""
from __future__ import annotations

import json
import stat
import time
from pathlib import Path
from typing import Any

from chord_git.agents import sessions
from chord_git.agents.opencode import transcript_path
from chord_git.background import activity
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


def test_each_turn_hands_over_what_it_added(memory_repo: Path, extraction: FakeOpenAI) -> None:
    configure(extraction.base_url)
    digest = index_digest(memory_repo)
    start = run_hook(plugin("SessionStart", memory_repo, source="startup"), host="opencode")
    assert start.returncode == 0 and start.stderr == b""
    text = start.stdout.decode()   # plain text: the plugin adds it to the system prompt
    assert text.startswith(MEMORY_DISCIPLINE) and CANARY_SUMMARY in text
    run_hook(plugin("UserPromptSubmit", memory_repo), host="opencode")
    assert activity.session_busy("opencode", SESSION)

    first = [(PNPM_WORDS, "Noted.")]
    end = run_hook(plugin("SessionEnd", memory_repo, reason="idle", messages=messages(*first)), host="opencode")
    assert end.returncode == 0 and end.stdout == b"" and end.stderr == b""
    assert not activity.session_busy("opencode", SESSION)
    project = project_mod.discover(memory_repo)
    kept = transcript_path(project.state_dir, SESSION)
    assert stat.S_IMODE(kept.stat().st_mode) == 0o600   # the user's words: owner only
    registered = sessions.load(project, "opencode", SESSION)
    assert registered is not None and registered.transcript == str(kept)
    assert wait_for(lambda: len(extraction.requests) == 1 and settled(memory_repo), timeout=120)
    said = conversation_of(extraction.requests[0].body)
    assert PNPM_WORDS in said and CANARY not in said
    assert PNPM_SUMMARY in (memory_repo / "MEMORY.md").read_text(encoding="utf-8")

    # The next turn of the same session: only its own words go to extraction.
    run_hook(plugin("UserPromptSubmit", memory_repo), host="opencode")
    assert sessions.load(project, "opencode", SESSION).state == "open"  # type: ignore[union-attr]
    both = messages(*first, (LATER_WORDS, "Understood."))
    run_hook(plugin("SessionEnd", memory_repo, reason="idle", messages=both), host="opencode")
    assert wait_for(lambda: len(extraction.requests) == 2 and settled(memory_repo), timeout=120)
    again = conversation_of(extraction.requests[1].body)
    assert LATER_WORDS in again and PNPM_WORDS not in again

    # An idle turn with nothing new sends nothing.
    run_hook(plugin("SessionEnd", memory_repo, reason="idle", messages=both), host="opencode")
    assert wait_for(lambda: settled(memory_repo) and sessions.load(project, "opencode", SESSION).state == "handed",  # type: ignore[union-attr]
                    timeout=120)
    assert len(extraction.requests) == 2
    assert index_digest(memory_repo) == digest and git(memory_repo, "diff", "--cached", "--name-only") == ""


def test_a_turn_the_plugin_could_not_read_is_reported(memory_repo: Path, extraction: FakeOpenAI) -> None:
    """OpenCode's client failed, so the payload has no messages: nothing is extracted, and the
    failure shows (MEMORY-FAIL) instead of the turn being lost silently."""
    configure(extraction.base_url)
    done = run_hook(plugin("SessionEnd", memory_repo, reason="idle"), host="opencode")
    assert done.returncode == 0 and done.stderr == b""
    project = project_mod.discover(memory_repo)
    assert not transcript_path(project.state_dir, SESSION).exists()
    assert wait_for(lambda: settled(memory_repo) and sessions.load(project, "opencode", SESSION).state == "failed",  # type: ignore[union-attr]
                    timeout=120)
    status = run_cli(memory_repo, "status").stdout
    assert "MEMORY-FAIL" in status and "no transcript" in status and extraction.requests == []


def test_a_kept_transcript_is_forgotten_with_its_session(memory_repo: Path) -> None:
    """Extraction off: the turn is settled at once; once the session is old enough to be forgotten,
    the conversation kept for it goes too."""
    run_hook(plugin("SessionEnd", memory_repo, reason="idle", messages=messages((PNPM_WORDS, "Noted."))),
             host="opencode")
    project = project_mod.discover(memory_repo)
    kept = transcript_path(project.state_dir, SESSION)
    assert kept.exists()
    assert wait_for(lambda: settled(memory_repo) and sessions.load(project, "opencode", SESSION).state == "handed",  # type: ignore[union-attr]
                    timeout=120)
    assert sessions.sweep(project, now=time.time()) == 0 and kept.exists()   # recent: kept
    assert sessions.sweep(project, now=time.time() + sessions.FORGET_AFTER_SECONDS + 60) == 1
    assert not kept.exists() and sessions.load(project, "opencode", SESSION) is None
