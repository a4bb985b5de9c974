"""Staleness hints for index entries (beyond R12): a hint for the user, never a deletion.

An entry is *stale* when its record names a project-relative path that no longer exists, or when
the record is older than ``memory.stale_after_days``. Path detection is deliberately cautious:
a false hint sends the user to check an entry that is fine, so only tokens that clearly are paths
count — anything inside backticks that looks like a path, and outside backticks only tokens with
a slash that end in a known file extension or a trailing slash (``and/or`` is not a path).
"""
from __future__ import annotations

import datetime as dt
import re
from pathlib import Path

from chord_git.support.dataclass_lazy import dataclass
from chord_git.findings import Problem
from chord_git.memory import records, view
from chord_git.memory.anchors import paths_named
from chord_git.memory.project import Project
from chord_git.memory.records import valid_id

_CREATED = re.compile(r"^created:[ \t]*(\S+)", re.M)


@dataclass(frozen=True)
class StaleHint:
    id: str
    missing_paths: tuple[str, ...]
    age_days: int | None  # set when the record is older than the limit

    def reasons(self) -> list[str]:
        out = [f"names {path}, which no longer exists" for path in self.missing_paths]
        if self.age_days is not None:
            out.append(f"{self.age_days} days old")
        return out


def age_days(created: str, today: dt.date) -> int | None:
    try:
        return (today - dt.date.fromisoformat(created.strip("'\" ")[:10])).days
    except ValueError:
        return None


def hint_for_text(root: Path, rid: str, text: str, *, stale_after_days: int, today: dt.date) -> StaleHint | None:
    """The hint for one record file's text (pure but for the existence checks).

    Works on the raw file, not the parsed record: ``status`` counts hints for every entry, and
    a YAML parse per record would make it slow on a large index. Front-matter keys hold no paths.
    """
    missing = tuple(path for path in paths_named(text) if not _exists(root, path))
    match = _CREATED.search(text)
    age = age_days(match.group(1), today) if match else None
    old = age if age is not None and age > stale_after_days else None
    if not missing and old is None:
        return None
    return StaleHint(rid, missing, old)


def _read_record(records_dir: Path, rid: str) -> str | None:
    """A record file's text; None when missing, oversized or a symlink (never followed)."""
    if not valid_id(rid):
        return None
    data = records.read_file(records_dir / f"{rid}.md")
    return None if isinstance(data, Problem) else data.decode("utf-8", "replace")


def _records_dir_inside(project: Project) -> bool:
    try:
        project.records_dir.resolve().relative_to(project.root.resolve())
    except (ValueError, OSError):
        return False
    return True


def hint_for(project: Project, rid: str, *, stale_after_days: int, today: dt.date) -> StaleHint | None:
    """The hint for a record id; None when its file is missing, unreadable or unsafe."""
    if not _records_dir_inside(project):
        return None
    text = _read_record(project.records_dir, rid)
    if text is None:
        return None
    return hint_for_text(project.root, rid, text, stale_after_days=stale_after_days, today=today)


def _exists(root: Path, rel: str) -> bool:
    try:
        return (root / rel).exists() or (root / rel).is_symlink()
    except OSError:
        return True  # unreadable is not evidence of absence


def stale_entries(project: Project, *, stale_after_days: int, state: view.IndexState | None = None,
                  today: dt.date | None = None, first: int | None = None) -> dict[str, StaleHint]:
    """Hints for the entries listed in the index (the ``first`` ones only, when given), by id;
    entries without a record file get none."""
    state = state or view.read_index(project)
    return stale_ids(project, [entry.id for entry in state.entries[:first]],
                     stale_after_days=stale_after_days, today=today)


def stale_ids(project: Project, ids: list[str], *, stale_after_days: int,
              today: dt.date | None = None) -> dict[str, StaleHint]:
    """Hints for the records ``ids`` name, by id; an id without a record file gets none."""
    today = today or dt.date.today()
    hints: dict[str, StaleHint] = {}
    if not ids or not _records_dir_inside(project):
        return hints
    for rid in ids:
        text = _read_record(project.records_dir, rid)
        hint = None if text is None else hint_for_text(project.root, rid, text,
                                                       stale_after_days=stale_after_days, today=today)
        if hint is not None:
            hints[rid] = hint
    return hints
