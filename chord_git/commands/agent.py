"""``git memory agent busy|idle|status``: the agent host's activity signal (R15).

Main-pool extraction calls the model only while the agent is idle, and a ``busy`` cancels an
in-flight call. ``--pid`` ties a busy flag to the host's process, so a host that dies mid-turn does
not hold extraction back (see ``extraction/activity.py`` for the other staleness rules).
"""
from __future__ import annotations

from chord_git.background import activity, queue, worker
from chord_git.config import Config
from chord_git.errors import UsageError
from chord_git.memory.project import Project
from chord_git.ui import Output

STATES = ("busy", "idle", "status")


def agent(project: Project, cfg: Config, out: Output, state: str, *, owner_pid: int | None = None,
          as_json: bool = False) -> int:
    if state == "busy":
        activity.set_busy(project.state_dir, owner_pid=owner_pid)
        return 0
    if owner_pid is not None:
        raise UsageError("--pid only goes with 'agent busy'")
    if state == "idle":
        activity.set_idle(project.state_dir)
        return 0
    if state == "status":
        return _status(project, cfg, out, as_json)
    raise UsageError(f"agent: unknown state {state!r} (expected busy, idle or status)")


def _status(project: Project, cfg: Config, out: Output, as_json: bool) -> int:
    data = {
        "agent": "busy" if activity.is_busy(project.state_dir) else "idle",
        "pool": "dedicated" if cfg.dedicated_pool else "main",
        "queued": len(queue.pending(project)),
        "failed": len(queue.failed(project)),
        "worker_pid": worker.running_worker(project),
    }
    if as_json:
        out.json(data)
        return 0
    out.line(f"agent: {data['agent']}")
    preempts = "ignores the signal" if cfg.dedicated_pool else "waits for idle"
    out.line(f"extraction pool: {data['pool']} ({preempts})")
    out.line(f"queue: {data['queued']} waiting, {data['failed']} failed")
    pid = data["worker_pid"]
    out.line(f"worker: running (pid {pid})" if pid else "worker: not running")
    return 0
