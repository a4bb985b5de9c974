"""What chord_git needs to know about an agent host: where its settings live and how it injects."""
from __future__ import annotations

import json
import os
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from chord_git.support.dataclass_lazy import dataclass

if TYPE_CHECKING:
    from chord_git.agents.payload import HookEvent

# The events every host gets: session start (summary), prompt (busy), turn end (idle), session end,
# each with the host's own time limit for our command in seconds (the hook keeps far below it;
# Codex clamps a SessionEnd hook to 3 s and says so, so ours asks for no more).
EVENTS = {"SessionStart": 30, "UserPromptSubmit": 30, "Stop": 30, "SessionEnd": 3}


@dataclass(frozen=True)
class Host:
    name: str                   # as on the command line and in ``--host``
    title: str                  # as users know it
    transcript_format: str      # the transcripts/ reader for its session files
    settings: Callable[[str, Path, Mapping[str, str]], Path]   # (scope, repo root, env) -> file
    render_context: Callable[[str], str]                       # summary text -> hook stdout
    # True when a session may never report its end (a killed TUI, older versions): the watcher
    # freezes it once its transcript stops changing (memory.freeze_after_seconds).
    freezes_when_quiet: bool
    has_statusline: bool
    # Whether a hook payload comes from this host, for ``agent hook`` without ``--host``; None
    # for the host taken when no other recognises the payload (``hosts.py`` names it).
    recognises: Callable[[HookEvent], bool] | None = None
    install_note: str | None = None   # printed after an install: what the user still has to do
    # Hosts without command hooks load code instead (OpenCode plugins, pi extensions): the file
    # under ``chord_git/data/`` that install writes as ``settings``, whole, and what users call it.
    # It only forwards the host's events to ``hook_command`` (``agents/install.py``).
    shim: str | None = None
    shim_label: str = "plugin"
    # For a host whose hook payload carries the conversation (``HookEvent.messages``): writes it
    # under the state directory given and returns the file, which is then the session's transcript.
    keep_transcript: Callable[[HookEvent, Path], Path] | None = None

    def hook_command(self) -> str:
        return f"git-memory agent hook --host {self.name}"


def home(env: Mapping[str, str]) -> Path:
    return Path(env.get("HOME") or os.path.expanduser("~"))


def plain_context(text: str) -> str:
    return text + "\n" if text else ""


def json_context(text: str) -> str:
    if not text:
        return ""
    return json.dumps({"hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": text}},
                      ensure_ascii=False) + "\n"
