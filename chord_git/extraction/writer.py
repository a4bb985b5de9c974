"""Turn accepted candidates into record files and one index delta (R22, R28, R33, R37).

Record files are created, never rewritten (``store.create_exclusive``); an id that is taken
already gets a new one. The index changes once per run, through ``store.apply_delta``: new
entries on top in the order of the reply, and a revision of an entry that is in the index takes
that entry's line in place (the old record file stays). A revision of a record whose line the
user deleted goes on top like any new entry. Nothing is staged; ``.git/index`` is never touched.
"""
from __future__ import annotations

import datetime as dt
import hashlib
import re
from collections.abc import Sequence
from pathlib import Path

from chord_git.support.dataclass_lazy import dataclass, replace
from chord_git.extraction.guards import Accepted
from chord_git.memory import anchors, index_file, records, store, view
from chord_git.memory.project import RECORDS_DIR, Project
from chord_git.secrets import redact

_SESSION_CHARS = re.compile(r"[^A-Za-z0-9._:-]+")
SESSION_TAG_LIMIT = 80
ID_ATTEMPTS = 20


@dataclass(frozen=True)
class Planned:
    record: records.Record
    seed: str
    revises_in_place: bool  # supersedes an entry that is in the index now
    position: int = 0  # the candidate's index in the reply's ``records``

    @property
    def entry(self) -> index_file.Entry:
        return index_file.Entry(type=self.record.type, summary=self.record.summary, id=self.record.id)

    def rel_path(self) -> str:
        return f"{RECORDS_DIR}/{self.record.id}.md"


@dataclass(frozen=True)
class Written:
    ids: tuple[str, ...]  # in index order after the write, newest first
    replaced: dict[str, str]  # old id -> new id, replaced in place
    paths: tuple[str, ...]  # project-relative record files created


def session_tag(session_id: str | None, session_path: Path) -> str:
    """The ``session`` field: the transcript's id, else a short hash of its path and content."""
    if session_id:
        tag = _SESSION_CHARS.sub("-", session_id).strip("-")[:SESSION_TAG_LIMIT]
        if tag:
            return tag
    digest = hashlib.sha256(str(session_path).encode("utf-8", "surrogateescape"))
    try:
        with session_path.open("rb") as stream:
            for chunk in iter(lambda: stream.read(1 << 20), b""):
                digest.update(chunk)
    except OSError:
        pass
    return digest.hexdigest()[:12]


def body_text(text: str) -> str:
    """Section text that cannot open a section of its own: ``## x`` lines become ``### x``."""
    return "\n".join("#" + line if line.startswith("## ") else line for line in redact(text).split("\n"))


def to_record(item: Accepted, rid: str, session: str, today: dt.date) -> records.Record:
    c = item.candidate
    # Redaction again on the way out: a no-op after the guards, kept as the last line of defence.
    return records.Record(
        id=rid, type=c.type, source=c.source, status=c.status, summary=redact(c.summary),
        statement=redact(c.statement), evidence=redact(c.evidence) if c.evidence else None,
        created=today.isoformat(), session=session, supersedes=c.supersedes,
        conclusion=body_text(c.statement), why=body_text(c.why), how_to_apply=body_text(c.how_to_apply),
        # What it names that the project can check, recorded as written (``memory.anchors``).
        anchors=anchors.of_texts((redact(c.summary), redact(c.statement), body_text(c.how_to_apply))),
    )


def plan(accepted: Sequence[Accepted], *, session: str, index_ids: frozenset[str],
         today: dt.date | None = None) -> tuple[Planned, ...]:
    """Records to create, in reply order, with the ids they would get (pure)."""
    day = today or dt.date.today()
    out: list[Planned] = []
    taken: set[str] = set()
    for item in accepted:
        seed = f"{session}:{item.position}"
        rid = _fresh_id(item, seed, day, taken)
        taken.add(rid)
        revises = item.candidate.supersedes is not None and item.candidate.supersedes in index_ids
        out.append(Planned(to_record(item, rid, session, day), seed, revises, item.position))
    return tuple(out)


def _fresh_id(item: Accepted, seed: str, day: dt.date, taken: set[str], start: int = 0) -> str:
    c = item.candidate
    for attempt in range(start, start + ID_ATTEMPTS):
        rid = records.new_id(c.summary, c.type, seed if attempt == 0 else f"{seed}#{attempt}", day)
        if rid not in taken:
            return rid
    raise RuntimeError("no free record id")  # 20 collisions of a 16-bit digest: not a real case


def delta_for(planned: Sequence[Planned]) -> index_file.IndexDelta:
    inserts = tuple(p.entry for p in planned if not p.revises_in_place)
    revisions = {p.record.supersedes: p.entry for p in planned if p.revises_in_place and p.record.supersedes}
    return index_file.IndexDelta(insert=inserts, replace=revisions)


def preview_lines(planned: Sequence[Planned]) -> list[str]:
    """Index lines the plan would write, on top first (revisions shown with what they replace)."""
    lines = [p.entry.render() for p in planned if not p.revises_in_place]
    lines += [f"{p.entry.render()}  (replaces {p.record.supersedes})" for p in planned if p.revises_in_place]
    return lines


def create_records(project: Project, planned: Sequence[Planned]) -> tuple[Planned, ...]:
    """Create every record file; an id that exists on disk gets a fresh one. Call under the lock."""
    done: list[Planned] = []
    taken = {p.record.id for p in planned}
    for item in planned:
        attempt = 0
        current = item
        while True:
            target = records.safe_record_path(project.records_dir, current.record.id)
            data = records.render(current.record).encode("utf-8")
            if store.create_exclusive(project, target, data):
                break
            attempt += 1
            if attempt >= ID_ATTEMPTS:
                raise RuntimeError(f"{project.relative(target)}: no free record id")
            rid = records.new_id(current.record.summary, current.record.type, f"{item.seed}#x{attempt}",
                                 dt.date.fromisoformat(current.record.created))
            if rid in taken:
                continue
            current = replace(current, record=replace(current.record, id=rid))
        taken.add(current.record.id)
        done.append(current)
    return tuple(done)


def after(state: view.IndexState, delta: index_file.IndexDelta) -> view.IndexState:
    """The index as it will be once ``delta`` is written (pure; an unusable state stays as it is)."""
    if state.exists and not state.usable:
        return state
    doc = state.doc if state.doc is not None else index_file.new_document()
    return replace(state, doc=index_file.apply(doc, delta))


def written(planned: Sequence[Planned], state: view.IndexState) -> Written:
    """What the index write did with the planned records: their ids in index order (newest on
    top), the revisions that took their old entry's line, and the files created."""
    new_ids = {p.record.id for p in planned}
    order = tuple(e.id for e in state.entries if e.id in new_ids)
    present = set(order)
    replaced = {p.record.supersedes: p.record.id for p in planned
                if p.revises_in_place and p.record.supersedes and p.record.id in present}
    return Written(order, replaced, tuple(p.rel_path() for p in planned))


def preview(planned: Sequence[Planned]) -> Written:
    """What a dry run reports as written: new entries on top, then revisions in place."""
    ids = (tuple(p.record.id for p in planned if not p.revises_in_place)
           + tuple(p.record.id for p in planned if p.revises_in_place))
    replaced = {p.record.supersedes: p.record.id for p in planned if p.revises_in_place and p.record.supersedes}
    return Written(ids, replaced, ())
