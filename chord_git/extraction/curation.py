"""The curation round (R27): one extra model call that sees only the index and compresses it.

The model sees each entry's id, type, source and summary, in priority order, and the budget —
never a transcript and never a record body. Its reply is the extraction output object; its
``retire`` and ``promotions`` lists go through ``maintenance.maintain`` (so user-said entries are
never retired), and any ``records`` it returns are ignored with a warning: curation has no
conversation to take a new memory from (R33). If the index still exceeds the budget afterwards,
the summary drops the tail (R28) and ``status`` says how many entries lie beyond it.

Pool, fallback and status follow extraction: the dedicated pool (R16) is never preempted, the
main pool honours ``should_cancel`` (R15); a failure writes MEMORY-FAIL with a one-line reason
and raises ExtractionFailed, a success writes MEMORY (R36) — except in a dry run, and in the round
that follows a run by hand (``record_status=False``), which leaves the background status alone.
"""
from __future__ import annotations

import datetime as dt
import json
from collections.abc import Callable, Mapping, Sequence
from typing import NoReturn

from chord_git import config as config_mod
from chord_git.support.dataclass_lazy import dataclass, field
from chord_git.errors import ExtractionFailed, InputError
from chord_git.extraction.maintenance import MaintenanceReport, maintain
from chord_git.memory import index_file, ledger, store, view
from chord_git.memory.project import Project

CURATION_PROMPT = """\
You curate the index of a software project's memory file, MEMORY.md. Each index entry is one line \
with an id, a type, who said it (source: "user", "assistant", or "unknown" when its record cannot \
be read) and a one-line summary. Lines are in priority order: new sessions get the first lines \
injected, and lines beyond the size budget are not injected at all.

Your job: bring the index back within its budget, keeping what later sessions of this project \
most need.
- Retire (remove from the index) only entries whose source is "assistant": duplicates or near \
duplicates of another entry, entries that are obsolete, transient (branches, commits, one-off \
incidents) or too narrow to help later sessions. Never retire an entry whose source is "user" or \
"unknown"; the tool refuses it.
- An entry that states a binding project rule belongs in the project instructions (target \
"instructions", path "AGENTS.md"); one that is useful but rarely needed belongs in the project \
docs (target "docs": README.md, CONTRIBUTING.md or a path under docs/). Suggest such moves as \
promotions with the entry's id, the text to add and a reason. Promotions are the only way to make \
room from "user" entries: they leave the index once the user accepts. Paths must be AGENTS.md, \
README.md, CONTRIBUTING.md or under docs/ or .chord/skills/, project-relative.
- You see only the index, no conversation and no record bodies: do not invent facts, and never \
write new records; "records" must be an empty list.
- Prefer retiring low-priority, redundant entries over useful ones. Remove no more than needed.
- Reasons are one short line. Never include absolute paths, host names or secrets.
- If the index already fits and nothing is clearly redundant or obsolete, return empty lists.

Reply with exactly one JSON object and nothing else:
{"records": [], "retire": [{"id": "...", "reason": "..."}], "promotions": [{"id": "<entry id or \
null>", "target": "instructions" or "docs", "path": "...", "proposed_text": "...", "reason": "..."}]}
"""


@dataclass(frozen=True)
class CurationReport:
    entries_before: int
    beyond_before: int
    entries_after: int
    beyond_after: int  # an estimate in a dry run
    model: str | None
    maintenance: MaintenanceReport
    warnings: tuple[str, ...] = field(default=())
    dry_run: bool = False

    def as_json(self) -> dict[str, object]:
        return {
            "entries_before": self.entries_before, "beyond_before": self.beyond_before,
            "entries_after": self.entries_after, "beyond_after": self.beyond_after,
            "model": self.model, "dry_run": self.dry_run, "warnings": list(self.warnings),
            **self.maintenance.as_json(),
        }


def _lines(entries: Sequence[index_file.Entry]) -> list[str]:
    return [entry.render() for entry in entries]


def beyond_budget(project: Project, cfg: config_mod.Config, state: view.IndexState | None = None) -> tuple[int, int]:
    """(entries in the index, entries the summary budget leaves out), counted as ``summary`` counts."""
    lines = _lines((state if state is not None else view.read_index(project)).entries)
    return len(lines), len(lines) - index_file.fit_count(lines, cfg.memory.summary_budget)


def index_view(snapshot: view.Snapshot, entries: Sequence[index_file.Entry]) -> list[dict[str, str]]:
    """What the model sees of each entry: id, type, source, summary. Nothing from a record body."""
    return [{"id": entry.id, "type": entry.type, "source": snapshot.facts(entry.id).loaded_source or "unknown",
             "summary": entry.summary} for entry in entries]


