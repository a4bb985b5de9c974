"""Locked, atomic writes of memory files, and the runtime state directory (R35, R37).

Every change to MEMORY.md is a *delta* applied to the file as it is at write time, under the
project lock. Hand edits do not take our lock, so the final step swaps the new file in with
``renameat2(RENAME_EXCHANGE)`` and compares what it displaced with what was read: if someone wrote
in between, the delta is applied again on top of their version, so their edit is never lost.
Temp files live in the state directory (inside ``.git``), so a crash never leaves litter in the
working tree.
"""
from __future__ import annotations

import ctypes
import errno
import json
import os
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from chord_git.errors import LockTimeout
from chord_git.memory import index_file, view
from chord_git.memory.atomic import flock_before, fsync_dir
from chord_git.memory.atomic import replace_atomically as replace_atomically  # kept for store.replace_atomically callers
from chord_git.memory.atomic import write_temp as _write_temp
from chord_git.memory.project import Project

LOCK_TIMEOUT = 30.0
_AT_FDCWD = -100
_RENAME_EXCHANGE = 2


def ensure_state_dir(project: Project) -> Path:
    (project.state_dir / "tmp").mkdir(parents=True, exist_ok=True)
    return project.state_dir


@contextmanager
def locked(project: Project, timeout: float = LOCK_TIMEOUT) -> Iterator[None]:
    """The project lock: one writer at a time across processes and sessions."""
    state = ensure_state_dir(project)
    fd = os.open(state / "lock", os.O_RDWR | os.O_CREAT, 0o644)
    try:
        if not flock_before(fd, time.monotonic() + timeout):
            raise LockTimeout(f"{state / 'lock'}: memory store is locked by another process")
        yield
    finally:
        os.close(fd)


def _temp_dir(project: Project, target: Path) -> Path:
    """Temp files go to the state dir when it shares a filesystem with the target."""
    state_tmp = ensure_state_dir(project) / "tmp"
    try:
        if os.stat(state_tmp).st_dev == os.stat(target.parent).st_dev:
            return state_tmp
    except OSError:
        pass
    return target.parent


def _libc() -> ctypes.CDLL | None:
    try:
        libc = ctypes.CDLL(None, use_errno=True)
    except OSError:
        return None
    return libc if hasattr(libc, "renameat2") else None


def _exchange(tmp: Path, target: Path) -> bool:
    """Atomically swap two paths; False where the kernel or filesystem cannot."""
    libc = _libc()
    if libc is None:
        return False
    result = libc.renameat2(_AT_FDCWD, os.fsencode(tmp), _AT_FDCWD, os.fsencode(target), _RENAME_EXCHANGE)
    if result == 0:
        return True
    err = ctypes.get_errno()
    if err in (errno.EINVAL, errno.ENOSYS, errno.EXDEV, errno.ENOTSUP):
        return False
    raise OSError(err, os.strerror(err), str(target))


def create_exclusive(project: Project, target: Path, data: bytes) -> bool:
    """Write a file that must not exist yet (records are never rewritten); False if it does."""
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = _write_temp(_temp_dir(project, target), data)
    try:
        os.link(tmp, target)
    except FileExistsError:
        return False
    finally:
        tmp.unlink()
    fsync_dir(target.parent)
    return True


def _read_or_none(path: Path) -> bytes | None:
    try:
        return path.read_bytes()
    except FileNotFoundError:
        return None


class _Unread:
    """Marks that the caller of ``cas_rewrite`` has not read the target yet."""


_UNREAD = _Unread()


def cas_rewrite(project: Project, target: Path, change: Callable[[bytes | None], bytes | None],
                attempts: int = 50, *, current: bytes | None | _Unread = _UNREAD) -> bytes | None:
    """Rewrite ``target`` as ``change(current)`` without losing a concurrent writer's version.

    ``change`` must be idempotent: it is re-applied to whatever a concurrent writer left. It
    returns None for "no change". The caller should hold the project lock; hand edits don't.
    ``current`` is the content the caller read under the lock, so the file is not read twice.
    """
    expected = _read_or_none(target) if isinstance(current, _Unread) else current
    base = expected
    for _ in range(attempts):
        new = change(base)
        if new is None:
            return base
        if new == expected:
            return new
        mode = target.stat().st_mode & 0o777 if expected is not None else 0o644
        tmp = _write_temp(_temp_dir(project, target), new, mode)
        try:
            if expected is None:
                try:
                    os.link(tmp, target)
                except FileExistsError:
                    base = expected = _read_or_none(target)
                    continue
                fsync_dir(target.parent)
                return new
            if not _exchange(tmp, target):
                if _read_or_none(target) != expected:
                    base = expected = _read_or_none(target)
                    continue
                os.replace(tmp, target)
                fsync_dir(target.parent)
                return new
            displaced = _read_or_none(tmp)
        finally:
            if tmp.exists():
                tmp.unlink()
        fsync_dir(target.parent)
        if displaced == expected:
            return new
        # Someone wrote between our read and the swap: our file is in place now, built on the
        # older text. Re-apply the change on their version and swap again, expecting ours.
        base, expected = displaced, new
    raise LockTimeout(f"{target}: the file kept changing while being written; nothing was lost, try again")


