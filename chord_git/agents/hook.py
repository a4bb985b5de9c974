"""``git memory agent hook``: one host lifecycle event, mapped onto project memory.

| event | what happens |
|---|---|
| SessionStart (startup, resume, clear, compact) | prints the summary in the host's form (R9–R12); the session is registered as open; other sessions that count as frozen now are handed off |
| UserPromptSubmit | the session is busy (R15); a frozen session that continues is open again |
| Stop | the session is idle; a quiet-freezing host's session gets a watcher, which freezes it once quiet, once its host process is gone (``Host.freezes_on_exit``), or when another session starts: a working session never adds entries (R14) |
| SessionEnd | the session is frozen and handed to extraction in the background (R14) |
| PreCompact | only on a host that reports a compaction before it happens and nothing after (``Host.prompt_after_compact``: Copilot CLI): the next UserPromptSubmit prints the summary again |

Hosts name some events differently (``Host.event_names``: Gemini CLI's BeforeAgent and
AfterAgent are UserPromptSubmit and Stop here).

The summary is printed only at SessionStart, which the hosts send exactly when they rebuild the
prompt anyway (new, resumed, cleared or compacted session): memory written during a session shows
up at the next of those moments, never in the middle of a turn (R10).

A SessionStart that is not a compaction also gives the person at the host one line, where the
host has a way to show it (``Host.render_notice``): what the session was given (``memory: 12
entries loaded, 3 left out — git memory why``), led by the MEMORY-FAIL badge on a host without
a status line (``agents/statusline.py``). It never reaches the model.

Failing open is the caller's job (``commands/agent.py``): this module raises, and the command turns
any error into one stderr line and exit 0. Errors that concern background extraction (the watcher
cannot start) also set MEMORY-FAIL; a refused config does not need to: the badge reads the config
itself, so it clears the moment the file is fixed.
"""
from __future__ import annotations

import os
import time
from pathlib import Path
from typing import TYPE_CHECKING

from chord_git.agents import sessions
from chord_git.agents.host import Host
from chord_git.agents.payload import HookEvent
from chord_git.agents.sessions import AgentSession
from chord_git.background import activity
from chord_git.background.activity import session_key
from chord_git.support.dataclass_lazy import dataclass, field, replace
from chord_git.memory.project import Project

if TYPE_CHECKING:
    from chord_git.config import Config
    from chord_git.memory.summary import Summary

# Reading records for SessionStart's summary stops after this long (cached verdicts still count):
# the hosts kill a hook after their own limit and then inject nothing at all, while the next
# start goes on from the verdicts cached by this one.
SUMMARY_SECONDS = 0.75
_SHELLS = frozenset({"sh", "bash", "dash", "zsh", "ksh", "fish"})


@dataclass
class HookResult:
    stdout: str = ""                                     # what the host injects (SessionStart only)
    problems: list[str] = field(default_factory=list)   # one-line reasons, already handled
    extraction_problem: str | None = None               # goes to the MEMORY-FAIL badge too


def host_pid() -> int | None:
    """The agent process: our parent, or its parent when the host ran us through a shell.

    A busy flag tied to it goes stale the moment the agent dies mid-turn (``activity``).
    """
    pid = os.getppid()
    for _ in range(2):
        try:
            with open(f"/proc/{pid}/stat", "rb") as handle:
                stat = handle.read().decode("ascii", "replace")
        except OSError:
            return pid if pid > 1 else None
        comm = stat[stat.find("(") + 1: stat.rfind(")")]
        if comm not in _SHELLS:
            return pid if pid > 1 else None
        pid = int(stat[stat.rfind(")") + 2:].split()[1])
    return pid if pid > 1 else None


def handle(event: HookEvent, host: Host, project: Project) -> HookResult:
    result = HookResult()
    if host.keep_transcript is not None and event.messages is not None:
        event = replace(event, transcript=host.keep_transcript(event, project.state_dir))
    name = host.our_event(event.event)
    if name == "SessionStart":
        _session_start(event, host, project, result)
    elif name == "UserPromptSubmit":
        activity.set_session_busy(host.name, event.session_id, owner_pid=host_pid())
        _register(project, event, host, reopen=True, owner=_owner(host))
        if host.prompt_after_compact:
            _prompt_after_compact(event, host, project, result)
    elif name == "PreCompact" and host.prompt_after_compact:
        _pre_compact(event, host, project)
    elif name == "Stop":
        activity.set_session_idle(host.name, event.session_id)
        session = _register(project, event, host, reopen=False, owner=_owner(host))
        if host.freezes_when_quiet and session is not None and session.state == "open":
            _ensure_watcher(project, result)  # someone has to notice when it goes quiet
    elif name == "SessionEnd":
        activity.end_session(host.name, event.session_id)
        _end(project, event, host)
        _ensure_watcher(project, result)
    return result


