"""The git root a host keys its per-project memory by: the nearest folder holding ``.git``; a
linked worktree's is its main checkout's (the ``.git`` file names ``<main>/.git/worktrees/<name>``)."""
from __future__ import annotations

from pathlib import Path

_GITDIR = "gitdir:"


def git_root(project: Path, *, follow_worktrees: bool = True) -> Path:
    for folder in (project, *project.parents):
        marker = folder / ".git"
        if marker.is_dir():
            return folder
        if marker.is_file():
            if not follow_worktrees:
                return folder
            try:
                line = marker.read_text("utf-8", "replace").splitlines()[0]
            except (OSError, IndexError):
                return folder
            if not line.startswith(_GITDIR):
                return folder
            target = Path(line[len(_GITDIR):].strip())
            target = target if target.is_absolute() else (folder / target)
            parts = target.parts
            if len(parts) >= 3 and parts[-2] == "worktrees" and parts[-3] == ".git":
                return Path(*parts[:-3])
            return folder
    return project
