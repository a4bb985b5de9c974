"""Codex CLI: hooks file, hook output form, freezing.

* Hooks: ``<repo>/.codex/hooks.json`` (project; Codex has no personal project file, so ``local``
  is the same file) or ``$CODEX_HOME/hooks.json`` (user; ``CODEX_HOME`` defaults to ``~/.codex``).
  Codex runs new or changed hooks only after the user trusts them once, and project hooks only in
  a trusted project.
* SessionStart stdout goes in as extra context; the rollout records it as a ``developer``
  message, which the transcript reader never takes for the user's words. Plain text and
  ``hookSpecificOutput.additionalContext`` land in the same place (0.169.0, seen in its requests).
* A SessionStart hook's top-level ``systemMessage`` is shown in the TUI under the hook's line
  (``↳ Hook · …``) and not sent to the model: the notice of what memory the session was given goes
  there, led by MEMORY-FAIL (Codex has no status line a command can fill). ``codex exec`` does not
  print it, in its text or ``--json`` output.
* Versions before ``SessionEnd`` existed, and a session whose terminal is simply closed, never say
  that a session ended: such a session counts as frozen once its rollout has not changed for
  ``memory.freeze_after_seconds`` without a busy signal, or when another session starts in the
  project.
"""
from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from chord_git.agents.host import Host, home, json_context_and_message, plain_context

if TYPE_CHECKING:
    from chord_git.agents.payload import HookEvent

TRUST_NOTE = (
    "Codex runs new or changed hooks only after you trust them: start `codex` in this project and "
    "choose to trust the hooks when it says they need review (or use /hooks). Project hooks also "
    "need the project itself to be trusted."
)


def settings_path(scope: str, root: Path, env: Mapping[str, str]) -> Path:
    if scope in ("project", "local"):
        return root / ".codex" / "hooks.json"
    codex_home = env.get("CODEX_HOME")
    return (Path(codex_home) if codex_home else home(env) / ".codex") / "hooks.json"


def recognises(event: HookEvent) -> bool:
    """Codex's payloads carry its turn fields, or name a rollout file."""
    return ("turn_id" in event.fields or "model" in event.fields
            or (event.transcript is not None and event.transcript.name.startswith("rollout-")))


HOST = Host(name="codex", title="Codex", transcript_format="codex", settings=settings_path,
            render_context=plain_context, freezes_when_quiet=True, has_statusline=False,
            recognises=recognises, install_note=TRUST_NOTE, render_notice=json_context_and_message)
