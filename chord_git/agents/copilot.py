"""GitHub Copilot CLI: hooks files, hook output form.

* Hooks: ``<repo>/.github/hooks/chord-git.json`` (project; Copilot reads every ``*.json`` there,
  and has no personal project file, so ``local`` is the same file) or ``$COPILOT_HOME/settings.json``
  (user; ``COPILOT_HOME`` defaults to ``~/.copilot``). A file we create carries ``"version": 1``.
* Copilot takes Claude Code's event names (SessionStart, UserPromptSubmit, Stop, SessionEnd) and
  matcher groups next to its own camelCase ones, and then sends snake_case payloads
  (``hook_event_name``, ``session_id``, ``transcript_path`` on Stop), so the entries are the same as
  for Claude Code. SessionEnd (``reason: "complete"``) fires in ``copilot -p`` too and carries no
  transcript path: the one Stop named is used.
* SessionStart output is read only as a **top-level** ``{"additionalContext": …}`` (the nested
  form and plain text are ignored); it arrives as a separate user message after the system
  prompt, and the session file keeps it only in the hook's ``hook.end`` event, which the transcript
  reader never takes for the user's words.
* A compaction (``/compact``, or when the context fills) is reported only before it happens
  (``PreCompact``), and no SessionStart follows it: the first prompt after it (UserPromptSubmit,
  whose top-level ``additionalContext`` Copilot appends to the prompt) gets the summary again.
* Project hooks run only in a trusted folder (``--trust-folder``, or the folder trusted once in an
  interactive session); user hooks need no trust.
* A status line: ``statusLine.command`` in the user settings (``$COPILOT_HOME/settings.json``) runs
  in the interactive footer with a JSON payload holding ``cwd`` and ``workspace.current_dir``, and
  shows what it prints: the MEMORY / MEMORY-FAIL badge, installed with ``--scope user``. Copilot
  reads no status line from a project's files (``.github/copilot/settings.json`` is ignored for
  it: 1.0.102 runs none from there), so a project install has none.
* No hook output is shown to the person: ``systemMessage`` (or ``message``) next to
  ``additionalContext`` appears neither in ``copilot -p`` nor in the interactive session, so there
  is no session-start notice.
"""
from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from chord_git.agents.host import Host, HookLayout, flat_context, home

if TYPE_CHECKING:
    from chord_git.agents.payload import HookEvent
    from chord_git.agents.settings import Changes

HOOKS_VERSION = 1
TRUST_NOTE = (
    "Copilot CLI runs a project's hooks only in a trusted folder: start `copilot` in this project "
    "and trust the folder when it asks (or pass --trust-folder). `--scope user` installs into "
    "$COPILOT_HOME/settings.json, which needs no trust, and adds the memory badge to Copilot's "
    "status line (it reads its status line from there only)."
)


def settings_path(scope: str, root: Path, env: Mapping[str, str]) -> Path:
    if scope in ("project", "local"):
        return root / ".github" / "hooks" / "chord-git.json"
    copilot_home = env.get("COPILOT_HOME")
    return (Path(copilot_home) if copilot_home else home(env) / ".copilot") / "settings.json"


def recognises(event: HookEvent) -> bool:
    """A transcript in Copilot's session-state folder."""
    path = event.transcript
    return path is not None and path.name == "events.jsonl" and path.parent.parent.name == "session-state"


def add_hooks(doc: dict[str, Any], events: Mapping[str, int], command: str, changes: Changes) -> dict[str, Any]:
    from chord_git.agents import settings

    out = settings.add_hooks(doc, events, command, changes)
    if changes.any and not doc:  # a new file: a hook file's version (an existing file keeps its own keys)
        out = {"version": HOOKS_VERSION, **out}
    return out


def remove_hooks(doc: dict[str, Any], changes: Changes) -> dict[str, Any]:
    from chord_git.agents import settings

    return settings.remove_hooks(doc, changes)


HOST = Host(name="copilot", title="Copilot CLI", transcript_format="copilot", settings=settings_path,
            render_context=flat_context, freezes_when_quiet=False, has_statusline=True,
            recognises=recognises, install_note=TRUST_NOTE, layout=HookLayout(add=add_hooks, remove=remove_hooks),
            prompt_after_compact=True, statusline_scopes=("user",))
