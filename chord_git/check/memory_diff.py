"""Everything a range changes in what an agent is told, as rows a reviewer reads.

An agent is told MEMORY.md's managed index (with pending entries folded in) as far as the
summary budget goes, the hand-written text around it, and on demand the record files. So a
range changes memory when any of those differ, not only when an entry id comes or goes: an entry
rewritten in place (same id, other words), a record whose body or front matter changed, prose
outside the section, entries moved into or out of the budget or reordered. Each is a row with
its before and after text; any other memory file the range changes is a row too, so "no memory
change" is said only when every memory file is byte-identical in BASE and HEAD.

Reading (pygit2, the two commits' trees) is at the edges; ``rows`` is pure.
"""
from __future__ import annotations

import difflib
import re
from collections.abc import Mapping, Sequence
from pathlib import Path

from chord_git.check.changes import CONFIG_FILE, memory_split
from chord_git.memory import index_file, pending, records
from chord_git.memory.project import MEMORY_FILE, RECORDS_DIR
from chord_git.support.dataclass_lazy import dataclass, replace

_PENDING_NAME = re.compile(r"^([a-z0-9][a-z0-9-]{2,79})\.md$")
# The record's texts a row compares, in the order a reader meets them.
RECORD_TEXTS = ("type", "source", "status", "summary", "statement", "evidence", "session", "supersedes",
                "conclusion", "why", "how_to_apply")

# Row changes (``Row.change``).
ADDED = "added"
REVISES = "revises"
FORGOTTEN = "forgotten"
EDITED = "edited"  # same id: index line or record changed in place
INTO_BUDGET = "into the budget"
OUT_OF_BUDGET = "out of the budget"
REORDERED = "reordered"
OUTSIDE = "text outside the section"
FILE = "file"


@dataclass(frozen=True)
class Side:
    """One project's memory at one commit, as an agent would be told it."""

    entries: tuple[index_file.Entry, ...]
    outside: str  # MEMORY.md's text around the section (all of it without markers)
    records: Mapping[str, bytes]  # record bytes by id, for the ids the rows need


@dataclass(frozen=True)
class Row:
    change: str
    rid: str | None  # the entry, when the row is about one
    summary: str  # the entry's index text (after, or before for a forgotten one) or the file
    path: str  # repository path the row is about (its record, MEMORY.md or the file)
    record: records.Record | None = None  # HEAD's record (BASE's for a forgotten entry)
    type: str = ""  # the entry's type as the index gives it
    before: str = ""
    after: str = ""
    supersedes: str | None = None  # a revision's old id
    touched: tuple[str, ...] = ()  # repository paths whose last commit wrote it

    @property
    def adds_text(self) -> bool:
        return self.change != FORGOTTEN

    @property
    def extracted(self) -> bool:
        """Shaped as the extraction writes it: a new record naming its session. Only a claim of
        the file (the commit's author wrote it), but an edit in place never is one: the
        extraction writes new records and supersedes, it does not rewrite."""
        return self.change in (ADDED, REVISES) and self.record is not None and bool(self.record.session)

    @property
    def assistant(self) -> bool:
        return self.change in (ADDED, REVISES) and (self.record is None or self.record.source == "assistant")

    @property
    def unconfirmed(self) -> bool:
        """Assistant-sourced or unverified (or without its record): what a person should look at."""
        return self.adds_text and self.rid is not None and (
            self.record is None or self.record.source == "assistant" or self.record.status == "unverified")


def _record(data: bytes | None, rid: str) -> records.Record | None:
    return records.from_bytes(data, expected_id=rid)[0] if data is not None else None


def _record_texts(record: records.Record | None, data: bytes | None) -> dict[str, str]:
    if record is None:
        return {"file": data.decode("utf-8", "replace") if data is not None else ""}
    return {name: str(getattr(record, name) or "") for name in RECORD_TEXTS}


def _field_changes(old: dict[str, str], new: dict[str, str]) -> tuple[str, str]:
    names = [name for name in dict.fromkeys([*old, *new]) if old.get(name, "") != new.get(name, "")]
    return ("; ".join(f"{name}: {old.get(name, '')}" for name in names),
            "; ".join(f"{name}: {new.get(name, '')}" for name in names))


