"""Claude Code: settings files, hook output form, status line.

* Settings: ``.claude/settings.json`` (project, shared through git), ``.claude/settings.local.json``
  (project, personal), ``~/.claude/settings.json`` (user; ``CLAUDE_CONFIG_DIR`` moves ``~/.claude``).
* SessionStart output goes in as ``hookSpecificOutput.additionalContext``; the host records it in
  the transcript as an ``attachment`` (``hook_success`` / ``hook_additional_context``), which the
  transcript reader never takes for the user's words.
* ``SessionEnd`` arrives when a session is over (``reason``: clear, logout, prompt_input_exit,
  other), so sessions are frozen by their end event, not by a quiet period.
* One ``statusLine`` command per settings file: the MEMORY / MEMORY-FAIL badge goes there.
* A SessionStart hook's top-level ``systemMessage`` is shown to the user, not sent to the model:
  the notice of what memory the session was given goes there.
"""
from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from chord_git.agents.host import Host, home, json_context, json_context_and_message


def settings_path(scope: str, root: Path, env: Mapping[str, str]) -> Path:
    if scope == "project":
        return root / ".claude" / "settings.json"
    if scope == "local":
        return root / ".claude" / "settings.local.json"
    config_dir = env.get("CLAUDE_CONFIG_DIR")
    return (Path(config_dir) if config_dir else home(env) / ".claude") / "settings.json"


HOST = Host(name="claude-code", title="Claude Code", transcript_format="claude-code",
            settings=settings_path, render_context=json_context, freezes_when_quiet=False,
            has_statusline=True, render_notice=json_context_and_message)
