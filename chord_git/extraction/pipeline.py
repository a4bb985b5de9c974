"""One extraction run: frozen transcript -> bounded input -> model pool -> guards -> files.

``extract_session`` is what ``git memory extract`` and the background worker call. Order matters:
everything that can refuse without the model (extraction off, unreadable or unfrozen transcript,
an unusable managed section, an empty pool) refuses before anything is sent. The model call
runs outside the project lock; duplicate checks and record creation run under it, so two runs on
different sessions never both write the same conclusion; the index delta then takes the lock
itself. Outcomes:

* success: ``store.write_status(project, True)`` (MEMORY), report returned;
* ``ExtractionFailed``: status MEMORY-FAIL with the one-line reason (and, for a pool failure, its
  cause first: ``pool.cause``), nothing indexed;
* ``Preempted``: status unchanged, nothing written (the worker retries on the next idle);
* ``InputError`` for a bad transcript: MEMORY-FAIL naming the file and line;

The status is the *background* state, the badge of ``status`` and the agent hosts: a run by hand
(``git memory extract``, ``record_status=False``) reports to the person who ran it and leaves the
status as it was, success or failure; one typo must not turn the badge to MEMORY-FAIL, and one
hand run that works says nothing about the background worker's setup.
* a session without a single user message: nothing is sent (memory needs the user's words), an
  empty report is returned and the status is left as it is.

Every outcome is appended to the run log (``runlog``). ``dry_run`` calls the model and runs the
guards but writes nothing: no record, no index change, no status.
"""
from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from chord_git import transcripts
from chord_git.config import OFF_MESSAGE, Config
from chord_git.support.dataclass_lazy import dataclass, field, replace
from chord_git.errors import (
    BudgetReached,
    ExtractionFailed,
    InputError,
    LockTimeout,
    Preempted,
    UsageError,
)
from chord_git.extraction import curation, guards, journal, maintenance, runlog, writer
from chord_git.extraction.input import ExtractionInput, build_input
from chord_git.extraction.maintenance import MaintenanceReport
from chord_git.extraction.pool import Attempt, PoolResult, call_pool
from chord_git.extraction.schema import ModelOutput, Promotion
from chord_git.memory import collisions, decisions, folding, ledger, records, store, view
from chord_git.memory.project import Project


@dataclass(frozen=True)
class ExtractionReport:
    session_id: str | None
    written: tuple[str, ...]  # record ids written, in index order (newest first)
    replaced: Mapping[str, str]  # old id -> new id: revisions that took the old line's place
    dropped: Mapping[str, int]  # guard reason -> count
    model: str | None
    attempts: tuple[Attempt, ...]
    dry_run: bool
    input_chars: int
    adjusted: Mapping[str, int] = field(default_factory=dict)  # guard adjustments -> count
    records: tuple[Mapping[str, Any], ...] = ()  # what was (or, in a dry run, would be) written
    index_lines: tuple[str, ...] = ()  # the index lines added, on top first
    input: Mapping[str, Any] = field(default_factory=dict)  # input sizes (ExtractionInput.as_json)
    maintenance: Mapping[str, Any] | None = None  # retire/promotions report, when that step ran
    drops: tuple[tuple[int, str], ...] = ()  # (position in the reply's records, reason)
    curation: Mapping[str, Any] | None = None  # the index-only round (R27), when the index went over budget

    def as_json(self) -> dict[str, object]:
        return {
            "outcome": "dry-run" if self.dry_run else "ok",
            "session": self.session_id, "model": self.model,
            "attempts": runlog.attempts_json(self.attempts),
            "written": list(self.written), "replaced": dict(self.replaced),
            "dropped": dict(self.dropped), "adjusted": dict(self.adjusted),
            "dry_run": self.dry_run, "input_chars": self.input_chars, "input": dict(self.input),
            "records": [dict(r) for r in self.records], "index_lines": list(self.index_lines),
            "maintenance": dict(self.maintenance) if self.maintenance is not None else None,
            "drops": [{"position": position, "reason": reason} for position, reason in self.drops],
            "curation": dict(self.curation) if self.curation is not None else None,
        }


