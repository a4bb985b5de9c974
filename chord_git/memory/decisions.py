"""Decisions that stick: what the user forgot, and the promotions they accepted or rejected.

Each decision is its own small file, ``.chord/memory/decisions/<kind>-<id>.md``, created once and
never rewritten, so decisions made on two branches never conflict::

    <!-- chord:memory:decision -->
    kind: forgotten
    id: 20261129-use-pnpm-3f9a
    evidence: this repo only uses pnpm, please never run npm install
    text: use pnpm, never npm, for js dependencies.
    text: all js dependency commands use pnpm.

``text`` lines hold the conclusion in the normalized form the guards compare (``records.
normalize_text``): a forgotten record's summary and statement, a promotion's proposed text. A
forgotten conclusion is not written again by a later extraction unless the user says it again
in that session, in words of their own (``evidence`` keeps the words the forgotten record quoted);
a promotion the user decided is not suggested again. The record file of a forgotten entry may be
deleted (R34): the decision stays.
"""
from __future__ import annotations

import datetime as dt
import os
import re
from collections.abc import Iterable
from pathlib import Path

from chord_git.support.dataclass_lazy import dataclass
from chord_git.memory import paths, records, store
from chord_git.memory.project import Project

DECISIONS_DIR = ".chord/memory/decisions"
KINDS = ("forgotten", "accepted", "rejected")
MAX_DECISION_BYTES = 8192
HEADER = "<!-- chord:memory:decision -->"
_NAME_RE = re.compile(r"^(forgotten|accepted|rejected)-([a-z0-9][a-z0-9-]{2,79})\.md$")
_FIELDS = ("kind", "id", "entry", "path", "date", "session", "evidence", "text")


@dataclass(frozen=True)
class Decision:
    kind: str  # forgotten | accepted | rejected
    id: str  # the record (forgotten) or the promotion (accepted, rejected)
    texts: tuple[str, ...] = ()  # normalized conclusion texts
    entry: str | None = None  # the index entry a promotion was about
    path: str | None = None  # a promotion's target
    evidence: str | None = None  # a forgotten record's quoted user words, normalized
    date: str | None = None
    session: str | None = None  # a forgotten record's session: saying it again elsewhere lifts the forget

    def file_name(self) -> str:
        return f"{self.kind}-{self.id}.md"


def _one_line(text: str) -> str:
    return " ".join(text.split())


def render(decision: Decision) -> str:
    lines = [HEADER, f"kind: {decision.kind}", f"id: {decision.id}"]
    for key in ("entry", "path", "date", "session", "evidence"):
        value = getattr(decision, key)
        if value:
            lines.append(f"{key}: {_one_line(value)}")
    lines += [f"text: {_one_line(text)}" for text in decision.texts if text.strip()]
    return "\n".join(lines) + "\n"


def parse(text: str) -> Decision | None:
    """A decision from its file's text; None when it is not one (pure)."""
    lines = [line.rstrip("\r") for line in text.lstrip("\ufeff").split("\n") if line.strip()]
    if not lines or lines[0].strip() != HEADER:
        return None
    single: dict[str, str] = {}
    texts: list[str] = []
    for line in lines[1:]:
        key, sep, value = line.partition(": ")
        if not sep or key not in _FIELDS:
            return None
        if key == "text":
            texts.append(value.strip())
        elif key in single:
            return None
        else:
            single[key] = value.strip()
    kind, rid = single.get("kind"), single.get("id")
    if kind not in KINDS or not records.valid_id(rid):
        return None
    assert kind is not None and rid is not None
    return Decision(kind, rid, tuple(texts), single.get("entry"), single.get("path"), single.get("evidence"),
                    single.get("date"), single.get("session"))


def decisions_dir(root: Path) -> Path:
    return root / DECISIONS_DIR


def read_all(root: Path) -> list[Decision]:
    """Every decision file that parses; anything else in the folder is ignored (``check`` scans it
    for secrets like every memory file)."""
    folder = decisions_dir(root)
    if paths.escape_reason(root, folder):
        return []
    try:
        names = sorted(os.listdir(folder))
    except (FileNotFoundError, NotADirectoryError):
        return []
    found: list[Decision] = []
    for name in names:
        if not _NAME_RE.match(name):
            continue
        try:
            data = paths.read_inside(root, folder / name, MAX_DECISION_BYTES)
        except (OSError, paths.UnsafePath):
            continue
        parsed = parse(data.decode("utf-8", "replace"))
        if parsed is not None and parsed.file_name() == name:
            found.append(parsed)
    return found


def forgotten(record: records.Record | None, rid: str, texts: Iterable[str] = (),
              today: dt.date | None = None) -> Decision:
    """The decision a forget writes, from the record (when readable) or the index line's text."""
    said = list(texts)
    evidence = session = None
    if record is not None:
        said = [record.summary, record.statement, *said]
        evidence = records.normalize_text(record.evidence) if record.evidence else None
        session = " ".join(record.session.split()) if record.session else None
    normalized = tuple(dict.fromkeys(records.normalize_text(t) for t in said if t.strip()))
    return Decision("forgotten", rid, normalized, evidence=evidence,
                    date=(today or dt.date.today()).isoformat(), session=session)


def promotion(kind: str, pid: str, entry: str | None, path: str, text: str,
              today: dt.date | None = None) -> Decision:
    """The decision ``review accept`` or ``review reject`` writes."""
    return Decision(kind, pid, (records.normalize_text(text),), entry, path,
                    date=(today or dt.date.today()).isoformat())


def write(project: Project, decision: Decision) -> bool:
    """Create the decision's file; False when it exists already (decisions are never rewritten)."""
    target = decisions_dir(project.root) / decision.file_name()
    return store.create_exclusive(project, target, render(decision).encode("utf-8"))
