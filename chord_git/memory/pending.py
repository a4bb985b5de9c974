"""Pending entries: new memory on a branch other than the default one, one file per entry (R33).

Servers that merge pull requests run no merge driver, and two branches that each put a new line on
top of MEMORY.md's managed section edit the same lines: a conflict, every time. So on a side branch
an extraction does not touch MEMORY.md for what it adds; each new entry gets its own file,
``.chord/memory/pending/<id>.md``, named after its record and created once, never rewritten::

    <!-- chord:memory:pending at=2026-12-01T18:03:12.123456Z seq=0 replaces=<old id> -->
    - [preference] Use pnpm, never npm. ([<id>](.chord/memory/records/<id>.md))

Files that no two branches ever both create or edit cannot conflict under a plain text merge. The
header orders them: newest run first (``at``, UTC to the microsecond), then the reply's order
(``seq``), then the id, so the order after any merge is the same wherever it is computed.
``replaces`` is the index entry the entry revises (R22): it takes that line's place.

Everything that reads memory reads the index *with* its pending entries (``overlay``): they are
entries, on top (revisions in place), exactly where the fold will put them. The fold writes them
into MEMORY.md and deletes their files; it runs where only one writer works, on the default branch
(its next extraction or curation, ``git memory fold``, or the CI step). Deleting a pending file
forgets the entry, as deleting its index line does (R34).

Removals wait the same way. A side branch that forgets, retires or promotes an entry MEMORY.md
lists does not delete its line (two branches removing or moving neighbouring lines conflict);
it creates ``.chord/memory/pending/<id>.removed.md`` instead::

    <!-- chord:memory:removal of=<id> -->

Its bytes depend on the id alone, so two branches that both remove an entry add the same file,
which a plain text merge takes as one. Readers hide the entry at once; the fold deletes its line
and the file. Deleting the file before the fold brings the entry back on that branch.
"""
from __future__ import annotations

import datetime as dt
import os
import re
from collections.abc import Iterable, Sequence
from pathlib import Path

from chord_git.support.dataclass_lazy import dataclass, replace
from chord_git.findings import Problem
from chord_git.memory import index_file, paths

PENDING_DIR = ".chord/memory/pending"
MAX_PENDING_BYTES = 4096  # a header and one index line; anything larger is not ours
_HEADER_RE = re.compile(
    r"^<!-- chord:memory:pending at=(?P<at>\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z) seq=(?P<seq>\d{1,6})"
    r"(?: replaces=(?P<replaces>[a-z0-9][a-z0-9-]{2,79}))? -->$")
_NAME_RE = re.compile(r"^([a-z0-9][a-z0-9-]{2,79})\.md$")
# A record id holds no dot, so a removal's name can never be a pending entry's.
_REMOVAL_NAME_RE = re.compile(r"^([a-z0-9][a-z0-9-]{2,79})\.removed\.md$")
_REMOVAL_RE = re.compile(r"^<!-- chord:memory:removal of=(?P<id>[a-z0-9][a-z0-9-]{2,79}) -->$")


@dataclass(frozen=True)
class Pending:
    """One pending entry, as its file holds it."""

    entry: index_file.Entry
    at: str  # when its run wrote it, UTC, fixed width: sorts as text
    seq: int  # its place in that run's reply
    replaces: str | None = None  # the index entry it revises

    @property
    def id(self) -> str:
        return self.entry.id

    def rel(self) -> str:
        return f"{PENDING_DIR}/{self.entry.id}.md"


@dataclass(frozen=True)
class Removal:
    """An index entry a side branch removed: hidden by readers, its line deleted by the fold."""

    id: str

    def file_name(self) -> str:
        return f"{self.id}.removed.md"

    def rel(self) -> str:
        return f"{PENDING_DIR}/{self.file_name()}"


def removal_id(name: str) -> str | None:
    """The entry id of a removal file's name, else None."""
    match = _REMOVAL_NAME_RE.match(name)
    return match.group(1) if match else None


def render_removal(item: Removal) -> str:
    return f"<!-- chord:memory:removal of={item.id} -->\n"


def parse_removal(text: str, rid: str) -> Removal | Problem:
    """The removal of file ``<rid>.removed.md`` from its text, or the first problem (pure)."""
    lines = [line.rstrip("\r") for line in text.lstrip("\ufeff").split("\n") if line.strip()]
    if len(lines) != 1:
        return Problem(min(len(lines), 2) or 1, "pending-lines", "a removal file holds one line")
    header = _REMOVAL_RE.match(lines[0].strip())
    if header is None:
        return Problem(1, "pending-header", "expected '<!-- chord:memory:removal of=<id> -->'")
    if header["id"] != rid:
        return Problem(1, "pending-name", f"removal of {header['id']} does not match the file name {rid}.removed.md")
    return Removal(rid)


def pending_dir(root: Path) -> Path:
    return root / PENDING_DIR


def timestamp(now: dt.datetime | None = None) -> str:
    moment = (now or dt.datetime.now(dt.timezone.utc)).astimezone(dt.timezone.utc)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def render(item: Pending) -> str:
    extra = f" replaces={item.replaces}" if item.replaces else ""
    entry = replace(item.entry, raw=None)
    return f"<!-- chord:memory:pending at={item.at} seq={item.seq}{extra} -->\n{entry.render()}\n"