def extract_session(project: Project, cfg: Config, session_path: Path, *, fmt: str = "auto",
                    dry_run: bool = False, should_cancel: Callable[[], bool] | None = None,
                    env: Mapping[str, str] | None = None, formats: transcripts.Formats | None = None,
                    record_status: bool = True, today: dt.date | None = None) -> ExtractionReport:
    """Run one extraction. ``should_cancel`` preempts main-pool calls (R15); with a dedicated
    pool (``memory.model_pool``) it is ignored (R16). Raises UsageError when memory is off.
    ``record_status``: False for a run by hand, which leaves the background status alone."""
    if not cfg.memory.enabled:
        raise UsageError(OFF_MESSAGE)  # the command checks first; this is the second guard
    session_path = Path(session_path)
    log: dict[str, Any] = {"session": None, "dry_run": dry_run, "fmt": fmt, "record": record_status}
    try:
        transcript = transcripts.load(session_path, fmt, formats or transcripts.BUILTIN)
    except InputError as exc:
        _fail(project, f"bad transcript: {exc}", log)
        raise
    log["session"] = transcript.session_id
    if not transcript.frozen:
        runlog.append(project, runlog.entry(outcome="refused", reason="session not frozen", **_log_args(log)))
        raise InputError(session_path, None, "the session is not frozen (frozen: false): a working session "
                                             "never adds memory; extract it once it has ended")
    snapshot = view.snapshot(project)  # the run's one unlocked read of MEMORY.md and the records
    if snapshot.index.unusable_reason:
        raise _fail(project, snapshot.index.unusable_reason, log)
    if not cfg.extraction_pool:
        raise _fail(project, cfg.no_pool_reason(), log)

    built = build_input(project, cfg, transcript, snapshot)
    log["input_chars"] = built.input_chars
    if not any(m.content.strip() for m in transcript.user_messages()):
        # Nothing the user said (a sub-agent file, an aborted start): memory needs the user's
        # words (R19), so no tokens are spent. Status is left as it is: the model was not tried.
        runlog.append(project, runlog.entry(outcome="no-user-messages", **_log_args(log)))
        return ExtractionReport(session_id=transcript.session_id, written=(), replaced={}, dropped={}, model=None,
                                attempts=(), dry_run=dry_run, input_chars=0, input=built.as_json())
    day = today or dt.datetime.now(dt.timezone.utc).date()  # the ledger's days are UTC days
    try:
        _within_budget(project, cfg, built, transcript.session_id, day)
    except BudgetReached as exc:
        runlog.append(project, runlog.entry(outcome="over-budget", reason=str(exc), **_log_args(log)))
        if record_status:
            store.write_status(project, False, f"extraction paused: {exc}", cause="token budget reached")
        raise
    cancel = None if cfg.dedicated_pool else should_cancel
    try:
        result = call_pool(cfg.extraction_pool, [dict(m) for m in built.messages],
                           reasoning_effort=cfg.reasoning_effort, should_cancel=cancel, env=env)
    except Preempted as exc:
        runlog.append(project, runlog.entry(outcome="preempted", reason=str(exc), **_log_args(log)))
        raise
    except ExtractionFailed as exc:
        raise _fail(project, str(exc), log, cause=_pool_cause(exc)) from None
    except ImportError as exc:  # openai comes with the "llm" extra
        from chord_git.distribution.hints import missing_extra

        raise _fail(project, missing_extra("llm", exc.name), log) from None
    log.update(model=result.model, attempts=result.attempts)
    ledger.append(project.state_dir, ledger.model_line(purpose="extract", session=transcript.session_id,
                                                       model=result.model, usage=result.usage,
                                                       prompt_chars=built.input_chars, reply=result.raw, day=day))

    tag = writer.session_tag(transcript.session_id, session_path)
    if dry_run:
        report = _dry_run(project, result, built, snapshot, tag, transcript.session_id, log)
    else:
        report, after = _write(project, result, built, snapshot, tag, transcript.session_id, log)
        if record_status:
            store.write_status(project, True)
        report = _curate(project, cfg, report, cancel, env, after, record_status=record_status)
    runlog.append(project, runlog.entry(
        outcome="dry-run" if dry_run else "ok", written=report.written, replaced=report.replaced,
        dropped=report.dropped, adjusted=report.adjusted, **_log_args(log)))
    return report


