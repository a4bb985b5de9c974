"""``git memory queue [list|retry [ID]|drop ID]``: the background extraction jobs (R14).

A job is *pending* until its first run and *failed* once a run failed: either it waits out its
backoff and will be retried automatically, or it was given up on (``queue/failed/``). ``retry``
makes failed jobs (or the one named) due now and runs them in the foreground, waiting for agent
sessions to be idle with the main pool as the worker would (R15).
"""
from __future__ import annotations

import time

from chord_git.background import queue, worker
from chord_git.commands.ids import resolve
from chord_git.config import EXTRACTION_OFF, Config
from chord_git.errors import UsageError
from chord_git.memory.project import Project
from chord_git.ui import Output

POLL_SECONDS = 0.2


def _state(project: Project, job: queue.Job) -> str:
    if job.path.parent == queue.failed_dir(project) or job.last_error:
        return "failed"
    return "pending"


def describe(project: Project, job: queue.Job, now: float | None = None) -> dict[str, object]:
    now = time.time() if now is None else now
    given_up = job.path.parent == queue.failed_dir(project)
    return {
        "id": job.id, "state": _state(project, job), "attempts": job.attempts,
        "created": time.strftime("%Y-%m-%dT%H:%M:%S", time.localtime(job.created)),
        "next_try": None if given_up else ("now" if job.not_before <= now else
                                           time.strftime("%H:%M:%S", time.localtime(job.not_before))),
        "given_up": given_up, "origin": job.origin, "reason": job.last_error,
    }


def counts(project: Project) -> tuple[int, int]:
    """(pending, failed) as ``status`` shows them."""
    jobs = queue.pending(project) + queue.failed(project)
    failed = sum(1 for job in jobs if _state(project, job) == "failed")
    return len(jobs) - failed, failed


def queue_cmd(project: Project, cfg: Config, out: Output, action: str | None, job_id: str | None, *,
              as_json: bool = False) -> int:
    if action in (None, "list"):
        return _list(project, out, as_json)
    if action == "drop":
        job = _one(project, job_id)
        queue.drop(project, job)
        out.line(f"dropped {job.id}")
        return 0
    if action == "retry":
        return _retry(project, cfg, out, job_id, as_json)
    raise UsageError(f"queue: unknown action {action!r} (expected list, retry or drop)")


def _one(project: Project, job_id: str | None) -> queue.Job:
    if not job_id:
        raise UsageError("queue: give a job ID")
    jobs = queue.pending(project) + queue.failed(project)
    try:
        wanted = resolve(job_id.strip().lower(), [job.id for job in jobs], noun="job", listing="git memory queue list")
    except UsageError as exc:
        raise UsageError(f"queue: {exc}") from None
    return next(job for job in jobs if job.id == wanted)


def _list(project: Project, out: Output, as_json: bool) -> int:
    for sidecar, reason in queue.damaged(project):  # never run, never listed: say so, once each
        out.warn(f"{sidecar}: damaged queue entry ({reason}); ignored "
                 f"(delete it, and {sidecar.stem}{queue.SUFFIX} beside it)")
    jobs = [describe(project, job) for job in queue.pending(project) + queue.failed(project)]
    if as_json:
        out.json({"jobs": jobs})
        return 0
    if not jobs:
        out.line("no background jobs")
        return 0
    for job in jobs:
        if job["state"] == "pending":
            out.line(f"{job['id']}  pending   {job['origin'] or ''}")
            continue
        when = "given up" if job["given_up"] else f"next try {job['next_try']}"
        out.line(f"{job['id']}  failed    {job['origin'] or ''}  ({job['attempts']} attempts, {when})")
        out.line(f"    {job['reason']}")
    return 0


def _retry(project: Project, cfg: Config, out: Output, job_id: str | None, as_json: bool) -> int:
    if not cfg.memory.enabled:
        raise UsageError(f"{EXTRACTION_OFF}: nothing is sent")
    if job_id:
        jobs = [_one(project, job_id)]
    else:
        jobs = [j for j in queue.pending(project) + queue.failed(project) if _state(project, j) == "failed"]
    rearmed = [queue.rearm(project, job) for job in jobs]
    if not rearmed and not queue.ready(project):
        if as_json:
            out.json({"retried": [], "done": [], "failed": []})
        else:
            out.line("no failed jobs")
        return 0
    if not as_json and not cfg.dedicated_pool:
        out.stderr.write("waiting until no agent session is busy (main model pool)…\n")
    said_waiting = False
    while not worker.drain(project, cfg).acquired:
        # A worker is running (it may be in its last half second): it takes the jobs; once it
        # lets go, the drain above runs whatever is still due.
        if not said_waiting and not as_json:
            out.stderr.write("a background worker is running; waiting for it…\n")
            said_waiting = True
        time.sleep(POLL_SECONDS)
    done, failed = [], []
    for job in rearmed:
        now = queue.find(project, job.id)
        if not now:
            done.append(job.id)
        elif now[0].attempts > job.attempts:
            failed.append((job.id, now[0].last_error))
    if as_json:
        out.json({"retried": [j.id for j in rearmed], "done": done, "failed": [j for j, _ in failed]})
    else:
        for job_done in done:
            out.line(f"{job_done}: done")
        for job_failed, reason in failed:
            out.line(f"{job_failed}: failed again: {reason}")
    return 1 if failed else 0
