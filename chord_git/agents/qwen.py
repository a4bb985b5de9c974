"""Qwen Code: settings files, hook output form, the end of a turn as the end of what was said.

* Settings: ``<repo>/.qwen/settings.json`` (project; no personal project file, so ``local`` is
  the same file) or ``~/.qwen/settings.json`` (user). Hooks use Claude Code's event names and
  matcher groups; time limits are in seconds.
* SessionStart output (``hookSpecificOutput.additionalContext``) goes at the end of the system
  prompt, inside ``<qwen:session-start-context hidden="true">``, and is not written to the session
  file. Qwen fires SessionStart again with ``source: "compact"`` after it compacted the history
  and puts the new output in place of the old, so memory survives compaction.
* ``SessionEnd`` fires only when an interactive session is quit (and Qwen does not wait for a slow
  hook); ``qwen -p`` never sends it. A working session never adds entries mid-way (R14), so a
  turn's end only registers the session: it is frozen and handed off once its host process has
  exited (``Host.freezes_on_exit``: every ``qwen -p``), once it has been quiet for
  ``memory.freeze_after_seconds``, or when another session starts.
* A status line: ``ui.statusLine`` (``{"type": "command", "command": …}``, its docs'
  features/status-line.md) runs a command with a JSON payload holding ``workspace.current_dir``, as
  Claude Code's does, and shows its first lines in the footer: the MEMORY / MEMORY-FAIL badge.
* A hook's top-level ``systemMessage`` is shown to the user (a common output field, its docs'
  features/hooks.md): the notice of what memory the session was given goes there.
* An installed file carries ``"$version": 4``: Qwen adds the key to a project settings file that
  lacks it, which would show as a change nobody made.
* Folder trust is off by default, so project hooks run without a prompt; where a user turned it
  on, the project must be trusted first.
"""
from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from chord_git.agents.host import Host, HookLayout, home, json_context, json_context_and_message

if TYPE_CHECKING:
    from chord_git.agents.payload import HookEvent
    from chord_git.agents.settings import Changes

# Qwen rewrites a project settings file without its schema version, adding the key (and the work
# tree shows a change nobody made): a file we write carries it already.
SETTINGS_VERSION = 4

TRUST_NOTE = (
    "Qwen Code runs project hooks at once unless folder trust is on (security.folderTrust.enabled); "
    "then trust this folder when Qwen asks. A session is extracted once it has ended: when Qwen "
    "exits, after memory.freeze_after_seconds without a turn, or when another session starts."
)


def settings_path(scope: str, root: Path, env: Mapping[str, str]) -> Path:
    if scope in ("project", "local"):
        return root / ".qwen" / "settings.json"
    return home(env) / ".qwen" / "settings.json"


def recognises(event: HookEvent) -> bool:
    """A session file under Qwen's projects folder."""
    path = event.transcript
    return path is not None and ".qwen" in path.parts and path.parent.name == "chats"


def add_hooks(doc: dict[str, Any], events: Mapping[str, int], command: str, changes: Changes) -> dict[str, Any]:
    from chord_git.agents import settings

    out = settings.add_hooks(doc, events, command, changes)
    if changes.any and "$version" not in out:
        out["$version"] = SETTINGS_VERSION
    return out


def remove_hooks(doc: dict[str, Any], changes: Changes) -> dict[str, Any]:
    from chord_git.agents import settings

    return settings.remove_hooks(doc, changes)


HOST = Host(name="qwen", title="Qwen Code", transcript_format="qwen", settings=settings_path,
            render_context=json_context, freezes_when_quiet=True, has_statusline=True,
            recognises=recognises, install_note=TRUST_NOTE, freezes_on_exit=True,
            layout=HookLayout(add=add_hooks, remove=remove_hooks), statusline_at=("ui", "statusLine"),
            render_notice=json_context_and_message)
