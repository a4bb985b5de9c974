"""Where a repository keeps its parts, found by reading the filesystem the way git does.

Session start (``summary``) and the background submit only need the layout, and importing
pygit2 costs more than the whole rest of those commands; ``libgit2`` stays the place for real
repository access. Layouts this reader is not sure about (``GIT_DIR`` and friends in the
environment, a ``core.worktree`` setting) return ``UNSURE`` so the caller asks libgit2.
"""
from __future__ import annotations

import os
from pathlib import Path

from chord_git.support.dataclass_lazy import dataclass


@dataclass(frozen=True)
class RepoInfo:
    """Where a repository keeps its parts. ``workdir`` is None for a bare repository."""

    git_dir: Path
    common_dir: Path
    workdir: Path | None

    @property
    def is_bare(self) -> bool:
        return self.workdir is None


class _Unsure:
    def __repr__(self) -> str:
        return "UNSURE"


UNSURE = _Unsure()
_ENV_OVERRIDES = ("GIT_DIR", "GIT_WORK_TREE", "GIT_COMMON_DIR", "GIT_CEILING_DIRECTORIES", "GIT_DISCOVERY_ACROSS_FILESYSTEM")


def _is_git_dir(path: Path) -> bool:
    return (path / "HEAD").is_file() and (path / "objects").is_dir() or (path / "commondir").is_file()


def _common_dir(git_dir: Path) -> Path:
    commondir = git_dir / "commondir"
    if commondir.is_file():
        return (git_dir / commondir.read_text().strip()).resolve()
    return git_dir


def _unusual_config(git_dir: Path) -> bool:
    """``core.worktree`` or ``core.bare`` change where the work tree is; leave those to libgit2."""
    try:
        text = (git_dir / "config").read_text("utf-8", "replace")
    except OSError:
        return False
    lowered = text.lower()
    return "worktree" in lowered and "=" in lowered or "bare = true" in lowered


def find(start: Path) -> RepoInfo | None | _Unsure:
    """The repository around ``start`` (resolved), None outside git, or UNSURE."""
    if any(os.environ.get(name) for name in _ENV_OVERRIDES):
        return UNSURE
    here = start
    while True:
        dot_git = here / ".git"
        if dot_git.is_dir():
            if not _is_git_dir(dot_git) or _unusual_config(dot_git):
                return UNSURE
            return RepoInfo(git_dir=dot_git, common_dir=_common_dir(dot_git), workdir=here)
        if dot_git.is_file():
            try:
                content = dot_git.read_text("utf-8").strip()
            except (OSError, UnicodeDecodeError):
                return UNSURE
            if not content.startswith("gitdir:"):
                return UNSURE
            git_dir = (here / content[len("gitdir:"):].strip()).resolve()
            if not _is_git_dir(git_dir):
                return UNSURE
            return RepoInfo(git_dir=git_dir, common_dir=_common_dir(git_dir), workdir=here)
        if _is_git_dir(here) and (here / "config").is_file():
            return UNSURE  # inside a bare repository or a .git directory itself
        if here.parent == here:
            return None
        here = here.parent
