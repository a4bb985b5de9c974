"""One small error hierarchy; ``main`` turns each into one line and an exit code."""
from __future__ import annotations

from pathlib import Path


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


class LockTimeout(ChordError):
    """The store lock could not be taken in time (exit 1: a failed run, nothing written)."""

    exit_code = 1


class ExtractionFailed(ChordError):
    """The model pool could not produce a usable reply (exit 1, status MEMORY-FAIL)."""

    exit_code = 1


class Preempted(ChordError):
    """The agent became busy during a main-pool model call; the session is retried later."""

    exit_code = 1
