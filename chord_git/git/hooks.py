"""Installing the plain git pre-commit hook (``git memory init --hooks``).

The hook is the same script as the repository's ``hooks/pre-commit``, with the path of the
``git-memory`` that installed it written in, so GUI clients that run hooks with a short PATH
still find it. A hook that is already there and is not ours is kept: it moves to
``pre-commit.before-chord`` and our hook runs it first, with the same arguments. Installing
again replaces only our own hook.
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


def render(executable: Path | None) -> str:
    """The hook text, with ``executable`` as the git-memory to use first (if given)."""
    text = template()
    if executable is None:
        return text
    return text.replace(_FALLBACK_LINE, f"installed_with={shlex.quote(str(executable))}", 1)


def is_ours(path: Path) -> bool:
    try:
        head = path.read_bytes()[:512]
    except OSError:
        return False
    return MARKER.encode() in head


def install(directory: Path, executable: Path | None) -> Installed:
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
    tmp.write_text(render(executable), encoding="utf-8")
    tmp.chmod(0o755)
    os.replace(tmp, hook)
    return Installed(hook=hook, chained=moved, replaced_own=own)
