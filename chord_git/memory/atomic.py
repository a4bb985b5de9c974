"""Temp file + fsync + rename, and a lock with a deadline: how runtime state is written (R35).

Kept apart from ``store`` (which also knows MEMORY.md's format) so that the per-turn agent hooks
can write their flags without loading the memory-file parsers.

The lock is POSIX ``flock``: the kernel drops it when its holder exits or is killed, so a crash
never leaves a stale lock (a lock *file*, or the ``SoftFileLock`` of lock libraries, would).
Where ``fcntl`` is missing (Windows) writers stop with one line saying so; ``fcntl`` is imported
only when a lock is taken, so read-only commands still run there.
"""
from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

from chord_git.errors import PlatformUnsupported

UNSUPPORTED = ("writing memory needs POSIX file locks (fcntl), which this platform does not have; "
               "read-only commands (status, summary, check, scan, review list) still work")


def read_state_json(path: Path) -> Any:
    """A runtime state file, parsed; ValueError (as for broken JSON) when it holds ``Infinity``,
    ``-Infinity``, ``NaN``, or a number too large for a float (``1e400``, which reads as infinity).

    ``json`` reads those, but no state file of ours holds one: such a file is damaged (or edited
    by hand), and must read as damaged rather than stop its reader later on ``int(inf)``.
    """
    import json

    return json.loads(path.read_text(encoding="utf-8"), parse_constant=_refuse_constant, parse_float=_finite)


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number a state file holds")


def _finite(text: str) -> float:
    import math

    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"{text} is not a number a state file holds")
    return value


def flock_before(fd: int, deadline: float) -> bool:
    """Take an exclusive flock on ``fd`` before ``deadline`` (time.monotonic()); False if not."""
    try:
        import fcntl
    except ImportError:
        raise PlatformUnsupported(UNSUPPORTED) from None
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return True
        except BlockingIOError:
            if time.monotonic() >= deadline:
                return False
            time.sleep(0.01)


def try_lock(path: Path) -> int | None:
    """An open fd holding an exclusive flock on ``path`` (created), or None when someone holds it."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    if flock_before(fd, time.monotonic()):
        return fd
    os.close(fd)
    return None


def fsync_dir(path: Path) -> None:
    """Make a rename in ``path`` durable."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def write_temp(directory: Path, data: bytes, mode: int = 0o644, *, durable: bool = True) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    tmp = directory / f".chord-{os.getpid()}-{time.monotonic_ns()}.tmp"
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
    try:
        view = memoryview(data)
        while view:
            written = os.write(fd, view)
            view = view[written:]
        if durable:
            os.fsync(fd)
    finally:
        os.close(fd)
    return tmp


def replace_atomically(target: Path, data: bytes, tmp_dir: Path, mode: int = 0o644, *,
                       durable: bool = True) -> None:
    """Temp file in ``tmp_dir`` + fsync + rename over ``target``: for state files that no one
    else rewrites concurrently (status, queue sidecars, the activity flag).

    ``durable=False`` skips both fsyncs: readers still see the old or the new file, never a torn
    one, but a power loss may bring the old one back. Only for signals that are rewritten every
    turn and mean nothing after a reboot (the busy/idle flags).
    """
    tmp = write_temp(tmp_dir, data, mode, durable=durable)
    try:
        os.replace(tmp, target)
    finally:
        if tmp.exists():
            tmp.unlink()
    if durable:
        fsync_dir(target.parent)
