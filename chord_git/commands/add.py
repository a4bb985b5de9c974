"""``git memory add WORDS``: "remember this", decided by extraction like any session (R14, R19–R23).

New entries are written only by background extraction, so the words are never written as an
entry here. They become a one-message session of the user: a native transcript in the state
dir, queued like any frozen session, so the model and the whole judge decide what is written
(refusal classes, caps, duplicates, types). Secrets are redacted before the transcript is
written, so not even the state dir keeps one, and the words are never printed back.

* without ``--wait``: the job is queued for the project's worker and its id printed;
* ``--wait``: this process runs the queue as the worker does (``worker.drain``) until the job has
  run, waiting its turn when another worker holds the queue, then prints what was written or why
  nothing was (from the run log, whoever ran it); a failed run exits 1 and stays queued;
* memory off: it says so and queues nothing (R7); without a model pool it says so (exit 1) and
  queues nothing, since every run would fail the same way;
* run from an agent's tool call (``Hosts.tool_call``: the variables each host sets for the
  commands its agent runs): the command is the user's, so the words become a promotion
  suggestion for ``git memory review``, as the MCP tool ``propose_memory`` writes one, and never
  an entry.

Nothing is staged; on a side branch a new entry waits in a pending file, as any extraction's (R33).
"""
from __future__ import annotations

import datetime as dt
import math
import os
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from chord_git.background import queue, statements, worker
from chord_git.config import OFF_MESSAGE, Config
from chord_git.errors import ExtractionFailed, UsageError
from chord_git.memory.project import PROMOTIONS_DIR, RECORDS_DIR, Project
from chord_git.ui import Output

if TYPE_CHECKING:
    from chord_git.agents.host import Host
    from chord_git.agents.hosts import Hosts

# A note to remember, not a paste: longer words are refused before anything is written.
MAX_CHARS = 4000
EXAMPLE = 'git memory add "We use pnpm, never npm."'
AGENT_ROUTE = "agents propose memory with the MCP tool propose_memory"


# ---------------------------------------------------------------------------- pure parts
def check_words(words: str) -> str:
    text = words.strip()
    if not text:
        raise UsageError(f"git memory add: give the words to remember, e.g. {EXAMPLE}")
    if len(text) > MAX_CHARS:
        raise UsageError(f"git memory add: {len(text)} characters; a note to remember has at most {MAX_CHARS}")
    return text


def _counts(counts: Mapping[str, int]) -> str:
    return ", ".join(f"{reason} {n}" for reason, n in counts.items())


def why_nothing(run: Mapping[str, Any]) -> str:
    """Why a completed run wrote nothing, from its run log line."""
    from chord_git.judge.core import DESCRIPTIONS

    dropped = dict(run.get("dropped") or {})
    if dropped:
        meant = "; ".join(f"it {DESCRIPTIONS[reason]}" for reason in dropped if reason in DESCRIPTIONS)
        return f"the judge dropped what the model proposed ({_counts(dropped)}){': ' + meant if meant else ''}"
    if run.get("outcome") == "no-user-messages":
        return "nothing of the words was left to send"
    return "the model found nothing in these words to remember"


def result_lines(result: Mapping[str, Any]) -> list[str]:
    """What ``--wait`` prints for a completed run (``result`` as in ``--json``)."""
    written = result["written"]
    if not written:
        return [f"nothing written: {result['reason']}"]
    model = f" [{result['model']}]" if result.get("model") else ""
    lines = [f"written {len(written)} {'entry' if len(written) == 1 else 'entries'}{model}:"]
    for entry in written:
        where = f"pending in {entry['pending']} until the default branch folds it" if entry["pending"] else entry["path"]
        lines.append(f"  - [{entry['type']}] {entry['summary']} ({where})")
    if result["dropped"]:
        lines.append(f"dropped {sum(result['dropped'].values())} ({_counts(result['dropped'])})")
    return lines


# ---------------------------------------------------------------------------- the command
def add(project: Project, cfg: Config, out: Output, words: str, *, wait: bool = False, as_json: bool = False,
        env: Mapping[str, str] | None = None, hosts: Hosts | None = None) -> int:
    """``env``: the environment the tool-call check reads (None: this process's)."""
    text = check_words(words)
    if not cfg.memory.enabled or not project.is_project:
        if as_json:
            out.json({"outcome": "off", "message": OFF_MESSAGE})
        else:
            out.line(OFF_MESSAGE)
        return 0
    agent = _registry(hosts).tool_call(os.environ if env is None else env)
    if agent is not None:
        return _suggest(project, out, text, agent, as_json)
    if not cfg.extraction_pool:
        # Every run of the job would fail the same way: say it now rather than queue it.
        if as_json:
            out.json({"outcome": "failed", "reason": cfg.no_pool_reason(), "queued": False})
        raise ExtractionFailed(f"{cfg.no_pool_reason()}; nothing queued")

    job_id, session = statements.queue_statement(project, cfg, text, start_worker=not wait)
    if not wait:
        if as_json:
            out.json({"outcome": "queued", "job": job_id, "session": session})
        else:
            out.line(f"queued as {job_id}: the model and the judge decide what is written "
                     "(git memory queue shows the job, git memory status the outcome)")
        return 0
    if not as_json and not cfg.dedicated_pool:
        from chord_git.background import activity

        if activity.anyone_busy(project.state_dir):
            out.stderr.write("waiting until no agent session is busy (main model pool)…\n")
    return _report(project, out, job_id, session, _wait(project, cfg, job_id, out, as_json), as_json)


