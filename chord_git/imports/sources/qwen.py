"""Qwen Code's memory: its managed auto memory for the project, the project's team memory, and the
section its ``save_memory`` appended to the global ``QWEN.md``.

The managed memory is ``<base>/projects/<key>/memory/`` (topic files in ``user/``, ``feedback/``,
``project/``, ``reference/``, and a generated ``MEMORY.md``). ``<base>`` is
``$QWEN_CODE_MEMORY_BASE_DIR``, ``$QWEN_RUNTIME_DIR``, ``$QWEN_HOME`` or ``~/.qwen``; ``<key>`` is the
git root (the nearest folder holding ``.git``; the project folder itself with
``QWEN_CODE_MEMORY_PROJECT_SCOPE=workspace``) with every character that is not an ASCII letter or
digit turned into ``-``. ``QWEN_CODE_MEMORY_LOCAL=1`` keeps it in the project's ``.qwen/memory``.
The team tier is ``<git root>/.qwen/team-memory/``, files a clone brings; the user tier
(``<base>/memories/``, the same layout) is what every session of the user's is given.
"""
from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

from chord_git.imports import reading
from chord_git.imports.registry import Read, Where
from chord_git.imports.sources.git_root import git_root
from chord_git.imports.sources.markdown_store import read_markdown
from chord_git.imports.sources.topics import added_section, topic_items

ADDED = "Qwen Added Memories"
_NOT_ALNUM = re.compile(r"[^a-zA-Z0-9]")


def base_dir(where: Where) -> Path:
    for name in ("QWEN_CODE_MEMORY_BASE_DIR", "QWEN_RUNTIME_DIR", "QWEN_HOME"):
        if where.env.get(name):
            return Path(where.env[name]).expanduser()
    return where.home / ".qwen"


def stores(where: Where) -> list[Path]:
    root = git_root(where.project, follow_worktrees=False)  # its findGitRoot stops at any ``.git``
    if where.env.get("QWEN_CODE_MEMORY_LOCAL") == "1":
        managed = where.project / ".qwen" / "memory"
    else:
        key = where.project if where.env.get("QWEN_CODE_MEMORY_PROJECT_SCOPE") == "workspace" else root
        managed = base_dir(where) / "projects" / _NOT_ALNUM.sub("-", str(key)) / "memory"
    # The user tier holds what Qwen Code gives every session, this project's included.
    return [managed, root / ".qwen" / "team-memory", base_dir(where) / "memories", where.home / ".qwen" / "QWEN.md"]


def read(root: Path, where: Where, problems: list[reading.Problem]) -> Iterator[Read]:
    if root.name == "QWEN.md":
        return read_markdown(root, problems, file_items=added_section(ADDED))
    return read_markdown(root, problems, file_items=topic_items)
