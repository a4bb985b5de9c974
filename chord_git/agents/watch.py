"""The session watcher: a detached process per project that freezes sessions and hands them off.

Hooks must return at once, so they only record what happened (``sessions``) and make sure a
watcher runs. The watcher, holding ``<state_dir>/agents/watch.lock``:

* hands every ``ended`` session to extraction (``handoff``), once per piece of content;
* for hosts whose sessions may never report an end (``Host.freezes_when_quiet``: Codex, Qwen Code,
  OpenCode), freezes an ``open`` session once its transcript has not changed for
  ``memory.freeze_after_seconds`` and the session is not busy, or at once when its host process
  has exited (``Host.freezes_on_exit``), then hands it off;
* exits when no session is left to wait for. As with the worker, it looks again after releasing
  its lock, so a session registered while it was leaving is not stranded.

With extraction off (R7) nothing is handed over: open and ended sessions are marked handed as
they are, so switching extraction on later does not send sessions from before.

Failures concern extraction, so they go to the MEMORY-FAIL badge and ``agents/watch.log``.
"""
from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from chord_git.agents import hosts
from chord_git.agents import sessions
from chord_git.agents.sessions import AgentSession
from chord_git.background import activity
from chord_git.support.dataclass_lazy import replace
from chord_git.errors import ChordError
from chord_git.memory.atomic import try_lock
from chord_git.memory.project import Project

if TYPE_CHECKING:  # hooks import this module for the lock and the freeze rule only: keep it light
    from chord_git.config import Config

LOCK_NAME = "watch.lock"
LOG_NAME = "watch.log"
POLL_SECONDS = 1.0
Log = Callable[[str], None]


def lock_path(project: Project) -> Path:
    return sessions.folder(project) / LOCK_NAME


def log_path(project: Project) -> Path:
    return sessions.folder(project) / LOG_NAME


def _try_lock(project: Project) -> int | None:
    return try_lock(lock_path(project))


def running(project: Project) -> bool:
    fd = _try_lock(project)
    if fd is None:
        return True
    os.close(fd)
    return False


def running_pid(project: Project) -> int | None:
    """The pid a live watcher wrote into its lock file (informational; the flock decides)."""
    try:
        text = lock_path(project).read_text(encoding="ascii").strip()
    except (OSError, UnicodeDecodeError):
        return None
    return int(text) if text.isdigit() and running(project) else None


def ensure_running(project: Project) -> bool:
    """Start a watcher unless one holds the lock; True when one was started."""
    if running(project):
        return False
    from chord_git.background import worker

    worker.spawn_module(project, "chord_git.agents.watch", log_path(project))
    return True


def _quiet_for(session: AgentSession, now: float) -> float:
    """Seconds since the session last showed life: its transcript changed, or a hook registered it."""
    last = session.updated
    if session.transcript is not None:
        try:
            last = max(last, os.stat(session.transcript).st_mtime)
        except OSError:
            pass  # not written yet, or gone: the registration time counts
    return now - last


def _size(path: str | None) -> int | None:
    try:
        return os.stat(path).st_size if path else None
    except OSError:
        return None


def host_gone(session: AgentSession) -> bool:
    """The session's host process has exited (``Host.freezes_on_exit``): nothing more can come."""
    if session.owner_pid is None or not hosts.get(session.host).freezes_on_exit:
        return False
    try:
        os.kill(session.owner_pid, 0)
    except ProcessLookupError:
        return True
    except OSError:
        return False  # alive, someone else's
    return False


def freeze_due(session: AgentSession, freeze_after: float, now: float) -> bool:
    """Whether an open session of a quiet-freezing host counts as frozen now."""
    if activity.session_busy(session.host, session.session_id):
        return False
    return host_gone(session) or _quiet_for(session, now) >= freeze_after


