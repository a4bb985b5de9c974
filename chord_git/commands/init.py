"""``git memory init``: MEMORY.md with markers (or markers added) and the memory folders;
``--hooks`` also installs the plain git pre-commit hook, ``--remove-hooks`` takes only that hook
out again, and ``--private`` keeps memory to this clone by listing MEMORY.md and ``.chord/`` in
``.git/info/exclude`` (never ``.gitignore``, R37). Private memory takes new entries directly on
every branch (``git/branches.py``); shared memory is committed like any other file."""
from __future__ import annotations

import os
import shlex
import shutil
import sys
from pathlib import Path

from chord_git.errors import RepoError, UsageError
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


def init(project: Project, out: Output, *, hooks: bool = False, private: bool = False,
         remove_hooks: bool = False) -> int:
    if remove_hooks:
        if hooks or private:
            raise UsageError("--remove-hooks goes alone: it only removes chord-git's pre-commit hook")
        return _remove_hook(project, out)
    for flag, wanted in (("--hooks", hooks), ("--private", private)):
        if wanted and (project.repo is None or project.repo.workdir is None):
            raise RepoError(f"{flag} needs a git repository with a working tree")
    if private:
        _make_private(project, out)
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
    sharing = _sharing_line(project)
    if sharing:
        out.line(sharing)
    return 0


PRIVATE_WHY = "git memory init --private (memory kept to this clone)"


def _memory_paths(project: Project) -> list[tuple[str, bool]]:
    """(work-tree-relative path, is a folder) of MEMORY.md and ``.chord/``."""
    assert project.repo is not None and project.repo.workdir is not None
    top = project.repo.workdir.resolve()
    return [(path.resolve().relative_to(top).as_posix(), folder)
            for path, folder in ((project.memory_md, False), (project.chord_dir, True))]


def _sharing_line(project: Project) -> str | None:
    """One line: how memory is shared (committed) or kept private (``--private``)."""
    if project.repo is None or project.repo.workdir is None:
        return None
    from chord_git.git import branches, command

    md = project.relative(project.memory_md)
    if branches.private_memory(project.repo, project.memory_md):
        return (f"memory is private to this clone: git ignores {md} (see .git/info/exclude), and new "
                "entries go straight into it on every branch")
    try:
        tracked = command.tracked(project.repo.workdir, _memory_paths(project)[0][0])
    except RepoError:
        return None
    if tracked:
        return f"memory is shared: {md} is committed, so everyone on the project gets it"
    return (f"to share memory, commit {md} and .chord/; to keep it to this clone instead, run: "
            "git memory init --private")


def _make_private(project: Project, out: Output) -> None:
    """List MEMORY.md and ``.chord/`` in ``.git/info/exclude`` (those git does not ignore yet)."""
    from chord_git.git import command, exclude

    repo = project.repo
    assert repo is not None and repo.workdir is not None
    wanted = _memory_paths(project)
    already = command.ignored(repo.workdir, [rel for rel, _folder in wanted])
    lines = [exclude.pattern(rel, folder=folder) for rel, folder in wanted if rel not in already]
    if exclude.add(repo, lines, PRIVATE_WHY):
        out.line(f"listed {' and '.join(lines)} in .git/info/exclude: memory stays in this clone")
    else:
        out.line("git already ignores the memory files: memory stays in this clone")
    shared = [rel for rel, _folder in wanted if command.tracked(repo.workdir, rel)]
    if shared:
        out.note(f"{' and '.join(shared)} {'is' if len(shared) == 1 else 'are'} committed, and git keeps "
                 "tracking a committed file whatever the ignore rules say; to stop sharing memory, run "
                 f"git rm -r -q --cached -- {' '.join(shlex.quote(':/' + rel) for rel in shared)} and commit "
                 "(that deletes it for everyone else)")


def _remove_hook(project: Project, out: Output) -> int:
    from chord_git.git import hooks as hooks_mod

    if project.repo is None or project.repo.workdir is None:
        raise RepoError("--remove-hooks needs a git repository with a working tree")
    done = hooks_mod.uninstall(hooks_mod.hooks_dir(project.root))
    if done.foreign:
        out.line(f"{done.hook} is not chord-git's hook; left alone")
    elif not done.removed:
        out.line(f"no chord-git pre-commit hook in {done.hook.parent}; nothing changed")
    elif done.restored:
        out.line(f"removed chord-git's pre-commit hook; your earlier hook is back as {done.hook}")
    else:
        out.line(f"removed the pre-commit hook {done.hook}")
    return 0


def _install_hook(project: Project, out: Output) -> None:
    from chord_git.distribution.hints import tool_hint
    from chord_git.git import hooks as hooks_mod

    directory = hooks_mod.hooks_dir(project.root)
    done = hooks_mod.install(directory, running_script(), tool_hint())
    if done.chained is not None:
        out.line(f"kept your existing hook as {done.chained}; it runs first")
    verb = "updated" if done.replaced_own else "installed"
    out.line(f"{verb} the pre-commit hook {done.hook} (git memory check --staged)")
