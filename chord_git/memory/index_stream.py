"""MEMORY.md read as a stream, for the summary a new session gets (R9, R24, R28).

The file is read line by line and only as far as the budget goes, so the cost follows the budget,
not the size of the index. Where ``index_file.parse`` reads the file without a marker problem,
the entries read here are exactly the first of parse's entries (each line judged by
``parse_entry``, a duplicated id skipped as parse skips it) that fit the budget, minus those
whose records must not be loaded; ``tests/memory/test_index_readers.py`` proves it on random
files. Where parse finds the markers unusable, this reader stays lenient, as a session start
must: the first begin marker up to the first end marker after it, or the whole file as plain
text when an end marker comes first or there is none.
"""
from __future__ import annotations

import os
import re
import time
from collections.abc import Callable, Mapping, Sequence, Set as AbstractSet
from pathlib import Path
from typing import BinaryIO

from chord_git.support.dataclass_lazy import dataclass, field
from chord_git.memory import loadable, paths
from chord_git.memory.index_file import BEGIN, END, FOREIGN_PROBE, MarkerScanner, foreign_problem, line_cost, parse_entry

_READ_CHUNK = 1 << 20
_MARKER_WORD = b"chord:memory:"
_END_BYTES = re.compile(rb"[ \t]*<!--[ \t]*chord:memory:end[ \t]*-->[ \t]*\r?\Z")


@dataclass(frozen=True)
class StreamedIndex:
    section: bool  # False: no usable managed section; ``notes`` is the file as plain text
    entries: list[str]  # the line of each entry shown, in order
    notes: list[str]  # the user's lines around the markers, as far as the budget reaches
    truncated: bool  # an entry did not fit the budget
    warnings: list[str]
    # What the injection manifest records (``memory/injection.py``): the ids shown, each entry line
    # left out with its reason, and the first entry over the budget (it and all below it are left out).
    ids: list[str] = field(default_factory=list)
    skipped: list[tuple[int, str | None, str]] = field(default_factory=list)  # (line, id or None, why)
    cut: tuple[int, str] | None = None  # (line, id)


def _decode(line: bytes, first: bool) -> str:
    text = line.decode("utf-8", "replace").rstrip("\r\n")
    return text.removeprefix("\ufeff") if first else text  # a BOM only starts the file


def _skip_rest(read: object) -> None:
    """Read past the rest of a line that was cut, without keeping it."""
    rest = b"-"
    while rest and not rest.endswith(b"\n"):
        rest = read(_READ_CHUNK)  # type: ignore[operator]


