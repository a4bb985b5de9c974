"""``git memory agent …``: agent hosts and their activity signal.

* ``install|uninstall HOST [--scope project|local|user] [--dry-run]``: our hook entries in the
  host's settings (``agents/install.py``; the hosts: ``agents/hosts.py``). Install warns when
  ``git-memory`` is not on PATH (the entries run it by name: the host's PATH at hook time is not
  ours to know, so a warning with the fix beats writing a path that moves with the next upgrade);
  a ``local`` file is hidden from git in ``.git/info/exclude`` (never ``.gitignore``), and
  uninstall takes that line away again.
* ``hook``: what those entries run, one lifecycle event per call (``agents/hook.py``). It fails
  open: whatever goes wrong, it exits 0 with one line on stderr, so memory never blocks an agent.
* ``statusline``: ``MEMORY``, ``MEMORY-FAIL: <cause>`` (with how to clear a recorded failure) or
  nothing (extraction off), for the hosts' status lines (``agents/statusline.py``).
* ``busy|idle [--session ID]|status``: the activity signal for hosts without hooks (R15). Main-pool
  extraction calls the model only while idle, and a ``busy`` cancels an in-flight call. ``--pid``
  ties a busy flag to the host's process, so a host that dies mid-turn does not hold extraction
  back; ``--session`` signals per session and counts for every project of the user.
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

from chord_git.support.dataclass_lazy import dataclass
from chord_git.errors import UsageError, one_line
from chord_git.ui import Output

if TYPE_CHECKING:  # the hook runs on every turn: it imports only what its event needs
    from chord_git.agents.hosts import Hosts
    from chord_git.agents.payload import HookEvent
    from chord_git.config import Config
    from chord_git.git.layout import RepoInfo
    from chord_git.memory.project import Project

SESSION_AGENT = "api"  # the agent name of sessions signalled by hand or through the Python API (api.py)


def agent(project: Project, cfg: Config, out: Output, state: str, *, owner_pid: int | None = None,
          as_json: bool = False, session: str | None = None) -> int:
    from chord_git.background import activity

    if state == "busy":
        if session:
            activity.set_session_busy(SESSION_AGENT, session, owner_pid=owner_pid)
        else:
            activity.set_busy(project.state_dir, owner_pid=owner_pid)
        return 0
    if owner_pid is not None:
        raise UsageError("--pid only goes with 'agent busy'")
    if state == "idle":
        if session:
            activity.set_session_idle(SESSION_AGENT, session)
        else:
            activity.set_idle(project.state_dir)
        return 0
    if state == "status":
        return _status(project, cfg, out, as_json)
    raise UsageError(f"agent: unknown state {state!r} (expected busy, idle or status)")


@dataclass(frozen=True)
class AgentStatus:
    """What ``agent status`` reports; ``--json`` prints these fields as they are."""

    agent: str  # busy | idle
    sessions_busy: int  # busy sessions of the user, all projects
    pool: str  # dedicated | main
    queued: int
    failed: int
    worker_pid: int | None

    def lines(self) -> list[str]:
        preempts = "ignores the signal" if self.pool == "dedicated" else "waits until no session is busy"
        return [f"agent: {self.agent}", f"agent sessions busy (all projects): {self.sessions_busy}",
                f"extraction pool: {self.pool} ({preempts})",
                f"queue: {self.queued} waiting, {self.failed} failed",
                f"worker: running (pid {self.worker_pid})" if self.worker_pid else "worker: not running"]


def _status(project: Project, cfg: Config, out: Output, as_json: bool) -> int:
    from chord_git.background import activity, queue, worker

    report = AgentStatus(
        agent="busy" if activity.is_busy(project.state_dir) else "idle",
        sessions_busy=activity.busy_sessions(),
        pool="dedicated" if cfg.dedicated_pool else "main",
        queued=len(queue.pending(project)),
        failed=len(queue.failed(project)),
        worker_pid=worker.running_worker(project),
    )
    return out.report(report, as_json)


# ---------------------------------------------------------------------------- install
def install(project: Project, out: Output, host_name: str, *, scope: str = "project", dry_run: bool = False,
            remove: bool = False, hosts: Hosts | None = None) -> int:
    """``hosts``: the registry to take the host from (None: the built-in one)."""
    from chord_git.agents import install as install_mod

    host = _hosts(hosts).get(host_name)
    root = project.repo.workdir if project.repo is not None and project.repo.workdir is not None else project.root
    outcome = install_mod.apply(host, scope, root, remove=remove, dry_run=dry_run)
    if dry_run:
        out.write(outcome.diff)
        return 0
    changes = outcome.changes
    if outcome.deleted and host.shim is None:
        events = f" from {', '.join(changes.removed)}" if changes.removed else ""
        out.line(f"{outcome.shown}: removed chord-git{events}; deleted the file, which held nothing else")
    elif changes.removed:
        out.line(f"{outcome.shown}: removed chord-git from {', '.join(changes.removed)}")
    elif remove:
        out.line(f"{outcome.shown}: no chord-git entries; nothing changed")
    elif changes.added or changes.updated:
        parts = []
        if changes.added:
            parts.append("added " + ", ".join(changes.added))
        if changes.updated:
            parts.append("updated " + ", ".join(dict.fromkeys(changes.updated)))
        out.line(f"{outcome.shown}: {'; '.join(parts)}")
    else:
        out.line(f"{outcome.shown}: already installed; nothing changed")
    if not remove and changes.statusline_taken is not None:
        out.line(f"statusLine: the file already has one ({changes.statusline_taken}); to show the memory "
                 "badge as well, make that command also print the output of `git-memory agent statusline`")
    if not remove and host.install_note:
        out.line(host.install_note)
    if scope in ("project", "local") and project.repo is not None and project.repo.workdir is not None:
        _hide_local_file(project.repo, outcome.path, outcome.shown, out, hide=scope == "local" and not remove)
    if not remove and scope == "project" and outcome.written:
        out.line(f"{outcome.shown} is a project file: review and commit it like any other change")
    if not remove:
        warning = install_mod.path_warning(host, os.environ.get("PATH", os.defpath), _script_folder())
        if warning:
            out.warn(warning)
    return 0


LOCAL_WHY = "git memory agent install --scope local (uninstall removes it)"


def _hide_local_file(repo: RepoInfo, path: Path, shown: str, out: Output, *, hide: bool) -> None:
    """A local-scope file is one person's: hidden in ``.git/info/exclude`` (never ``.gitignore``,
    R37). A project-scope install or an uninstall takes our line away again: the file is then
    shared, or gone."""
    from chord_git.git import command, exclude

    assert repo.workdir is not None
    rel = path.relative_to(repo.workdir).as_posix()
    line = exclude.pattern(rel)
    where = ".git/info/exclude"
    if not hide:
        if exclude.remove(repo, [line]):
            out.line(f"{shown}: removed its line from {where}")
        return
    if exclude.listed(exclude.read(repo), line) or rel in command.ignored(repo.workdir, [rel]):
        return
    exclude.add(repo, [line], LOCAL_WHY)
    out.line(f"{shown}: hidden from git in {where} (local scope: yours only)")
    if command.tracked(repo.workdir, rel):
        out.note(f"{shown} is tracked, so git keeps showing its changes; a local install is meant for "
                 "a file nobody commits")


def _script_folder() -> Path | None:
    from chord_git.commands.init import running_script

    script = running_script()
    return script.parent if script is not None else None


# ---------------------------------------------------------------------------- hook
def _hosts(hosts: Hosts | None) -> Hosts:
    if hosts is not None:
        return hosts
    from chord_git.agents.hosts import BUILTIN

    return BUILTIN


def hook(out: Output, stdin: bytes, *, host_name: str | None = None, hosts: Hosts | None = None) -> int:
    """Never fails the host: every problem becomes one stderr line, and the exit code is 0."""
    from chord_git.agents import payload

    event_name = "hook"
    try:
        event = payload.parse(stdin, Path.cwd())
        event_name = event.event
        _run_hook(out, event, host_name, _hosts(hosts))
    except Exception as exc:  # noqa: BLE001 - fail open, whatever it was
        out.stderr.write(f"chord-git: {event_name}: {_one_line(exc)}\n")
    return 0


def _run_hook(out: Output, event: HookEvent, host_name: str | None, hosts: Hosts) -> None:
    from chord_git.agents import hook as hook_mod
    from chord_git.memory import project as project_mod

    host = hosts.get(host_name) if host_name else hosts.for_event(event)
    project = project_mod.discover(event.cwd)
    if not project.is_project:
        return
    result = hook_mod.handle(event, host, project)
    if result.stdout:
        out.write(result.stdout)
    if result.extraction_problem:
        from chord_git.memory import store

        store.write_status(project, False, result.extraction_problem)
    if result.problems:
        more = f" (and {len(result.problems) - 1} more)" if len(result.problems) > 1 else ""
        out.stderr.write(f"chord-git: {event.event}: {result.problems[0]}{more}\n")


def _one_line(exc: BaseException) -> str:
    return one_line(exc, 300) or type(exc).__name__


# ---------------------------------------------------------------------------- status line
def statusline(out: Output, stdin: bytes) -> int:
    """One line for the host's status bar; prints nothing when extraction is off or outside a project."""
    try:
        line = _statusline(stdin)
    except Exception as exc:  # noqa: BLE001 - a status bar must not show a traceback
        from chord_git.agents.statusline import shorten

        line = f"MEMORY-FAIL: {shorten(_one_line(exc))}"
    if line:
        out.line(line)
    return 0


def _statusline(stdin: bytes) -> str:
    import json

    from chord_git.agents import statusline as statusline_mod
    from chord_git.memory import project as project_mod

    cwd = Path.cwd()
    try:
        data = json.loads(stdin) if stdin.strip() else {}
    except ValueError:
        data = {}
    if isinstance(data, dict):
        workspace = data.get("workspace")
        given = (workspace.get("current_dir") if isinstance(workspace, dict) else None) or data.get("cwd")
        if isinstance(given, str) and os.path.isabs(given):
            cwd = Path(given)
    project = project_mod.discover(cwd)
    if not project.is_project:
        return ""
    # The badge, its cause first and cut, a recorded failure's clearing hint whole (statusline.py).
    return statusline_mod.line(project, lambda: statusline_mod.badge_line(project))
