"""Installing the plain git pre-commit hook (``git memory init --hooks``).

The hook is the same script as the repository's ``hooks/pre-commit``, with the path of the
``git-memory`` that installed it written in, so GUI clients that run hooks with a short PATH
still find it, and the command that installs that copy of chord-git (``distribution.hints``) in
place of the ``OWNER/chord-git`` placeholder of its message. A hook that is already there and is
not ours is kept: it moves to ``pre-commit.before-chord`` and our hook runs it first, with the
same arguments. Installing again replaces only our own hook. ``git memory init --remove-hooks``
(``uninstall``) takes it out again: it deletes only our hook, and puts the chained one back in its
place.
"""
from __future__ import annotations

import os
import shlex
import subprocess
from importlib import resources
from pathlib import Path

from chord_git.support.dataclass_lazy import dataclass
from chord_git.errors import RepoError

MARKER = "# chord-git pre-commit hook"
CHAINED = "pre-commit.before-chord"
_FALLBACK_LINE = "installed_with=''"
_HINT_LINE = "install_hint="  # the line's start; the template's value names OWNER/chord-git


@dataclass(frozen=True)
class Installed:
    hook: Path
    chained: Path | None  # where an existing foreign hook was moved, if one was
    replaced_own: bool  # an earlier copy of our hook was updated


def hooks_dir(workdir: Path) -> Path:
    """Where git runs hooks from for this repository: honours ``core.hooksPath`` and worktrees."""
    try:
        done = subprocess.run(["git", "rev-parse", "--git-path", "hooks"], cwd=workdir,
                              capture_output=True, text=True, check=False)
    except OSError as exc:
        raise RepoError(f"cannot run git: {exc.strerror}") from None
    if done.returncode != 0:
        raise RepoError("--hooks needs a git repository with a working tree")
    return (workdir / done.stdout.strip()).resolve()


def template() -> str:
    return resources.files("chord_git").joinpath("data/pre-commit-hook").read_text(encoding="utf-8")


def render(executable: Path | None, install_hint: str | None = None) -> str:
    """The hook text, with ``executable`` as the git-memory to use first and ``install_hint`` as
    the command its message names when git-memory is gone (each if given)."""
    text = template()
    if executable is not None:
        text = text.replace(_FALLBACK_LINE, f"installed_with={shlex.quote(str(executable))}", 1)
    if install_hint is not None:
        lines = text.split("\n")
        at = next(i for i, line in enumerate(lines) if line.startswith(_HINT_LINE))
        lines[at] = _HINT_LINE + shlex.quote(install_hint)
        text = "\n".join(lines)
    return text


def is_ours(path: Path) -> bool:
    try:
        head = path.read_bytes()[:512]
    except OSError:
        return False
    return MARKER.encode() in head


def install(directory: Path, executable: Path | None, install_hint: str | None = None) -> Installed:
    """Write the pre-commit hook into ``directory``, keeping a foreign hook as the chained one."""
    directory.mkdir(parents=True, exist_ok=True)
    hook = directory / "pre-commit"
    chained = directory / CHAINED
    moved: Path | None = None
    own = False
    if hook.exists() or hook.is_symlink():
        if is_ours(hook) and not hook.is_symlink():
            own = True
        elif chained.exists() or chained.is_symlink():
            raise RepoError(f"{hook} is not chord-git's hook and {chained.name} already exists; "
                            "merge them by hand, then run this again")
        else:
            os.replace(hook, chained)
            moved = chained
    tmp = directory / f".pre-commit.chord-{os.getpid()}.tmp"
    tmp.write_text(render(executable, install_hint), encoding="utf-8")
    tmp.chmod(0o755)
    os.replace(tmp, hook)
    return Installed(hook=hook, chained=moved, replaced_own=own)


@dataclass(frozen=True)
class Removed:
    hook: Path
    removed: bool  # our hook was there and is gone
    restored: bool  # the hook that was there before ours is back in its place
    foreign: bool  # the hook there is not ours: left alone


def uninstall(directory: Path) -> Removed:
    """Delete our pre-commit hook from ``directory``; the chained hook (if any) takes its place."""
    hook = directory / "pre-commit"
    chained = directory / CHAINED
    if not (hook.exists() or hook.is_symlink()):
        return Removed(hook, removed=False, restored=False, foreign=False)
    if hook.is_symlink() or not is_ours(hook):
        return Removed(hook, removed=False, restored=False, foreign=True)
    if chained.exists() or chained.is_symlink():
        os.replace(chained, hook)
        return Removed(hook, removed=True, restored=True, foreign=False)
    hook.unlink()
    return Removed(hook, removed=True, restored=False, foreign=False)
