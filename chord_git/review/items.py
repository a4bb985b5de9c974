"""What ``review`` shows: pending promotions and imports, then index entries in priority order, then orphans."""
from __future__ import annotations

import datetime as dt

from chord_git import config as config_mod
from chord_git.support.dataclass_lazy import dataclass
from chord_git.memory import promotions, view
from chord_git.memory.project import Project
from chord_git.review import audit, staleness


@dataclass(frozen=True)
class ReviewItem:
    kind: str  # promotion | import | entry | orphan
    id: str
    entry: str | None = None  # the index entry a promotion is about; an entry's own id
    target: str | None = None
    path: str | None = None
    summary: str | None = None
    source: str | None = None  # user | assistant | None (record missing or broken)
    stale: bool = False
    # Details for the interactive view.
    stale_reasons: tuple[str, ...] = ()
    status: str | None = None
    evidence: str | None = None
    age_days: int | None = None
    reason: str | None = None
    text: str | None = None
    problems: tuple[str, ...] = ()  # why a promotion file cannot be accepted
    position: int | None = None  # 1-based line order among entries
    # What ``git memory audit`` found for an entry: (kind, message, the action offered or None).
    audit: tuple[tuple[str, str, str | None], ...] = ()

    @property
    def suggested(self) -> str | None:
        """The action the audit offers for this entry ("forget"), if any."""
        return next((action for _kind, _message, action in self.audit if action), None)

    def as_json(self) -> dict[str, object]:
        out: dict[str, object] = {"kind": self.kind, "id": self.id, "entry": self.entry, "target": self.target,
                                  "path": self.path, "summary": self.summary, "source": self.source,
                                  "stale": self.stale}
        if self.kind == "import":
            out["text"] = self.text
            out["status"] = self.status
        if self.kind == "entry":
            out["audit"] = [{"kind": kind, "message": message, "action": action}
                            for kind, message, action in self.audit]
        return out


def _first_line(text: str, cap: int = 160) -> str:
    line = next((part.strip() for part in text.splitlines() if part.strip()), "")
    return line if len(line) <= cap else line[: cap - 1] + "…"


def promotion_items(project: Project) -> list[ReviewItem]:
    items = []
    for path in view.promotion_files(project):
        parsed, problems = promotions.read(path)
        if parsed is None:
            messages = tuple(p.message if p.line is None else f"line {p.line}: {p.message}" for p in problems)
            items.append(ReviewItem(kind="promotion", id=path.stem, problems=messages))
            continue
        record = view.load_record(project, parsed.entry) if parsed.entry else None
        items.append(ReviewItem(
            kind="promotion", id=parsed.id, entry=parsed.entry, target=parsed.target, path=parsed.path,
            summary=_first_line(parsed.text), source=record.source if record else None,
            reason=parsed.reason, text=parsed.text, age_days=staleness.age_days(parsed.created, dt.date.today()),
        ))
    return items


def import_items(project: Project) -> list[ReviewItem]:
    """Pending imports: their text, and the stores and items it was read from (``path``)."""
    from chord_git.imports import pending

    out = []
    for item in pending.read_pending(project):
        where = "; ".join(origin.where() for origin in item.origins[:3])
        more = f"; and {len(item.origins) - 3} more" if len(item.origins) > 3 else ""
        out.append(ReviewItem(kind="import", id=item.id, path=where + more, summary=_first_line(item.text),
                              source="imported", status="unverified", text=item.text,
                              age_days=staleness.age_days(item.created, dt.date.today())))
    return out


def entry_items(project: Project, cfg: config_mod.Config, state: view.IndexState,
                today: dt.date | None = None, memo: audit.Memo | None = None) -> list[ReviewItem]:
    today = today or dt.date.today()
    report = audit.audit_project(project, budget=cfg.memory.summary_budget,
                                 stale_after_days=cfg.memory.stale_after_days, today=today, memo=memo)
    notes = audit.review_notes(report)
    items = []
    for position, entry in enumerate(state.entries, start=1):
        record = view.load_record(project, entry.id)
        hint = staleness.hint_for(project, entry.id, stale_after_days=cfg.memory.stale_after_days, today=today)
        items.append(ReviewItem(
            kind="entry", id=entry.id, entry=entry.id, summary=entry.summary,
            source=record.source if record else None, stale=hint is not None,
            stale_reasons=tuple(hint.reasons()) if hint else (),
            status=record.status if record else None, evidence=record.evidence if record else None,
            age_days=staleness.age_days(record.created, today) if record else None, position=position,
            audit=tuple((f.kind, f.message, f.action) for f in notes.get(entry.id, ())
                        if f.kind in ("duplicate", "contradiction", "evidence", "invalid", "promoted")),
        ))
    return items


def orphan_items(project: Project, state: view.IndexState) -> list[ReviewItem]:
    pending = {}
    for path in view.promotion_files(project):
        parsed, _problems = promotions.read(path)
        if parsed is not None and parsed.entry:
            pending[parsed.entry] = parsed.id
    items = []
    for rid in view.orphan_ids(project, state):
        record = view.load_record(project, rid)
        note = f"source of pending promotion {pending[rid]}" if rid in pending else None
        items.append(ReviewItem(kind="orphan", id=rid, summary=record.summary if record else None,
                                source=record.source if record else None,
                                status=record.status if record else None, reason=note,
                                age_days=staleness.age_days(record.created, dt.date.today()) if record else None))
    return items


def collect(project: Project, cfg: config_mod.Config, today: dt.date | None = None,
            memo: audit.Memo | None = None) -> list[ReviewItem]:
    """Everything to review. With an unusable managed section only promotions are listed: every
    record would otherwise look like an orphan. ``memo``: where the audit keeps its judgements."""
    state = view.read_index(project)
    if state.exists and not state.usable:
        return [*promotion_items(project), *import_items(project)]
    return [*promotion_items(project), *import_items(project), *entry_items(project, cfg, state, today, memo),
            *orphan_items(project, state)]
