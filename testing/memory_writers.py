"""Processes that write MEMORY.md at the same time, for the concurrency and crash tests.

``insert ROOT TAG N``: insert N entries through the store, one delta each.
``edit ROOT STOP``: act like an editing tool that goes through the store (as ``review move`` does)
until the STOP file appears: add a note line outside the markers and move an entry to the top,
under the store's lock. Prints the number of notes it added.
``save ROOT NOTE DELAY``: one uncoordinated save, like a person's editor: read MEMORY.md, wait
DELAY seconds, write it back with NOTE added, by plain rename, without the store's lock.
``inplace ROOT STOP LOG SEED``: an editor that saves in place (VS Code, nano, a shell ``>``) until
STOP appears: read the file, add a note, truncate the file, pause, write the text into the same
inode. Each save appends ``{"note", "t_read", "t_trunc"}`` (CLOCK_MONOTONIC) to LOG.
``insert`` takes an optional LOG too: one ``{"id", "t0", "t1"}`` line per insert.
``insert-until ROOT TAG STOP``: insert entries, one delta each, until the STOP file appears; prints
how many.
``overwrite ROOT SOURCE``: one in-place save of a buffer read earlier: open MEMORY.md for
writing, truncate it, write SOURCE's bytes (``saving_in_place`` starts it at a chosen moment).

With ``CHORD_WRITERS_NO_LEASES=1`` in the environment, the store in these processes takes no
file leases, as on a file of another owner or a network file system. ``inplace`` pauses up to
``CHORD_WRITERS_PAUSE`` seconds (default 0.01) between its truncate and its write, and as long
between two saves.
"""
from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path

from chord_git.errors import LockTimeout
from chord_git.memory import index_file, store
from chord_git.memory.index_file import Entry, IndexDelta
from chord_git.memory.project import discover
from testing.waiting import wait_for


def insert(root: Path, tag: str, count: int, log: Path | None = None) -> None:
    """Insert ``count`` entries; a write the store refuses (it never settled: nothing written) is
    logged as refused and the writer goes on, as a caller that tries again later would."""
    project = discover(root)
    for number in range(count):
        entry = Entry(type="fact", summary=f"Entry {number} from writer {tag}.", id=f"w{tag}-{number:03d}")
        started = time.monotonic()
        try:
            store.apply_delta(project, IndexDelta(insert=(entry,)))
        except LockTimeout:
            if log is None:
                raise
            _append(log, {"id": entry.id, "t0": started, "t1": time.monotonic(), "refused": True})
            continue
        if log is not None:
            _append(log, {"id": entry.id, "t0": started, "t1": time.monotonic()})


def insert_until(root: Path, tag: str, stop: Path) -> int:
    """Insert entries through the store until the STOP file appears; returns how many."""
    project = discover(root)
    number = 0
    while not stop.exists():
        entry = Entry(type="fact", summary=f"Entry {number} from writer {tag}.", id=f"w{tag}-{number:03d}")
        store.apply_delta(project, IndexDelta(insert=(entry,)))
        number += 1
    return number


def _append(log: Path, event: dict[str, object]) -> None:
    with open(log, "a", encoding="utf-8") as handle:
        handle.write(json.dumps(event) + "\n")


def inplace(root: Path, stop: Path, log: Path, seed: int) -> int:
    """Save in place with a pause between truncating and writing, as slow editors do."""
    path = discover(root).memory_md
    rng = random.Random(seed)
    pause = float(os.environ.get("CHORD_WRITERS_PAUSE", "0.01"))
    notes = 0
    while not stop.exists():
        t_read = time.monotonic()
        text = path.read_text("utf-8")
        head, rest = text.split(index_file.BEGIN, 1)
        data = f"{head}in-place note {notes}\n{index_file.BEGIN}{rest}".encode()
        fd = os.open(path, os.O_WRONLY)
        try:
            os.ftruncate(fd, 0)
            t_trunc = time.monotonic()
            time.sleep(rng.uniform(0, pause))
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view):]
        finally:
            os.close(fd)
        _append(log, {"note": notes, "t_read": t_read, "t_trunc": t_trunc})
        notes += 1
        time.sleep(rng.uniform(0, max(0.005, pause)))  # long pauses: the file is whole half the time
    return notes


def overwrite(root: Path, source: Path) -> None:
    fd = os.open(discover(root).memory_md, os.O_WRONLY)
    try:
        os.ftruncate(fd, 0)
        view = memoryview(source.read_bytes())
        while view:
            view = view[os.write(fd, view):]
    finally:
        os.close(fd)


def _lease_breaking(path: Path, timeout: float = 60.0) -> bool:
    """Wait until someone's open of ``path`` for writing is held up by a read lease (Linux lists
    the lease as BREAKING in /proc/locks)."""
    info = os.stat(path)
    inode = f"{os.major(info.st_dev):02x}:{os.minor(info.st_dev):02x}:{info.st_ino} "

    def breaking() -> bool:
        return any("LEASE" in line and "BREAKING" in line and inode in line
                   for line in Path("/proc/locks").read_text().splitlines())

    return wait_for(breaking, timeout=timeout, poll=0.005)


