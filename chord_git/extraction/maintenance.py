"""Index maintenance from a model reply: retirements and promotion suggestions (R26, R29, R30, R34).

``apply_maintenance`` is shared by extraction and the curation round. It decides, writes the
promotion files, then changes the index through the store's delta path, in that order: a crash
in between leaves a suggestion with its entry still listed, never an entry gone without its
suggestion. Entries the user said are never retired, and stay listed while their promotion waits
for the user. Record files are never touched: a retired entry's record becomes an orphan.
"""
from __future__ import annotations

import datetime as dt
import json
import os
from typing import TYPE_CHECKING

from chord_git.support.dataclass_lazy import dataclass, field, replace
from chord_git.errors import InputError
from chord_git.judge import core
from chord_git.memory import chars, decisions, folding, index_file, promotions, records, store, view
from chord_git.memory.project import PROMOTIONS_DIR, Project
from chord_git.memory.textrules import absolute_paths

if TYPE_CHECKING:
    from chord_git.extraction.schema import ModelOutput, Promotion

LOG_NAME = "maintenance.jsonl"
_ID_ATTEMPTS = 5


@dataclass(frozen=True)
class MaintenanceReport:
    retired: tuple[tuple[str, str], ...] = ()  # (id, reason) removed from the index
    refused_retirements: tuple[tuple[str, str], ...] = ()  # (id, why refused)
    promotions: tuple[str, ...] = ()  # promotion file ids written
    promoted_out: tuple[str, ...] = ()  # entry ids that left the index because of a promotion
    dropped_promotions: tuple[tuple[int, str], ...] = ()  # (index in the reply, reason)
    dry_run: bool = False
    proposed: tuple[tuple[str, str, str], ...] = ()  # (promotion id, target path, text) of ``promotions``

    @property
    def changed_index(self) -> bool:
        return bool(self.retired or self.promoted_out)

    def as_json(self) -> dict[str, object]:
        return {
            "retired": [{"id": rid, "reason": why} for rid, why in self.retired],
            "refused_retirements": [{"id": rid, "reason": why} for rid, why in self.refused_retirements],
            "promotions": list(self.promotions),
            "promoted_out": list(self.promoted_out),
            "dropped_promotions": [{"index": i, "reason": why} for i, why in self.dropped_promotions],
            "dry_run": self.dry_run,
            "promotion_files": [{"id": pid, "path": f"{PROMOTIONS_DIR}/{pid}.md", "target": target, "text": text}
                                for pid, target, text in self.proposed],
        }


@dataclass
class _Plan:
    retire: list[tuple[str, str]] = field(default_factory=list)
    refused: list[tuple[str, str]] = field(default_factory=list)
    files: list[tuple[int, promotions.PromotionFile, bool]] = field(default_factory=list)  # (index, file, entry leaves)
    dropped: list[tuple[int, str]] = field(default_factory=list)


def clean_reason(text: str) -> str:
    """A model-written reason as it may be stored or logged: redacted, one line, capped."""
    from chord_git.secrets import redact

    return promotions.one_line(redact(text)) or "(no reason given)"


def _secret_left(text: str) -> bool:
    """Both scrubbing layers on already-redacted text: anything they still see drops the item."""
    from chord_git.secrets import find, scan_added_lines

    if find(text):
        return True
    lines = list(enumerate(text.split("\n"), start=1))
    return bool(scan_added_lines({"promotion.md": lines}))


def _pending(project: Project) -> tuple[set[str], set[tuple[str, str]]]:
    """Entries with a suggestion waiting, and (path, normalized text) of every waiting suggestion."""
    entries: set[str] = set()
    texts: set[tuple[str, str]] = set()
    for path in view.promotion_files(project):
        parsed, _problems = promotions.read(path)
        if parsed is None:
            continue
        if parsed.entry:
            entries.add(parsed.entry)
        texts.add((parsed.path, records.normalize_text(parsed.text)))
    return entries, texts