def _transcript(event: HookEvent) -> str | None:
    return str(event.transcript) if event.transcript is not None else None


def _owner(host: Host) -> int | None:
    """The host process, for a host whose sessions end with it (``Host.freezes_on_exit``)."""
    return host_pid() if host.freezes_on_exit else None


def _register(project: Project, event: HookEvent, host: Host, *, reopen: bool,
              owner: int | None = None) -> AgentSession | None:
    """Make sure the session is known; with ``reopen``, a frozen session that continues is open;
    ``owner``: the host process it now runs in (a resumed session runs in a new one)."""
    def change(current: AgentSession | None) -> AgentSession | None:
        if current is None:
            return sessions.transition(None, host.name, event.session_id, _transcript(event), "open",
                                       owner_pid=owner)
        state = "open" if reopen else current.state
        if (state == current.state and (current.transcript is not None or event.transcript is None)
                and owner in (None, current.owner_pid)):
            return None
        return sessions.transition(current, host.name, event.session_id, _transcript(event), state,
                                   end_size=current.end_size, reason=current.end_reason, owner_pid=owner)

    return sessions.update(project, host.name, event.session_id, change)


def _end(project: Project, event: HookEvent, host: Host, reason: str = "session end") -> None:
    size: int | None = None
    if event.transcript is not None:
        try:
            size = event.transcript.stat().st_size
        except OSError:
            size = None

    def change(current: AgentSession | None) -> AgentSession:
        return sessions.transition(current, host.name, event.session_id, _transcript(event), "ended",
                                   end_size=size, reason=event.reason or reason)

    sessions.update(project, host.name, event.session_id, change)


def _summary(project: Project, host: Host, event: HookEvent, result: HookResult, *, notify: bool = False) -> Config:
    """Put the summary in the host's form into ``result`` (with the notice, where ``notify``);
    returns the config it was built with."""
    from chord_git import config as config_mod
    from chord_git.memory import recall_gate, summary as summary_mod
    from chord_git.errors import ConfigError

    started = time.monotonic()
    deadline = started + SUMMARY_SECONDS
    try:
        cfg = recall = config_mod.load(project.root)
    except ConfigError as exc:
        # Memory is still injected (R7: loading never depends on extraction), with the defaults;
        # what may be recalled still follows the user's own file (``config.user_only``). The badge
        # says MEMORY-FAIL for as long as the file is refused, and no longer.
        cfg, recall = config_mod.Config(), config_mod.user_only()
        result.problems.append(f"config: {exc}")
    built = summary_mod.build(project.memory_md, budget=cfg.memory.summary_budget,
                              extraction_enabled=cfg.memory.enabled,
                              rel=project.relative(project.memory_md),
                              cache=project.state_dir / summary_mod.SUMMARY_CACHE, deadline=deadline,
                              gate=recall_gate.for_session(project, config_mod.inject_mode(recall),
                                                             recall.memory.reviewed_base))
    # A shim takes its reply apart only when it says so: one from an older version takes it whole
    # as context, and gets plain text.
    takes_apart = host.shim is None or event.reply == "json"
    text = _notice(project, host, built) if notify and takes_apart and host.render_notice is not None else ""
    if host.render_notice is not None and (text or (host.shim is not None and takes_apart)):
        result.stdout = host.render_notice(built.text, text)
    else:
        result.stdout = host.render_context(built.text)
    _record_injection(project, event, host, built, cfg.memory.summary_budget, result.problems, started)
    return cfg


def _notice(project: Project, host: Host, built: Summary) -> str:
    """The line the person at the host sees at a session start; empty when there is nothing to say
    (no memory, and nothing failing). The badge comes from the status line's cache."""
    from chord_git.agents import statusline

    badge = statusline.line(project, lambda: statusline.badge_line(project))
    loaded = statusline.loaded_line(built)
    if not loaded and not badge.startswith("MEMORY-FAIL"):
        return ""
    return statusline.notice(badge, loaded, has_statusline=host.has_statusline)


