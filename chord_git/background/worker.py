"""The background extraction worker (R14–R16): one per project, draining the queue.

``submit`` is what the post-session hook does: copy the session into the queue and make sure a
worker will see it. ``drain`` is the worker: it holds ``<state_dir>/worker.lock`` (an exclusive,
non-blocking flock; a second worker exits at once) and runs the oldest ready job until none is
left. With the main pool it calls the model only while the agent is idle and passes the pipeline a
``should_cancel`` that turns true the moment the agent says busy; a preempted job stays queued and
runs again at the next idle. A dedicated pool ignores the signal (R16).

No job is stranded: ``submit`` always writes the job before it looks for a worker, and a worker
looks at the queue again *after* releasing the lock, taking the lock again if a job is there.
Whoever holds the lock last therefore sees every job written before it let go, and a job written
after that finds the lock free and starts a worker of its own.

The worker never stages anything; the pipeline writes memory files through the store.
"""
from __future__ import annotations

import datetime as dt
import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

from chord_git.background import activity, queue
from chord_git.config import Config
from chord_git.support.dataclass_lazy import dataclass, field
from chord_git.errors import (
    BudgetReached,
    ChordError,
    ConfigError,
    ExtractionFailed,
    InputError,
    Preempted,
    rotate_log,
)
from chord_git.memory.atomic import try_lock
from chord_git.memory.project import Project

LOCK_NAME = "worker.lock"
LOG_NAME = "worker.log"
LOG_KEEP_BYTES = 256 * 1024
GRACE_SECONDS = 0.5
POLL_SECONDS = 0.1

Runner = Callable[..., object]
Log = Callable[[str], None]


@dataclass
class DrainResult:
    """What one ``drain`` call did; ``acquired`` is False when another worker held the queue."""

    acquired: bool = False
    done: list[str] = field(default_factory=list)
    retried: list[str] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)
    preempted: int = 0


@dataclass(frozen=True)
class Submission:
    job_id: str
    worker_started: bool  # False: a running worker will take the job


# ---------------------------------------------------------------------------- the lock
def lock_path(project: Project) -> Path:
    return project.state_dir / LOCK_NAME


def log_path(project: Project) -> Path:
    return project.state_dir / LOG_NAME


def _try_lock(project: Project) -> int | None:
    """The worker lock's fd, or None when another process holds it."""
    return try_lock(lock_path(project))


def _hold(fd: int) -> None:
    # The pid is informational (``agent status``); the flock alone decides who works.
    os.ftruncate(fd, 0)
    os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)


def _release(fd: int) -> None:
    try:
        os.ftruncate(fd, 0)
    finally:
        os.close(fd)


def running_worker(project: Project) -> int | None:
    """The pid a live worker wrote into the lock file, without touching the lock (status only)."""
    try:
        text = lock_path(project).read_text(encoding="ascii").strip()
    except (OSError, UnicodeDecodeError):
        return None
    if not text.isdigit() or os.name == "nt":
        return None  # no worker runs without fcntl, and os.kill(pid, 0) would end the process there
    pid = int(text)
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return None
    except OSError:
        pass  # exists, owned by someone else
    return pid


# ---------------------------------------------------------------------------- the worker
def drain(project: Project, cfg: Config, *, run: Runner | None = None, poll: float = POLL_SECONDS,
          grace: float = GRACE_SECONDS, backoff_base: float = queue.BACKOFF_BASE,
          log: Log | None = None, wait: Callable[[float], None] = time.sleep,
          clock: Callable[[], float] = time.monotonic) -> DrainResult:
    """Run queued jobs until none is ready; returns at once if another worker holds the queue.

    ``wait`` and ``clock`` pace the grace period; tests pass their own to step through it."""
    result = DrainResult()
    if not cfg.memory.enabled:
        return result  # R7: nothing is sent; queued jobs wait for memory to be switched back on
    if run is None:
        from chord_git.extraction.pipeline import extract_session
        run = extract_session
    say = log or (lambda _text: None)
    while True:
        fd = _try_lock(project)
        if fd is None:
            say("another worker holds the queue; exiting")
            break
        result.acquired = True
        try:
            _hold(fd)
            say("lock acquired")
            _work(project, cfg, run, _Grace(grace, poll, wait, clock), backoff_base, say, result)
        finally:
            _release(fd)
            say("lock released")
        if not queue.ready(project):
            break  # checked after releasing: see the module doc
    return result


@dataclass(frozen=True)
class _Grace:
    seconds: float
    poll: float
    wait: Callable[[float], None]
    clock: Callable[[], float]