def _decided(project: Project) -> tuple[set[str], set[tuple[str, str]]]:
    """Entries and (path, normalized text) of the promotions the user accepted or rejected."""
    entries: set[str] = set()
    texts: set[tuple[str, str]] = set()
    for decision in decisions.read_all(project.root):
        if decision.kind == "forgotten":
            continue
        if decision.entry:
            entries.add(decision.entry)
        texts.update((decision.path or "", text) for text in decision.texts)
    return entries, texts


def _plan_promotion(project: Project, item: Promotion, listed: set[str], sources: dict[str, str | None],
                    taken: tuple[set[str], set[tuple[str, str]]], session_id: str | None,
                    today: dt.date, decided: tuple[set[str], set[tuple[str, str]]] = (set(), set())) -> tuple[promotions.PromotionFile, bool] | str:
    """The file to write and whether its entry leaves the index, or why the item is dropped."""
    from chord_git.secrets import redact

    path = promotions.normalize_target(item.path)
    try:
        promotions.resolve_target(project.root, path)
    except InputError as exc:
        return exc.message
    if item.id is not None and item.id not in listed:
        return f"entry {item.id!r} is not in the index"
    text = redact(item.proposed_text).strip("\n")
    if not text.strip():
        return "proposed text is empty"
    if len(text) > promotions.TEXT_CAP:
        return f"proposed text has {len(text)} characters (cap {promotions.TEXT_CAP})"
    unsafe = chars.problem(item.reason)  # before one_line folds a line separator into a space
    if unsafe is not None:
        return f"refused (unsafe-character): its reason {unsafe}"
    reason = promotions.one_line(redact(item.reason))
    if not reason:
        return "no reason given"
    if absolute_paths(text) or absolute_paths(reason):
        return "holds an absolute path (memory uses project-relative paths)"
    if _secret_left(text) or _secret_left(reason):
        return "a secret remains after redaction"
    refused = core.refusal(text)
    if refused is not None:
        return f"refused ({refused[0]}): it {refused[1]}"
    pending_entries, pending_texts = taken
    decided_entries, decided_texts = decided
    if (item.id is not None and item.id in decided_entries) or (path, records.normalize_text(text)) in decided_texts:
        return "decided already: the user accepted or rejected this suggestion"
    if item.id is not None and item.id in pending_entries:
        return f"a promotion for entry {item.id} is already pending"
    key = (path, records.normalize_text(text))
    if key in pending_texts:
        return "the same suggestion is already pending"
    pending_texts.add(key)
    if item.id is not None:
        pending_entries.add(item.id)
    seed = f"{session_id or ''}\0{path}\0{text}"
    pid = promotions.new_promotion_id(text, seed, today)
    created = today.isoformat()
    file = promotions.PromotionFile(id=pid, entry=item.id, target=item.target, path=path, reason=reason,
                                    created=created, session=session_id, text=text)
    leaves = item.id is not None and sources.get(item.id) == "assistant"
    return file, leaves


def plan(project: Project, output: ModelOutput, snapshot: view.Snapshot, *, session_id: str | None,
         today: dt.date) -> _Plan:
    """Decide every retirement and promotion against ``snapshot.index`` without writing anything.

    An entry's source is its record's as the loader reads it: a missing or broken record counts
    as the user's, so its entry is neither retired nor promoted out.
    """
    listed = {entry.id for entry in snapshot.index.entries}
    mentioned = {r.id for r in output.retire} | {p.id for p in output.promotions if p.id is not None}
    sources = {rid: snapshot.facts(rid).loaded_source for rid in mentioned & listed}
    result = _Plan()
    taken = _pending(project)
    decided = _decided(project)
    for number, suggestion in enumerate(output.promotions):
        try:
            planned = _plan_promotion(project, suggestion, listed, sources, taken, session_id, today, decided)
        except (OSError, ValueError) as exc:  # one bad suggestion never stops the others
            planned = f"cannot use its target path: {getattr(exc, 'strerror', None) or exc}"
        if isinstance(planned, str):
            result.dropped.append((number, planned))
        else:
            result.files.append((number, *planned))
    seen: set[str] = set()
    for retirement in output.retire:
        rid = retirement.id
        if rid in seen:
            result.refused.append((rid, "listed twice"))
        elif rid not in listed:
            result.refused.append((rid, "not in the index"))
        elif sources.get(rid) == "user":
            result.refused.append((rid, "the user said it (only entries the assistant concluded can be retired)"))
        elif sources.get(rid) != "assistant":
            result.refused.append((rid, "its record is missing or invalid, so its source is unknown"))
        else:
            result.retire.append((rid, clean_reason(retirement.reason)))
        seen.add(rid)
    return result


