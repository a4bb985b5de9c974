"""Processes that write MEMORY.md at the same time, for the concurrency and crash tests.

``insert ROOT TAG N``: insert N entries through the store, one delta each.
``edit ROOT STOP``: act like an editing tool that goes through the store (as ``review move`` does)
until the STOP file appears: add a note line outside the markers and move an entry to the top,
under the store's lock. Prints the number of notes it added.
``save ROOT NOTE DELAY``: one uncoordinated save, like a person's editor: read MEMORY.md, wait
DELAY seconds, write it back with NOTE added, by plain rename, without the store's lock.
"""
from __future__ import annotations

import sys
import time
from pathlib import Path

from chord_git.memory import index_file, store
from chord_git.memory.index_file import Entry, IndexDelta
from chord_git.memory.project import discover


def insert(root: Path, tag: str, count: int) -> None:
    project = discover(root)
    for number in range(count):
        entry = Entry(type="fact", summary=f"Entry {number} from writer {tag}.", id=f"w{tag}-{number:03d}")
        store.apply_delta(project, IndexDelta(insert=(entry,)))


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


if __name__ == "__main__":
    command, root = sys.argv[1], Path(sys.argv[2])
    if command == "insert":
        insert(root, sys.argv[3], int(sys.argv[4]))
    elif command == "edit":
        print(edit(root, Path(sys.argv[3])))
    elif command == "save":
        save(root, sys.argv[3], float(sys.argv[4]))
    else:
        raise SystemExit(f"unknown command {command}")
