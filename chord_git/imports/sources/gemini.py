"""Gemini CLI's memory: the project's private memory folder, and the section older releases'
``save_memory`` appended to the global ``GEMINI.md``.

Gemini CLI keeps per-project state in ``<home>/.gemini/tmp/<id>/`` (``<home>`` is
``$GEMINI_CLI_HOME`` or the home folder). ``<id>`` is registered, not computed: the project's
absolute path maps to it in ``.gemini/projects.json`` (a slug of the folder's name, numbered on a
collision), each such folder names its project in ``.project_root``, and older releases used the
SHA-256 of the path. Its ``memory/`` holds ``MEMORY.md`` and sibling notes the model writes.
"""
from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from pathlib import Path

from chord_git.imports import reading
from chord_git.imports.registry import Read, Where
from chord_git.imports.sources.markdown_store import read_markdown
from chord_git.imports.sources.topics import added_section, topic_items

ADDED = "Gemini Added Memories"
_REGISTRY_LIMIT = 1024 * 1024


def gemini_dir(where: Where) -> Path:
    base = where.env.get("GEMINI_CLI_HOME")
    return (Path(base) if base else where.home) / ".gemini"


def project_id(where: Where) -> str | None:
    """The project's registered id: ``projects.json``, else the folder whose marker names it."""
    root = gemini_dir(where)
    project = str(where.project)
    try:
        with open(root / "projects.json", "rb") as handle:
            registry = json.loads(handle.read(_REGISTRY_LIMIT))
        found = registry.get("projects", {}).get(project)
        if isinstance(found, str) and found and "/" not in found and found not in (".", ".."):
            return found
    except (OSError, ValueError, AttributeError):
        pass
    try:
        folders = sorted(p for p in (root / "tmp").iterdir() if p.is_dir() and not p.is_symlink())
    except OSError:
        return None
    for folder in folders:
        try:
            if (folder / ".project_root").read_text("utf-8").strip() == project:
                return folder.name
        except (OSError, UnicodeDecodeError):
            continue
    return None


def stores(where: Where) -> list[Path]:
    root = gemini_dir(where)
    legacy = hashlib.sha256(str(where.project).encode("utf-8")).hexdigest()
    found = project_id(where)
    folders = [root / "tmp" / found / "memory"] if found else []
    return [*folders, root / "tmp" / legacy / "memory", root / "GEMINI.md"]


def read(root: Path, where: Where, problems: list[reading.Problem]) -> Iterator[Read]:
    if root.name == "GEMINI.md":
        return read_markdown(root, problems, file_items=added_section(ADDED))
    return read_markdown(root, problems, recursive=False, file_items=topic_items)
