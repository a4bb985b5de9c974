"""The agent-activity signal (R15): a small flag file in the runtime state directory.

The agent host marks itself busy when a user message arrives and idle when its turn ends
(``git memory agent busy|idle`` or these functions). Main-pool extraction calls the model only
while the flag says idle, and cancels an in-flight call as soon as it says busy.

Staleness: the flag records who wrote it and when, so a host that died mid-turn cannot block
extraction forever. A busy flag is treated as idle when

* it is older than ``stale_after`` seconds (default ``BUSY_STALE_SECONDS``, one hour) — a live
  host refreshes it with every ``set_busy``, i.e. at least once per user message; or
* it names an ``owner_pid`` on this host and that process no longer exists. The owner is only
  recorded when the caller passes one: the ``git memory agent busy`` command exits at once, so
  its own pid says nothing about the agent; an in-process host passes ``os.getpid()``; or
* its timestamp lies more than ``CLOCK_SKEW_SECONDS`` in the future (the clock was set back).

A missing, unreadable or malformed flag file means idle: a broken signal must not stop memory
for good, and at worst an extraction overlaps one agent turn.

Per-session flags. Agent hosts driven by hooks (``git memory agent hook``) signal per session: one
flag file per agent session in a user-level directory, ``$XDG_STATE_HOME/chord/agent-sessions/``.
All projects of a user share one main model pool, so a main-pool worker waits while *any* session
of the user is busy (``anyone_busy``), not only sessions in its own project; the same staleness
rules apply to each file. The project flag above stays for hosts that signal without a session.
"""
from __future__ import annotations

import json
import os
import re
import time
from pathlib import Path

from chord_git.support.dataclass_lazy import dataclass
from chord_git.memory.project import state_home
from chord_git.memory.atomic import read_state_json, replace_atomically

FLAG_NAME = "agent-activity.json"
SESSIONS_DIR = "agent-sessions"
# An idle session flag this old is swept when flags are listed: its session is long over.
IDLE_SWEEP_SECONDS = 7 * 24 * 3600.0
BUSY_STALE_SECONDS = 3600.0
CLOCK_SKEW_SECONDS = 300.0


@dataclass(frozen=True)
class ActivityFlag:
    state: str                 # "busy" | "idle"
    since: float               # wall-clock seconds (time.time()) when it was written
    writer_pid: int
    host: str
    owner_pid: int | None = None


def flag_path(state_dir: Path) -> Path:
    return Path(state_dir) / FLAG_NAME


def set_busy(state_dir: Path, *, owner_pid: int | None = None) -> None:
    """Mark the agent busy; ``owner_pid`` ties the flag to a long-lived agent process (see module doc)."""
    _write(flag_path(state_dir), "busy", owner_pid)


def set_idle(state_dir: Path) -> None:
    _write(flag_path(state_dir), "idle", None)


def read_flag(state_dir: Path) -> ActivityFlag | None:
    """The flag as written, or None when there is none or it cannot be understood."""
    return _read(flag_path(state_dir))


def _read(path: Path) -> ActivityFlag | None:
    try:
        data = read_state_json(path)
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or data.get("state") not in ("busy", "idle"):
        return None
    since, writer, host, owner = data.get("since"), data.get("writer_pid"), data.get("host"), data.get("owner_pid")
    if isinstance(since, bool) or not isinstance(since, (int, float)):
        return None
    if not isinstance(writer, int) or not _is_pid(writer) or not isinstance(host, str):
        return None
    if not (owner is None or (isinstance(owner, int) and _is_pid(owner))):
        return None
    return ActivityFlag(data["state"], float(since), writer, host, owner)


def is_stale(flag: ActivityFlag, *, now: float | None = None, stale_after: float = BUSY_STALE_SECONDS) -> bool:
    """Whether a busy flag should no longer be believed (pure apart from the process check)."""
    now = time.time() if now is None else now
    age = now - flag.since
    if age > stale_after or age < -CLOCK_SKEW_SECONDS:
        return True
    if flag.owner_pid is not None and flag.host == _hostname():
        return not _process_exists(flag.owner_pid)
    return False


def _believed_busy(flag: ActivityFlag | None, stale_after: float) -> bool:
    return flag is not None and flag.state == "busy" and not is_stale(flag, stale_after=stale_after)


