"""Where a project's memory files and its runtime state live (R1, R2, SPEC "Runtime state").

The project root is the nearest directory at or above the working directory, up to the git
top level, that already holds ``MEMORY.md`` or ``.chord/``; otherwise the git top level itself
(or the working directory outside git). That lets a sub-project of a monorepo keep its own memory.
"""
from __future__ import annotations

import os
from pathlib import Path

from chord_git.support.dataclass_lazy import dataclass
from chord_git.errors import RepoError
from chord_git.git import layout

MEMORY_FILE = "MEMORY.md"
RECORDS_DIR = ".chord/memory/records"
PROMOTIONS_DIR = ".chord/memory/promotions"
STATE_DIR_NAME = "chord-memory"


@dataclass(frozen=True)
class Project:
    root: Path
    state_dir: Path
    repo: layout.RepoInfo | None

    @property
    def memory_md(self) -> Path:
        return self.root / MEMORY_FILE

    @property
    def chord_dir(self) -> Path:
        return self.root / ".chord"

    @property
    def memory_dir(self) -> Path:
        return self.root / ".chord" / "memory"

    @property
    def records_dir(self) -> Path:
        return self.root / RECORDS_DIR

    @property
    def promotions_dir(self) -> Path:
        return self.root / PROMOTIONS_DIR

    @property
    def is_project(self) -> bool:
        """A git work tree, or a folder that already has memory: memory never starts in a random
        folder, so outside both there is nothing to load and extraction is off."""
        return self.repo is not None or self.memory_md.exists() or self.chord_dir.is_dir()

    def relative(self, path: Path) -> str:
        """Project-root-relative POSIX path (R3): what memory files and reports show."""
        # Paths under the root as strings first: ``relative_to`` parses both paths, which was a
        # third of an unchanged check of 10,000 records. Only POSIX, where the two agree exactly.
        root, full = str(self.root), str(path)
        if os.sep == "/" and root != "/" and full.startswith(root + "/"):
            return full[len(root) + 1:]
        try:
            return path.relative_to(self.root).as_posix()
        except ValueError:
            return path.as_posix()


def state_home() -> Path:
    """``$XDG_STATE_HOME`` (default ``~/.local/state``): runtime state that belongs to no repository."""
    base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base)


def _short_hash(text: str) -> str:
    import hashlib  # rarely needed (worktrees, projects outside git): kept off the hook path

    return hashlib.sha256(text.encode("utf-8", "surrogateescape")).hexdigest()[:16]


def state_dir_for(root: Path, repo: layout.RepoInfo | None) -> Path:
    """Runtime state is never in the working tree: inside the git common dir, else XDG state."""
    if repo is None or repo.workdir is None:
        return state_home() / "chord" / _short_hash(str(root))
    base = repo.common_dir / STATE_DIR_NAME
    main_workdir = repo.common_dir.parent if repo.common_dir.name == ".git" else None
    if root == main_workdir or (root == repo.workdir and repo.git_dir == repo.common_dir):
        return base
    # Linked worktrees and sub-projects each keep their own lock, queue and status.
    return base / "projects" / _short_hash(str(root))


def _find_root(start: Path, top: Path | None) -> Path:
    here = start
    while True:
        if (here / MEMORY_FILE).exists() or (here / ".chord").is_dir():
            return here
        if top is not None and here == top:
            return top
        if here.parent == here:
            return top if top is not None else start
        here = here.parent


def discover(cwd: Path | None = None) -> Project:
    start = (cwd or Path.cwd()).resolve()
    found = layout.find(start)
    if isinstance(found, layout.RepoInfo) or found is None:
        repo = found
    else:
        # git decides the layouts the plain reader is unsure of (``GIT_DIR``, which git sets for
        # hooks in linked worktrees; ``core.worktree``): as fast as a process start, and exactly
        # git's rules. libgit2 explains what git refuses (ownership) or when git is missing.
        from chord_git.git import command

        described = command.discover(start)
        if described is not None:
            repo = layout.RepoInfo(git_dir=described[0], common_dir=described[1], workdir=described[2])
        else:
            from chord_git.git import libgit2

            repo = libgit2.discover(start)
    if repo is not None and repo.workdir is None:
        raise RepoError(f"{start}: a bare repository has no working tree to keep memory in")
    top = repo.workdir if repo is not None else None
    if top is not None and top != start and top not in start.parents:
        top = None
    root = _find_root(start, top)
    return Project(root=root, state_dir=state_dir_for(root, repo), repo=repo)
