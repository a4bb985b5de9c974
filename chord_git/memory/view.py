"""Read-side view of a project's memory: the index as it is now, record files, orphans (R24, R34)."""
from __future__ import annotations

import os
import re
from collections.abc import Mapping
from pathlib import Path

from chord_git.support.dataclass_lazy import dataclass, field, replace
from chord_git.errors import InputError
from chord_git.findings import Problem
from chord_git.memory import index_file, paths, pending, records
from chord_git.memory.project import MEMORY_FILE, Project
from chord_git.memory.records import RecordFacts


@dataclass(frozen=True)
class IndexState:
    """MEMORY.md as read at one moment: the parsed document (None when its markers are broken)
    and its problems, under the project-relative name ``rel``."""

    doc: index_file.MemoryDoc | None
    problems: tuple[Problem, ...]
    exists: bool
    rel: str = MEMORY_FILE
    pending: frozenset[str] = frozenset()  # ids of the entries that wait in pending files (R33)

    @property
    def blocking(self) -> Problem | None:
        """The first problem that makes the managed section unusable, if any."""
        return index_file.blocking(self.problems)

    @property
    def usable(self) -> bool:
        """Whether the managed section can be written to (R36: MEMORY-FAIL otherwise)."""
        return self.doc is not None and self.blocking is None

    @property
    def unusable_reason(self) -> str | None:
        """``managed section unusable: MEMORY.md:3: ...`` for an existing file that cannot be written."""
        if not self.exists or self.usable:
            return None
        problem = self.blocking or Problem(None, "parse", "cannot parse")
        return f"managed section unusable: {problem.at(self.rel)}"

    def unusable_error(self) -> InputError:
        return index_file.unusable(self.rel, self.blocking or Problem(None, "parse", "cannot parse"))

    @property
    def entries(self) -> tuple[index_file.Entry, ...]:
        return self.doc.entries if self.doc is not None else ()


def parse_index(data: bytes | None, rel: str) -> IndexState:
    """The state of MEMORY.md from its bytes (None: the file does not exist)."""
    if data is None:
        return IndexState(doc=None, problems=(), exists=False, rel=rel)
    doc, problems = index_file.parse_bytes(data)
    return IndexState(doc=doc, problems=tuple(problems), exists=True, rel=rel)


def overlaid(project: Project, state: IndexState, found: pending.PendingSet | None = None) -> IndexState:
    """``state`` as readers see it: with the pending entries folded in where the fold will put
    them (R33). A file with broken markers stays as it is: nothing can be placed in it."""
    found = found if found is not None else pending.read_all(project.root)
    if not found or (state.exists and state.doc is None):
        return state
    doc = pending.overlay(state.doc, found.items, found.hidden())
    return replace(state, doc=doc, pending=found.ids() - frozenset(state.doc.ids() if state.doc else ()))


def read_index(project: Project) -> IndexState:
    """MEMORY.md with its pending entries, as every reader sees the index (R33)."""
    return overlaid(project, read_index_file(project))


def read_index_file(project: Project) -> IndexState:
    """MEMORY.md alone, as its bytes parse."""
    rel = project.relative(project.memory_md)
    try:
        data = paths.read_inside(project.root, project.memory_md)
    except FileNotFoundError:
        return parse_index(None, rel)
    except paths.UnsafePath as exc:
        return IndexState(doc=None, problems=(Problem(None, "unsafe-path", exc.message),), exists=True, rel=rel)
    except OSError as exc:
        return IndexState(doc=None, problems=(Problem(None, "io", f"cannot read: {exc.strerror}"),), exists=True, rel=rel)
    return parse_index(data, rel)


def read_clean_section(project: Project) -> index_file.CleanSection | IndexState:
    """MEMORY.md's managed section when it is clean (``index_file.clean_section``: a few string
    searches and one regex pass, for counts over a large index); else ``read_index``, which
    also serves a project with pending entries (R33)."""
    if pending.names(project.root):
        return read_index(project)
    try:
        data = paths.read_inside(project.root, project.memory_md)
    except (OSError, paths.UnsafePath):
        return read_index(project)
    section = index_file.clean_section(index_file.decode(data)[0])
    return section if section is not None else parse_index(data, project.relative(project.memory_md))


def record_ids(project: Project, listed: list[str] | None = None) -> list[str]:
    """Ids of the record files present (names only; nothing is opened), from the folder's names
    when the caller ``listed`` it already. A records folder reached through a symlink holds
    nothing of ours (``check`` reports it)."""
    if listed is not None:
        names = listed
    elif paths.escape_reason(project.root, project.records_dir):
        return []
    else:
        try:
            names = os.listdir(project.records_dir)
        except (FileNotFoundError, NotADirectoryError):
            return []
    # One pass over all names ('/' cannot occur in a file name), not a match per file.
    return sorted(_RECORD_NAME.findall("/".join(names)))


# A record file name (``records.ID_RE`` + ".md") between slashes.
_RECORD_NAME = re.compile(r"(?:^|(?<=/))([a-z0-9][a-z0-9-]{2,79})\.md(?=/|$)")


def promotion_files(project: Project) -> list[Path]:
    if paths.escape_reason(project.root, project.promotions_dir):
        return []
    try:
        return sorted(p for p in project.promotions_dir.iterdir() if p.suffix == ".md" and p.is_file())
    except (FileNotFoundError, NotADirectoryError):
        return []


def orphan_ids(project: Project, state: IndexState | None = None) -> list[str]:
    """Record files no index line points to (R34): deleted entries and superseded sources."""
    state = state or read_index(project)
    listed = {entry.id for entry in state.entries}
    return [rid for rid in record_ids(project) if rid not in listed]


def load_record(project: Project, rid: str) -> records.Record | None:
    """The loader: a record that breaks a rule (cap, field, symlink, escape) is skipped (R24)."""
    try:
        path = records.safe_record_path(project.records_dir, rid)
    except InputError:
        return None
    record, _problems = records.read(path)
    return record


@dataclass(frozen=True)
class Snapshot:
    """A project's memory read once for one run: the index and every record file's facts.

    Extraction builds it before the model call and hands it to the input, the guards, index
    maintenance and curation, so MEMORY.md and the records are not read again and again (a hand
    edit landing between two reads would otherwise give one run two views). Only a write
    re-reads MEMORY.md, under the lock, and ``refreshed`` then adds record files that appeared
    meanwhile (a concurrent run's) without reading the others again.
    """

    index: IndexState
    records: Mapping[str, RecordFacts] = field(default_factory=dict)

    def facts(self, rid: str) -> RecordFacts:
        return self.records.get(rid, records.UNREADABLE)

    def with_index(self, index: IndexState) -> Snapshot:
        return replace(self, index=index)

    def refreshed(self, project: Project, index: IndexState) -> Snapshot:
        """This snapshot with ``index`` (read under the lock) and the record files present now."""
        present = record_ids(project)
        folder = project.records_dir
        return Snapshot(index, {rid: self.records[rid] if rid in self.records
                                else records.facts(folder / f"{rid}.md") for rid in present})


def snapshot(project: Project) -> Snapshot:
    """Read MEMORY.md once and every record file once."""
    index = read_index(project)
    return Snapshot(index).refreshed(project, index)
