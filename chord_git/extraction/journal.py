"""The run journal: records of a run that died before its index write are finished, never lost (R22, R25).

An extraction creates its record files first and links them into MEMORY.md afterwards. A run
killed in between (``kill -9``, a power cut) would leave record files no index line points to,
and those read exactly like memories the user deleted: the next run would refuse to write their
conclusions again, forever. So before creating records a run writes a journal into the state
directory, ``runs/<run>.json``, with the index change it is about to make, and holds an exclusive
``flock`` on it for as long as it lives. The next run, under the project lock, finds journals whose
lock is free (their run is dead), applies their index change for the records that exist (the
change is idempotent: ids already listed are not added twice), and removes the journal. A run that
fails in-process removes its own records and journal.
"""
from __future__ import annotations

import json
import os
import time
from collections.abc import Sequence
from pathlib import Path

from chord_git.support.dataclass_lazy import dataclass
from chord_git.memory import folding, index_file, records, store
from chord_git.memory.project import Project

RUNS_DIR = "runs"


def runs_dir(project: Project) -> Path:
    return project.state_dir / RUNS_DIR


def _entry_json(entry: index_file.Entry) -> list[str]:
    return [entry.type, entry.summary, entry.id]


def _entry(data: object) -> index_file.Entry | None:
    if (isinstance(data, list) and len(data) == 3 and all(isinstance(x, str) for x in data)
            and data[0] in records.RECORD_TYPES and records.valid_id(data[2])):
        return index_file.Entry(type=data[0], summary=data[1], id=data[2])
    return None


def _payload(delta: index_file.IndexDelta) -> bytes:
    return json.dumps({
        "insert": [_entry_json(e) for e in delta.insert],
        "replace": {old: _entry_json(new) for old, new in delta.replace.items()},
        "started": time.time(),
    }, ensure_ascii=False).encode("utf-8")


@dataclass
class Run:
    path: Path
    fd: int

    def record(self, project: Project, delta: index_file.IndexDelta) -> None:
        """Rewrite the journal with the index change as it now stands (record ids may have moved)."""
        store.replace_atomically(self.path, _payload(delta), project.state_dir / "tmp")
        # The rename replaced the file our lock is on: lock the new one before letting go of the old.
        import fcntl

        fd = os.open(self.path, os.O_RDONLY)
        fcntl.flock(fd, fcntl.LOCK_EX)
        os.close(self.fd)
        self.fd = fd

    def finish(self) -> None:
        """The index write is done (or its records were removed): the journal goes."""
        try:
            self.path.unlink()
        except FileNotFoundError:
            pass
        self.release()

    def release(self) -> None:
        """Let go without finishing: the next run treats this run as dead and links its records."""
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1


def start(project: Project, delta: index_file.IndexDelta) -> Run:
    """Journal the index change ``delta`` before the run creates its records; hold it locked."""
    folder = runs_dir(project)
    store.ensure_state_dir(project)
    folder.mkdir(exist_ok=True)
    path = folder / f"{os.getpid()}-{time.monotonic_ns()}.json"
    store.replace_atomically(path, _payload(delta), project.state_dir / "tmp")
    import fcntl  # deferred, as the store's lock: only writers need it

    fd = os.open(path, os.O_RDONLY)
    fcntl.flock(fd, fcntl.LOCK_EX)
    return Run(path, fd)


@dataclass(frozen=True)
class Recovery:
    linked: tuple[str, ...] = ()  # record ids of dead runs now in the index
    journals: int = 0  # dead runs finished


def recover(project: Project) -> Recovery:
    """Finish the index change of every dead run. Call under the project lock (``store.locked``)."""
    try:
        journals = sorted(p for p in runs_dir(project).iterdir() if p.suffix == ".json")
    except FileNotFoundError:
        return Recovery()
    import fcntl

    linked: list[str] = []
    finished = 0
    for path in journals:
        try:
            fd = os.open(path, os.O_RDONLY)
        except FileNotFoundError:
            continue
        try:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                continue  # its run is alive
            if not path.exists():
                continue  # finished and removed while we waited for nothing
            delta = _read_delta(path)
            if delta is not None:
                present = set(_existing(project, delta))
                kept = index_file.IndexDelta(
                    insert=tuple(e for e in delta.insert if e.id in present),
                    replace={old: new for old, new in delta.replace.items() if new.id in present})
                if not kept.is_empty():
                    folding.write(project, [kept])  # on a side branch: pending entries (R33)
                    linked.extend(e.id for e in kept.insert)
                    linked.extend(e.id for e in kept.replace.values())
            path.unlink()
            finished += 1
        finally:
            os.close(fd)
    return Recovery(tuple(linked), finished)


def _read_delta(path: Path) -> index_file.IndexDelta | None:
    try:
        data = json.loads(path.read_text("utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict):
        return None
    inserts = [e for e in map(_entry, data.get("insert") or []) if e is not None]
    replace_raw = data.get("replace") or {}
    replaces = {old: e for old, raw in replace_raw.items() if records.valid_id(old) and (e := _entry(raw)) is not None} \
        if isinstance(replace_raw, dict) else {}
    return index_file.IndexDelta(insert=tuple(inserts), replace=replaces)


def _existing(project: Project, delta: index_file.IndexDelta) -> Sequence[str]:
    """Ids of the delta whose record file exists and loads: only finished records are linked."""
    from chord_git.memory import view

    ids = [e.id for e in delta.insert] + [e.id for e in delta.replace.values()]
    return [rid for rid in ids if view.load_record(project, rid) is not None]
