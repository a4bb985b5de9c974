"""Staged changes read through the ``git`` command, for repositories pygit2 cannot read.

libgit2 refuses split indexes (``link``), sparse indexes (``sdir``) and sha256 object formats;
git itself reads them all, and honours ``GIT_INDEX_FILE`` without help. ``libgit2`` falls back to
this module only then, so the hook keeps working on those repositories at a few extra
milliseconds per file. The plain data types both paths return live in ``changes``.

It also holds the few repository settings the tool reads or writes through git itself: a config
value in the repository's own config file, attributes, and the files git lists.
"""
from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path

from chord_git.errors import RepoError
from chord_git.git.changes import AddedLines, FileChange, StagedChanges, line_text


def _run(workdir: Path, *args: str) -> bytes:
    try:
        done = subprocess.run(["git", *args], cwd=workdir, capture_output=True, check=False)
    except OSError as exc:
        raise RepoError(f"cannot run git: {exc.strerror}") from None
    if done.returncode != 0:
        message = done.stderr.decode("utf-8", "replace").strip().splitlines()
        raise RepoError(f"git {args[0]} failed: {message[0] if message else done.returncode}")
    return done.stdout


def _raw_entries(workdir: Path) -> list[tuple[int, str, str, str]]:
    """(new mode, new blob id, status letter, path) of each staged change, renames off."""
    out = _run(workdir, "diff", "--cached", "--raw", "-z", "--no-abbrev", "--no-renames", "--no-ext-diff")
    fields = out.split(b"\0")
    entries = []
    for head, raw_path in zip(fields[0::2], fields[1::2]):
        if not head.startswith(b":"):
            continue
        _old_mode, new_mode, _old_id, new_id, status = head[1:].decode().split(" ")
        entries.append((int(new_mode, 8), new_id, status[:1], raw_path.decode("utf-8", "surrogateescape")))
    return entries


def parse_added(diff: bytes) -> tuple[bool, AddedLines]:
    """(binary?, added lines) from one file's ``git diff -U0`` output."""
    added: list[tuple[int, str]] = []
    in_hunk = False
    number = 0
    for raw in diff.split(b"\n"):
        if raw.startswith(b"@@ "):
            in_hunk = True
            new = raw.split(b" ")[2]  # "+start[,count]"
            number = int(new[1:].split(b",")[0])
        elif not in_hunk:
            if raw.startswith(b"Binary files ") or raw == b"GIT binary patch":
                return True, ()
        elif raw.startswith(b"+"):
            added.append((number, line_text(raw[1:])))
            number += 1
        elif raw.startswith(b"diff --git "):
            in_hunk = False
    return False, tuple(added)


def staged_changes(workdir: Path, wanted: Callable[[str], bool]) -> StagedChanges:
    """The staged changes to ``wanted`` paths, through ``git diff --cached``."""
    files = []
    for mode, blob_id, status, path in _raw_entries(workdir):
        if status == "D" or not wanted(path):
            continue
        if mode & 0o170000 != 0o100000:
            files.append(FileChange(path, mode, False, ()))
            continue
        diff = _run(workdir, "diff", "--cached", "-U0", "--no-color", "--no-ext-diff", "--no-textconv",
                    "--no-renames", "--", f":(literal){path}")
        binary, added = parse_added(diff)
        data = _run(workdir, "cat-file", "blob", blob_id)
        files.append(FileChange(path, mode, binary, added, data))

    listed: set[str] | None = None

    def contains(path: str) -> bool:
        nonlocal listed
        if listed is None:
            out = _run(workdir, "ls-files", "-z", "--cached", "--", ":(glob)**/.chord/memory/**")
            listed = {p.decode("utf-8", "surrogateescape") for p in out.split(b"\0") if p}
        return path in listed

    return StagedChanges(tuple(files), contains, backend="git")


def discover(start: Path) -> tuple[Path, Path, Path | None] | None:
    """(git dir, common dir, work tree or None) from ``git rev-parse``, or None outside git."""
    try:
        done = subprocess.run(
            ["git", "rev-parse", "--absolute-git-dir", "--git-common-dir", "--is-bare-repository",
             "--show-toplevel"],
            cwd=start, capture_output=True, text=True, check=False,
        )
    except OSError:
        return None
    lines = done.stdout.splitlines()
    if done.returncode != 0 and len(lines) < 3:
        return None
    git_dir = Path(lines[0])
    common = Path(lines[1]) if Path(lines[1]).is_absolute() else (start / lines[1])
    workdir = None if lines[2] == "true" or len(lines) < 4 else Path(lines[3])
    return git_dir.resolve(), common.resolve(), workdir.resolve() if workdir else None


# ---------------------------------------------------------------------------- repository settings
def set_local_config(workdir: Path, key: str, value: str) -> None:
    """Write ``key`` to the repository's own config (``.git/config``, shared by its worktrees)."""
    _run(workdir, "config", "--local", key, value)


def local_config(workdir: Path, key: str) -> str | None:
    try:
        done = subprocess.run(["git", "config", "--local", "--get", key], cwd=workdir,
                              capture_output=True, check=False)
    except OSError as exc:
        raise RepoError(f"cannot run git: {exc.strerror}") from None
    return done.stdout.decode("utf-8", "surrogateescape").rstrip("\n") if done.returncode == 0 else None


def listed_files(workdir: Path, name: str) -> list[str]:
    """Tracked and untracked, not ignored files called ``name`` at any depth, top-level relative."""
    out = _run(workdir, "ls-files", "-z", "--cached", "--others", "--exclude-standard", "--",
               f":(glob)**/{name}")
    return sorted({p.decode("utf-8", "surrogateescape") for p in out.split(b"\0") if p})


def attribute(workdir: Path, name: str, paths: list[str]) -> dict[str, str]:
    """The value of attribute ``name`` for each path ("unspecified", "set", "unset" or a value)."""
    if not paths:
        return {}
    out = _run(workdir, "check-attr", "-z", name, "--", *paths)
    fields = out.split(b"\0")
    return {path.decode("utf-8", "surrogateescape"): value.decode("utf-8", "surrogateescape")
            for path, _attr, value in zip(fields[0::3], fields[1::3], fields[2::3])}
