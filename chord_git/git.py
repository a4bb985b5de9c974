"""All pygit2 access lives here; the rest of the package sees plain paths and bytes.

Nothing in this module writes to the index, the object database or the refs: R37 forbids
staging and committing, and reads must leave ``.git/index`` byte-identical.
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import pygit2

from chord_git.errors import RepoError


@dataclass(frozen=True)
class RepoInfo:
    """Where a repository keeps its parts. ``workdir`` is None for a bare repository."""

    git_dir: Path
    common_dir: Path
    workdir: Path | None

    @property
    def is_bare(self) -> bool:
        return self.workdir is None


def _open(path: str) -> pygit2.Repository:
    try:
        return pygit2.Repository(path)
    except pygit2.GitError as exc:
        message = str(exc).splitlines()[0] if str(exc) else "cannot open repository"
        if "owned by" in message:
            raise RepoError(f"{path}: {message} (add it to git's safe.directory)") from None
        if "extension" in message:
            raise RepoError(f"{path}: {message} (this index format is not supported)") from None
        raise RepoError(f"{path}: {message}") from None


def open_repo(start: Path) -> pygit2.Repository | None:
    """The repository containing ``start``, or None outside git."""
    found = pygit2.discover_repository(str(start))
    if found is None:
        return None
    return _open(found)


def discover(start: Path) -> RepoInfo | None:
    repo = open_repo(start)
    if repo is None:
        return None
    git_dir = Path(repo.path).resolve()
    # pygit2 has no accessor for the common dir; a linked worktree names it in ``commondir``.
    common_dir = git_dir
    commondir_file = git_dir / "commondir"
    if commondir_file.is_file():
        common_dir = (git_dir / commondir_file.read_text().strip()).resolve()
    workdir = Path(repo.workdir).resolve() if repo.workdir else None
    return RepoInfo(git_dir=git_dir, common_dir=common_dir, workdir=workdir)


def index_path(repo_info: RepoInfo) -> Path:
    """The index file git's hooks mean: ``GIT_INDEX_FILE`` when git sets it (``commit -a``)."""
    env_index = os.environ.get("GIT_INDEX_FILE")
    if env_index:
        return Path(env_index) if os.path.isabs(env_index) else Path.cwd() / env_index
    return repo_info.git_dir / "index"
