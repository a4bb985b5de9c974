"""Lines chord-git adds to the repository's own ignore file, ``info/exclude``.

Files that are one person's business (a ``--scope local`` agent install, memory kept private) are
hidden from git there, never in ``.gitignore``: that file is shared, and no command edits it
(R37). Each line we add follows a comment naming the command that added it, so that the command
undoing it removes exactly that pair, and a line the user wrote (the same pattern without our
comment) is never touched. Adding is idempotent. The text functions are pure; ``add`` and
``remove`` read the file, change it and write it back atomically only when something changed.
"""
from __future__ import annotations

import os
import stat
from collections.abc import Sequence
from pathlib import Path

from chord_git.errors import RepoError
from chord_git.git.layout import RepoInfo

MARK = "# chord-git: "
_SPECIAL = "\\*?[!# "


def exclude_file(repo: RepoInfo) -> Path:
    """``info/exclude`` of the repository (worktrees share their main repository's)."""
    return repo.common_dir / "info" / "exclude"


def pattern(rel: str, *, folder: bool = False) -> str:
    """The ignore pattern for exactly the work-tree path ``rel`` (``/``-separated, from the top):
    anchored with a leading ``/``, git's special characters escaped."""
    escaped = "".join("\\" + ch if ch in _SPECIAL else ch for ch in rel.strip("/"))
    return "/" + escaped + ("/" if folder else "")


def _pairs(lines: Sequence[str], line: str) -> list[int]:
    """Indexes of our comment lines directly followed by ``line``."""
    return [i for i in range(len(lines) - 1) if lines[i].startswith(MARK) and lines[i + 1] == line]


def with_line(text: str, line: str, why: str) -> str:
    """``text`` with ``line`` after a comment saying ``why``; unchanged when our pair is there."""
    lines = text.splitlines()
    if _pairs(lines, line):
        return text
    head = text if not text or text.endswith("\n") else text + "\n"
    return f"{head}{MARK}{why}\n{line}\n"


def without_line(text: str, line: str) -> str:
    """``text`` without our pairs for ``line`` (the user's own copy of the line stays)."""
    lines = text.splitlines(keepends=True)
    bare = [item.rstrip("\r\n") for item in lines]
    drop = {j for i in _pairs(bare, line) for j in (i, i + 1)}
    if not drop:
        return text
    return "".join(item for i, item in enumerate(lines) if i not in drop)


def listed(text: str, line: str) -> bool:
    return bool(_pairs(text.splitlines(), line))


def read(repo: RepoInfo) -> str:
    path = exclude_file(repo)
    try:
        return path.read_text(encoding="utf-8", errors="surrogateescape")
    except FileNotFoundError:
        return ""
    except OSError as exc:
        raise RepoError(f"cannot read {path}: {exc.strerror or exc}") from None


def add(repo: RepoInfo, lines: Sequence[str], why: str) -> list[str]:
    """Add our pair for each of ``lines`` that is not there yet; the lines added."""
    before = read(repo)
    text = before
    added = []
    for line in lines:
        after = with_line(text, line, why)
        if after != text:
            added.append(line)
        text = after
    if text != before:
        _write(exclude_file(repo), text)
    return added


def remove(repo: RepoInfo, lines: Sequence[str]) -> list[str]:
    """Remove our pairs for ``lines``; the lines removed."""
    before = read(repo)
    text = before
    removed = []
    for line in lines:
        after = without_line(text, line)
        if after != text:
            removed.append(line)
        text = after
    if text != before:
        _write(exclude_file(repo), text)
    return removed


def _write(path: Path, text: str) -> None:
    """Temp file beside it, fsync, rename: git never reads a half-written ignore file."""
    if path.is_symlink():
        raise RepoError(f"{path} is a symlink; not written through")
    tmp = path.parent / f".exclude.chord-{os.getpid()}.tmp"
    try:
        try:
            mode = stat.S_IMODE(path.stat().st_mode)
        except FileNotFoundError:
            mode = 0o644
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(tmp, "wb") as stream:
            stream.write(text.encode("utf-8", "surrogateescape"))
            stream.flush()
            os.fsync(stream.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except OSError as exc:
        raise RepoError(f"cannot write {path}: {exc.strerror or exc}") from None
    finally:
        if tmp.exists():
            tmp.unlink()