def _line_changes(old: str, new: str) -> tuple[str, str]:
    """The lines ``new`` drops from ``old`` and the lines it adds, each joined."""
    removed: list[str] = []
    added: list[str] = []
    old_lines, new_lines = old.splitlines(), new.splitlines()
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, old_lines, new_lines, autojunk=False).get_opcodes():
        if tag in ("replace", "delete"):
            removed += [line for line in old_lines[i1:i2] if line.strip()]
        if tag in ("replace", "insert"):
            added += [line for line in new_lines[j1:j2] if line.strip()]
    return " / ".join(removed), " / ".join(added)


def in_budget(entries: Sequence[index_file.Entry], budget: int) -> list[str]:
    """The ids of the entries a session start injects, in order (R28: from the top, by characters)."""
    return [entry.id for entry in entries[: index_file.fit_count((e.render() for e in entries), budget)]]


def rows(prefix: str, before: Side, after: Side, changed: Sequence[str], budget: int) -> list[Row]:
    """Every change from ``before`` to ``after`` of the project at ``prefix`` (pure).

    ``changed``: the project-relative memory paths whose bytes differ; each ends up in a row.
    """
    def record_path(rid: str) -> str:
        return f"{prefix}{RECORDS_DIR}/{rid}.md"

    had = {entry.id: entry for entry in before.entries}
    has = {entry.id: entry for entry in after.entries}
    explained: set[str] = set()
    out: list[Row] = []
    revised: set[str] = set()
    for entry in after.entries:
        rel = f"{RECORDS_DIR}/{entry.id}.md"
        record = _record(after.records.get(entry.id), entry.id)
        if entry.id not in had:
            old = record.supersedes if record is not None else None
            change = REVISES if old and old in had and old not in has else ADDED
            if change == REVISES and old:
                revised.add(old)
                explained.add(f"{RECORDS_DIR}/{old}.md")
            out.append(Row(change, entry.id, entry.summary, record_path(entry.id), record, entry.type,
                           before=had[old].summary if change == REVISES and old else "",
                           after=record.statement if record is not None else entry.render(),
                           supersedes=old if change == REVISES else None,
                           touched=(record_path(entry.id), prefix + MEMORY_FILE)))
            explained.add(rel)
            continue
        old_line, new_line = had[entry.id].render(), entry.render()
        old_data, new_data = before.records.get(entry.id), after.records.get(entry.id)
        if old_line == new_line and old_data == new_data:
            continue
        old_texts = _record_texts(_record(old_data, entry.id), old_data)
        new_texts = _record_texts(record, new_data)
        index_before, index_after = (old_line, new_line) if old_line != new_line else ("", "")
        fields_before, fields_after = _field_changes(old_texts, new_texts) if old_data != new_data else ("", "")
        out.append(Row(EDITED, entry.id, entry.summary, record_path(entry.id), record, entry.type,
                       before="; ".join(t for t in (index_before, fields_before) if t),
                       after="; ".join(t for t in (index_after, fields_after) if t),
                       touched=(record_path(entry.id), prefix + MEMORY_FILE)))
        explained.add(rel)
    for entry in before.entries:
        if entry.id not in has and entry.id not in revised:
            out.append(Row(FORGOTTEN, entry.id, entry.summary, record_path(entry.id),
                           _record(before.records.get(entry.id), entry.id), entry.type, before=entry.summary,
                           touched=(prefix + MEMORY_FILE,)))
            explained.add(f"{RECORDS_DIR}/{entry.id}.md")
    out += _budget_rows(prefix, before, after, budget)
    if before.outside != after.outside:
        removed, added = _line_changes(before.outside, after.outside)
        out.append(Row(OUTSIDE, None, "MEMORY.md", prefix + MEMORY_FILE, before=removed, after=added,
                       touched=(prefix + MEMORY_FILE,)))
    index_changed = [entry.render() for entry in before.entries] != [entry.render() for entry in after.entries]
    if index_changed or before.outside != after.outside:
        explained.add(MEMORY_FILE)
    if index_changed:
        explained.update(p for p in changed if p.startswith(pending.PENDING_DIR + "/"))
    for rel in changed:
        if rel not in explained and rel != CONFIG_FILE:  # config changes are policy notes
            out.append(Row(FILE, None, rel, prefix + rel, touched=(prefix + rel,)))
    return out


