"""The status line and the session-start notice: the MEMORY / MEMORY-FAIL badge as hosts show it.

Hosts with a status line (``Host.has_statusline``: Claude Code, Qwen Code, Copilot CLI from its
user settings) run ``git-memory agent statusline`` after every message; the pi extension puts its
output in pi's footer. The badge (R36) depends only on the two config files, the last extraction
status and MEMORY.md, so the line is kept in the state directory with their modification times and
sizes and recomputed only when one of them changes: an unchanged project answers without parsing
YAML or the index.

A failure line leads with its cause (``MEMORY-FAIL: model reply not JSON (m1, m2)``), cut to
``REASON_CHARS``; a recorded background failure then says how to clear it, whole. The same
badge opens the session-start notice of hosts without a status line (``notice``), next to what
the session was given (``memory: 12 entries loaded — git memory why``).
"""
from __future__ import annotations

import json
import os
from collections.abc import Callable, Mapping
from pathlib import Path

from typing import TYPE_CHECKING

from chord_git.memory.atomic import read_state_json, replace_atomically
from chord_git.memory.project import Project

if TYPE_CHECKING:
    from chord_git.config import Config
    from chord_git.memory.summary import Summary

CACHE_NAME = "statusline.json"
REASON_CHARS = 80  # of a failure's cause; the clearing hint after it is never cut
CLEAR_HINT = "clear: git memory status --clear-failure"
STATUS_NAME = "status.json"  # store.status_path: the last extraction outcome


def inputs(project: Project, env: Mapping[str, str]) -> list[Path]:
    from chord_git.config import project_config_path, user_config_path

    return [user_config_path(env), project_config_path(project.root), project.state_dir / STATUS_NAME,
            project.memory_md]


def stamp(paths: list[Path]) -> list[object]:
    out: list[object] = []
    for path in paths:
        try:
            info = os.stat(path)
        except OSError:
            out.append([str(path), None, None])
        else:
            out.append([str(path), info.st_mtime_ns, info.st_size])
    return out


def line(project: Project, compute: Callable[[], str], env: Mapping[str, str] | None = None) -> str:
    key = stamp(inputs(project, os.environ if env is None else env))
    cache = project.state_dir / CACHE_NAME
    try:
        data = read_state_json(cache)
        if isinstance(data, dict) and data.get("key") == key and isinstance(data.get("line"), str):
            return str(data["line"])
    except (OSError, ValueError):
        pass
    text = compute()
    try:
        project.state_dir.mkdir(parents=True, exist_ok=True)
        replace_atomically(cache, json.dumps({"key": key, "line": text}).encode("utf-8"), project.state_dir)
    except OSError:
        pass  # a read-only state dir only costs the cache
    return text


def shorten(reason: str, limit: int = REASON_CHARS) -> str:
    return reason if len(reason) <= limit else reason[: limit - 1] + "…"


def render(label: str, reason: str | None, *, clearable: bool) -> str:
    """``MEMORY``, ``MEMORY-FAIL: <cause>`` (with the clearing hint where ``clearable``), or
    nothing for ``off`` (pure)."""
    if label == "off":
        return ""
    if reason is None:
        return label
    line = f"{label}: {shorten(reason)}"
    return f"{line} — {CLEAR_HINT}" if clearable else line


def badge(project: Project, cfg: Config, unusable: str | None,
          refused: str | None = None) -> tuple[str, str | None]:
    """The status-bar badge and, for MEMORY-FAIL, its one-line reason.

    ``unusable`` is why MEMORY.md's managed section cannot be used (``IndexState.unusable_reason``);
    ``refused`` is why the config loader refused a file (it never holds a config value).
    """
    if refused is not None:
        return "MEMORY-FAIL", f"config: {refused}"
    if not cfg.memory.enabled or not project.is_project:
        return "off", None
    if unusable:
        return "MEMORY-FAIL", unusable
    if not cfg.extraction_pool:
        # R36: initialization cannot succeed without a model to call.
        return "MEMORY-FAIL", cfg.no_pool_reason()
    last = recorded_failure(project)
    if last is not None:
        return "MEMORY-FAIL", recorded_reason(last)
    return "MEMORY", None


def recorded_reason(last: dict[str, object]) -> str:
    """How a recorded failure is told: its cause where the run gave one, else its reason."""
    return str(last.get("cause") or last.get("reason") or "last extraction failed")


def recorded_failure(project: Project) -> dict[str, object] | None:
    """The last background extraction's failure, while it stands (not cleared, no success since)."""
    from chord_git.memory import store

    last = store.read_status(project)
    return last if last is not None and last.get("state") == "fail" else None


def badge_line(project: Project, cfg: Config | None = None, refused: str | None = None) -> str:
    """The badge for ``project``; ``cfg`` when the caller has loaded it already (``refused``: why
    the loader refused the config, in which case ``cfg`` holds the defaults)."""
    from chord_git import config as config_mod
    from chord_git.errors import ChordError
    from chord_git.memory import view

    if cfg is None:
        try:
            cfg = config_mod.load(project.root)
        except ChordError as exc:
            return render("MEMORY-FAIL", f"config: {exc}", clearable=False)
    label, reason = badge(project, cfg, view.read_index(project).unusable_reason, refused)
    recorded = recorded_failure(project) if label == "MEMORY-FAIL" else None
    clearable = recorded is not None and reason == recorded_reason(recorded)
    return render(label, reason, clearable=clearable)


def loaded_line(built: Summary) -> str:
    """What a session was given, for the person at the host (pure): ``memory: 12 entries loaded,
    3 left out — git memory why``; ``truncated`` means more lie beyond the summary budget."""
    if not built.loaded:
        return ""
    shown = built.entries_shown
    if not built.managed:
        head = "memory: MEMORY.md loaded as plain text"
    else:
        head = f"memory: {shown} entr{'y' if shown == 1 else 'ies'} loaded"
    more = []
    if built.skipped:
        more.append(f"{len(built.skipped)} left out")
    if built.truncated:
        more.append("more beyond the budget")
    return f"{head}{', ' + ', '.join(more) if more else ''} — git memory why"


def notice(badge: str, loaded: str, *, has_statusline: bool) -> str:
    """The one-line notice at session start (pure): what was loaded, led by the badge when it is
    MEMORY-FAIL and the host has no status line to show it."""
    if badge.startswith("MEMORY-FAIL") and not has_statusline:
        return f"{badge} · {loaded}" if loaded else badge
    return loaded
