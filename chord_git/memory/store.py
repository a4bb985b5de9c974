"""Locked, atomic writes of memory files, and the runtime state directory (R35, R37).

Every change to MEMORY.md is a *delta* applied to the file as it is at write time, under the
project lock. Hand edits do not take our lock, so the final step swaps the new file in with
``renameat2(RENAME_EXCHANGE)`` and compares what it displaced with what was read: if someone wrote
in between, the delta is applied again on top of their version, so their edit is never lost.

Editors that save *in place* (truncate, then write: VS Code, nano, a shell ``>``) leave the file
empty or partial for a moment, and keep writing into the same inode. So a file is only read while
no process has it open for writing: a read lease (``F_SETLEASE``) can be taken only then, and
while it is held a writer's open waits. A write keeps the lease of its read under the lock until
its swap, so one open of the file serves both, and an editor that began saving in between shows
up at the swap as a broken lease. The inode a swap displaced is read the same way, after its
writer has closed it, so a save that was in flight during the swap is re-merged rather than
lost. Where leases are unavailable (another owner, a network filesystem), a read that is empty,
shorter than what was last written, or suddenly without markers is trusted only once the file's
size and mtime have been unchanged for ``quiet.STALL_SECONDS``; and a swap that displaced such a
file (an editor's save caught between its truncate and its write, whose writer still holds that
inode) puts it back in place instead of merging from it or dropping it, then starts again from it
once it is whole. What remains: an in-place save paused longer than ``STALL_SECONDS`` half way
looks finished and can be lost (README, ``status``). If a re-merge fails, the user's version is
swapped back in place before the error is raised.

Temp files live in the state directory (inside ``.git``), so a crash never leaves litter in the
working tree. Every path written is checked to lie inside the project (``paths``).
"""
from __future__ import annotations

import ctypes
import errno
import json
import os
import signal
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from chord_git.support.dataclass_lazy import dataclass
from chord_git.errors import InputError, LockTimeout, RepoError, WriteFailed, one_line
from chord_git.memory import atomic, collisions, index_file, paths, quiet, view
from chord_git.memory.atomic import flock_before, fsync_dir
from chord_git.memory.atomic import write_temp as _write_temp
from chord_git.memory.project import Project

LOCK_TIMEOUT = 30.0
_LAST_WRITTEN = "index-last.json"
_AT_FDCWD = -100
_RENAME_EXCHANGE = 2


@contextmanager
def _writing(what: Path | str) -> Iterator[None]:
    """A failed write (disk full, read-only file system, file size limit) as one line naming the file."""
    try:
        yield
    except (InputError, FileExistsError):
        raise
    except OSError as exc:
        raise WriteFailed(f"{what}: cannot write: {exc.strerror or exc}; nothing was changed") from None


def ensure_state_dir(project: Project) -> Path:
    for path in (project.state_dir, project.state_dir / "tmp"):
        if path.is_symlink():
            raise RepoError(f"{path}: the memory state directory is a symlink; refused")
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


def replace_atomically(target: Path, data: bytes, tmp_dir: Path, mode: int = 0o644, *,
                       durable: bool = True) -> None:
    """``atomic.replace_atomically`` for memory and state files, a failed write as one line."""
    with _writing(target):
        atomic.replace_atomically(target, data, tmp_dir, mode, durable=durable)


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
    with _writing(project.relative(target)):
        return _create_exclusive(project, target, data)


def _create_exclusive(project: Project, target: Path, data: bytes) -> bool:
    paths.require_inside(project.root, target)
    target.parent.mkdir(parents=True, exist_ok=True)
    paths.require_inside(project.root, target)
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


def _last_written(project: Project, target: Path) -> dict[str, object]:
    if target != project.memory_md:
        return {}
    try:
        data = atomic.read_state_json(project.state_dir / _LAST_WRITTEN)
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _remember(project: Project, target: Path, data: bytes) -> None:
    if target != project.memory_md:
        return
    collisions.write_hint(project.state_dir, _LAST_WRITTEN, json.dumps({"size": len(data), "markers": index_file.BEGIN.encode() in data}))


