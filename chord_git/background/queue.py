"""The extraction queue (R14): frozen sessions waiting for the background worker.

Layout under ``<state_dir>/queue/`` (the state dir is inside ``.git``, never in the working tree):

* ``<job>.transcript`` — a private copy of the session file. The host may delete or rewrite its
  transcript as soon as the post-session hook returns, so the queue never points at the original.
* ``<job>.json`` — the sidecar: created, attempts, not_before, fmt, origin, last_error. It is
  written after the copy, so a sidecar always announces a complete job.
* ``failed/`` — jobs given up on, with the reason in their sidecar, kept for inspection.

A job id is a hash of the transcript's bytes: queueing the same session twice is one job. Every
file lands by temp + fsync + rename, so a crash leaves either the old state or the new one.
Only the worker that holds ``worker.lock`` takes jobs, so taking needs no claim of its own.
"""
from __future__ import annotations

import hashlib
import json
import os
import shutil
import time
from pathlib import Path
from typing import Any

from chord_git.support.dataclass_lazy import dataclass, replace
from chord_git.errors import InputError, one_line
from chord_git.memory.project import Project
from chord_git.memory.atomic import fsync_dir, read_state_json, replace_atomically

QUEUE_DIR = "queue"
FAILED_DIR = "failed"
SUFFIX = ".transcript"
MAX_ATTEMPTS = 5
BACKOFF_BASE = 30.0
BACKOFF_CAP = 3600.0
# What a sidecar's numbers may be: times from the epoch to the end of year 9999 (what every
# platform's ``time.localtime`` reads: ``queue list`` shows them), and a count of runs. Anything
# else (``1e300``, ``-1``, ``true``) is damaged state, as broken JSON is.
MAX_TIME = 253402300799.0
MAX_COUNT = 1_000_000
_CHUNK = 1 << 20
_ID_HEX = 16
TEMP_MAX_AGE = 3600.0
# Far above any real session (tool output included) and far below a disk: a transcript that is
# larger, or never ends (/dev/zero), is refused rather than copied into .git.
MAX_TRANSCRIPT_BYTES = 256 * 1024 * 1024


@dataclass(frozen=True)
class Job:
    id: str
    path: Path            # the queued copy of the transcript
    fmt: str
    created: float
    attempts: int = 0     # failed runs so far (a preempted run does not count)
    not_before: float = 0.0
    origin: str | None = None       # where the session came from, project-relative when inside it
    last_error: str | None = None

    def sidecar(self) -> dict[str, Any]:
        return {"id": self.id, "fmt": self.fmt, "created": self.created, "attempts": self.attempts,
                "not_before": self.not_before, "origin": self.origin, "last_error": self.last_error}


def queue_dir(project: Project) -> Path:
    return project.state_dir / QUEUE_DIR


def failed_dir(project: Project) -> Path:
    return queue_dir(project) / FAILED_DIR


def backoff_seconds(attempts: int, base: float = BACKOFF_BASE, cap: float = BACKOFF_CAP) -> float:
    """Delay before retrying a job that has failed ``attempts`` times: doubling, capped."""
    if attempts <= 0 or base <= 0:
        return 0.0
    if attempts > 64:  # 2.0 ** 1024 overflows; far below that the cap has long been reached
        return cap
    return min(base * 2.0 ** (attempts - 1), cap)


def origin_of(project: Project, session_path: Path) -> str:
    """The session file as memory-safe text: project-relative inside the project, else its name."""
    resolved = session_path.resolve()
    try:
        return resolved.relative_to(project.root).as_posix()
    except ValueError:
        return resolved.name


# ---------------------------------------------------------------------------- writing
def enqueue(project: Project, session_path: Path, fmt: str = "auto", *, now: float | None = None) -> str:
    """Copy the session into the queue and return its job id (the same id for the same bytes).

    Raises OSError when the session cannot be read (the caller turns that into an InputError),
    and InputError when it is larger than ``MAX_TRANSCRIPT_BYTES``.
    """
    qdir = queue_dir(project)
    tmp_dir = qdir / "tmp"
    tmp_dir.mkdir(parents=True, exist_ok=True)
    _sweep_temps(tmp_dir, time.time())
    tmp = tmp_dir / f"{os.getpid()}-{time.monotonic_ns()}{SUFFIX}"
    try:
        digest = _copy_hashing(session_path, tmp, MAX_TRANSCRIPT_BYTES)
        job_id = digest[:_ID_HEX]
        sidecar = qdir / f"{job_id}.json"
        if sidecar.exists():
            return job_id  # already queued: keep its attempts and age
        os.replace(tmp, qdir / f"{job_id}{SUFFIX}")
    finally:
        _unlink(tmp)
    # Asking again for a session that was given up on is an explicit retry.
    for stale in (failed_dir(project) / f"{job_id}.json", failed_dir(project) / f"{job_id}{SUFFIX}"):
        _unlink(stale)
    created = time.time() if now is None else now
    job = Job(job_id, qdir / f"{job_id}{SUFFIX}", fmt, created, origin=origin_of(project, session_path))
    _write_json(sidecar, job.sidecar(), tmp_dir)
    fsync_dir(qdir)
    return job_id


