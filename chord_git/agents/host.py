"""What chord_git needs to know about an agent host: where its settings live and how it injects."""
from __future__ import annotations

import json
import os
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from chord_git.support.dataclass_lazy import dataclass

if TYPE_CHECKING:
    from chord_git.agents.payload import HookEvent
    from chord_git.agents.settings import Changes

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
    # Whether the host shows a status line the MEMORY / MEMORY-FAIL badge goes in: a settings
    # entry that runs ``git-memory agent statusline`` (at ``statusline_at``), or for a shim host
    # the shim's own (pi's footer). A host without one gets the badge in its session-start notice.
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
    # Our event -> the host's name for it, where they differ (Gemini's BeforeAgent is our
    # UserPromptSubmit); pairs rather than a dict so that the host stays a plain frozen value.
    event_names: tuple[tuple[str, str], ...] = ()
    timeout_unit: int = 1   # the host counts hook timeouts in seconds (1) or milliseconds (1000)
    # True where a session ends when its host process does and nothing reports it (``qwen -p``,
    # ``opencode run``): the watcher freezes an open session whose host process is gone. A
    # quiet-freezing host's session is otherwise frozen when quiet or when another one starts.
    freezes_on_exit: bool = False
    # True where the host reports a compaction only before it happens (PreCompact), never with a
    # SessionStart after it, and takes context from a prompt hook (Copilot CLI): PreCompact is
    # installed too, and the first prompt after it gets the summary again.
    prompt_after_compact: bool = False
    # How our entries go into the host's file when the plain merge (``settings.py``) is not all
    # it needs; None: ``settings.add_hooks`` / ``settings.remove_hooks``.
    layout: HookLayout | None = None
    # The keys of the settings file that lead to the status line entry (Qwen Code nests it in "ui").
    statusline_at: tuple[str, ...] = ("statusLine",)
    # The install scopes whose settings file the host reads the status line from (Copilot CLI reads
    # it from its user settings alone, never from a project's files).
    statusline_scopes: tuple[str, ...] = ("project", "local", "user")
    # How the host shows the person at it a line from the SessionStart hook (the notice: what memory
    # was loaded, and MEMORY-FAIL where it has no status line): (context, notice) -> the hook's
    # stdout, holding both. None where the host has no such way (the notice is then not shown).
    render_notice: Callable[[str, str], str] | None = None

    def hook_command(self) -> str:
        return f"git-memory agent hook --host {self.name}"

    def statusline_in(self, scope: str) -> bool:
        """Whether install writes the status line entry into this scope's settings file."""
        return self.has_statusline and scope in self.statusline_scopes

    def host_event(self, ours: str) -> str:
        return dict(self.event_names).get(ours, ours)

    def our_event(self, theirs: str) -> str:
        """The event a payload's ``hook_event_name`` stands for in ``hook.py``."""
        for ours, name in self.event_names:
            if name == theirs:
                return ours
        return theirs

    def installed_events(self) -> dict[str, int]:
        """The host's event names that run our hook, each with its time limit in the host's unit."""
        events = {**EVENTS, **({"PreCompact": EVENTS["UserPromptSubmit"]} if self.prompt_after_compact else {})}
        return {self.host_event(ours): limit * self.timeout_unit for ours, limit in events.items()}


@dataclass(frozen=True)
class HookLayout:
    """A host's own merge, of the same form as ``settings.add_hooks`` / ``settings.remove_hooks``
    (Qwen Code and Copilot CLI add their file's schema version to a file chord-git writes)."""

    add: Callable[[dict[str, Any], Mapping[str, int], str, Changes], dict[str, Any]]
    remove: Callable[[dict[str, Any], Changes], dict[str, Any]]


def home(env: Mapping[str, str]) -> Path:
    return Path(env.get("HOME") or os.path.expanduser("~"))


def plain_context(text: str) -> str:
    return text + "\n" if text else ""


def flat_context(text: str) -> str:
    """Top-level ``additionalContext``: the form Copilot CLI takes (it ignores the nested one)."""
    return json.dumps({"additionalContext": text}, ensure_ascii=False) + "\n" if text else ""


def json_context(text: str) -> str:
    if not text:
        return ""
    return json.dumps({"hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": text}},
                      ensure_ascii=False) + "\n"


def shim_reply(text: str, notice: str) -> str:
    """The SessionStart reply our pi and OpenCode shims take apart: the context for the system
    prompt and the notice for the person (pi's ``ui.notify``, OpenCode's toast)."""
    return json.dumps({"context": text, "notice": notice}, ensure_ascii=False) + "\n" if text or notice else ""


def json_context_and_message(text: str, notice: str) -> str:
    """``hookSpecificOutput.additionalContext`` for the model and a top-level ``systemMessage``,
    which Claude Code, Gemini CLI, Qwen Code and Codex's TUI show to the user and do not send to
    the model."""
    out: dict[str, object] = {}
    if text:
        out["hookSpecificOutput"] = {"hookEventName": "SessionStart", "additionalContext": text}
    if notice:
        out["systemMessage"] = notice
    return json.dumps(out, ensure_ascii=False) + "\n" if out else ""
