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
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from chord_git import memory
from chord_git.project import Project
from chord_git.records import Record

_BACKTICKED = re.compile(r"`([^`\n]{1,200})`")
_BARE = re.compile(r"(?<![\w./~:-])((?:[\w.-]+/)+[\w.-]*)")
_SEGMENT = re.compile(r"^[\w.-]+$")
_LINE_SUFFIX = re.compile(r":\d+(?::\d+)?$")
EXTENSIONS = frozenset(
    "py pyi js mjs cjs ts tsx jsx json jsonc yaml yml toml ini cfg conf md rst txt sh bash zsh go rs c h "
    "cc cpp hpp java kt kts rb php cs swift sql html css scss vue svelte lock xml gradle proto tf mk "
    "dockerfile env csv ipynb".split()
)


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


def _has_extension(segment: str) -> bool:
    stem, dot, ext = segment.rpartition(".")
    return bool(dot and stem and ext.lower() in EXTENSIONS)


def _clean(token: str) -> str | None:
    """A project-relative path spelled by ``token``, or None when it is not one."""
    token = _LINE_SUFFIX.sub("", token.strip().rstrip(".,;:!?)]}'\""))
    while token.startswith("./"):
        token = token[2:]
    if not token or token.startswith(("/", "~", "-")) or "://" in token or any(ch in token for ch in "*?{}<>$ "):
        return None
    parts = token.rstrip("/").split("/")
    if any(part in ("", ".", "..") or not _SEGMENT.match(part) for part in parts):
        return None
    if not any(ch.isalpha() for ch in token):
        return None
    return token


def paths_named(text: str) -> list[str]:
    """Project-relative paths a record's text names, in order of appearance, without repeats (pure)."""
    found: list[str] = []
    for match in _BACKTICKED.finditer(text):
        path = _clean(match.group(1))
        if path and ("/" in path or _has_extension(path)):
            found.append(path)
    for match in _BARE.finditer(_BACKTICKED.sub(" ", text)):
        path = _clean(match.group(1))
        if path and (path.endswith("/") or _has_extension(path.rsplit("/", 1)[-1])):
            found.append(path)
    return list(dict.fromkeys(found))


def record_text(record: Record) -> str:
    parts: Iterable[str | None] = (record.summary, record.statement, record.evidence, record.conclusion,
                                   record.why, record.how_to_apply)
    return "\n".join(part for part in parts if part)


def age_days(record: Record, today: dt.date) -> int | None:
    try:
        created = dt.date.fromisoformat(record.created[:10])
    except ValueError:
        return None
    return (today - created).days


def hint_for(root: Path, record: Record, *, stale_after_days: int, today: dt.date) -> StaleHint | None:
    missing = tuple(path for path in paths_named(record_text(record)) if not _exists(root, path))
    age = age_days(record, today)
    old = age if age is not None and age > stale_after_days else None
    if not missing and old is None:
        return None
    return StaleHint(record.id, missing, old)


def _exists(root: Path, rel: str) -> bool:
    try:
        return (root / rel).exists() or (root / rel).is_symlink()
    except OSError:
        return True  # unreadable is not evidence of absence


def stale_entries(project: Project, *, stale_after_days: int, state: memory.IndexState | None = None,
                  today: dt.date | None = None) -> dict[str, StaleHint]:
    """Hints for the entries listed in the index, by id; entries with unreadable records get none."""
    state = state or memory.read_index(project)
    today = today or dt.date.today()
    hints: dict[str, StaleHint] = {}
    for entry in state.entries:
        record = memory.load_record(project, entry.id)
        if record is None:
            continue
        hint = hint_for(project.root, record, stale_after_days=stale_after_days, today=today)
        if hint is not None:
            hints[entry.id] = hint
    return hints