def read(path: Path, budget: int, rel: str = "MEMORY.md",
         verdicts: loadable.Verdicts | None = None, *, deadline: float | None = None,
         top: Sequence[str] = (), swap: Mapping[str, str] | None = None,
         hide: AbstractSet[str] = frozenset(),
         gate: Callable[[str, str, bool], str | None] | None = None) -> StreamedIndex:
    """Stream MEMORY.md into at most ``budget`` characters of entries and the user's text.

    With markers: index entries from the top until the budget is spent (R28), then the user's
    hand-written text around the markers. Without markers: the file as plain text. A line outside
    the section is cut at a bound (it is text the budget cuts anyway); a line inside it is judged
    whole, as parse judges it. Past ``deadline`` (``time.monotonic()``) no record is read: an
    entry whose verdict is not cached is left out this time (the verdicts reached so far are
    cached for the next start).

    ``top`` and ``swap`` are the pending entries (R33), as the fold will place them: ``top`` the
    lines that go above the section's first line, ``swap`` old id -> the line that revises it in
    place. A revision of an entry past the budget is not shown, as that entry is not. ``hide``:
    ids of entries a pending removal takes out (the fold deletes their lines); they cost nothing.

    ``gate`` (``memory.inject: reviewed``, ``recall_gate.Gate.entry``): (id, line, may read records)
    -> why the entry must not be recalled, or None. An entry it leaves out costs no budget, as an
    unloadable one does, and is listed in ``skipped`` with its reason.
    """
    swap = swap or {}
    warnings: list[str] = []
    skipped: list[tuple[int, str | None, str]] = []
    ids: list[str] = []
    cut: tuple[int, str] | None = None
    notes: list[str] = []
    notes_size = 0
    entries: list[str] = []
    seen: dict[str, int] = {}
    used = 0
    truncated = False
    state = "before"
    scanner = MarkerScanner()
    limit = (budget + 16) * 4
    with os.fdopen(paths.open_inside(path.parent, path), "rb") as handle:
        # A UTF-16 or UTF-32 file read as UTF-8 is garbage, every line of it: nothing is injected.
        foreign = foreign_problem(handle.peek(FOREIGN_PROBE)[:FOREIGN_PROBE])
        if foreign is not None:
            return StreamedIndex(False, [], [], False, [f"{rel}: {foreign.message}; not loaded"])
        read_line = handle.readline
        number = 0
        while True:
            raw = read_line(limit)
            if not raw:
                break
            number += 1
            if not raw.endswith(b"\n"):
                # Judged whole as parse judges it: a line of the section, and one that may be a
                # marker followed by a long run of blanks. Any other line is text the budget cuts.
                if state == "inside" or _MARKER_WORD in raw:
                    raw += read_line()
                else:
                    _skip_rest(read_line)
            if state != "inside":
                text = _decode(raw, number == 1)
            if state == "before":
                marker = scanner.feed(number, text)
                if marker == "begin":
                    state = "inside"
                    for line in top:
                        entry = parse_entry(line)
                        if isinstance(entry, str) or entry.id in seen:
                            continue
                        seen[entry.id] = 0
                        if gate is not None:
                            held_back = gate(entry.id, line, deadline is None or time.monotonic() < deadline)
                            if held_back is not None:
                                skipped.append((0, entry.id, held_back))
                                continue
                        if used + line_cost(line) > budget:
                            truncated = True
                            cut = (0, entry.id)  # line 0: a pending entry, not a line of the file
                            break
                        unloadable = (verdicts or loadable.Verdicts(path.parent)).why_not(
                            entry.id, entry.summary, read=deadline is None or time.monotonic() < deadline)
                        if unloadable is None:
                            entries.append(line)
                            used += line_cost(line)
                            ids.append(entry.id)
                        else:
                            skipped.append((0, entry.id, unloadable))
                    if truncated:
                        state = "skip"
                        break
                elif marker:
                    warnings.append(f"{rel}:{number}: {END} before {BEGIN}; loading the file as plain text")
                    state = "plain"
                elif notes_size <= budget:
                    notes.append(text)
                    notes_size += len(text) + 1
                continue
            if state == "plain":
                if notes_size <= budget:
                    notes.append(text)
                    notes_size += len(text) + 1
                    continue
                break
            if state == "inside":
                try:
                    text = raw.decode("utf-8").rstrip("\r\n")
                except UnicodeDecodeError:
                    warnings.append(f"{rel}:{number}: skipped: not valid UTF-8")
                    skipped.append((number, None, "not valid UTF-8"))
                    continue
                if scanner.feed(number, text):
                    state = "after"
                    continue
                if not text.strip():
                    continue
                entry = parse_entry(text)
                if isinstance(entry, str):
                    warnings.append(f"{rel}:{number}: skipped: {entry}")
                    skipped.append((number, None, entry))
                    continue
                if entry.id in swap and entry.id not in seen:
                    seen[entry.id] = number  # the old line is listed: its revision takes its place
                    revised = parse_entry(swap[entry.id])
                    if isinstance(revised, str) or revised.id in seen:
                        continue
                    text, entry = swap[entry.id], revised
                if entry.id in hide:
                    continue
                if entry.id in seen:
                    warnings.append(f"{rel}:{number}: skipped: id {entry.id} is already listed at line {seen[entry.id]}")
                    skipped.append((number, entry.id, f"already listed at line {seen[entry.id]}"))
                    continue
                seen[entry.id] = number
                if gate is not None:
                    held_back = gate(entry.id, text, deadline is None or time.monotonic() < deadline)
                    if held_back is not None:  # not reviewed: left out before it costs any budget
                        skipped.append((number, entry.id, held_back))
                        continue
                if used + line_cost(text) > budget:
                    truncated = True
                    cut = (number, entry.id)
                    state = "skip"
                    break
                fresh = deadline is None or time.monotonic() < deadline
                unloadable = (verdicts or loadable.Verdicts(path.parent)).why_not(entry.id, entry.summary, read=fresh)
                if unloadable is not None:  # R24: over a cap, never loaded; costs no budget
                    warnings.append(f"{rel}:{number}: skipped {entry.id}: {unloadable}")
                    skipped.append((number, entry.id, unloadable))
                    continue
                entries.append(text)
                ids.append(entry.id)
                used += line_cost(text)
                continue
            if notes_size <= budget:  # after the end marker
                notes.append(text)
                notes_size += len(text) + 1
            else:
                break
        if state == "skip":
            notes.extend(_notes_after_end_marker(handle, budget))
    if state == "inside":
        warnings.append(f"{rel}: {BEGIN} has no matching {END}")
    if state in ("before", "plain"):
        return StreamedIndex(False, [], notes, False, warnings)
    return StreamedIndex(True, entries, notes, truncated, warnings, ids, skipped, cut)


def _notes_after_end_marker(handle: BinaryIO, budget: int) -> list[str]:
    """Skip the index lines we will not show, without decoding them, and read what follows."""
    read = handle.read
    tail = b""
    while True:
        chunk = read(_READ_CHUNK)
        if not chunk:
            return []
        data = tail + chunk
        start = 0
        while True:
            at = data.find(b"chord:memory:end", start)
            if at < 0:
                break
            line_start = data.rfind(b"\n", 0, at) + 1
            line_end = data.find(b"\n", at)
            if line_end < 0:
                break  # the marker line continues in the next chunk
            if _END_BYTES.match(data[line_start:line_end]):
                rest = data[line_end + 1:] + read(max(budget * 4 - (len(data) - line_end), 0))
                return [_decode(line, False) for line in rest.split(b"\n")]
            start = at + 1
        cut = data.rfind(b"\n")
        # A marker line is short; keeping a bounded tail stops one endless line from filling memory.
        tail = (data[cut + 1:] if cut >= 0 else data)[-4096:]
