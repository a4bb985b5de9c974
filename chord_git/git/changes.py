"""What a commit or the staged index changes in memory files: plain data shared by the libgit2
reader, the ``git`` command fallback and ``check``'s working-tree reader, so that none needs
another's imports."""
from __future__ import annotations

from collections.abc import Callable

from chord_git.support.dataclass_lazy import dataclass, field

MODE_SYMLINK = 0o120000
MODE_GITLINK = 0o160000
AddedLines = tuple[tuple[int, str], ...]


@dataclass(frozen=True)
class FileChange:
    """One file added or modified by a commit or by the staged index (deletions are skipped), or
a working-tree file, every line of which counts as added.

    ``added`` holds (new line number, text without its line end) for each added line; ``data``
    is the file's full new content when the caller asked for it (staged files, binary files).
    """

    path: str
    mode: int
    binary: bool
    added: AddedLines
    data: bytes | None = None

    @property
    def is_regular(self) -> bool:
        return self.mode & 0o170000 == 0o100000


@dataclass(frozen=True)
class StagedChanges:
    files: tuple[FileChange, ...]
    contains: Callable[[str], bool] = field(repr=False)  # is this path in the staged index?
    backend: str = "pygit2"


def line_text(raw: bytes) -> str:
    """An added line as text: line end removed (LF or CRLF), undecodable bytes replaced."""
    if raw.endswith(b"\n"):
        raw = raw[:-1]
    if raw.endswith(b"\r"):
        raw = raw[:-1]
    return raw.decode("utf-8", "replace")