def _within_budget(project: Project, cfg: Config, built: ExtractionInput, session: str | None, day: dt.date) -> None:
    """Refuse the model call that would pass ``memory.extraction``'s limits: the day's calls so far
    (``memory.ledger``) plus this prompt's estimate against the daily limit (the session waits for
    the next day), this prompt's estimate against the per-session limit (it never fits)."""
    per_day, per_session = cfg.memory.max_tokens_per_day, cfg.memory.max_tokens_per_session
    if per_day is None and per_session is None:
        return
    prompt = ledger.estimate_tokens("".join(str(m.get("content") or "") for m in built.messages))
    if per_session is not None and prompt > per_session:
        raise BudgetReached(f"this session's prompt is about {prompt} tokens, over "
                            f"memory.extraction.max_tokens_per_session ({per_session})")
    ledger.within_day(project.state_dir, day, per_day, prompt, "this session")


def _judge(project: Project, snapshot: view.Snapshot, candidates: tuple[Any, ...], built: ExtractionInput,
           tag: str) -> tuple[guards.GuardResult, tuple[writer.Planned, ...]]:
    listed = frozenset(entry.id for entry in snapshot.index.entries)
    forgets = [d for d in decisions.read_all(project.root) if d.kind == "forgotten"]
    existing = guards.existing_memory(snapshot, collisions.orphans(project, listed),
                                      [(d.texts, d.evidence) for d in forgets], [(d.id, d.session) for d in forgets])
    verdict = guards.check(candidates, built.user_texts, existing, turns=built.turns, agents_md=built.agents_md,
                           docs=built.docs, session=tag)
    planned = writer.plan(verdict.accepted, session=tag, index_ids=existing.index_ids, today=dt.date.today())
    return verdict, planned


def _report(result: PoolResult, built: ExtractionInput, session_id: str | None, verdict: guards.GuardResult,
            planned: tuple[writer.Planned, ...], written: writer.Written, maintained: MaintenanceReport,
            dry_run: bool) -> ExtractionReport:
    return ExtractionReport(
        session_id=session_id, written=written.ids, replaced=written.replaced,
        dropped=verdict.drop_counts, model=result.model, attempts=result.attempts, dry_run=dry_run,
        input_chars=built.input_chars, adjusted=dict(verdict.adjusted),
        records=tuple(_describe(p, dry_run) for p in planned),
        index_lines=tuple(writer.preview_lines(planned)), input=built.as_json(),
        maintenance=maintained.as_json(), drops=tuple((d.position, d.reason) for d in verdict.dropped),
    )


def _dry_run(project: Project, result: PoolResult, built: ExtractionInput, snapshot: view.Snapshot, tag: str,
             session_id: str | None, log: Mapping[str, Any]) -> ExtractionReport:
    """What the run would write, judged against the snapshot; nothing is locked or written."""
    verdict, planned = _judge(project, snapshot, result.output.records, built, tag)
    try:
        maintained, _index = maintenance.maintain(project, _with_suggestions(result.output, verdict),
                                                  session_id=tag, dry_run=True,
                                                  snapshot=snapshot)
    except (InputError, LockTimeout, OSError) as exc:
        raise _fail(project, f"index maintenance failed: {exc}", log) from None
    return _report(result, built, session_id, verdict, planned, writer.preview(planned), maintained, True)


def _write(project: Project, result: PoolResult, built: ExtractionInput, snapshot: view.Snapshot, tag: str,
           session_id: str | None, log: Mapping[str, Any]) -> tuple[ExtractionReport, view.Snapshot]:
    """Judge, create the records, write the promotion files and change the index once, all under
    the project lock and against MEMORY.md as re-read there: two runs on different sessions never
    both write one conclusion, and a hand edit made during the model call is kept (R35).

    Returns the report and the snapshot as the run leaves memory, for the curation round.
    """
    output = result.output
    failed = "writing memory failed"
    try:
        with store.locked(project):
            journal.recover(project)  # a run that died before its index write: finish it first
            with store.read_index_locked(project) as read:
                current = snapshot.refreshed(project, view.overlaid(project, read.state))
                verdict, planned = _judge(project, current, output.records, built, tag)
                run = journal.start(project, writer.delta_for(planned))
                try:
                    planned = writer.create_records(project, planned)
                    run.record(project, writer.delta_for(planned))
                except BaseException:
                    run.release()  # records created so far are linked by the next run
                    raise
                carried: maintenance.Carried | None = None
                try:
                    delta = writer.delta_for(planned)
                    if planned and read.state.unusable_reason:
                        raise read.state.unusable_error()
                    failed = "index maintenance failed"
                    # Retirements and promotions (R26, R29) are judged on the index with the new lines.
                    carried = maintenance.decide(project, _with_suggestions(output, verdict),
                                                 current.with_index(writer.after(current.index, delta)),
                                                 session_id=tag, dry_run=False)
                    failed = "writing memory failed"
                    deltas = [d for d in (delta, carried.delta) if not d.is_empty()]
                    after = folding.write(project, deltas, read=read).state  # R33: pending on a side branch
                except BaseException:
                    _remove_unindexed(project, planned)
                    if carried is not None:
                        maintenance.remove_promotions(project, carried.created)
                    raise
                finally:
                    run.finish()
    except (InputError, LockTimeout, OSError) as exc:
        raise _fail(project, f"{failed}: {exc}", log) from None
    maintenance.log(project, list(carried.events))
    report = _report(result, built, session_id, verdict, planned, writer.written(planned, after), carried.report, False)
    return report, current.refreshed(project, after)


