"""Reading a file at a moment when no one is writing it (R35): leases, and a fallback without them.

An editor that saves in place truncates the file and then writes it, keeping the same inode; a
read in between sees an empty or partial file. A read lease (``F_SETLEASE``) can only be taken
while no process has the file open for writing, and while it is held, a writer's ``open`` waits
until it is released: reading under a lease is reading a complete file. Where leases cannot be
used (another owner's file, a network file system), a read that looks like a save caught half
way is repeated until the file's size and mtime stop changing: for ``STALL_SECONDS`` when the
read is empty, cut short or without its markers, since the writer may be paused between its
truncate and its write. A save paused longer than that, while a memory write runs, is the one
case this cannot tell from a finished save (README, ``status``).
"""
from __future__ import annotations

import errno
import os
import signal
import stat
import time
from collections.abc import Callable
from pathlib import Path

from chord_git.errors import LockTimeout
from chord_git.memory import index_file, paths

WRITER_TIMEOUT = 60.0  # how long a file may stay open for writing by someone else
SETTLE_SECONDS = 0.3  # without leases: unchanged size and mtime for this long counts as settled
# Without leases, a read that looks half saved is trusted only once unchanged this long: an editor
# paused between truncating the file and writing it looks exactly like a finished save.
STALL_SECONDS = 2.0
F_SETSIG = 10
F_SETLEASE = 1024
F_GETLEASE = 1025


def lease(fd: int) -> bool | None:
    """Take a read lease: True when taken, False when someone has the file open for writing,
    None where leases cannot be used. A writer opening the file meanwhile waits for ``unlease``;
    its notification goes to SIGURG, which is ignored by default (SIGIO would end the process)."""
    try:
        import fcntl  # deferred: read-only commands run where there is none (Windows)
    except ImportError:
        return None
    try:
        fcntl.fcntl(fd, F_SETSIG, signal.SIGURG)
        fcntl.fcntl(fd, F_SETLEASE, fcntl.F_RDLCK)
    except OSError as exc:
        return False if exc.errno == errno.EAGAIN else None
    return True


def unlease(fd: int) -> None:
    import fcntl

    try:
        fcntl.fcntl(fd, F_SETLEASE, fcntl.F_UNLCK)
    except OSError:
        pass


def read_fd(fd: int) -> bytes:
    chunks: list[bytes] = []
    offset = 0
    while True:
        chunk = os.pread(fd, 1 << 20, offset)
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)
        offset += len(chunk)


def _signature(fd: int) -> tuple[int, int, int]:
    info = os.fstat(fd)
    return info.st_ino, info.st_size, info.st_mtime_ns


class Leased:
    """A file's bytes and the fd they were read through, still open and read-leased.

    Kept until ``release``: as long as ``unbroken`` holds, no one has opened the file for writing
    since the read, so a writer that swaps the file afterwards needs no second read to know what
    it replaces. A writer opening it meanwhile waits for ``release`` (at most the kernel's
    ``lease-break-time``, 45 s by default, after which ``unbroken`` turns False).
    """

    def __init__(self, fd: int, data: bytes) -> None:
        self.fd = fd
        self.data = data

    @property
    def released(self) -> bool:
        return self.fd < 0

    def unbroken(self) -> bool:
        import fcntl

        return not self.released and fcntl.fcntl(self.fd, F_GETLEASE) == fcntl.F_RDLCK

    def release(self) -> None:
        if self.fd >= 0:
            unlease(self.fd)
            os.close(self.fd)
            self.fd = -1


def hold(opener: Callable[[], int], *, suspicious: Callable[[bytes], bool] = lambda _data: False,
         timeout: float = WRITER_TIMEOUT, name: str = "a memory file",
         settle: float = SETTLE_SECONDS) -> Leased | bytes | None:
    """The file read at a moment when no one is writing it; None when it does not exist.

    ``opener`` returns a read-only fd (it raises FileNotFoundError for a missing file). With
    leases, a ``Leased`` whose lease the caller releases; without them, the bytes, a
    ``suspicious`` read being repeated (read again at each change) until size and mtime have
    been stable for ``settle`` seconds (at most ``timeout``). ``name`` is the file as an error
    names it.
    """
    deadline = time.monotonic() + timeout
    delay = 0.002
    while True:
        try:
            fd = opener()
        except FileNotFoundError:
            return None
        leased = lease(fd)
        if leased:
            try:
                return Leased(fd, read_fd(fd))
            except BaseException:
                unlease(fd)
                os.close(fd)
                raise
        try:
            if leased is None:
                data = read_fd(fd)
                if not suspicious(data):
                    return data
                if _settled(fd, deadline, settle):
                    return read_fd(fd)
        finally:
            os.close(fd)
        if time.monotonic() >= deadline:
            raise LockTimeout(f"{name}: stayed open for writing by another program; nothing was "
                              "written, try again once it is saved")
        time.sleep(delay)
        delay = min(delay * 2, 0.05)


def quiet_read(opener: Callable[[], int], *, suspicious: Callable[[bytes], bool] = lambda _data: False,
               timeout: float = WRITER_TIMEOUT, settle: float = SETTLE_SECONDS) -> bytes | None:
    """``hold``, with the lease (if any) released at once: just the bytes."""
    got = hold(opener, suspicious=suspicious, timeout=timeout, settle=settle)
    if isinstance(got, Leased):
        got.release()
        return got.data
    return got


def _settled(fd: int, deadline: float, settle: float = SETTLE_SECONDS) -> bool:
    """Size and mtime unchanged for ``settle`` seconds (polled): True. False when they change
    (the caller reads again: the save may now be whole) or the deadline passes first."""
    last = _signature(fd)
    stable_since = time.monotonic()
    while time.monotonic() < deadline:
        time.sleep(0.02)
        if _signature(fd) != last:
            return False
        if time.monotonic() - stable_since >= settle:
            return True
    return False


def cut_short(data: bytes | None, before: bytes | None) -> bool:
    """Does ``data`` look like ``before`` caught in an in-place save, between truncate and write?
    Empty, without the managed section's markers that ``before`` had, or under half its size."""
    if data is None or before is None:
        return False
    if not data:
        return bool(before)
    if index_file.BEGIN.encode() in before and index_file.BEGIN.encode() not in data:
        return True
    return len(data) < len(before) // 2


def leases_usable(path: Path) -> bool | None:
    """Can a read lease be taken on ``path`` here? None where leases cannot be used (another
    owner's file, a network file system, no ``fcntl``), or when there is no such file."""
    try:
        fd = open_plain(path)()
    except (OSError, paths.UnsafePath):
        return None
    try:
        got = lease(fd)
        if got:
            unlease(fd)
        return None if got is None else True
    finally:
        os.close(fd)


def open_plain(path: Path) -> Callable[[], int]:
    def opener() -> int:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            os.close(fd)
            raise paths.UnsafePath(str(path), None, "refused: not a regular file")
        return fd

    return opener


def suspicion(last: dict[str, object]) -> Callable[[bytes], bool]:
    """Reads that look like an in-place save caught half way, given what was last written."""
    size = last.get("size")
    had_markers = bool(last.get("markers"))

    def suspicious(data: bytes) -> bool:
        if not data:
            return True
        if had_markers and index_file.BEGIN.encode() not in data:
            return True
        return isinstance(size, int) and len(data) < size // 2

    return suspicious