def _registry(hosts: Hosts | None) -> Hosts:
    if hosts is not None:
        return hosts
    from chord_git.agents import hosts as hosts_mod

    return hosts_mod.BUILTIN


# ---------------------------------------------------------------------------- --wait
def _job(project: Project, job_id: str) -> tuple[str, queue.Job | None]:
    """Where the job is: ``waiting`` (queued, never run), ``retry`` (a run failed, it stays queued),
    ``failed`` (given up on) or ``done`` (it ran and left the queue)."""
    for job in queue.pending(project):
        if job.id == job_id:
            return ("retry" if job.attempts else "waiting"), job
    for job in queue.failed(project):
        if job.id == job_id:
            return "failed", job
    return "done", None


def _wait(project: Project, cfg: Config, job_id: str, out: Output, quiet: bool) -> tuple[str, queue.Job | None]:
    """Run the queue here until the job has run. When another worker holds the queue, wait for
    it to let go (that worker runs the job, or leaves it to this one)."""
    while True:
        state = _job(project, job_id)
        if state[0] != "waiting":
            return state
        drained = worker.drain(project, cfg, grace=0.0)
        if drained.acquired:
            state = _job(project, job_id)
            if state[0] == "waiting":  # not ready after all (the drain ran what was): report it as queued
                return "retry", state[1]
            return state
        if not quiet:
            out.stderr.write("a background worker is running; waiting for it…\n")
            quiet = True
        _until_free(project)


def _until_free(project: Project) -> None:
    from chord_git.memory.atomic import flock_before

    fd = os.open(worker.lock_path(project), os.O_RDWR | os.O_CREAT, 0o644)
    try:
        flock_before(fd, math.inf)
    finally:
        os.close(fd)  # closing lets go of the lock at once: the loop drains or finds the job run


def _last_run(project: Project, session: str) -> Mapping[str, Any] | None:
    from chord_git.extraction import runlog

    return next((line for line in reversed(runlog.read(project)) if line.get("session") == session), None)


def _entry(project: Project, rid: str) -> dict[str, Any]:
    from chord_git.errors import InputError
    from chord_git.memory import pending, records

    try:
        record, _problems = records.read(records.safe_record_path(project.records_dir, rid))
    except InputError:  # not an id (the run log is state, read as input): shown without its record
        record = None
    waiting = Path(pending.PENDING_DIR) / f"{rid}.md"
    return {"id": rid, "type": record.type if record else None, "summary": record.summary if record else None,
            "path": f"{RECORDS_DIR}/{rid}.md",
            "pending": waiting.as_posix() if (project.root / waiting).is_file() else None}


def _report(project: Project, out: Output, job_id: str, session: str, state: tuple[str, queue.Job | None],
            as_json: bool) -> int:
    where, job = state
    run = _last_run(project, session)
    if where == "done" and run is not None and run.get("outcome") in ("ok", "no-user-messages"):
        written = [_entry(project, rid) for rid in run.get("written") or []]
        result = {"outcome": "ok", "job": job_id, "session": session, "model": run.get("model"), "written": written,
                  "dropped": dict(run.get("dropped") or {}), "reason": None if written else why_nothing(run)}
        if as_json:
            out.json(result)
        else:
            for line in result_lines(result):
                out.line(line)
        return 0
    if job is not None:  # a run failed: the job is kept, queued for a retry or given up on
        reason = job.last_error or "no reason recorded"
        kept = f"the job is kept: git memory queue retry {job_id} runs it again"
    else:  # it ran, but the run log (which never fails a run) does not say how
        reason = (run or {}).get("reason") or "its outcome was not logged"
        kept = "git memory status shows the last run"
    if as_json:
        out.json({"outcome": "failed", "job": job_id, "session": session, "reason": reason, "queued": job is not None})
    raise ExtractionFailed(f"the run failed: {reason}; {kept}")


# ---------------------------------------------------------------------------- from an agent
def _suggest(project: Project, out: Output, text: str, agent: Host, as_json: bool) -> int:
    """What ``propose_memory`` writes: a promotion suggestion for AGENTS.md, judged by the same
    rules (secrets redacted, refusal classes, the same suggestion once), never an entry."""
    from chord_git.extraction import maintenance

    pid, why = maintenance.suggest(project, text, path="AGENTS.md",
                                   reason=f"proposed through git memory add, run from a {agent.title} tool call")
    if pid is None:
        if as_json:
            out.json({"outcome": "refused", "host": agent.name, "reason": why})
        raise ExtractionFailed(f"nothing written: {why} (run from a {agent.title} tool call, "
                               f"git memory add writes only a suggestion; {AGENT_ROUTE})")
    path = f"{PROMOTIONS_DIR}/{pid}.md"
    if as_json:
        out.json({"outcome": "suggestion", "host": agent.name, "promotion": pid, "path": path})
    else:
        out.line(f"run from a {agent.title} tool call, git memory add is not the user's: suggestion {pid} "
                 f"written to {path} for the user to review (git memory review); it is not a memory entry")
        out.note(AGENT_ROUTE)
    return 0
