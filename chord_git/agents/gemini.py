"""Gemini CLI: settings files, event names, hook output form.

* Settings: ``<repo>/.gemini/settings.json`` (project; Gemini has no personal project file, so
  ``local`` is the same file) or ``~/.gemini/settings.json`` (user; ``GEMINI_CLI_HOME`` moves
  the home that holds ``.gemini``). Hook time limits are in milliseconds.
* Events: ``SessionStart`` (startup, resume, clear), ``BeforeAgent`` (our UserPromptSubmit),
  ``AfterAgent`` (our Stop) and ``SessionEnd`` (exit, clear, …), all of them in ``gemini -p`` too.
* SessionStart output goes in as ``hookSpecificOutput.additionalContext``; plain stdout is only
  shown to the user. Headless, the CLI prepends it to the first prompt as
  ``<hook_context>…</hook_context>`` and records it *inside* the user message of its session file,
  which the transcript reader cuts out again.
* A hook's top-level ``systemMessage`` is "displayed immediately to the user in the terminal"
  (SessionStart: "shown at the start of the session"; its hooks reference): the notice of what memory
  the session was given, and MEMORY-FAIL, go there, since Gemini CLI has no status line a command
  can fill (its footer items are built in).
* ``PreCompress`` is not installed: 0.61.0 fires it before every turn's compression check, whether
  or not the history is then compressed, so it cannot tell a compression from a plain turn.
* Project hooks run only in a trusted folder; the first start that sees them lists them once.
"""
from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from chord_git.agents.host import Host, home, json_context, json_context_and_message

if TYPE_CHECKING:
    from chord_git.agents.payload import HookEvent

TRUST_NOTE = (
    "Gemini CLI runs project hooks only in a trusted folder: start `gemini` in this project and "
    "choose to trust the folder (or set GEMINI_CLI_TRUST_WORKSPACE=true where no one can answer, "
    "as in CI; --skip-trust does not load project hooks). The first start lists the new hooks once."
)
_EVENT_NAMES = (("UserPromptSubmit", "BeforeAgent"), ("Stop", "AfterAgent"))


def settings_path(scope: str, root: Path, env: Mapping[str, str]) -> Path:
    if scope in ("project", "local"):
        return root / ".gemini" / "settings.json"
    cli_home = env.get("GEMINI_CLI_HOME")
    return (Path(cli_home) if cli_home else home(env)) / ".gemini" / "settings.json"


def recognises(event: HookEvent) -> bool:
    """Gemini's own event names, or a session file under its chats folder."""
    if event.event in ("BeforeAgent", "AfterAgent"):
        return True
    path = event.transcript
    return path is not None and path.name.startswith("session-") and path.parent.name == "chats" \
        and ".gemini" in path.parts


HOST = Host(name="gemini", title="Gemini CLI", transcript_format="gemini", settings=settings_path,
            render_context=json_context, freezes_when_quiet=False, has_statusline=False,
            recognises=recognises, install_note=TRUST_NOTE, event_names=_EVENT_NAMES, timeout_unit=1000,
            render_notice=json_context_and_message)