def freeze(project: Project, session: AgentSession, reason: str) -> None:
    """An open session counts as frozen from now; its transcript's current size is what belongs to it."""
    def change(current: AgentSession | None) -> AgentSession | None:
        if current is None or current.state != "open":
            return None
        return sessions.transition(current, current.host, current.session_id, current.transcript, "ended",
                                   end_size=_size(current.transcript), reason=reason)

    sessions.update(project, session.host, session.session_id, change)


def _hand_off(project: Project, cfg: Config, session: AgentSession, say: Log) -> None:
    from chord_git.agents.handoff import hand_off  # transcripts and the worker: only here
    from chord_git.memory import store

    host = hosts.get(session.host)
    try:
        result = hand_off(project, cfg, session, host.transcript_format)
    except (ChordError, OSError) as exc:
        reason = f"{host.title} session {session.session_id}: {exc}"
        say(f"hand-off failed: {reason}")
        store.write_status(project, False, reason)
        _settle(project, session, "failed", session.handed, reason)
        return
    say(f"{host.title} session {session.session_id}: {result.new_items} new items"
        + (f", queued as {result.job_id}" if result.job_id else ", nothing new the user said"))
    _settle(project, session, "handed", result.digests, None)


def _settle(project: Project, seen: AgentSession, state: str, digests: Sequence[str], error: str | None) -> None:
    def change(current: AgentSession | None) -> AgentSession | None:
        base = current or seen
        if current is not None and current.generation != seen.generation:
            return replace(base, handed=tuple(digests))  # a hook reopened it meanwhile: keep its state
        return replace(base, state=state, handed=tuple(digests), last_error=error, updated=time.time())

    sessions.update(project, seen.host, seen.session_id, change)


def one_pass(project: Project, cfg: Config, say: Log, *, now: float | None = None) -> bool:
    """Freeze and hand off what is due; True while some session is still worth waiting for."""
    now = time.time() if now is None else now
    waiting = False
    for session in sessions.all_sessions(project):
        quiet_host = hosts.get(session.host).freezes_when_quiet
        if not cfg.memory.enabled:
            if session.state == "ended" or (session.state == "open" and quiet_host):
                _settle(project, session, "handed", session.handed, None)  # R7: never sent
            continue
        if session.state == "open" and quiet_host:
            if not freeze_due(session, cfg.memory.freeze_after_seconds, now):
                waiting = True
                continue
            if host_gone(session):
                say(f"session {session.session_id}: frozen, its host process {session.owner_pid} has exited")
                freeze(project, session, "host exited")
            else:
                say(f"session {session.session_id}: frozen after {cfg.memory.freeze_after_seconds}s without change")
                freeze(project, session, "quiet")
            session = sessions.load(project, session.host, session.session_id) or session
        if session.state == "ended":
            _hand_off(project, cfg, session, say)
    return waiting


def _pending(project: Project) -> bool:
    return any(s.state == "ended" or (s.state == "open" and hosts.get(s.host).freezes_when_quiet)
               for s in sessions.all_sessions(project))


def watch(project: Project, *, poll: float = POLL_SECONDS, log: Log | None = None) -> None:
    from chord_git import config as config_mod

    say = log or (lambda _text: None)
    sessions.sweep(project)
    while True:
        fd = _try_lock(project)
        if fd is None:
            return  # another watcher has the project
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        try:
            while True:
                try:
                    cfg = config_mod.load(project.root)  # re-read: the switch or the delay may change
                except ChordError as exc:
                    # Not recorded as a failure: the badge reads a refused config from the file
                    # itself, so it clears the moment the file is fixed.
                    say(f"config: {exc}")
                    return  # the next hook event starts a watcher again
                if not one_pass(project, cfg, say):
                    break
                time.sleep(poll)
        finally:
            os.ftruncate(fd, 0)
            os.close(fd)
        if not _pending(project):
            return  # checked after releasing: see the module doc


def main(argv: Sequence[str] | None = None) -> int:
    from chord_git.background import worker

    return worker.detached_main(argv, "chord_git.agents.watch", lambda project: watch(project, log=worker.stderr_log))


if __name__ == "__main__":
    sys.exit(main())