def _budget_rows(prefix: str, before: Side, after: Side, budget: int) -> list[Row]:
    """Entries kept by both sides that cross the budget line, or one row when the injected
    entries keep their set but change order (an agent reads them in order)."""
    old_in, new_in = in_budget(before.entries, budget), in_budget(after.entries, budget)
    both = {entry.id for entry in before.entries} & {entry.id for entry in after.entries}
    summaries = {entry.id: entry.summary for entry in after.entries}
    out: list[Row] = []
    for rid in [rid for rid in new_in if rid in both and rid not in old_in]:
        out.append(Row(INTO_BUDGET, rid, summaries[rid], f"{prefix}{RECORDS_DIR}/{rid}.md",
                       before="past the budget", after="injected", touched=(prefix + MEMORY_FILE,)))
    for rid in [rid for rid in old_in if rid in both and rid not in new_in]:
        out.append(Row(OUT_OF_BUDGET, rid, summaries[rid], f"{prefix}{RECORDS_DIR}/{rid}.md",
                       before="injected", after="past the budget", touched=(prefix + MEMORY_FILE,)))
    kept_old = [rid for rid in old_in if rid in both and rid in new_in]
    kept_new = [rid for rid in new_in if rid in both and rid in old_in]
    if kept_old != kept_new:
        moved = sum(1 for a, b in zip(kept_old, kept_new) if a != b)
        out.append(Row(REORDERED, None, f"{moved} injected entries change place", prefix + MEMORY_FILE,
                       before=", ".join(kept_old), after=", ".join(kept_new), touched=(prefix + MEMORY_FILE,)))
    return out


# ---------------------------------------------------------------------------- reading commits
def side(start: Path, rev: str, prefix: str) -> Side:
    """The project at ``prefix`` in ``rev``: its index folded with pending entries and the text
    around the section (records are read later, only those the rows need: ``needed_records``)."""
    from chord_git.git import libgit2

    data = libgit2.file_at(start, rev, prefix + MEMORY_FILE)
    doc = index_file.parse_bytes(data)[0] if data is not None else None
    outside = ""
    if doc is not None:
        outside = doc.prefix + "\n" + doc.suffix if doc.has_markers else doc.prefix
    elif data is not None:
        outside = data.decode("utf-8", "replace")
    folder = prefix + pending.PENDING_DIR
    names = libgit2.list_dir(start, rev, folder)
    blobs = libgit2.files_at(start, rev, [f"{folder}/{name}" for name in names])
    items: list[pending.Pending] = []
    hidden: list[str] = []
    for name in names:
        blob = blobs.get(f"{folder}/{name}")
        if blob is None:
            continue
        removed = pending.removal_id(name)
        if removed is not None:
            if isinstance(pending.parse_removal(blob.decode("utf-8", "replace"), removed), pending.Removal):
                hidden.append(removed)
            continue
        match = _PENDING_NAME.match(name)
        parsed = pending.parse(blob.decode("utf-8", "replace"), match.group(1)) if match else None
        if isinstance(parsed, pending.Pending):
            items.append(parsed)
    folded = pending.overlay(doc, pending.ordered(items), hidden)
    return Side(folded.entries if folded is not None else (), outside, {})


def needed_records(before: Side, after: Side, changed: Sequence[str]) -> set[str]:
    """The record ids the rows read: entries added, forgotten or rewritten, and changed records."""
    had = {entry.id: entry.render() for entry in before.entries}
    has = {entry.id: entry.render() for entry in after.entries}
    ids = set(had) ^ set(has) | {rid for rid in had.keys() & has.keys() if had[rid] != has[rid]}
    for rel in changed:
        if rel.startswith(RECORDS_DIR + "/") and rel.endswith(".md"):
            ids.add(rel[len(RECORDS_DIR) + 1:-3])
    return {rid for rid in ids if records.valid_id(rid)}


def with_records(start: Path, rev: str, prefix: str, state: Side, ids: set[str]) -> Side:
    from chord_git.git import libgit2

    paths = {f"{prefix}{RECORDS_DIR}/{rid}.md": rid for rid in sorted(ids)}
    found = libgit2.files_at(start, rev, list(paths))
    return replace(state, records={paths[path]: data for path, data in found.items()})


def prefixes(paths: Sequence[str]) -> dict[str, list[str]]:
    """The memory paths of a change grouped by project: prefix -> project-relative paths."""
    grouped: dict[str, list[str]] = {}
    for path in paths:
        split = memory_split(path)
        if split is None and path.endswith(CONFIG_FILE):
            split = (path[: len(path) - len(CONFIG_FILE)], CONFIG_FILE)
        if split is not None:
            grouped.setdefault(split[0], []).append(split[1])
    return grouped
