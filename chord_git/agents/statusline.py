"""The status line, cached by the files it depends on.

Claude Code runs its ``statusLine`` command after every message. The badge (R36) depends only on
the two config files, the last extraction status and MEMORY.md, so the line is kept in the state
directory with their modification times and sizes and recomputed only when one of them changes:
an unchanged project answers without parsing YAML or the index.
"""
from __future__ import annotations

import json
import os
from collections.abc import Callable, Mapping
from pathlib import Path

from chord_git.memory.atomic import read_state_json, replace_atomically
from chord_git.memory.project import Project

CACHE_NAME = "statusline.json"
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