def _write_promotion(project: Project, file: promotions.PromotionFile) -> str | None:
    """Create the file; a different suggestion holding the id gets a new id. None if already there."""
    candidate = file
    for attempt in range(_ID_ATTEMPTS):
        data = promotions.render(candidate).encode("utf-8")
        target = promotions.safe_promotion_path(project.promotions_dir, candidate.id)
        if store.create_exclusive(project, target, data):
            return candidate.id
        try:
            if target.read_bytes() == data:
                return None  # a rerun of the same reply: the suggestion is already pending
        except OSError:
            pass
        seed = f"{file.session or ''}\0{file.path}\0{file.text}\0{attempt}"
        candidate = replace(file, id=promotions.new_promotion_id(file.text, seed, dt.date.fromisoformat(file.created)))
    raise InputError(project.relative(project.promotions_dir), None, "could not find a free promotion id")


def log(project: Project, events: list[dict[str, object]]) -> None:
    """Append events to the maintenance log in the state dir (ids, reasons and times only)."""
    if not events:
        return
    store.ensure_state_dir(project)
    now = dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds")
    data = "".join(json.dumps({"at": now, **event}, ensure_ascii=False) + "\n" for event in events)
    fd = os.open(project.state_dir / LOG_NAME, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        os.write(fd, data.encode("utf-8"))
    finally:
        os.close(fd)


@dataclass(frozen=True)
class Carried:
    """A plan carried out: its report, the index change it needs, the log events and the
    promotion files it created (removed again if the index write fails)."""

    report: MaintenanceReport
    delta: index_file.IndexDelta
    events: tuple[dict[str, object], ...]
    created: tuple[str, ...]


def carry_out(project: Project, decided: _Plan, *, session_id: str | None, dry_run: bool) -> Carried:
    """Write the plan's promotion files (not in a dry run) and build the index change that follows.

    Promotion files come first: a crash before the index write leaves a suggestion with its entry
    still listed, never an entry gone without its suggestion.
    """
    written: list[str] = []
    proposed: list[tuple[str, str, str]] = []
    created: list[str] = []
    promoted_out: list[tuple[str, str]] = []  # (entry, promotion id)
    dropped = list(decided.dropped)
    for number, file, leaves in decided.files:
        try:
            pid = file.id if dry_run else _write_promotion(project, file)
        except (InputError, OSError) as exc:
            dropped.append((number, f"could not be written: {getattr(exc, 'strerror', None) or exc}"))
            continue
        if pid is None:
            dropped.append((number, "the same suggestion is already pending"))
            continue
        written.append(pid)
        proposed.append((pid, file.path, file.text))
        if not dry_run:
            created.append(pid)
        if leaves and file.entry is not None:
            promoted_out.append((file.entry, pid))
    retired = [(rid, why) for rid, why in decided.retire]
    removal = frozenset(rid for rid, _ in retired) | frozenset(rid for rid, _ in promoted_out)
    events: list[dict[str, object]] = [
        {"action": "retire", "id": rid, "reason": why, "session": session_id} for rid, why in retired]
    events += [{"action": "promote", "id": rid, "promotion": pid, "session": session_id}
               for rid, pid in promoted_out]
    report = MaintenanceReport(
        retired=tuple(retired), refused_retirements=tuple(decided.refused), promotions=tuple(written),
        promoted_out=tuple(rid for rid, _ in promoted_out), dropped_promotions=tuple(sorted(dropped)), dry_run=dry_run,
        proposed=tuple(proposed),
    )
    return Carried(report, index_file.IndexDelta(remove=removal), tuple(events) if removal else (), tuple(created))


def decide(project: Project, output: ModelOutput, snapshot: view.Snapshot, *, session_id: str | None,
           dry_run: bool, today: dt.date | None = None) -> Carried:
    """Plan against ``snapshot.index`` and carry the plan out; InputError when the reply asks for
    something and the index is unusable."""
    if not output.retire and not output.promotions:
        return Carried(MaintenanceReport(dry_run=dry_run), index_file.IndexDelta(), (), ())
    if snapshot.index.unusable_reason:
        raise snapshot.index.unusable_error()
    decided = plan(project, output, snapshot, session_id=session_id, today=today or dt.date.today())
    return carry_out(project, decided, session_id=session_id, dry_run=dry_run)


def remove_promotions(project: Project, ids: tuple[str, ...]) -> None:
    """Promotion files this run created for an index change that failed."""
    for pid in ids:
        try:
            promotions.safe_promotion_path(project.promotions_dir, pid).unlink()
        except (OSError, InputError):
            pass


def maintain(project: Project, output: ModelOutput, *, session_id: str | None, dry_run: bool = False,
             today: dt.date | None = None, snapshot: view.Snapshot | None = None,
             ) -> tuple[MaintenanceReport, view.IndexState | None]:
    """Apply a reply's ``retire`` and ``promotions`` lists; its ``records`` are not looked at.

    Decides against ``snapshot`` (read now when not given) and, unless a dry run, against
    MEMORY.md as re-read under the lock. Returns the report and the index as it stands after
    (None when the reply asked for nothing and no snapshot was given). Raises InputError when the
    managed section is unusable (the caller turns it into MEMORY-FAIL); nothing is written then.
    """
    if not output.retire and not output.promotions:
        return MaintenanceReport(dry_run=dry_run), snapshot.index if snapshot is not None else None
    snapshot = snapshot if snapshot is not None else view.snapshot(project)
    if dry_run:
        done = decide(project, output, snapshot, session_id=session_id, dry_run=True, today=today)
        return done.report, snapshot.index
    with store.locked(project), store.read_index_locked(project) as read:
        current = snapshot.refreshed(project, view.overlaid(project, read.state))
        done = decide(project, output, current, session_id=session_id, dry_run=False, today=today)
        # Curation is a writer too: on the default branch it folds what is pending (R33).
        after = folding.write(project, [done.delta], read=read).state
    log(project, list(done.events))
    return done.report, after


def suggest(project: Project, text: str, *, path: str, reason: str) -> tuple[str | None, str]:
    """One suggestion a user or agent proposes outside a session (``propose_memory``, ``git
    memory add`` run from an agent's tool call), judged like a model's: secrets redacted, refusal
    classes, the same suggestion once. Returns (the promotion id, "") or (None, why not)."""
    from chord_git.extraction.schema import ModelOutput, Promotion

    suggestion = Promotion(id=None, target="instructions" if path == "AGENTS.md" else "docs", path=path,
                           proposed_text=text, reason=reason)
    report, _index = maintain(project, ModelOutput(records=(), retire=(), promotions=(suggestion,)),
                              session_id=None)
    if report.promotions:
        return report.promotions[0], ""
    return None, report.dropped_promotions[0][1] if report.dropped_promotions else "refused"


def apply_maintenance(project: Project, output: ModelOutput, *, session_id: str | None,
                      dry_run: bool = False, today: dt.date | None = None,
                      snapshot: view.Snapshot | None = None) -> MaintenanceReport:
    """``maintain`` for callers that only want the report."""
    return maintain(project, output, session_id=session_id, dry_run=dry_run, today=today, snapshot=snapshot)[0]
