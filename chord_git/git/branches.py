"""Which branch a work tree is on, and whether it is the project's default branch (R33).

New memory on the default branch goes into MEMORY.md directly; on any other branch it waits in
pending files, because the servers that merge pull requests run no merge driver. The default
branch is the one the remote's HEAD names (``refs/remotes/origin/HEAD``, as ``git clone`` and
``git remote set-head`` leave it), else ``init.defaultBranch``, else ``main`` or ``master``.
HEAD and the remote's HEAD are read as files the way git writes them (a session start must not
spawn git); only ``init.defaultBranch`` asks git.

Pending files keep tracked, shared memory mergeable. Memory kept private (MEMORY.md untracked and
ignored, e.g. through ``.git/info/exclude``: ``git memory init --private``) is never merged, so it
takes new entries directly on every branch (``pending_branch``); asking git whether the file is
ignored costs one ``git check-ignore``, and only on a side branch.
"""
from __future__ import annotations

from pathlib import Path

from chord_git.errors import RepoError
from chord_git.git.layout import RepoInfo

_FALLBACK_DEFAULTS = ("main", "master")
_HEADS = "refs/heads/"


def _symbolic(path: Path, prefix: str) -> str | None:
    """The branch a symbolic ref file names under ``prefix``, or None."""
    try:
        text = path.read_text("utf-8", "replace").strip()
    except OSError:
        return None
    if not text.startswith("ref: " + prefix):
        return None
    name = text[len("ref: " + prefix):].strip()
    return name or None


def current_branch(repo: RepoInfo) -> str | None:
    """The branch HEAD is on (unborn included), or None when HEAD is detached."""
    return _symbolic(repo.git_dir / "HEAD", _HEADS)


def remote_head(repo: RepoInfo, remote: str = "origin") -> str | None:
    """The branch the remote's HEAD names, as ``git clone`` records it."""
    found = _symbolic(repo.common_dir / "refs" / "remotes" / remote / "HEAD", f"refs/remotes/{remote}/")
    if found is not None:
        return found
    # ``git pack-refs`` never packs a symbolic ref, so a missing file means it was not set.
    return None


def default_branches(repo: RepoInfo) -> tuple[str, ...]:
    """The names that count as the default branch, best first."""
    remote = remote_head(repo)
    if remote is not None:
        return (remote,)
    workdir = repo.workdir or repo.git_dir
    from chord_git.git import command  # spawns git: only when the remote does not say

    try:
        configured = command.config_value(workdir, "init.defaultBranch")
    except RepoError:  # git missing: the usual names
        configured = None
    if configured:
        return (configured.strip(),)
    return _FALLBACK_DEFAULTS


def on_side_branch(repo: RepoInfo | None) -> str | None:
    """The branch name when the work tree is on a named branch other than the default one; None on
    the default branch, with HEAD detached (CI checkouts, a rebase in progress) or outside git."""
    if repo is None:
        return None
    branch = current_branch(repo)
    if branch is None:
        return None
    return None if branch in default_branches(repo) else branch


def ref_exists(repo: RepoInfo, name: str) -> bool:
    """Whether the full ref ``name`` (``refs/heads/main``) exists, read as files the way git writes
    them: the loose ref, else a line of ``packed-refs`` (no git process on a session start)."""
    if (repo.common_dir / name).is_file():
        return True
    try:
        packed = (repo.common_dir / "packed-refs").read_bytes()
    except OSError:
        return False
    return f" {name}\n".encode("utf-8", "surrogateescape") in packed


def private_memory(repo: RepoInfo | None, memory_md: Path) -> bool:
    """Whether ``memory_md`` is private to this clone: git ignores it and does not track it. Outside
    a work tree, or when git cannot say, memory counts as shared (pending files are the safe side)."""
    if repo is None or repo.workdir is None:
        return False
    from chord_git.git import command  # spawns git

    try:
        rel = memory_md.resolve().relative_to(repo.workdir.resolve()).as_posix()
        return rel in command.ignored(repo.workdir, [rel])
    except (ValueError, RepoError, OSError):
        return False


def pending_branch(repo: RepoInfo | None, memory_md: Path) -> str | None:
    """The side branch new memory must wait on in pending files (``on_side_branch``); None also when
    memory is private, which no merge ever sees."""
    branch = on_side_branch(repo)
    if branch is None or private_memory(repo, memory_md):
        return None
    return branch