def saving_in_place(root: Path, data: bytes) -> subprocess.Popen[str]:
    """Start an editor saving ``data`` (a buffer it read earlier) into MEMORY.md in place, and
    return once its open waits on a store write's read lease: the save has begun, nothing is
    written yet. Call it while a write holds MEMORY.md leased; ``finish`` the editor after."""
    source = root.parent / "editor-buffer"
    source.write_bytes(data)
    editor = _spawn("overwrite", str(root), str(source))
    if not _lease_breaking(discover(root).memory_md):
        editor.kill()
        raise AssertionError(f"the editor's save never waited on a lease: {editor.communicate()}")
    return editor


def finish(proc: subprocess.Popen[str]) -> str:
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err
    return out


def _edit(data: bytes | None, note: str) -> bytes:
    assert data is not None
    text, bom = index_file.decode(data)
    doc, problems = index_file.parse(text)
    if doc is None:
        raise SystemExit(f"editor saw a broken file: {problems[0].at('MEMORY.md')}")
    prefix = doc.prefix
    if note not in prefix:
        head, marker = prefix.rsplit(index_file.BEGIN, 1)
        prefix = f"{head}{note}\n{index_file.BEGIN}{marker}"
    lines = list(doc.lines)
    if len(lines) > 1:
        lines.insert(0, lines.pop())  # the user moves the last entry to the top
    new = index_file.MemoryDoc(prefix=prefix, lines=tuple(lines), suffix=doc.suffix, newline=doc.newline,
                          has_markers=True, bom=bom)
    return index_file.encode(index_file.render(new), bom)


def edit(root: Path, stop: Path) -> int:
    project = discover(root)
    notes = 0
    while not stop.exists():
        note = f"user note {notes}"
        with store.locked(project):
            store.cas_rewrite(project, project.memory_md, lambda data, note=note: _edit(data, note))
        notes += 1
        time.sleep(0.002)
    return notes


def save(root: Path, note: str, delay: float) -> None:
    path = discover(root).memory_md
    text = path.read_text("utf-8")
    time.sleep(delay)
    head, rest = text.split(index_file.BEGIN, 1)
    tmp = path.with_name(".MEMORY.md.editor-swp")
    tmp.write_text(f"{head}{note}\n{index_file.BEGIN}{rest}", "utf-8")
    tmp.replace(path)


# ---------------------------------------------------------------------------- the stress run
def _spawn(*args: str) -> subprocess.Popen[str]:
    root = Path(__file__).resolve().parent.parent
    env = dict(os.environ, PYTHONPATH=str(root))
    return subprocess.Popen([sys.executable, "-m", "testing.memory_writers", *args], cwd=root,
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _events(log: Path) -> list[dict[str, float]]:
    if not log.exists():
        return []
    return [json.loads(line) for line in log.read_text().splitlines() if line.strip()]


def inplace_stress(repo: Path, writers: int, inserts: int, seed: int) -> dict[str, int]:
    """Writers insert through the store while an editor saves in place (truncate, pause, write).

    Returns the counts a run is judged by. An entry may only be missing if it was written while
    the editor held a stale buffer: between the editor's read and its truncate.
    """
    project = discover(repo)
    store.apply_delta(project, IndexDelta(insert=(Entry(type="fact", summary="Seed.", id="seed-1"),)))
    stop, editor_log, writer_log = repo.parent / "stop", repo.parent / "editor.jsonl", repo.parent / "writers.jsonl"
    editor = _spawn("inplace", str(repo), str(stop), str(editor_log), str(seed))
    procs = [_spawn("insert", str(repo), f"{seed}x{tag}", str(inserts), str(writer_log)) for tag in range(writers)]
    for proc in procs:
        _out, err = proc.communicate(timeout=600)
        assert proc.returncode == 0, err
    stop.touch()
    out, err = editor.communicate(timeout=120)
    assert editor.returncode == 0, err
    notes = int(out.strip())
    doc, problems = index_file.parse(project.memory_md.read_text("utf-8"))
    assert doc is not None and not problems, problems
    saves = _events(editor_log)
    events = _events(writer_log)
    inserted = [e for e in events if not e.get("refused")]
    present = set(doc.ids())
    lost = [e for e in inserted if e["id"] not in present]
    stale = [e for e in lost
             if any(e["t0"] < s["t_trunc"] and e["t1"] > s["t_read"] for s in saves)]
    return {
        "notes": notes, "notes_lost": sum(f"in-place note {n}\n" not in doc.prefix for n in range(notes)),
        "header_lost": int(not doc.prefix.startswith("# Project memory")),
        "entries": len(inserted), "lost": len(lost), "lost_unexplained": len(lost) - len(stale),
        "refused": len(events) - len(inserted),
    }



if __name__ == "__main__":
    if os.environ.get("CHORD_WRITERS_NO_LEASES") == "1":
        from chord_git.memory import quiet

        quiet.lease = lambda fd: None  # as where leases cannot be used: the settle-and-compare path
    command, root = sys.argv[1], Path(sys.argv[2])
    if command == "insert":
        insert(root, sys.argv[3], int(sys.argv[4]), Path(sys.argv[5]) if len(sys.argv) > 5 else None)
    elif command == "insert-until":
        print(insert_until(root, sys.argv[3], Path(sys.argv[4])))
    elif command == "inplace":
        print(inplace(root, Path(sys.argv[3]), Path(sys.argv[4]), int(sys.argv[5])))
    elif command == "edit":
        print(edit(root, Path(sys.argv[3])))
    elif command == "save":
        save(root, sys.argv[3], float(sys.argv[4]))
    elif command == "overwrite":
        overwrite(root, Path(sys.argv[3]))
    else:
        raise SystemExit(f"unknown command {command}")
