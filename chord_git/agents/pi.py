"""pi (``@mariozechner/pi-coding-agent``): an extension file instead of hooks.

* pi has no command hooks; it loads TypeScript extensions from ``.pi/extensions/*.ts`` (project,
  **without asking**: a cloned repository runs its extensions) and ``~/.pi/agent/extensions/``
  (user; ``PI_CODING_AGENT_DIR`` moves ``~/.pi/agent``). Install writes the shim
  ``data/pi-extension.ts`` there; it forwards pi's events to ``git-memory agent hook --host pi``
  and does nothing else. There is no personal project file, so ``local`` is the project file.
* ``session_start`` becomes SessionStart, and the shim appends what it printed (plain text) to the
  system prompt of every prompt of the session; pi does not store the system prompt in the session
  file, so the injected summary can never come back as the user's words. ``session_compact``
  becomes a SessionStart with source ``compact``; ``before_agent_start`` UserPromptSubmit;
  ``agent_end`` Stop; ``session_shutdown`` (quit, and also in ``pi -p``) SessionEnd.
* pi's footer is its status line: the shim puts the output of ``git-memory agent statusline`` there
  (``ui.setStatus``) at a session's start and after each turn, and shows the session-start notice
  (what memory was loaded) with ``ui.notify``; in ``pi -p`` there is no UI, and neither is shown.
"""
from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from chord_git.agents.host import Host, home, plain_context, shim_reply

FILE_NAME = "chord-git.ts"
NOTE = ("pi loads project extensions without asking: this file only runs `git-memory agent hook`. "
        "It takes effect in the next pi session (or after /reload).")


def settings_path(scope: str, root: Path, env: Mapping[str, str]) -> Path:
    if scope in ("project", "local"):
        return root / ".pi" / "extensions" / FILE_NAME
    agent_dir = env.get("PI_CODING_AGENT_DIR")
    return (Path(agent_dir) if agent_dir else home(env) / ".pi" / "agent") / "extensions" / FILE_NAME


HOST = Host(name="pi", title="pi", transcript_format="pi", settings=settings_path,
            render_context=plain_context, freezes_when_quiet=False, has_statusline=True,
            install_note=NOTE, shim="pi-extension.ts", shim_label="extension", render_notice=shim_reply)