def _copy_hashing(source: Path, target: Path, limit: int = MAX_TRANSCRIPT_BYTES) -> str:
    digest = hashlib.sha256()
    copied = 0
    with open(source, "rb") as src:
        if os.fstat(src.fileno()).st_size > limit:
            raise InputError(source, None, f"session file is larger than {limit // (1024 * 1024)} MiB; "
                                           "not queued for memory extraction")
        # A transcript may hold what the sanitizer has yet to remove: readable by its owner only.
        with open(os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600), "wb") as dst:
            while True:
                chunk = src.read(_CHUNK)
                if not chunk:
                    break
                copied += len(chunk)
                if copied > limit:
                    raise InputError(source, None, f"session file is larger than {limit // (1024 * 1024)} MiB; "
                                                   "not queued for memory extraction")
                digest.update(chunk)
                dst.write(chunk)
            dst.flush()
            os.fsync(dst.fileno())
    return digest.hexdigest()


def _sweep_temps(tmp_dir: Path, now: float) -> None:
    """Remove copies a crashed enqueue left behind (an hour is far longer than any copy takes)."""
    try:
        entries = list(tmp_dir.iterdir())
    except FileNotFoundError:
        return
    for entry in entries:
        try:
            if now - entry.stat().st_mtime > TEMP_MAX_AGE:
                entry.unlink()
        except OSError:
            pass


def _write_json(target: Path, data: dict[str, Any], tmp_dir: Path) -> None:
    replace_atomically(target, json.dumps(data, ensure_ascii=False).encode("utf-8"), tmp_dir)


def _save(project: Project, job: Job, directory: Path) -> None:
    tmp_dir = queue_dir(project) / "tmp"
    tmp_dir.mkdir(parents=True, exist_ok=True)
    _write_json(directory / f"{job.id}.json", job.sidecar(), tmp_dir)


# ---------------------------------------------------------------------------- reading
def _in_range(data: dict[str, Any], name: str, top: float, *, whole: bool = False) -> float | str:
    """A sidecar's number (missing or null: 0), or why it is out of range."""
    value = data.get(name)
    if value is None:
        return 0
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= top \
            or (whole and value != int(value)):
        return f"{name} {json.dumps(value)} is out of range"
    return value


def job_from_sidecar(sidecar: Path, data: Any) -> Job | str:
    """The job a sidecar's JSON describes, or why the sidecar is damaged (pure)."""
    if not isinstance(data, dict):
        return "not a JSON object"
    created, not_before = _in_range(data, "created", MAX_TIME), _in_range(data, "not_before", MAX_TIME)
    attempts = _in_range(data, "attempts", MAX_COUNT, whole=True)
    for value in (created, attempts, not_before):
        if isinstance(value, str):
            return value
    texts = {name: data.get(name) for name in ("fmt", "origin", "last_error")}
    for name, text in texts.items():
        if text is not None and not isinstance(text, str):
            return f"{name} is not text"
    assert not isinstance(created, str) and not isinstance(attempts, str) and not isinstance(not_before, str)
    return Job(id=sidecar.stem, path=sidecar.with_suffix(SUFFIX), fmt=texts["fmt"] or "auto", created=float(created),
               attempts=int(attempts), not_before=float(not_before), origin=texts["origin"],
               last_error=texts["last_error"])


def _read(sidecar: Path) -> Job | str | None:
    """The job of a sidecar, why it is damaged, or None when it is gone (a worker finished it
    between the listing and the read)."""
    try:
        data = read_state_json(sidecar)
    except FileNotFoundError:
        return None
    except OSError as exc:
        return f"cannot read: {exc.strerror or exc}"
    except ValueError as exc:  # broken JSON, or a number no sidecar of ours holds
        return one_line(str(exc), 200, cut_mark="…")
    return job_from_sidecar(sidecar, data)