def is_busy(state_dir: Path, *, stale_after: float = BUSY_STALE_SECONDS) -> bool:
    """Whether this project's own (session-less) flag says busy."""
    return _believed_busy(read_flag(state_dir), stale_after)


# ---------------------------------------------------------------------------- per-session flags
def sessions_dir() -> Path:
    return state_home() / "chord" / SESSIONS_DIR


_PLAIN_KEY = re.compile(r"^[a-z][a-z-]{0,30}--[A-Za-z0-9][A-Za-z0-9._-]{0,149}$")


def session_key(agent: str, session_id: str) -> str:
    """A file name for the session: readable when the ids are plain, else a hash of them."""
    plain = f"{agent}--{session_id}"
    if _PLAIN_KEY.match(plain):
        return plain
    import hashlib  # only for unusual ids: the per-turn hook keeps its imports small

    return "h-" + hashlib.sha256(f"{agent}\0{session_id}".encode("utf-8", "surrogateescape")).hexdigest()[:24]


def session_flag_path(agent: str, session_id: str) -> Path:
    return sessions_dir() / f"{session_key(agent, session_id)}.json"


def set_session_busy(agent: str, session_id: str, *, owner_pid: int | None = None) -> None:
    _write(session_flag_path(agent, session_id), "busy", owner_pid)


def set_session_idle(agent: str, session_id: str) -> None:
    _write(session_flag_path(agent, session_id), "idle", None)


def end_session(agent: str, session_id: str) -> None:
    """The session is over: its flag goes away."""
    try:
        os.unlink(session_flag_path(agent, session_id))
    except OSError:
        pass


def session_flag(agent: str, session_id: str) -> ActivityFlag | None:
    return _read(session_flag_path(agent, session_id))


def session_busy(agent: str, session_id: str, *, stale_after: float = BUSY_STALE_SECONDS) -> bool:
    return _believed_busy(_read(session_flag_path(agent, session_id)), stale_after)


def busy_sessions(*, stale_after: float = BUSY_STALE_SECONDS, now: float | None = None) -> int:
    """How many agent sessions of this user are busy now; sweeps long-idle and stale flags."""
    try:
        names = os.listdir(sessions_dir())
    except OSError:
        return 0
    now = time.time() if now is None else now
    count = 0
    for name in names:
        if not name.endswith(".json"):
            continue
        path = sessions_dir() / name
        flag = _read(path)
        if _believed_busy(flag, stale_after):
            count += 1
        elif flag is None or now - flag.since > IDLE_SWEEP_SECONDS or flag.state == "busy":
            try:
                os.unlink(path)  # stale busy, long idle or unreadable: nobody will read it again
            except OSError:
                pass
    return count


def anyone_busy(state_dir: Path, *, stale_after: float = BUSY_STALE_SECONDS) -> bool:
    """What a main-pool worker asks (R15): this project's flag, or any session of the user."""
    return is_busy(state_dir, stale_after=stale_after) or busy_sessions(stale_after=stale_after) > 0


def wait_idle(state_dir: Path, timeout: float | None, poll: float = 0.1, *,
              stale_after: float = BUSY_STALE_SECONDS, user_sessions: bool = False) -> bool:
    """Block until the agent is idle; False when ``timeout`` seconds pass first (None: no limit).

    ``user_sessions`` also waits for every agent session of the user (``anyone_busy``).
    """
    deadline = None if timeout is None else time.monotonic() + timeout
    busy = anyone_busy if user_sessions else is_busy
    while busy(state_dir, stale_after=stale_after):
        if deadline is not None:
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            time.sleep(min(poll, left))
        else:
            time.sleep(poll)
    return True


def _write(path: Path, state: str, owner_pid: int | None) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    payload = {"state": state, "since": time.time(), "writer_pid": os.getpid(),
               "host": _hostname(), "owner_pid": owner_pid}
    # Rewritten every turn and meaningless after a reboot: atomic, but not fsynced (see atomic.py).
    replace_atomically(path, json.dumps(payload).encode(), path.parent, durable=False)


def _hostname() -> str:
    return os.uname().nodename  # what socket.gethostname() returns, without importing socket


def _is_pid(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value > 0


def _process_exists(pid: int) -> bool:
    if os.name == "nt":
        return True  # os.kill(pid, 0) would terminate the process on Windows; rely on age only
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # exists, owned by someone else
    except OSError:
        return True
    return True
