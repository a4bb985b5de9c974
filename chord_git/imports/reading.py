"""Reading a store bounded: capped files and sizes, no symlink out of the store, damage reported.

A store is a folder an agent writes (or, for project-local stores, a folder a cloned repository
brings): its files are input, never trusted. Files are listed in name order so a re-run reads
them in the same order; a symlink is followed only when it stays inside the store's real folder;
a file larger than ``MAX_FILE_BYTES`` is skipped; bytes that are not UTF-8 are replaced and the
file is named, and the items holding the replacement are dropped later (``judging``).
"""
from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from pathlib import Path

from chord_git.support.dataclass_lazy import dataclass

MAX_FILE_BYTES = 4 * 1024 * 1024  # a memory file, however long a model let it grow; not a dump
MAX_FILES = 50_000
MAX_DEPTH = 6
REPLACEMENT = "\ufffd"


@dataclass(frozen=True)
class Problem:
    file: str  # store-relative (or the store itself: ".")
    message: str


@dataclass(frozen=True)
class StoreFile:
    path: Path  # as listed (inside the store)
    rel: str  # store-relative POSIX path
    real: Path  # what is opened: the file itself, or the in-store target of a symlink


def printable(name: str) -> str:
    """A file name as it may be printed and kept: a clone's store may name its files with escape
    sequences or line breaks, so every character that does not print is shown as its code."""
    return "".join(ch if ch.isprintable() else f"\\x{{{ord(ch):x}}}" for ch in name)


def _inside(real_root: Path, target: Path) -> bool:
    try:
        target.relative_to(real_root)
    except ValueError:
        return False
    return True


def files(root: Path, *, suffixes: tuple[str, ...] = (".md",), names: tuple[str, ...] = (),
          recursive: bool = True, problems: list[Problem]) -> Iterator[StoreFile]:
    """The store's files whose name ends in one of ``suffixes`` or is one of ``names``."""
    real_root = root.resolve()
    count = 0

    def wanted(name: str) -> bool:
        return name in names or name.lower().endswith(suffixes)

    def walk(folder: Path, rel: str, depth: int) -> Iterator[StoreFile]:
        nonlocal count
        try:
            entries = sorted(os.scandir(folder), key=lambda e: e.name)
        except OSError as exc:
            problems.append(Problem(rel or ".", f"cannot list: {exc.strerror or exc}"))
            return
        for entry in entries:
            here = f"{rel}/{printable(entry.name)}" if rel else printable(entry.name)
            path = Path(entry.path)
            if entry.is_symlink():
                target = path.resolve()
                if not _inside(real_root, target):
                    problems.append(Problem(here, "a symlink out of the store; refused"))
                    continue
                if target.is_file() and wanted(entry.name):
                    count += 1
                    if count > MAX_FILES:
                        problems.append(Problem(here, f"more than {MAX_FILES} files; the rest are not read"))
                        return
                    yield StoreFile(path, here, target)
                continue  # a symlinked folder inside the store is read where it really is
            if entry.is_dir(follow_symlinks=False):
                if recursive and depth < MAX_DEPTH and not entry.name.startswith("."):
                    yield from walk(path, here, depth + 1)
                continue
            if entry.is_file(follow_symlinks=False) and wanted(entry.name):
                count += 1
                if count > MAX_FILES:
                    problems.append(Problem(here, f"more than {MAX_FILES} files; the rest are not read"))
                    return
                yield StoreFile(path, here, path)

    yield from walk(root, "", 0)


def read_text(file: StoreFile, problems: list[Problem], limit: int = MAX_FILE_BYTES) -> str | None:
    """The file's text, or None (with a problem) when it cannot or may not be read."""
    try:
        fd = os.open(file.real, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    except OSError as exc:
        problems.append(Problem(file.rel, f"cannot read: {exc.strerror or exc}"))
        return None
    with os.fdopen(fd, "rb") as handle:
        info = os.fstat(handle.fileno())
        if not stat.S_ISREG(info.st_mode):
            problems.append(Problem(file.rel, "not a regular file; skipped"))
            return None
        data = handle.read(limit + 1)
    if len(data) > limit:
        problems.append(Problem(file.rel, f"larger than {limit // (1024 * 1024)} MiB; skipped"))
        return None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        problems.append(Problem(file.rel, f"not valid UTF-8 (first at byte {exc.start}); "
                                          "the damaged items are not imported"))
        return data.decode("utf-8-sig", "replace")


def read_one(path: Path, problems: list[Problem], rel: str | None = None) -> str | None:
    """A single-file store (``.cursorrules``, an instruction file): symlinks are refused."""
    name = rel or printable(path.name)
    try:
        mode = os.lstat(path).st_mode
    except OSError as exc:
        problems.append(Problem(name, f"cannot read: {exc.strerror or exc}"))
        return None
    if stat.S_ISLNK(mode):
        problems.append(Problem(name, "a symlink; refused"))
        return None
    return read_text(StoreFile(path, name, path), problems)