def build_messages(view: Sequence[Mapping[str, str]], *, budget: int, used: int, fits: int) -> list[dict[str, str]]:
    """The request: a static system prompt (cacheable) and the index listing with its numbers."""
    lines = "\n".join(json.dumps(item, ensure_ascii=False) for item in view)
    excess = max(used - budget, 0)
    user = (
        f"Budget: {budget} characters of index lines. The index has {len(view)} entries taking {used} "
        f"characters; the first {fits} fit. "
        + (f"Free at least {excess} characters.\n\n" if excess else "It fits already.\n\n")
        + "Index, highest priority first, one JSON object per line:\n" + lines
    )
    return [{"role": "system", "content": CURATION_PROMPT}, {"role": "user", "content": user}]


def run(project: Project, cfg: config_mod.Config, *, should_cancel: Callable[[], bool] | None = None,
        env: Mapping[str, str] | None = None, dry_run: bool = False,
        snapshot: view.Snapshot | None = None, record_status: bool = True) -> CurationReport:
    """One curation round, whether or not the index is over budget (``git memory curate``).

    ``snapshot`` is the memory an extraction run has read already; without it, it is read here.
    """
    from chord_git.extraction.pool import call_pool

    snapshot = snapshot if snapshot is not None else view.snapshot(project)
    state = snapshot.index
    record = record_status and not dry_run
    if state.unusable_reason:
        _fail(project, state.unusable_reason, record)
    entries = state.entries
    budget = cfg.memory.summary_budget
    lines = _lines(entries)
    before, beyond = beyond_budget(project, cfg, state)
    messages = build_messages(index_view(snapshot, entries), budget=budget, used=index_file.index_chars(lines),
                              fits=index_file.fit_count(lines, budget))
    cancel = None if cfg.dedicated_pool else should_cancel
    day = dt.datetime.now(dt.timezone.utc).date()
    prompt_text = "".join(str(m.get("content") or "") for m in messages)
    prompt_chars = len(prompt_text)
    ledger.within_day(project.state_dir, day, cfg.memory.max_tokens_per_day, ledger.estimate_tokens(prompt_text),
                      "curation")
    try:
        result = call_pool(cfg.extraction_pool, messages, reasoning_effort=cfg.reasoning_effort,
                           should_cancel=cancel, env=env)
    except ExtractionFailed as exc:
        from chord_git.extraction.pool import PoolFailed, cause

        _fail(project, f"curation: {exc}", record,
              cause=f"curation: {cause(exc.attempts)}" if isinstance(exc, PoolFailed) else None)
    ledger.append(project.state_dir, ledger.model_line(purpose="curate", session=None, model=result.model,
                                                       usage=result.usage, prompt_chars=prompt_chars,
                                                       reply=result.raw, day=day))
    warnings = []
    if result.output.records:
        warnings.append(f"curation reply held {len(result.output.records)} new record(s); ignored "
                        "(curation sees no conversation and never writes records)")
    try:
        report, written = maintain(project, result.output, session_id=None, dry_run=dry_run, snapshot=snapshot)
    except InputError as exc:
        _fail(project, f"curation: {exc}", record)
    if dry_run:
        gone = set(report.promoted_out) | {rid for rid, _ in report.retired}
        remaining = _lines([entry for entry in entries if entry.id not in gone])
        after, after_beyond = len(remaining), len(remaining) - index_file.fit_count(remaining, budget)
    else:
        after, after_beyond = beyond_budget(project, cfg, written or state)
        if record:
            store.write_status(project, True)
    return CurationReport(entries_before=before, beyond_before=beyond, entries_after=after,
                          beyond_after=after_beyond, model=result.model, maintenance=report,
                          warnings=tuple(warnings), dry_run=dry_run)


def _fail(project: Project, reason: str, record: bool, *, cause: str | None = None) -> NoReturn:
    if record:
        store.write_status(project, False, reason, cause=cause)
    raise ExtractionFailed(reason)


def curate_if_over_budget(project: Project, cfg: config_mod.Config, *,
                          should_cancel: Callable[[], bool] | None = None,
                          env: Mapping[str, str] | None = None,
                          snapshot: view.Snapshot | None = None, record_status: bool = True) -> CurationReport | None:
    """After an extraction: run a round only when extraction is on and entries lie beyond the budget.

    ``snapshot`` is the memory as the extraction left it. Returns None when nothing was sent.
    Raises ExtractionFailed (status MEMORY-FAIL written) or Preempted (nothing written; retry
    later), like extraction.
    """
    if not cfg.memory.enabled:
        return None
    snapshot = snapshot if snapshot is not None else view.snapshot(project)
    state = snapshot.index
    if not state.usable or not state.entries:
        return None
    _entries, beyond = beyond_budget(project, cfg, state)
    if beyond == 0:
        return None
    return run(project, cfg, should_cancel=should_cancel, env=env, snapshot=snapshot, record_status=record_status)