def _work(project: Project, cfg: Config, run: Runner, grace: _Grace,
          backoff_base: float, say: Log, result: DrainResult) -> None:
    empty_since: float | None = None
    while True:
        job = queue.take(project)
        if job is None:
            # A short grace period saves a process start when sessions end in quick succession.
            if empty_since is None:
                empty_since = grace.clock()
            if grace.clock() - empty_since >= grace.seconds:
                return
            grace.wait(grace.poll)
            continue
        empty_since = None
        _run_job(project, cfg, job, run, grace.poll, backoff_base, say, result)


def _run_job(project: Project, cfg: Config, job: queue.Job, run: Runner, poll: float,
             backoff_base: float, say: Log, result: DrainResult) -> None:
    state_dir = project.state_dir
    dedicated = cfg.dedicated_pool
    # The main pool is shared by every agent session of the user, in any project (R15).
    should_cancel = None if dedicated else (lambda: activity.anyone_busy(state_dir))
    while True:
        if not dedicated and activity.anyone_busy(state_dir):
            say(f"job {job.id}: waiting for the agent sessions to be idle")
            activity.wait_idle(state_dir, timeout=None, poll=poll, user_sessions=True)
        say(f"job {job.id}: extracting ({'dedicated' if dedicated else 'main'} pool)")
        try:
            run(project, cfg, job.path, fmt=job.fmt, should_cancel=should_cancel)
        except Preempted as exc:
            result.preempted += 1
            say(f"job {job.id}: preempted: {exc}")
            continue  # the job stays queued; wait for the next idle
        except BudgetReached as exc:
            if exc.until is None:  # this session alone is over the per-session limit: it never fits
                queue.fail(project, job, str(exc))
                result.failed.append(job.id)
                say(f"job {job.id}: failed: {exc}")
            else:  # the day's budget: the job waits, queued, for the next day (UTC) and the worker ends
                start = dt.datetime.combine(exc.until, dt.time(), dt.timezone.utc).timestamp()
                queue.wait_until(project, job, start, str(exc))
                say(f"job {job.id}: waiting for {exc.until.isoformat()}: {exc}")
        except ConfigError as exc:
            _retry(project, job, f"config: {exc}", backoff_base, say, result)
        except InputError as exc:
            if Path(exc.path).name == job.path.name:
                queue.fail(project, job, str(exc))
                result.failed.append(job.id)
                say(f"job {job.id}: failed: bad transcript: {exc}")
            else:  # e.g. MEMORY.md's managed section is broken: fixable, so retry later
                _retry(project, job, str(exc), backoff_base, say, result)
        except ExtractionFailed as exc:
            _retry(project, job, str(exc), backoff_base, say, result)
        except ChordError as exc:  # LockTimeout and the like: transient
            _retry(project, job, str(exc), backoff_base, say, result)
        except Exception as exc:  # noqa: BLE001 - a bug must not wedge the queue; N attempts, then failed/
            import traceback  # only on this path: the submit path keeps its imports small

            say(f"job {job.id}: unexpected error\n{traceback.format_exc().rstrip()}")
            _retry(project, job, f"{type(exc).__name__}: {exc}", backoff_base, say, result)
        else:
            queue.done(project, job)
            result.done.append(job.id)
            say(f"job {job.id}: done")
        return


def _retry(project: Project, job: queue.Job, reason: str, backoff_base: float, say: Log,
           result: DrainResult) -> None:
    updated = queue.retry_later(project, job, reason, base=backoff_base)
    if updated.path.parent == queue.failed_dir(project):
        result.failed.append(job.id)
        say(f"job {job.id}: failed after {updated.attempts} attempts: {updated.last_error}")
    else:
        result.retried.append(job.id)
        say(f"job {job.id}: attempt {updated.attempts} failed, retry after "
            f"{time.strftime('%H:%M:%S', time.localtime(updated.not_before))}: {updated.last_error}")


# ---------------------------------------------------------------------------- starting one
def submit(project: Project, cfg: Config, session_path: Path, fmt: str = "auto", *,
           spawn: Callable[[Project], object] | None = None) -> Submission | None:
    """Queue a frozen session and make sure a worker will run it; None when memory is off (R7)."""
    if not cfg.memory.enabled:
        return None
    try:
        job_id = queue.enqueue(project, Path(session_path), fmt)
    except OSError as exc:
        raise InputError(session_path, None, f"cannot read session file: {exc.strerror or exc}") from None
    # A worker that holds the lock looks at the queue again after releasing it, so when the
    # probe fails the job is already covered; when it succeeds, nobody else will start one.
    fd = _try_lock(project)
    if fd is None:
        return Submission(job_id, worker_started=False)
    os.close(fd)
    try:
        (spawn or spawn_detached)(project)
    except OSError as exc:
        raise ChordError(f"session queued as {job_id}, but the worker could not start: "
                         f"{exc.strerror or exc}; the next session's hook will start it") from None
    return Submission(job_id, worker_started=True)