def parse(text: str, rid: str) -> Pending | Problem:
    """The pending entry of file ``<rid>.md`` from its text, or the first problem (pure)."""
    lines = [line.rstrip("\r") for line in text.lstrip("\ufeff").split("\n")]
    while lines and not lines[-1].strip():
        lines.pop()
    if not lines:
        return Problem(1, "pending-empty", "empty pending entry file")
    header = _HEADER_RE.match(lines[0].strip())
    if header is None:
        return Problem(1, "pending-header", "expected '<!-- chord:memory:pending at=<UTC time> seq=<n> -->'")
    if len(lines) != 2:
        return Problem(min(len(lines), 3), "pending-lines", "a pending entry file holds its header and one index line")
    entry = index_file.parse_entry(lines[1], 2)
    if isinstance(entry, str):
        return Problem(2, "pending-entry", entry)
    if entry.id != rid:
        return Problem(2, "pending-name", f"entry id {entry.id} does not match the file name {rid}.md")
    replaces = header["replaces"]
    if replaces == rid:
        return Problem(1, "pending-header", "an entry cannot replace itself")
    return Pending(replace(entry, raw=None, line=None, eol=None), header["at"], int(header["seq"]), replaces)


def ordered(items: Iterable[Pending]) -> list[Pending]:
    """Newest run first, then each run's reply order, then the id: one order wherever computed."""
    by_run = sorted(items, key=lambda p: (p.seq, p.id))
    return sorted(by_run, key=lambda p: p.at, reverse=True)


@dataclass(frozen=True)
class PendingSet:
    """The pending entries of a project, newest first, its pending removals, and the files that
    are neither."""

    items: tuple[Pending, ...] = ()
    problems: tuple[tuple[str, Problem], ...] = ()  # (project-relative file, problem)
    removals: tuple[Removal, ...] = ()

    def ids(self) -> frozenset[str]:
        return frozenset(p.id for p in self.items)

    def hidden(self) -> frozenset[str]:
        return frozenset(r.id for r in self.removals)

    def __bool__(self) -> bool:
        return bool(self.items or self.removals)


def names(root: Path) -> list[str]:
    """The file names in the pending folder (none when it is missing or reached through a symlink)."""
    folder = pending_dir(root)
    if paths.escape_reason(root, folder):
        return []
    try:
        return sorted(os.listdir(folder))
    except (FileNotFoundError, NotADirectoryError):
        return []


def read_all(root: Path) -> PendingSet:
    """Every pending entry file, parsed; a file that is not one is a problem (``check``) and is
    left out of the index, as a bad index line is."""
    items: list[Pending] = []
    removals: list[Removal] = []
    problems: list[tuple[str, Problem]] = []
    folder = pending_dir(root)
    for name in names(root):
        match = _NAME_RE.match(name)
        removed = removal_id(name)
        rel = f"{PENDING_DIR}/{name}"
        if match is None and removed is None:
            if not name.startswith("."):
                problems.append((rel, Problem(None, "pending-name",
                                              "not a pending file name (<record id>.md or <id>.removed.md)")))
            continue
        try:
            data = paths.read_inside(root, folder / name, MAX_PENDING_BYTES + 1)
        except paths.UnsafePath as exc:
            problems.append((rel, Problem(None, "unsafe-path", exc.message)))
            continue
        except OSError as exc:
            problems.append((rel, Problem(None, "io", f"cannot read: {exc.strerror}")))
            continue
        if len(data) > MAX_PENDING_BYTES:
            problems.append((rel, Problem(None, "pending-size", f"over {MAX_PENDING_BYTES} bytes")))
            continue
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            problems.append((rel, Problem(None, "encoding", "not valid UTF-8")))
            continue
        parsed: Pending | Removal | Problem = (parse(text, match.group(1)) if match is not None
                                               else parse_removal(text, removed or ""))
        if isinstance(parsed, Problem):
            problems.append((rel, parsed))
        elif isinstance(parsed, Removal):
            removals.append(parsed)
        else:
            items.append(parsed)
    return PendingSet(tuple(ordered(items)), tuple(problems), tuple(removals))


def fold_delta(items: Sequence[Pending], present: Iterable[str],
               hidden: Iterable[str] = ()) -> index_file.IndexDelta:
    """The index change that puts ``items`` (newest first) into an index listing ``present``:
    revisions of a listed entry in its place (the newest one when two revise the same entry),
    everything else on top in order. Entries listed already are left alone. The ``hidden``
    entries (pending removals) go, except one a pending revision takes the place of: of a
    forget on one branch and a revision on another, the newer words stay (pure)."""
    listed = set(present)
    inserts: list[index_file.Entry] = []
    revisions: dict[str, index_file.Entry] = {}
    for item in items:
        if item.id in listed:
            continue
        if item.replaces and item.replaces in listed and item.replaces not in revisions:
            revisions[item.replaces] = item.entry
        else:
            inserts.append(item.entry)
    remove = frozenset(rid for rid in hidden if rid in listed and rid not in revisions)
    return index_file.IndexDelta(insert=tuple(inserts), replace=revisions, remove=remove)


def overlay(doc: index_file.MemoryDoc | None, items: Sequence[Pending],
            hidden: Iterable[str] = ()) -> index_file.MemoryDoc | None:
    """The index a reader sees: ``doc`` with ``items`` folded in and the ``hidden`` entries gone
    (pure). A document with broken markers stays None: nothing can be placed in it."""
    hidden = frozenset(hidden)
    if not items and not hidden:
        return doc
    base = doc if doc is not None else index_file.new_document()
    return index_file.apply(base, fold_delta(items, base.ids(), hidden))
