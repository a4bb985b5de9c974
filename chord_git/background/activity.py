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
"""
from __future__ import annotations

import json
import os
import socket
import time
from dataclasses import dataclass
from pathlib import Path

from chord_git.memory.store import replace_atomically

FLAG_NAME = "agent-activity.json"
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
    _write(state_dir, "busy", owner_pid)


def set_idle(state_dir: Path) -> None:
    _write(state_dir, "idle", None)


def read_flag(state_dir: Path) -> ActivityFlag | None:
    """The flag as written, or None when there is none or it cannot be understood."""
    try:
        data = json.loads(flag_path(state_dir).read_text(encoding="utf-8"))
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
    if flag.owner_pid is not None and flag.host == socket.gethostname():
        return not _process_exists(flag.owner_pid)
    return False


def is_busy(state_dir: Path, *, stale_after: float = BUSY_STALE_SECONDS) -> bool:
    flag = read_flag(state_dir)
    return flag is not None and flag.state == "busy" and not is_stale(flag, stale_after=stale_after)


def wait_idle(state_dir: Path, timeout: float | None, poll: float = 0.1, *,
              stale_after: float = BUSY_STALE_SECONDS) -> bool:
    """Block until the agent is idle; False when ``timeout`` seconds pass first (None: no limit)."""
    deadline = None if timeout is None else time.monotonic() + timeout
    while is_busy(state_dir, stale_after=stale_after):
        if deadline is not None:
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            time.sleep(min(poll, left))
        else:
            time.sleep(poll)
    return True


def _write(state_dir: Path, state: str, owner_pid: int | None) -> None:
    state_dir = Path(state_dir)
    state_dir.mkdir(parents=True, exist_ok=True)
    payload = {"state": state, "since": time.time(), "writer_pid": os.getpid(),
               "host": socket.gethostname(), "owner_pid": owner_pid}
    replace_atomically(flag_path(state_dir), json.dumps(payload).encode(), state_dir)


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