def spawn_detached(project: Project) -> int:
    """Start ``python -m chord_git.background.worker ROOT`` in its own session; returns its pid."""
    return spawn_module(project, "chord_git.background.worker", log_path(project))


def spawn_module(project: Project, module: str, log: Path) -> int:
    """Start ``python -m MODULE ROOT`` detached, stderr appended to ``log``; returns its pid.

    The child never imports from the project: a cloned repository may hold a ``chord_git/``
    package (or ``yaml/``, ``json.py``...) at its top, and ``python -m`` puts its working
    directory first on ``sys.path``. So the child runs in the state dir (which no commit can
    fill) with ``-P`` (no working directory on ``sys.path``), and with as much of ``-I`` as the
    install allows (``isolation``).
    """
    log.parent.mkdir(parents=True, exist_ok=True)
    project.state_dir.mkdir(parents=True, exist_ok=True)
    _trim_log(log)
    flags, env = isolation(_package_home(), _site_dirs(), _user_site(), os.environ)
    with open(log, "ab") as err:
        proc = subprocess.Popen(
            [sys.executable or "python3", *flags, "-m", module, str(project.root)],
            cwd=project.state_dir, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
            stderr=err, start_new_session=True, close_fds=True,
        )
    # A long-lived host (the Python API) would otherwise keep the exited worker as a zombie.
    threading.Thread(target=proc.wait, name="chord-worker-reaper", daemon=True).start()
    return proc.pid


def isolation(home: Path, site_dirs: Sequence[Path], user_site: Path | None,
              environ: Mapping[str, str]) -> tuple[list[str], dict[str, str]]:
    """The interpreter flags and environment for a child that imports ``chord_git`` from ``home``
    (the folder holding the package this process runs) and from nowhere the project controls.

    * installed in a site-packages folder (a venv, pipx, the system): ``-I``, which also drops
      ``PYTHONPATH``, ``PYTHONHOME``, ``PYTHONSTARTUP`` and the user's site-packages;
    * installed in the user's site-packages (``pip install --user``): ``-E -P``, keeping that folder;
    * anywhere else (``PYTHONPATH``, a source checkout): ``-P`` with ``home`` first on ``PYTHONPATH``,
      so the child runs this very copy, not whatever sits in its working directory.
    Every case has ``-P`` (part of ``-I``): the working directory is never on ``sys.path``.
    """
    env = dict(environ)
    env.pop("PYTHONSTARTUP", None)
    if home in site_dirs:
        return ["-I"], env
    if user_site is not None and home == user_site:
        return ["-E", "-P"], env
    env["PYTHONSAFEPATH"] = "1"
    env["PYTHONPATH"] = os.pathsep.join([str(home), *filter(None, [environ.get("PYTHONPATH")])])
    return ["-P"], env


def _package_home() -> Path:
    import chord_git

    return Path(chord_git.__file__).resolve().parent.parent


def _site_dirs() -> list[Path]:
    import site

    return [Path(d).resolve() for d in site.getsitepackages()]


def _user_site() -> Path | None:
    import site

    folder = site.getusersitepackages() if site.ENABLE_USER_SITE else None
    return Path(folder).resolve() if folder else None


def _trim_log(path: Path) -> None:
    try:
        rotate_log(path, LOG_KEEP_BYTES)
    except OSError:
        pass


def stderr_log(text: str) -> None:
    """A detached process's log line: its stderr goes to a log file in the state dir."""
    stamp = time.time()
    when = time.strftime("%Y-%m-%dT%H:%M:%S", time.localtime(stamp))
    sys.stderr.write(f"{when} t={stamp:.3f} pid={os.getpid()} {text}\n")
    sys.stderr.flush()


def detached_main(argv: Sequence[str] | None, module: str, body: Callable[[Project], object]) -> int:
    """``python -m MODULE PROJECT_ROOT``: the entry of a process started by ``spawn_module``."""
    from chord_git.memory import project as project_mod

    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) != 1:
        sys.stderr.write(f"usage: python -m {module} PROJECT_ROOT\n")
        return 2
    try:
        body(project_mod.discover(Path(args[0])))
    except ChordError as exc:
        stderr_log(f"{module} stopped: {exc}")
        return exc.exit_code
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    from chord_git import config as config_mod

    return detached_main(argv, "chord_git.background.worker",
                         lambda project: drain(project, config_mod.load(project.root), log=stderr_log))


if __name__ == "__main__":
    sys.exit(main())
