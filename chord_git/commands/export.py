"""``git memory export TARGET [--write [FILE]]``: the index entries for another tool.

The targets are named in ``imports.registry.EXPORTS`` and written by ``imports.targets``. Entries
holding a secret are left out and counted. Nothing is staged.
"""
from __future__ import annotations

from chord_git.imports.registry import export_target
from chord_git.memory.project import Project
from chord_git.ui import Output


def export_cmd(project: Project, out: Output, target: str, *, write: str | None = None) -> int:
    """``write``: None prints; a file name or "" (the target's own place) writes."""
    return export_target(target).run(project, out, write)
