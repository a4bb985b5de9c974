"""Pending imports and the decisions on them, in the state dir (never the working tree).

An imported item comes from a store private to one machine, so until the user accepts it, it stays
private too: ``<state dir>/imports/pending.jsonl`` holds the items waiting for review, one JSON
object per line (``source: imported``, ``status: unverified``, the text, and every store and item
it was read from); ``decided.jsonl`` holds the keys of the items the user accepted or rejected, so
a re-run of the same import proposes nothing already decided. A key is a hash of the item's
normalised conclusion, so a decision is kept as a hash, never as the text the user turned down.
Both files are rewritten atomically (pending) or appended (decided) under the project lock.
"""
from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from chord_git.memory import records, store
from chord_git.memory.atomic import fsync_dir, replace_atomically
from chord_git.memory.project import Project
from chord_git.support.dataclass_lazy import dataclass

IMPORTS_DIR = "imports"
PENDING_FILE = "pending.jsonl"
DECIDED_FILE = "decided.jsonl"
ID_PREFIX = "imp-"
DECISIONS = ("accepted", "rejected")


@dataclass(frozen=True)
class Origin:
    source: str  # the registry name (claude-code, codex…)
    store: str  # the store as shown (home folder as ~)
    file: str  # store-relative
    line: int

    def as_json(self) -> dict[str, object]:
        return {"source": self.source, "store": self.store, "file": self.file, "line": self.line}

    def where(self) -> str:
        return f"{self.source}: {self.store.rstrip('/')}/{self.file}:{self.line}"


@dataclass(frozen=True)
class PendingImport:
    id: str
    text: str
    created: str
    origins: tuple[Origin, ...]
    keys: tuple[str, ...]  # the item's key, and the keys of the texts it had before an edit

    def as_json(self) -> dict[str, object]:
        return {"id": self.id, "source": "imported", "status": "unverified", "text": self.text,
                "created": self.created, "origins": [o.as_json() for o in self.origins], "keys": list(self.keys)}


def key(text: str, normal_key: str | None = None) -> str:
    """The item's identity: its conclusion after normalisation (punctuation, case, spacing);
    ``normal_key`` is that normalisation when the caller has it (``claims.conclusion_key``)."""
    from chord_git.judge.claims import conclusion_key

    normal = (conclusion_key(text) if normal_key is None else normal_key) or records.normalize_text(text)
    return hashlib.sha256(normal.encode("utf-8")).hexdigest()[:32]


def pending_id(item_key: str) -> str:
    return f"{ID_PREFIX}{item_key[:10]}"


def _folder(project: Project) -> Path:
    return project.state_dir / IMPORTS_DIR


def _parse(line: str) -> PendingImport | None:
    try:
        data: Any = json.loads(line)
        origins = tuple(Origin(str(o["source"]), str(o["store"]), str(o["file"]), int(o["line"]))
                        for o in data["origins"])
        found = PendingImport(str(data["id"]), str(data["text"]), str(data["created"]), origins,
                              tuple(str(k) for k in data["keys"]))
    except (ValueError, KeyError, TypeError):
        return None
    return found if records.valid_id(found.id) and found.text.strip() and found.keys else None


def read_pending(project: Project) -> list[PendingImport]:
    """Every pending import that parses (the file is state: a damaged line is skipped)."""
    try:
        data = (_folder(project) / PENDING_FILE).read_text("utf-8", "replace")
    except (FileNotFoundError, NotADirectoryError):
        return []
    return [item for item in map(_parse, data.splitlines()) if item is not None]


def write_pending(project: Project, items: Iterable[PendingImport]) -> None:
    """Replace the pending list (the caller holds the project lock)."""
    folder = _folder(project)
    store.ensure_state_dir(project)
    folder.mkdir(mode=0o700, exist_ok=True)
    data = "".join(json.dumps(item.as_json(), ensure_ascii=False) + "\n" for item in items)
    replace_atomically(folder / PENDING_FILE, data.encode("utf-8"), project.state_dir / "tmp", mode=0o600)


def decided_keys(project: Project) -> set[str]:
    try:
        data = (_folder(project) / DECIDED_FILE).read_text("utf-8", "replace")
    except (FileNotFoundError, NotADirectoryError):
        return set()
    found: set[str] = set()
    for line in data.splitlines():
        try:
            entry = json.loads(line)
            found.update(str(k) for k in entry["keys"])
        except (ValueError, KeyError, TypeError):
            continue
    return found


def record_decision(project: Project, kind: str, item: PendingImport, date: str) -> None:
    """Append the decision on ``item`` (its keys, never its text) and make it durable."""
    assert kind in DECISIONS
    folder = _folder(project)
    store.ensure_state_dir(project)
    folder.mkdir(mode=0o700, exist_ok=True)
    line = json.dumps({"kind": kind, "id": item.id, "keys": list(item.keys), "date": date}) + "\n"
    fd = os.open(folder / DECIDED_FILE, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
    try:
        os.write(fd, line.encode("utf-8"))
        os.fsync(fd)
    finally:
        os.close(fd)
    fsync_dir(folder)
