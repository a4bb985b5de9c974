"""The project's register of agent sessions seen through hooks, in the runtime state directory.

One small JSON file per session under ``<state_dir>/agents/sessions/``: which host, which
transcript, whether the session is ``open``, ``ended`` (frozen: its end event came, it went quiet,
or another session started) or ``handed`` (given to extraction), and the digests of the
conversation items already handed over. The digests are what keeps a resumed session from being
extracted twice for the same content: only items not handed before go to the next extraction.

Hooks and the watcher both change these files, so every read-modify-write holds
``sessions.lock`` (a short flock). ``generation`` grows with every state change a hook makes; the
watcher marks a session handed only if no hook changed it while the transcript was being read.
"""
from __future__ import annotations

import json
import os
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from chord_git.background.activity import session_key
from chord_git.support.dataclass_lazy import asdict, dataclass, field, replace
from chord_git.errors import LockTimeout
from chord_git.memory.project import Project
from chord_git.memory.atomic import flock_before, read_state_json, replace_atomically

STATES = ("open", "ended", "handed", "failed")
# A settled session this old is forgotten: resuming it after that re-extracts it whole (and the
# duplicate check keeps conclusions already written from being written again).
FORGET_AFTER_SECONDS = 90 * 24 * 3600.0
LOCK_TIMEOUT = 5.0
# Digests kept per session: beyond this the oldest are forgotten (a session of thousands of turns).
MAX_DIGESTS = 20000


@dataclass(frozen=True)
class AgentSession:
    host: str
    session_id: str
    transcript: str | None
    state: str = "open"
    generation: int = 0
    updated: float = 0.0
    end_size: int | None = None      # transcript bytes that belong to the frozen session
    end_reason: str | None = None
    handed: tuple[str, ...] = field(default_factory=tuple)
    last_error: str | None = None
    owner_pid: int | None = None     # the host process that reported the session last (``Host.freezes_on_exit``)


def folder(project: Project) -> Path:
    return project.state_dir / "agents"


def _dir(project: Project) -> Path:
    return folder(project) / "sessions"


def _path(project: Project, host: str, session_id: str) -> Path:
    return _dir(project) / f"{session_key(host, session_id)}.json"


@contextmanager
def locked(project: Project, timeout: float = LOCK_TIMEOUT) -> Iterator[None]:
    """The register's lock; held for a read-modify-write only, so waiting long means trouble."""
    folder(project).mkdir(parents=True, exist_ok=True)
    fd = os.open(folder(project) / "sessions.lock", os.O_RDWR | os.O_CREAT, 0o644)
    try:
        if not flock_before(fd, time.monotonic() + timeout):
            # A hook must never hold up the agent: it fails open with this as its reason.
            raise LockTimeout(f"agent session register busy for {timeout:.0f}s")
        yield
    finally:
        os.close(fd)


def _from_json(data: Any) -> AgentSession | None:
    if not isinstance(data, dict):
        return None
    try:
        session = AgentSession(
            host=str(data["host"]), session_id=str(data["session_id"]),
            transcript=data.get("transcript") if isinstance(data.get("transcript"), str) else None,
            state=str(data.get("state") or "open"), generation=int(data.get("generation") or 0),
            updated=float(data.get("updated") or 0.0),
            end_size=int(data["end_size"]) if isinstance(data.get("end_size"), int) else None,
            end_reason=data.get("end_reason") if isinstance(data.get("end_reason"), str) else None,
            handed=tuple(d for d in data.get("handed") or () if isinstance(d, str)),
            last_error=data.get("last_error") if isinstance(data.get("last_error"), str) else None,
            owner_pid=int(data["owner_pid"]) if isinstance(data.get("owner_pid"), int) else None,
        )
    except (KeyError, TypeError, ValueError):
        return None
    return session if session.state in STATES else None


def _read(path: Path) -> AgentSession | None:
    try:
        return _from_json(read_state_json(path))
    except (OSError, ValueError):
        return None


def load(project: Project, host: str, session_id: str) -> AgentSession | None:
    return _read(_path(project, host, session_id))


def save(project: Project, session: AgentSession) -> None:
    data = asdict(replace(session, handed=session.handed[-MAX_DIGESTS:]))
    data["handed"] = list(data["handed"])
    _dir(project).mkdir(parents=True, exist_ok=True)
    replace_atomically(_path(project, session.host, session.session_id),
                       json.dumps(data, ensure_ascii=False).encode("utf-8"), _dir(project), mode=0o600)


def all_sessions(project: Project) -> list[AgentSession]:
    try:
        names = sorted(os.listdir(_dir(project)))
    except OSError:
        return []
    found = (_read(_dir(project) / name) for name in names if name.endswith(".json"))
    return [s for s in found if s is not None]


def update(project: Project, host: str, session_id: str,
           change: Callable[[AgentSession | None], AgentSession | None]) -> AgentSession | None:
    """Read, change and write one session under the lock; ``change`` returning None writes nothing."""
    with locked(project):
        current = load(project, host, session_id)
        new = change(current)
        if new is not None and new != current:
            save(project, new)
        return new if new is not None else current


def transition(session: AgentSession | None, host: str, session_id: str, transcript: str | None,
               state: str, *, end_size: int | None = None, reason: str | None = None,
               now: float | None = None, owner_pid: int | None = None) -> AgentSession:
    """The session in ``state`` (pure): a hook event's change, bumping the generation."""
    now = time.time() if now is None else now
    base = session or AgentSession(host=host, session_id=session_id, transcript=transcript)
    return replace(base, transcript=transcript or base.transcript, state=state, generation=base.generation + 1,
                   updated=now, end_size=end_size if state == "ended" else None,
                   end_reason=reason if state == "ended" else None, last_error=None,
                   owner_pid=owner_pid if owner_pid is not None else base.owner_pid)


def kept_transcripts(project: Project) -> Path:
    """Where hooks keep the transcripts of hosts that have no transcript file (``Host.keep_transcript``)."""
    return folder(project) / "transcripts"


def sweep(project: Project, *, now: float | None = None, older_than: float = FORGET_AFTER_SECONDS) -> int:
    """Forget handed or failed sessions not touched for ``older_than`` seconds, and the transcript
    a hook kept for one; returns how many."""
    now = time.time() if now is None else now
    gone = 0
    with locked(project):
        for session in all_sessions(project):
            if session.state in ("handed", "failed") and now - session.updated > older_than:
                try:
                    os.unlink(_path(project, session.host, session.session_id))
                    gone += 1
                except OSError:
                    continue
                kept = Path(session.transcript) if session.transcript else None
                if kept is not None and kept.parent == kept_transcripts(project):
                    kept.unlink(missing_ok=True)
    return gone
