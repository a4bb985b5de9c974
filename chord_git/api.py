"""The Python API for agent hosts: what a host calls at session start, per turn and at session end.

    from chord_git import api

    memory = api.open_session(cwd)            # R9: inject memory.text into the system prompt
    api.agent_busy(cwd, owner_pid=os.getpid())  # a user message arrived (R15)
    api.agent_idle(cwd)                       # the agent's turn ended
    memory.on_event("compaction")             # R10: refresh only when the prompt is rebuilt anyway
    api.session_ended(cwd, transcript_path)   # the post-session hook, in-process (R14)

Every function takes the directory the session works in and finds its project the same way
``git memory`` does. Nothing here imports the openai client; extraction runs in a detached worker.
"""
from __future__ import annotations

import os
from pathlib import Path

from chord_git import config as config_mod
from chord_git.memory import summary as summary_mod
from chord_git.background import activity
from chord_git.errors import ConfigError
from chord_git.memory import project as project_mod
from chord_git.memory.summary import RefreshEvent, SessionMemory

__all__ = ["RefreshEvent", "SessionMemory", "agent_busy", "agent_idle", "open_session", "session_ended"]

PathLike = str | os.PathLike[str]


def open_session(cwd: PathLike) -> SessionMemory:
    """The session's memory summary; ``on_event`` reloads it (and the config) only on a RefreshEvent.

    After a change of working directory into another project, open a new session memory instead.
    """
    project = project_mod.discover(Path(cwd))

    def load() -> summary_mod.Summary:
        from chord_git.memory import recall_gate

        try:
            cfg = recall = config_mod.load(project.root)  # re-read: the budget or the extraction switch may change
        except ConfigError:
            # R7: the memory loads with the defaults; extraction refuses. What may be recalled
            # (memory.inject) still follows the user's own file.
            cfg, recall = config_mod.Config(), config_mod.user_only()
        return summary_mod.build(project.memory_md, budget=cfg.memory.summary_budget,
                                 extraction_enabled=cfg.memory.enabled and project.is_project,
                                 rel=project.relative(project.memory_md),
                                 cache=project.state_dir / summary_mod.SUMMARY_CACHE,
                                 gate=recall_gate.for_session(project, config_mod.inject_mode(recall),
                                                               recall.memory.reviewed_base))

    return SessionMemory(loader=load)


def agent_busy(cwd: PathLike, *, owner_pid: int | None = None, session_id: str | None = None) -> None:
    """A user message arrived: main-pool extraction pauses, and an in-flight call is cancelled.

    Pass ``owner_pid=os.getpid()`` from a long-lived host so the flag dies with the host. With a
    ``session_id`` the signal is per session and holds back main-pool workers of every project of
    the user (they share the pool); without one it concerns this project only.
    """
    if session_id:
        activity.set_session_busy("api", session_id, owner_pid=owner_pid)
    else:
        activity.set_busy(project_mod.discover(Path(cwd)).state_dir, owner_pid=owner_pid)


def agent_idle(cwd: PathLike, *, session_id: str | None = None) -> None:
    """The agent's turn ended: main-pool extraction may call the model."""
    if session_id:
        activity.set_session_idle("api", session_id)
    else:
        activity.set_idle(project_mod.discover(Path(cwd)).state_dir)


def session_ended(cwd: PathLike, transcript_path: PathLike, fmt: str = "auto") -> str | None:
    """Queue a frozen session for background extraction; the job id, or None when memory is off.

    Returns at once. The transcript is copied, so the host may delete it afterwards. A missing or
    unreadable file raises ``InputError``; a relative path is taken relative to ``cwd``.
    """
    from chord_git.background import worker
    from chord_git.transcripts.registry import BUILTIN

    BUILTIN.check(fmt)
    project = project_mod.discover(Path(cwd))
    cfg = config_mod.load(project.root)
    session = Path(cwd) / transcript_path
    submission = worker.submit(project, cfg, session, fmt)
    return None if submission is None else submission.job_id
