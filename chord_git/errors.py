"""One small error hierarchy; ``main`` turns each into one line and an exit code.

Anything else is unexpected: ``main`` prints one line naming it, exits 3, and leaves the
traceback in an error log (``log_unexpected``), never on the user's terminal.
"""
from __future__ import annotations

import datetime as dt
import os
from collections.abc import Sequence
from pathlib import Path

# tempfile and traceback are imported in ``log_unexpected``: every command imports this module,
# and a hook's start-up time is its cost.


class ChordError(Exception):
    """Base of every error the tool reports to the user as one line."""

    exit_code = 2


class UsageError(ChordError):
    """Bad command-line usage (exit 2)."""


class InputError(ChordError):
    """Bad input in a file: names the file and, where known, the line (exit 2)."""

    def __init__(self, path: str | Path, line: int | None, message: str) -> None:
        self.path = str(path)
        self.line = line
        self.message = message
        super().__init__(self.render())

    def render(self) -> str:
        where = self.path if self.line is None else f"{self.path}:{self.line}"
        return f"{where}: {self.message}"


class ConfigError(InputError):
    """A config file is unreadable, mistyped or holds a literal key (exit 2)."""


class RepoError(ChordError):
    """Git or project layout problem: not a repository, bare repo, unsupported index (exit 2)."""


class PlatformUnsupported(ChordError):
    """This platform lacks something a writing command needs (exit 2; nothing was written)."""


class LockTimeout(ChordError):
    """The store lock could not be taken in time (exit 1: a failed run, nothing written)."""

    exit_code = 1


class WriteFailed(ChordError, OSError):
    """A memory or state file could not be written (disk full, read-only, too large): exit 1.
    Also an OSError, so every layer that already treats a failed write as a failed run still does."""

    exit_code = 1


class ExtractionFailed(ChordError):
    """The model pool could not produce a usable reply (exit 1, status MEMORY-FAIL)."""

    exit_code = 1


class BudgetReached(ChordError):
    """Extraction's token budget is spent (``memory.extraction``): no model call was made. With
    ``until`` the session waits in the queue for that day; without, it alone is over the budget."""

    exit_code = 1

    def __init__(self, message: str, until: dt.date | None = None) -> None:
        super().__init__(message)
        self.until = until


class Preempted(ChordError):
    """The agent became busy during a main-pool model call; the session is retried later."""

    exit_code = 1


# ---------------------------------------------------------------------------- the unexpected
ERROR_LOG = "errors.log"
UNEXPECTED_EXIT = 3
_LOG_KEEP_BYTES = 1024 * 1024


def one_line(text: object, limit: int | None = None, *, cut_mark: str = "") -> str:
    """``text`` with its white space folded to single spaces, at most ``limit`` characters (the
    last of them ``cut_mark`` when it had to be cut): messages, logs and badges hold one line."""
    line = " ".join(str(text).split())
    if limit is None or len(line) <= limit:
        return line
    return line[: limit - len(cut_mark)] + cut_mark


def rotate_log(path: Path, keep_bytes: int) -> None:
    """A log past ``keep_bytes`` becomes ``<name>.1`` (one old generation kept), so that no log of
    ours grows without bound. Raises OSError other than a missing file."""
    try:
        if path.stat().st_size > keep_bytes:
            os.replace(path, path.with_name(path.name + ".1"))
    except FileNotFoundError:
        pass


def append_log(path: Path, data: bytes, *, keep_bytes: int, mode: int, follow_links: bool = True) -> None:
    """Rotate ``path`` (``rotate_log``), then append ``data`` in one write on an O_APPEND descriptor:
    concurrent writers never interleave inside it. Raises OSError."""
    rotate_log(path, keep_bytes)
    flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | (0 if follow_links else getattr(os, "O_NOFOLLOW", 0))
    fd = os.open(path, flags, mode)
    try:
        os.write(fd, data)
    finally:
        os.close(fd)


def _append(directory: Path, text: str) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / ERROR_LOG
    append_log(path, text.encode("utf-8", "replace"), keep_bytes=_LOG_KEEP_BYTES, mode=0o600, follow_links=False)
    return path


def log_unexpected(exc: BaseException, places: Sequence[Path], argv: Sequence[str]) -> Path | None:
    """Write ``exc``'s traceback to the error log of the first of ``places`` that takes it, else to
    a new file in the temp directory; the log's path, or None when nothing could be written.

    ``places`` start with the project's state dir; later ones cover a state dir that is itself
    the problem (a file where the folder should be, no permission).
    """
    import tempfile
    import time
    import traceback

    stamp = time.strftime("%Y-%m-%dT%H:%M:%S%z")
    text = (f"--- {stamp} git memory {' '.join(argv)}\n"
            + "".join(traceback.format_exception(type(exc), exc, exc.__traceback__)))
    for directory in places:
        try:
            return _append(directory, text)
        except OSError:
            continue
    try:
        fd, name = tempfile.mkstemp(prefix="chord-git-error-", suffix=".log")
        with os.fdopen(fd, "w", encoding="utf-8", errors="replace") as handle:
            handle.write(text)
        return Path(name)
    except OSError:
        return None


def unexpected_message(exc: BaseException, log: Path | None) -> str:
    """The one line the user sees for an error that is not one of ours."""
    detail = one_line(exc)
    what = f"{type(exc).__name__}: {detail}" if detail else type(exc).__name__
    where = f"details in {log}" if log is not None else "no log could be written"
    return f"an unexpected error occurred: {what}; {where}"