@dataclass(frozen=True)
class Held:
    """A file as read for one rewrite under the project lock (``holding``).

    ``data`` is None when the file does not exist. Where leases work, ``leased`` keeps the fd it
    was read through open and read-leased until the swap, so ``cas_rewrite`` neither opens nor
    reads the file again: the bytes the caller decided on are the bytes it replaces, and an
    editor that opened the file meanwhile shows up at the swap as a broken lease (its save is
    then re-merged). Without leases ``leased`` is None and ``data`` is a settled read.
    """

    data: bytes | None
    leased: quiet.Leased | None = None

    @property
    def spent(self) -> bool:
        """Its lease was released (by a swap or the end of ``holding``): the file must be read again."""
        return self.leased is not None and self.leased.released


def _suspicious(project: Project, target: Path) -> Callable[[bytes], bool]:
    """``quiet.suspicion`` of what was last written, looked up only when a read without a lease
    needs it (with leases it never does)."""
    return lambda data: quiet.suspicion(_last_written(project, target))(data)


def _hold(project: Project, target: Path) -> quiet.Leased | bytes | None:
    return quiet.hold(lambda: paths.open_inside(project.root, target), suspicious=_suspicious(project, target),
                      name=project.relative(target), settle=quiet.STALL_SECONDS)


@contextmanager
def holding(project: Project, target: Path) -> Iterator[Held]:
    """Read ``target`` for a rewrite (the caller holds the project lock) and keep its lease until
    ``cas_rewrite`` swaps it or the block ends, whichever comes first. Nothing in the block may
    open ``target`` for writing but ``cas_rewrite``: this process would wait on its own lease."""
    got = _hold(project, target)
    try:
        yield Held(got.data, got) if isinstance(got, quiet.Leased) else Held(got)
    finally:
        if isinstance(got, quiet.Leased):
            got.release()


def cas_rewrite(project: Project, target: Path, change: Callable[[bytes | None], bytes | None],
                attempts: int = 50, *, held: Held | None = None) -> bytes | None:
    """Rewrite ``target`` as ``change(current)`` without losing a concurrent writer's version.

    ``change`` must be idempotent: it is re-applied to whatever a concurrent writer left. It
    returns None for "no change". The caller should hold the project lock; hand edits don't.
    ``held`` is what the caller read under the lock (``holding``); the swap starts from it, and
    only a retry reads the file again.
    """
    with _writing(project.relative(target)):
        return _cas_rewrite(project, target, change, attempts, held)


def _cas_rewrite(project: Project, target: Path, change: Callable[[bytes | None], bytes | None],
                 attempts: int, held: Held | None) -> bytes | None:
    paths.require_inside(project.root, target)
    for attempt in range(attempts):
        if attempt == 0 and held is not None and not held.spent:
            got: quiet.Leased | bytes | None = held.leased or held.data
        else:
            got = _hold(project, target)
        if isinstance(got, bytes):  # no leases on this file here
            return _rewrite_plain(project, target, change, attempts, got)
        outcome = _rewrite_leased(project, target, change, got)
        if outcome is _UNSUPPORTED:  # leases, but no exchange or no write lease on this file system
            assert got is not None
            return _rewrite_plain(project, target, change, attempts, got.data)
        if outcome is _AGAIN:
            continue
        if outcome is not None:
            assert isinstance(outcome, bytes)
            _remember(project, target, outcome)
        return outcome
    raise LockTimeout(f"{target}: the file kept changing while being written; nothing was lost, try again")


_UNSUPPORTED = object()
_AGAIN = object()


def _temp_path(project: Project, target: Path) -> Path:
    directory = _temp_dir(project, target)
    directory.mkdir(parents=True, exist_ok=True)
    return directory / f".chord-{os.getpid()}-{time.monotonic_ns()}.tmp"