def _with_suggestions(output: ModelOutput, verdict: guards.GuardResult) -> ModelOutput:
    """The reply with a docs promotion suggestion for each rediscoverable fact worth one (R19)."""
    extra = tuple(Promotion.model_validate(item) for item in guards.docs_suggestions(output.records, verdict))
    return output.model_copy(update={"promotions": (*output.promotions, *extra)}) if extra else output


def _describe(planned: writer.Planned, dry_run: bool) -> dict[str, Any]:
    r = planned.record
    out: dict[str, Any] = {
        "position": planned.position, "id": r.id, "path": planned.rel_path(), "type": r.type,
        "source": r.source, "status": r.status, "summary": r.summary, "statement": r.statement, "evidence": r.evidence, "supersedes": r.supersedes,
    }
    if dry_run:
        out["text"] = records.render(r)
    return out


def _remove_unindexed(project: Project, planned: tuple[writer.Planned, ...]) -> None:
    """Records created for an index write that failed: ours, seconds old, never linked. Left in
    place they would read as deleted memories and block the retry's dedupe."""
    for item in planned:
        try:
            records.safe_record_path(project.records_dir, item.record.id).unlink()
        except (OSError, InputError):
            pass


def _curate(project: Project, cfg: Config, report: ExtractionReport, should_cancel: Callable[[], bool] | None,
            env: Mapping[str, str] | None, snapshot: view.Snapshot, *, record_status: bool = True) -> ExtractionReport:
    """R27: an extraction that leaves the index over budget triggers the index-only round.

    Its failure does not undo the extraction: curation has set MEMORY-FAIL itself, and a
    preempted round simply runs again after the next extraction. On a side branch it waits for
    the default branch (R33): it rewrites the shared index, which two branches must not both do.
    """
    if folding.side_branch(project) is not None:
        return report
    try:
        curated = curation.curate_if_over_budget(project, cfg, should_cancel=should_cancel, env=env,
                                                 snapshot=snapshot, record_status=record_status)
    except Preempted:
        return replace(report, curation={"outcome": "preempted"})
    except ExtractionFailed as exc:
        return replace(report, curation={"outcome": "failed", "reason": str(exc)})
    except BudgetReached as exc:  # the round waits for a run with budget left
        return replace(report, curation={"outcome": "over-budget", "reason": str(exc)})
    if curated is None:
        return report
    return replace(report, curation={"outcome": "ok", **curated.as_json()})


def _log_args(log: Mapping[str, Any]) -> dict[str, Any]:
    return {"session": log.get("session"), "model": log.get("model"), "attempts": log.get("attempts", ()),
            "input_chars": log.get("input_chars", 0), "dry_run": log.get("dry_run", False),
            "fmt": log.get("fmt")}


def _pool_cause(exc: ExtractionFailed) -> str | None:
    from chord_git.extraction.pool import PoolFailed, cause

    return cause(exc.attempts) if isinstance(exc, PoolFailed) else None


def _fail(project: Project, reason: str, log: Mapping[str, Any], *, cause: str | None = None) -> ExtractionFailed:
    """Record a failed run (MEMORY-FAIL, except in a dry run or a run by hand) and return the
    error to raise; ``cause``: the reason's short form, which badges lead with."""
    one_line = " ".join(reason.split())
    if not log.get("dry_run") and log.get("record", True):
        store.write_status(project, False, one_line, cause=cause)
    runlog.append(project, runlog.entry(outcome="failed", reason=one_line, **_log_args(log)))
    return ExtractionFailed(one_line)
