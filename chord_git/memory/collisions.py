"""Collision orphans (R34, R35): entries an editor's stale buffer overwrote are not deletions.

An editor that read MEMORY.md before a background write and saves after it puts back the index as
it was: the entry written in between is gone, and its record reads like a memory the user
deleted, which extraction must never write again. The store remembers the entries it wrote in
the last ``COLLISION_WINDOW`` seconds; one that vanishes without a delta removing it (``forget``,
retirement, promotion) counts as a collision, and a later extraction may write its conclusion
again. A hand deletion within that window counts the same way: the cost is that a conclusion the
user said again may come back, never that one is lost.
"""
from __future__ import annotations

import json
import os
import time
from pathlib import Path

from chord_git.memory import atomic, index_file
from chord_git.memory.project import Project

COLLISION_WINDOW = 600.0
_INSERTED = "index-inserted.json"
_COLLISIONS = "index-collisions.json"


def _read_times(path: Path) -> dict[str, float]:
    try:
        data = atomic.read_state_json(path)
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict):
        return {}
    return {k: float(v) for k, v in data.items() if isinstance(k, str) and isinstance(v, (int, float))}


def note(project: Project, delta: index_file.IndexDelta, found: frozenset[str],
                     written: index_file.MemoryDoc) -> None:
    """After a delta was applied to a file holding ``found``: remember what it placed, and note
    lately written entries that vanished. Bookkeeping only: a failure never fails the write."""
    now = time.time()
    inserted = {k: t for k, t in _read_times(project.state_dir / _INSERTED).items() if now - t < COLLISION_WINDOW}
    vanished = {rid for rid in inserted if rid not in found and rid not in delta.remove}
    new_ids = {e.id for e in delta.insert} | {e.id for e in delta.replace.values()}
    placed = {rid for rid in written.ids() if rid in new_ids}
    if not vanished and not placed and not (set(inserted) & delta.remove):
        return
    for rid in vanished | set(delta.remove):
        inserted.pop(rid, None)
    inserted.update({rid: now for rid in placed})
    write_hint(project.state_dir, _INSERTED, json.dumps(inserted))
    if vanished:
        collisions = _read_times(project.state_dir / _COLLISIONS)
        collisions.update({rid: now for rid in vanished})
        write_hint(project.state_dir, _COLLISIONS, json.dumps(collisions))


def orphans(project: Project, listed: frozenset[str]) -> frozenset[str]:
    """Record ids whose index line an editor's stale buffer overwrote (see the module doc):
    those noted already, and entries written lately that are missing from ``listed`` now."""
    now = time.time()
    recent = {rid for rid, t in _read_times(project.state_dir / _INSERTED).items() if now - t < COLLISION_WINDOW}
    return frozenset(_read_times(project.state_dir / _COLLISIONS)) | (recent - listed)


def write_hint(state_dir: Path, name: str, text: str) -> None:
    """A state file that only helps (no fsync; a failure is ignored): written whole or not at all."""
    tmp = state_dir / "tmp" / f"{name}.{os.getpid()}"
    try:
        tmp.write_text(text, "utf-8")
        os.replace(tmp, state_dir / name)
    except OSError:
        pass