def _write_all(fd: int, data: bytes) -> None:
    os.ftruncate(fd, 0)
    view = memoryview(data)
    offset = 0
    while offset < len(data):
        offset += os.pwrite(fd, view[offset:], offset)
    os.fsync(fd)


def _rewrite_leased(project: Project, target: Path, change: Callable[[bytes | None], bytes | None],
                    old: quiet.Leased | None) -> object:
    """One change-swap of ``old`` (None: the file did not exist), which this releases; returns the
    bytes now in place (or None: nothing to do), or _UNSUPPORTED, _AGAIN.

    ``old`` stays read-leased from its read to the swap: an editor opening it to save in place
    waits until then, and if it does so across the swap it shows up as a broken lease. The new
    file is write-leased until it is final: if the displaced file must be re-merged, the merge
    is written into the new file in place, and anyone opening it waits for that instead of
    reading the unmerged text.
    """
    if old is None:
        new = change(None)
        if new is None:
            return None
        return new if _create_exclusive(project, target, new) else _AGAIN
    import fcntl  # a lease was taken, so there is one

    fd_new: int | None = None
    tmp = _temp_path(project, target)
    try:
        current = old.data
        new = change(current)
        if new is None or new == current:
            return current if new is None else new
        fd_new = os.open(tmp, os.O_RDWR | os.O_CREAT | os.O_EXCL, os.fstat(old.fd).st_mode & 0o777)
        _write_all(fd_new, new)
        fcntl.fcntl(fd_new, quiet.F_SETSIG, signal.SIGURG)
        try:
            fcntl.fcntl(fd_new, quiet.F_SETLEASE, fcntl.F_WRLCK)
        except OSError:
            return _UNSUPPORTED
        if not _exchange(tmp, target):
            return _UNSUPPORTED
        fsync_dir(target.parent)
        try:
            same = os.lstat(tmp).st_ino == os.fstat(old.fd).st_ino
        except FileNotFoundError:
            same = False
        if same and old.unbroken():
            return new  # no one opened the old file for writing: nothing to re-merge
        # A writer had the old file open (or put another file in its place): let it finish.
        old.release()
        displaced = quiet.quiet_read(quiet.open_plain(tmp))
        if displaced == current:
            return new
        try:
            merged = change(displaced)
        except Exception:
            _swap_back(tmp, target)
            raise
        final = displaced if merged is None else merged
        assert final is not None
        _write_all(fd_new, final)  # in place, still write-leased: no one sees the unmerged text
        return final
    finally:
        old.release()
        if fd_new is not None:
            quiet.unlease(fd_new)
            os.close(fd_new)
        if tmp.exists() or tmp.is_symlink():
            tmp.unlink()


def _rewrite_plain(project: Project, target: Path, change: Callable[[bytes | None], bytes | None],
                   attempts: int, current: bytes | None) -> bytes | None:
    """Without leases: exchange, then compare the displaced file once its size and mtime settle.

    ``current`` is the target as read settled under the lock, taken as what the exchange displaces.
    """
    suspicious = _suspicious(project, target)

    def read_target(before: bytes | None = None) -> bytes | None:
        """The target once settled; ``before``: what it held, so that a cut-short read waits too."""
        return quiet.quiet_read(lambda: paths.open_inside(project.root, target),
                                suspicious=lambda data: suspicious(data) or quiet.cut_short(data, before),
                                settle=quiet.STALL_SECONDS)

    expected = current
    base = expected
    for _ in range(attempts):
        new = change(base)
        if new is None:
            return base
        if new == expected:
            return new
        if expected is None:
            if _create_exclusive(project, target, new):
                _remember(project, target, new)
                return new
            base = expected = read_target()
            continue
        tmp = _write_temp(_temp_dir(project, target), new, target.stat().st_mode & 0o777)
        try:
            if not _exchange(tmp, target):
                current = read_target()
                if current != expected:
                    base = expected = current
                    continue
                os.replace(tmp, target)
                fsync_dir(target.parent)
                _remember(project, target, new)
                return new
            fsync_dir(target.parent)
            displaced = quiet.quiet_read(quiet.open_plain(tmp), suspicious=lambda _data: True)
            if displaced == expected:
                _remember(project, target, new)
                return new
            if quiet.cut_short(displaced, expected):
                # An in-place save caught between its truncate and its write: its writer still
                # holds that inode and writes into it next. Merging from it would build on half
                # a file, dropping it would drop the save: it goes back in place, and the write
                # starts again from it once it is whole (or unchanged for STALL_SECONDS).
                _swap_back(tmp, target)
                base = expected = read_target(expected)
                continue
            try:
                change(displaced)
            except Exception:
                _swap_back(tmp, target)
                raise
        finally:
            if tmp.exists():
                tmp.unlink()
        # Our file is in place, built on older text: build again on theirs, expecting ours there.
        base, expected = displaced, new
    raise LockTimeout(f"{target}: the file kept changing while being written; nothing was lost, try again")


