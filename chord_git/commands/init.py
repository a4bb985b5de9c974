"""``git memory init``: MEMORY.md with markers (or markers added) and the memory folders;
``--hooks`` also installs the plain git pre-commit hook."""
from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

from chord_git.errors import RepoError
from chord_git.memory import index_file, paths, store
from chord_git.memory.project import Project
from chord_git.ui import Output

_SCRIPTS = ("git-memory", "chord-git")


def running_script() -> Path | None:
    """The ``git-memory`` (or ``chord-git``) script running now, as an absolute path."""
    invoked = Path(sys.argv[0]).name if sys.argv and sys.argv[0] else ""
    if invoked in _SCRIPTS:
        found = sys.argv[0] if os.sep in sys.argv[0] else shutil.which(sys.argv[0])
        if found and os.path.isfile(found):
            return Path(os.path.abspath(found))
    for name in _SCRIPTS:
        beside = Path(sys.executable).parent / name
        if beside.is_file():
            return beside
    return None


def init(project: Project, out: Output, *, hooks: bool = False) -> int:
    if hooks and (project.repo is None or project.repo.workdir is None):
        raise RepoError("--hooks needs a git repository with a working tree")
    existed = project.memory_md.exists()
    for folder in (project.records_dir, project.promotions_dir):
        paths.require_inside(project.root, folder)  # never create folders through a symlink
        folder.mkdir(parents=True, exist_ok=True)
    result = store.apply_delta(project, index_file.IndexDelta(), ensure_markers=True)
    rel = project.relative(project.memory_md)
    if not existed:
        out.line(f"created {rel} with a managed section")
    elif result.changed:
        out.line(f"added the managed section markers at the end of {rel}")
    else:
        out.line(f"{rel} already has a managed section")
    out.line(f"memory folders: {project.relative(project.records_dir)}/, {project.relative(project.promotions_dir)}/")
    if hooks:
        _install_hook(project, out)
    out.line("nothing was staged; memory files are ordinary working-tree changes")
    return 0


def _install_hook(project: Project, out: Output) -> None:
    from chord_git.git import hooks as hooks_mod

    directory = hooks_mod.hooks_dir(project.root)
    done = hooks_mod.install(directory, running_script())
    if done.chained is not None:
        out.line(f"kept your existing hook as {done.chained}; it runs first")
    verb = "updated" if done.replaced_own else "installed"
    out.line(f"{verb} the pre-commit hook {done.hook} (git memory check --staged)")