def _compacted_marker(project: Project, host: Host, event: HookEvent) -> Path:
    """Present between a PreCompact and the next prompt of a ``Host.prompt_after_compact`` host."""
    return sessions.folder(project) / "compacted" / session_key(host.name, event.session_id)


def _pre_compact(event: HookEvent, host: Host, project: Project) -> None:
    marker = _compacted_marker(project, host, event)
    marker.parent.mkdir(parents=True, exist_ok=True)
    marker.touch()


def _prompt_after_compact(event: HookEvent, host: Host, project: Project, result: HookResult) -> None:
    """The first prompt after a compaction carries the summary again (the compaction is when the
    host rebuilds its prompt anyway; a prompt hook is the first moment it takes context after it)."""
    marker = _compacted_marker(project, host, event)
    try:
        marker.unlink()
    except FileNotFoundError:
        return
    _summary(project, host, event, result)


def _session_start(event: HookEvent, host: Host, project: Project, result: HookResult) -> None:
    cfg = _summary(project, host, event, result, notify=event.source != "compact")
    if host.prompt_after_compact:
        _compacted_marker(project, host, event).unlink(missing_ok=True)  # injected here already
    _register(project, event, host, reopen=True, owner=_owner(host))
    if event.source == "compact":
        return  # the same session, possibly mid-turn: its busy flag and the others stay as they are
    # A (re)started session is idle until a prompt. A busy flag that this very agent process set is
    # that prompt already: Copilot CLI runs the start and prompt hooks of a turn side by side.
    flag = activity.session_flag(host.name, event.session_id)
    if flag is not None and (flag.owner_pid is None or flag.owner_pid != host_pid()):
        activity.end_session(host.name, event.session_id)
    if _freeze_others(project, event, host, cfg.memory.freeze_after_seconds):
        _ensure_watcher(project, result)


def _record_injection(project: Project, event: HookEvent, host: Host, built: Summary, budget: int,
                      problems: list[str], started: float) -> None:
    """The manifest ``git memory why`` reads. It is a diagnosis aid: failing to write it must
    neither cost the session its memory nor print anything."""
    from chord_git.memory import injection

    if not project.is_project:
        return  # no state dir is made for a folder that has no memory
    manifest = injection.build(built, host=host.name, session=event.session_id, source=event.source,
                               budget=budget, problems=problems,
                               elapsed_ms=(time.monotonic() - started) * 1000)
    try:
        injection.write(project.state_dir, manifest)
    except OSError:
        pass
    if built.text:  # the ledger (``git memory cost``): what this start costs every turn of the session
        from chord_git.memory import ledger

        lines = {rid: next((line for line in built.text.split("\n") if f"[{rid}](" in line), "")
                 for rid in built.shown_ids}
        ledger.append(project.state_dir, ledger.injection_line(host=host.name, session=event.session_id,
                                                               text=built.text, entries=list(lines.items())))


def _freeze_others(project: Project, event: HookEvent, host: Host, freeze_after: float) -> int:
    """Another session starting freezes the project's sessions that cannot report their end.

    Codex sessions that are not busy count as frozen now. A Claude Code session reports its end,
    so it is only frozen here if it has been quiet for ``freeze_after`` seconds (its host died).
    """
    from chord_git.agents import hosts
    from chord_git.agents.watch import freeze, freeze_due

    now = time.time()
    frozen = 0
    for other in sessions.all_sessions(project):
        if other.state != "open" or (other.host, other.session_id) == (host.name, event.session_id):
            continue
        if hosts.get(other.host).freezes_when_quiet:
            due = not activity.session_busy(other.host, other.session_id)
        else:
            due = freeze_due(other, freeze_after, now)
        if due:
            freeze(project, other, "another session started")
            frozen += 1
    return frozen


def _ensure_watcher(project: Project, result: HookResult) -> None:
    from chord_git.agents.watch import ensure_running

    try:
        ensure_running(project)
    except OSError as exc:
        reason = f"the session watcher could not start: {exc.strerror or exc}"
        result.problems.append(reason)
        result.extraction_problem = reason