def _swap_back(tmp: Path, target: Path) -> None:
    """Put the version a swap displaced back in place (ours goes to ``tmp`` and is dropped)."""
    if _exchange(tmp, target):
        fsync_dir(target.parent)


@dataclass(frozen=True)
class ApplyResult:
    doc: index_file.MemoryDoc
    changed: bool

    def state(self, rel: str) -> view.IndexState:
        """The index as written, for a caller that goes on with it (curation counts the budget)."""
        return view.IndexState(doc=self.doc, problems=(), exists=True, rel=rel)


@dataclass(frozen=True)
class IndexRead:
    """MEMORY.md as read under the lock (``read_index_locked``): what it holds and parses to."""

    held: Held
    state: view.IndexState

    @property
    def data(self) -> bytes | None:
        return self.held.data


@contextmanager
def read_index_locked(project: Project) -> Iterator[IndexRead]:
    """Read MEMORY.md for a write: the caller holds the lock and passes this to ``write_index``
    inside the block. Where leases work, the file stays read-leased until that write swaps it
    (one open for the read and the swap), or until the block ends; an editor's in-place save
    begun meanwhile waits for it, and is re-merged if the kernel breaks the lease first."""
    with holding(project, project.memory_md) as held:
        yield IndexRead(held, view.parse_index(held.data, project.relative(project.memory_md)))


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
    seen: dict[str, frozenset[str]] = {}

    def change(current: bytes | None) -> bytes | None:
        doc = index_file.new_document() if current is None else index_file.parse_for_write(current, rel)
        seen["ids"] = frozenset(doc.ids())
        new_doc = doc
        for delta in deltas:
            new_doc = index_file.apply(new_doc, delta)
        outcome["doc"] = new_doc
        if current is not None and new_doc == doc and (doc.has_markers or not ensure_markers):
            return None
        return index_file.encode(index_file.render(new_doc), new_doc.bom)

    if read is None:
        with read_index_locked(project) as fresh:
            return write_index(project, deltas, read=fresh, ensure_markers=ensure_markers)
    before = read.data
    after = cas_rewrite(project, path, change, held=read.held)
    for delta in deltas:
        collisions.note(project, delta, seen.get("ids", frozenset()), outcome["doc"])
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
        data = atomic.read_state_json(status_path(project))
    except (FileNotFoundError, ValueError, OSError):
        return None
    return data if isinstance(data, dict) else None


def write_status(project: Project, ok: bool, reason: str | None = None, *, cause: str | None = None) -> None:
    """Record the last background extraction outcome (R36): MEMORY, or MEMORY-FAIL with a one-line
    reason; ``cause``, where given, is its short form that badges lead with (``pool.cause``)."""
    payload: dict[str, object] = {"state": "ok" if ok else "fail", "reason": one_line(reason or "", 300) or None,
                                  "at": time.time()}
    if cause and not ok:
        payload["cause"] = one_line(cause, 120)
    ensure_state_dir(project)
    replace_atomically(status_path(project), json.dumps(payload).encode(), project.state_dir / "tmp")