def _entries(directory: Path) -> tuple[list[Job], list[tuple[Path, str]]]:
    """The jobs of a folder, oldest first, and its damaged sidecars with the reason."""
    try:
        names = sorted(p for p in directory.iterdir() if p.suffix == ".json")
    except FileNotFoundError:
        return [], []
    jobs: list[Job] = []
    broken: list[tuple[Path, str]] = []
    for name in names:
        found = _read(name)
        if isinstance(found, Job):
            jobs.append(found)
        elif found is not None:
            broken.append((name, found))
    return sorted(jobs, key=lambda j: (j.created, j.id)), broken


def _jobs(directory: Path) -> list[Job]:
    return _entries(directory)[0]


def damaged(project: Project) -> list[tuple[Path, str]]:
    """Sidecars, queued or given up, that no job can be read from, with the reason: left out of
    every listing and never run, as broken JSON always was; ``queue list`` names them."""
    return _entries(queue_dir(project))[1] + _entries(failed_dir(project))[1]


def pending(project: Project) -> list[Job]:
    """Every queued job, oldest first, including those waiting out a backoff."""
    return _jobs(queue_dir(project))


def failed(project: Project) -> list[Job]:
    return _jobs(failed_dir(project))


def ready(project: Project, *, now: float | None = None) -> list[Job]:
    now = time.time() if now is None else now
    return [job for job in pending(project) if job.not_before <= now]


def take(project: Project, *, now: float | None = None) -> Job | None:
    """The oldest job that may run now. A sidecar whose copy is gone is dropped on the way."""
    for job in ready(project, now=now):
        if job.path.exists():
            return job
        _unlink(queue_dir(project) / f"{job.id}.json")
    return None


# ---------------------------------------------------------------------------- outcomes
def done(project: Project, job: Job) -> None:
    # Sidecar first: a job is never announced without its copy.
    _unlink(queue_dir(project) / f"{job.id}.json")
    _unlink(job.path)


def retry_later(project: Project, job: Job, reason: str, *, base: float = BACKOFF_BASE,
                max_attempts: int = MAX_ATTEMPTS, now: float | None = None) -> Job:
    """Count a failed run; back off, or move the job to ``failed/`` after ``max_attempts`` runs."""
    now = time.time() if now is None else now
    attempts = job.attempts + 1
    updated = replace(job, attempts=attempts, last_error=one_line(reason, 400, cut_mark="…"),
                      not_before=now + backoff_seconds(attempts, base))
    if attempts >= max_attempts:
        return fail(project, updated, updated.last_error or reason)
    _save(project, updated, queue_dir(project))
    return updated


def wait_until(project: Project, job: Job, when: float, reason: str) -> Job:
    """Keep a job queued, not taken before ``when`` (a budget's next day): not a failed attempt."""
    updated = replace(job, last_error=one_line(reason, 400, cut_mark="…"), not_before=when)
    _save(project, updated, queue_dir(project))
    return updated


def fail(project: Project, job: Job, reason: str) -> Job:
    """Give up on a job: keep it in ``failed/`` with the reason."""
    target = failed_dir(project)
    target.mkdir(parents=True, exist_ok=True)
    updated = replace(job, last_error=one_line(reason, 400, cut_mark="…"), path=target / job.path.name)
    try:
        os.replace(job.path, updated.path)
    except FileNotFoundError:
        pass
    _save(project, updated, target)
    _unlink(queue_dir(project) / f"{job.id}.json")
    return updated


def find(project: Project, job_id: str) -> list[Job]:
    """Queued or given-up jobs whose id starts with ``job_id`` (ids may be abbreviated, as in git)."""
    wanted = job_id.strip().lower()
    if not wanted:
        return []
    return [job for job in pending(project) + failed(project) if job.id.startswith(wanted)]


def rearm(project: Project, job: Job) -> Job:
    """Make a job that failed due now: out of ``failed/`` and past its backoff; its history stays."""
    updated = replace(job, not_before=0.0, path=queue_dir(project) / job.path.name)
    if job.path.parent == failed_dir(project):
        try:
            os.replace(job.path, updated.path)
        except FileNotFoundError:
            return job  # the copy is gone: nothing left to run
        _save(project, updated, queue_dir(project))
        _unlink(failed_dir(project) / f"{job.id}.json")
    else:
        _save(project, updated, queue_dir(project))
    return updated


def drop(project: Project, job: Job) -> None:
    """Forget a job, queued or given up: its copy of the transcript is deleted."""
    _unlink(job.path.with_suffix(".json"))
    _unlink(job.path)


def clear_failed(project: Project) -> int:
    """Remove every given-up job; returns how many there were."""
    count = len(failed(project))
    shutil.rmtree(failed_dir(project), ignore_errors=True)
    return count


def _unlink(path: Path) -> None:
    try:
        os.unlink(path)
    except FileNotFoundError:
        pass
