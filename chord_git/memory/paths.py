"""Memory files stay inside the project: no symlink, no path that resolves elsewhere (R1, R3).

A cloned repository can ship ``MEMORY.md -> ~/.ssh/id_rsa`` or ``.chord -> /somewhere``. Read
through such a link, the summary would inject a private file into the agent's prompt and
extraction would send it to a model; written through one, extraction would write outside the
project. So every memory path (MEMORY.md, ``.chord/``, records, promotions, the project config)
must be a chain of real directories below the project root ending in a regular file, and is
opened one component at a time with ``O_NOFOLLOW``, so not even a link swapped in after a check
is followed.
"""
from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

from chord_git.errors import InputError


# Opening a FIFO would block; a regular file is checked for right after opening.
_NONBLOCK = getattr(os, "O_NONBLOCK", 0)


class UnsafePath(InputError):
    """A memory path is a symlink, resolves outside the project, or is not a regular file."""


def _parts(root: Path, path: Path) -> tuple[str, ...] | None:
    try:
        parts = path.relative_to(root).parts
    except ValueError:
        return None
    return None if any(part in ("", ".", "..") for part in parts) else parts


def escape_reason(root: Path, path: Path) -> str | None:
    """Why ``path`` is not plainly inside ``root`` (a symlinked component, or outside it), else None.

    Components that do not exist yet are fine: nothing can be followed through them.
    """
    parts = _parts(root, path)
    if parts is None:
        return "lies outside the project"
    current = root
    for number, part in enumerate(parts, start=1):
        current = current / part
        try:
            mode = os.lstat(current).st_mode
        except (FileNotFoundError, NotADirectoryError):
            return None
        except OSError as exc:
            return f"cannot be checked: {exc.strerror}"
        if stat.S_ISLNK(mode):
            where = "/".join(parts[:number])
            return f"{where} is a symlink; memory files must be plain files inside the project"
        if number < len(parts) and not stat.S_ISDIR(mode):
            return f"{'/'.join(parts[:number])} is not a directory"
    return None


def require_inside(root: Path, path: Path) -> None:
    """Refuse to read or write ``path`` unless it is plainly inside ``root``."""
    reason = escape_reason(root, path)
    if reason is not None:
        raise UnsafePath(_rel(root, path), None, f"refused: {reason}")


def memory_file(folder: Path, file_id: str, kind: str) -> Path:
    """``<folder>/<id>.md`` for an id already checked, refusing a path that leaves ``folder``
    (``.chord/memory/records`` or ``promotions``): a link, or a folder that resolves elsewhere.
    ``kind`` (record, promotion) names the file in the errors."""
    path = folder / f"{file_id}.md"
    require_inside(folder.parents[2], path)  # the project root: .chord/memory/<folder>/<id>.md
    if path.is_symlink():
        raise InputError(path, None, f"{kind} file is a symlink; refused")
    if path.resolve().parent != folder.resolve():
        raise InputError(path, None, f"{kind} path resolves outside .chord/memory/{folder.name}/")
    return path


def _rel(root: Path, path: Path) -> str:
    try:
        return path.relative_to(root).as_posix()
    except ValueError:
        return str(path)


def open_inside(root: Path, path: Path) -> int:
    """A read-only fd of the regular file ``path``, opened without following any symlink.

    Raises FileNotFoundError when it does not exist and UnsafePath when any component is a link,
    a component is not a directory, or the file is not a regular file (a FIFO would block).
    """
    parts = _parts(root, path)
    if not parts:
        raise UnsafePath(_rel(root, path), None, "refused: lies outside the project")
    nofollow = getattr(os, "O_NOFOLLOW", 0)
    if len(parts) == 1 or os.open not in os.supports_dir_fd:
        # A file at the root (MEMORY.md): the root itself is the project's, resolved. Without
        # dir_fd (Windows) every component is checked first, then the file opened without links.
        if len(parts) > 1 or not nofollow:
            require_inside(root, path)
        try:
            fd = os.open(path, os.O_RDONLY | nofollow | _NONBLOCK)
        except OSError as exc:
            _raise(root, path, exc)
        return _regular(root, path, fd)
    directory = os.open(root, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    try:
        for part in parts[:-1]:
            try:
                inner = os.open(part, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | nofollow, dir_fd=directory)
            except OSError as exc:
                _raise(root, path, exc)
            os.close(directory)
            directory = inner
        try:
            fd = os.open(parts[-1], os.O_RDONLY | nofollow | _NONBLOCK, dir_fd=directory)
        except OSError as exc:
            _raise(root, path, exc)
    finally:
        os.close(directory)
    return _regular(root, path, fd)


def _regular(root: Path, path: Path, fd: int) -> int:
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise UnsafePath(_rel(root, path), None, "refused: not a regular file")
    if _NONBLOCK:
        os.set_blocking(fd, True)
    return fd


def _raise(root: Path, path: Path, exc: OSError) -> None:
    if exc.errno in (errno.ENOENT,):
        raise FileNotFoundError(exc.errno, exc.strerror, str(path)) from None
    if exc.errno in (errno.ELOOP, errno.ENOTDIR, errno.EMLINK):
        reason = escape_reason(root, path) or "a component is a symlink or not a directory"
        raise UnsafePath(_rel(root, path), None, f"refused: {reason}") from None
    raise exc


class Reader:
    """``read_inside`` for many files (a whole-project check reads thousands): each directory is
    opened once, component by component without following links, and kept open, so every file is
    one ``openat`` with ``O_NOFOLLOW`` below a directory that cannot be swapped for a link."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._dirs: dict[tuple[str, ...], int] = {}

    def __enter__(self) -> Reader:
        return self

    def __exit__(self, *exc: object) -> None:
        for fd in self._dirs.values():
            os.close(fd)
        self._dirs.clear()

    def _directory(self, parts: tuple[str, ...]) -> int:
        found = self._dirs.get(parts)
        if found is not None:
            return found
        flags = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0)
        if parts:
            fd = os.open(parts[-1], flags | getattr(os, "O_NOFOLLOW", 0), dir_fd=self._directory(parts[:-1]))
        else:
            fd = os.open(self.root, flags)
        self._dirs[parts] = fd
        return fd

    def read(self, path: Path, limit: int | None = None) -> bytes:
        """What ``read_inside(root, path, limit)`` returns, with the same errors."""
        parts = _parts(self.root, path)
        nofollow = getattr(os, "O_NOFOLLOW", 0)
        if not parts or len(parts) == 1 or not nofollow or os.open not in os.supports_dir_fd:
            return read_inside(self.root, path, limit)
        try:
            fd = os.open(parts[-1], os.O_RDONLY | nofollow | _NONBLOCK, dir_fd=self._directory(parts[:-1]))
        except OSError as exc:
            _raise(self.root, path, exc)
        with os.fdopen(_regular(self.root, path, fd), "rb") as handle:
            return handle.read() if limit is None else handle.read(limit + 1)


def read_inside(root: Path, path: Path, limit: int | None = None) -> bytes:
    """The bytes of ``path`` (at most ``limit`` + 1 when a limit is given, so callers see "too big")."""
    fd = open_inside(root, path)
    with os.fdopen(fd, "rb") as handle:
        return handle.read() if limit is None else handle.read(limit + 1)
