"""OpenCode (``opencode-ai``): a plugin file instead of hooks, and no transcript file.

* OpenCode has no command hooks; it loads JavaScript plugins from ``.opencode/plugins/``
  (project, **without asking**: a cloned repository runs its plugins) and
  ``~/.config/opencode/plugins/`` (user; ``XDG_CONFIG_HOME`` moves ``~/.config``). Install writes
  the shim ``data/opencode-plugin.js`` there; it forwards OpenCode's events to
  ``git-memory agent hook --host opencode`` and does nothing else. There is no personal project
  file, so ``local`` is the project file.
* A session's first model call (``experimental.chat.system.transform``) becomes SessionStart, and
  the plugin adds what it printed (plain text) to the system prompt of every call of that session;
  the system prompt is not stored, so the summary can never come back as the user's words.
  ``session.compacted`` becomes a SessionStart with source ``compact``; ``chat.message``
  UserPromptSubmit.
* OpenCode reports no session end (quitting the TUI sends nothing), only ``session.idle`` after
  each turn: that is this host's Stop. Its payload carries the session's messages as OpenCode's
  client returns them, written here as the session's transcript (format ``opencode``). A working
  session never adds entries mid-way (R14): the session is frozen and handed off once OpenCode
  has exited (``Host.freezes_on_exit``: every ``opencode run``), once it has been quiet for
  ``memory.freeze_after_seconds``, or when another session starts; the per-session digests of
  ``sessions.py`` keep a resumed session from sending again what was extracted.
* OpenCode has no status line a plugin fills: the session-start notice (what memory was loaded,
  led by MEMORY-FAIL when extraction fails) is shown as a toast (``client.tui.showToast``); in
  ``opencode run`` there is no TUI, and it is not shown.
"""
from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from chord_git.agents.host import Host, home, plain_context, shim_reply

if TYPE_CHECKING:
    from chord_git.agents.payload import HookEvent

FILE_NAME = "chord-git.js"
NOTE = ("OpenCode loads project plugins without asking: this file only runs `git-memory agent hook`. "
        "It takes effect in the next OpenCode start.")


def settings_path(scope: str, root: Path, env: Mapping[str, str]) -> Path:
    if scope in ("project", "local"):
        return root / ".opencode" / "plugins" / FILE_NAME
    config = env.get("XDG_CONFIG_HOME")
    return (Path(config) if config else home(env) / ".config") / "opencode" / "plugins" / FILE_NAME


def transcript_path(state_dir: Path, session_id: str) -> Path:
    from chord_git.background.activity import session_key  # every command lists the hosts: import late

    return state_dir / "agents" / "transcripts" / f"{session_key(HOST.name, session_id)}.jsonl"


def keep_transcript(event: HookEvent, state_dir: Path) -> Path:
    """The session's messages as JSON Lines, one ``{info, parts}`` per line, replacing the last
    turn's copy whole (the user's words: readable by the owner only)."""
    from chord_git.memory.atomic import replace_atomically

    path = transcript_path(state_dir, event.session_id)
    lines = "".join(json.dumps(message, ensure_ascii=False) + "\n" for message in event.messages or ())
    path.parent.mkdir(parents=True, exist_ok=True)
    # Not fsynced: it is rewritten whole every turn, and a copy lost to a power cut is written
    # again, with everything in it, by the next turn of the session.
    replace_atomically(path, lines.encode("utf-8"), path.parent, mode=0o600, durable=False)
    return path


HOST = Host(name="opencode", title="OpenCode", transcript_format="opencode", settings=settings_path,
            render_context=plain_context, freezes_when_quiet=True, has_statusline=False,
            install_note=NOTE, shim="opencode-plugin.js", shim_label="plugin", keep_transcript=keep_transcript,
            freezes_on_exit=True, render_notice=shim_reply)