@dataclass(frozen=True)
class ApplyResult:
    doc: index_file.MemoryDoc
    changed: bool

    def state(self, rel: str) -> view.IndexState:
        """The index as written, for a caller that goes on with it (curation counts the budget)."""
        return view.IndexState(doc=self.doc, problems=(), exists=True, rel=rel)


@dataclass(frozen=True)
class IndexRead:
    """MEMORY.md as read under the lock: its bytes (None when absent) and what they parse to."""

    data: bytes | None
    state: view.IndexState


def read_index_locked(project: Project) -> IndexRead:
    """Read MEMORY.md for a write. The caller holds the lock and passes this on to ``write_index``."""
    data = _read_or_none(project.memory_md)
    return IndexRead(data, view.parse_index(data, project.relative(project.memory_md)))


def write_index(project: Project, deltas: Sequence[index_file.IndexDelta], *, read: IndexRead | None = None,
                ensure_markers: bool = False) -> ApplyResult:
    """Apply ``deltas``, in order, to MEMORY.md as it is now (R28, R35). The caller holds the lock.

    ``read`` is what the caller read under the lock; without it the file is read here. Markers
    are added (at the end of a hand-written file) only when something is written, or when
    ``ensure_markers`` asks for it (``init``).
    """
    path = project.memory_md
    rel = project.relative(path)
    outcome: dict[str, index_file.MemoryDoc] = {}

    def change(current: bytes | None) -> bytes | None:
        if current is None:
            doc = index_file.new_document()
        else:
            text, bom = index_file.decode(current)
            parsed, problems = index_file.parse(text, bom=bom)
            blocking = index_file.blocking(problems)
            if blocking is not None:
                raise index_file.unusable(rel, blocking)
            assert parsed is not None  # broken markers are blocking problems
            doc = parsed
        new_doc = doc
        for delta in deltas:
            new_doc = index_file.apply(new_doc, delta)
        outcome["doc"] = new_doc
        if current is not None and new_doc == doc and (doc.has_markers or not ensure_markers):
            return None
        return index_file.encode(index_file.render(new_doc), new_doc.bom)

    before = _read_or_none(path) if read is None else read.data
    after = cas_rewrite(project, path, change, current=before)
    return ApplyResult(doc=outcome["doc"], changed=after != before)


def apply_delta(project: Project, delta: index_file.IndexDelta, *, timeout: float = LOCK_TIMEOUT,
                ensure_markers: bool = False) -> ApplyResult:
    """Take the lock and apply one delta to MEMORY.md as it is now: insert on top, remove,
    replace in place (R28, R35)."""
    with locked(project, timeout):
        return write_index(project, [delta], ensure_markers=ensure_markers)


# ---------------------------------------------------------------------------- runtime status
def status_path(project: Project) -> Path:
    return project.state_dir / "status.json"


def read_status(project: Project) -> dict[str, object] | None:
    try:
        data = json.loads(status_path(project).read_text("utf-8"))
    except (FileNotFoundError, ValueError, OSError):
        return None
    return data if isinstance(data, dict) else None


def write_status(project: Project, ok: bool, reason: str | None = None) -> None:
    """Record the last extraction outcome (R36): MEMORY, or MEMORY-FAIL with a one-line reason."""
    one_line = " ".join((reason or "").split())[:300] or None
    payload = {"state": "ok" if ok else "fail", "reason": one_line, "at": time.time()}
    ensure_state_dir(project)
    replace_atomically(status_path(project), json.dumps(payload).encode(), project.state_dir / "tmp")
