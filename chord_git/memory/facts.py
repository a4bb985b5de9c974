"""Counts a command derives from the whole index, kept between runs in the state dir.

``status`` reports how many entries MEMORY.md lists, how many record files exist and how many of
them no entry lists: on a memory of 10,000 records that is a parse of the whole index on every
call, while the answer changes only when MEMORY.md or the records folder does. The answer is
stored under a key made of MEMORY.md's bytes (hashed: exact, where a file's times are only as fine
as the kernel's clock tick) and the records folder's names, so a call that finds them unchanged
reads one small file instead. A missing, corrupt or unwritable store only costs the counting.
"""
from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable, Mapping
from typing import Any

from chord_git.memory import atomic, paths, pending
from chord_git.memory.project import Project

FILE_NAME = "index-facts.json"
FORMAT = 1


def _memory_digest(project: Project) -> str:
    try:
        data = paths.read_inside(project.root, project.memory_md)
    except FileNotFoundError:
        return "absent"
    except (OSError, paths.UnsafePath) as exc:
        return f"unreadable {type(exc).__name__}"
    return hashlib.sha256(data).hexdigest()


def _pending_digest(project: Project) -> str:
    """The pending entry files' names and bytes (a handful of small files, or none)."""
    names = pending.names(project.root)
    if not names:
        return "none"
    digest = hashlib.sha256()
    for name in names:
        digest.update(name.encode("utf-8", "surrogateescape") + b"\0")
        try:
            digest.update(paths.read_inside(project.root, pending.pending_dir(project.root) / name, pending.MAX_PENDING_BYTES + 1))
        except (OSError, paths.UnsafePath) as exc:
            digest.update(type(exc).__name__.encode())
        digest.update(b"\0")
    return digest.hexdigest()


def _records_digest(project: Project) -> tuple[str, list[str] | None]:
    """The digest of the records folder's names, and the names (sorted; None: not listed)."""
    if paths.escape_reason(project.root, project.records_dir):
        return "escaped", None
    try:
        names = os.listdir(project.records_dir)
    except OSError as exc:
        return f"unlisted {type(exc).__name__}", None
    names.sort()
    return hashlib.sha256("/".join(names).encode("utf-8", "surrogateescape")).hexdigest(), names


def cached(project: Project, name: str, settings: Mapping[str, Any],
           compute: Callable[[list[str] | None], dict[str, Any]]) -> dict[str, Any]:
    """``compute(names)`` (a JSON-able dict), or its answer from the last call when MEMORY.md, the
    records folder and ``settings`` are the same. The key is taken before ``compute`` reads
    anything, so a change made meanwhile is counted again next time; ``names`` is the records
    folder as listed for the key (None when it was not listed), so it is listed once."""
    records_digest, names = _records_digest(project)
    key = hashlib.sha256(json.dumps(
        [FORMAT, name, dict(settings), _memory_digest(project), _pending_digest(project), records_digest],
        sort_keys=True).encode()).hexdigest()
    path = project.state_dir / FILE_NAME
    try:
        stored = atomic.read_state_json(path)
        if isinstance(stored, dict) and stored.get("key") == key and isinstance(stored.get("facts"), dict):
            facts: dict[str, Any] = stored["facts"]
            return facts
    except (OSError, ValueError):
        pass
    facts = compute(names)
    try:
        data = json.dumps({"key": key, "facts": facts}, ensure_ascii=False).encode("utf-8")
        atomic.replace_atomically(path, data, project.state_dir, durable=False)
    except OSError:
        pass  # a read-only state dir: the next call counts again
    return facts


__all__ = ["FILE_NAME", "cached"]
