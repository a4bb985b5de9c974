"""Whether the working tree still has what an entry's anchors name, as session start asks it.

Session start has a time goal, so each anchor costs one lookup and the number of lookups is
bounded (``MAX_LOOKUPS``): a path is one ``lstat``; a make target is looked up in the root
Makefile, read once; a package script in the root ``package.json``, read once, and only when it
declares no workspaces (a monorepo's scripts live in its packages). Config keys need every config
file of the tree: ``audit`` checks them, session start does not. Anything unreadable counts as
present: a label must be evidence, not a guess.
"""
from __future__ import annotations

import json
import os
from collections.abc import Iterable
from pathlib import Path

from chord_git.memory.anchors import Anchor, make_targets

MAX_LOOKUPS = 64
READ_LIMIT = 256 * 1024


def read_text(path: Path, limit: int = READ_LIMIT) -> str | None:
    """A regular file's first ``limit`` bytes as text; None for a symlink (never followed), a
    missing file or one that cannot be read (``audit`` reads the tree's files the same way)."""
    try:
        if path.is_symlink() or not path.is_file():
            return None
        with path.open("rb") as stream:
            return stream.read(limit).decode("utf-8", "replace")
    except OSError:
        return None


class Lookup:
    """One session start's lookups in ``root``: the Makefile and package.json read at most once."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.done = 0
        self._targets: frozenset[str] | None = None
        self._scripts: frozenset[str] | None = None
        self._read_make = self._read_package = False

    def targets(self) -> frozenset[str] | None:
        if not self._read_make:
            self._read_make = True
            text = read_text(self.root / "Makefile")
            self._targets = None if text is None else make_targets(text)
        return self._targets

    def scripts(self) -> frozenset[str] | None:
        """The root package.json's scripts; None when there is none, it does not parse, or it
        declares workspaces."""
        if not self._read_package:
            self._read_package = True
            text = read_text(self.root / "package.json")
            try:
                data = json.loads(text) if text else None
            except ValueError:
                data = None
            if isinstance(data, dict) and "workspaces" not in data:
                scripts = data.get("scripts")
                self._scripts = frozenset(str(k) for k in scripts) if isinstance(scripts, dict) else frozenset()
        return self._scripts

    def missing(self, anchor: Anchor) -> bool:
        """The tree lacks what ``anchor`` names (False when that cannot be told, or past the bound)."""
        if self.done >= MAX_LOOKUPS:
            return False
        self.done += 1
        if anchor.kind == "path":
            try:
                os.lstat(self.root / anchor.name)
            except (FileNotFoundError, NotADirectoryError):
                return True
            except OSError:
                return False
            return False
        if anchor.kind == "make":
            targets = self.targets()
            return targets is not None and anchor.name not in targets
        if anchor.kind == "script":
            scripts = self.scripts()
            return scripts is not None and anchor.name not in scripts
        return False

    def first_missing(self, anchors: Iterable[Anchor]) -> Anchor | None:
        return next((anchor for anchor in anchors if self.missing(anchor)), None)
