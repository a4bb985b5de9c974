"""A statement of the user, queued as a one-message session (``git memory add``, an accepted import).

New entries are written only by background extraction (the product page's rule), so words the
user asks to keep are never written as an entry directly: they become a native transcript of one
user message in the state dir, queued like any frozen session, so the model and the whole judge
decide what is written. Secrets are redacted before the transcript is written, so not even the
state dir keeps one.
"""
from __future__ import annotations

import datetime as dt
import json
import os
from pathlib import Path

from chord_git.background import queue, worker
from chord_git.config import Config
from chord_git.memory import store
from chord_git.memory.atomic import replace_atomically
from chord_git.memory.project import Project
from chord_git.transcripts.native import FORMAT

STAGING_DIR = "add"


def session_id(now: dt.datetime, salt: str, prefix: str = "add") -> str:
    """A new session each time: saying it again is a new session, which brings a forgotten entry
    back as the user's words in a new session do."""
    return f"{prefix}-{now.strftime('%Y%m%dT%H%M%SZ')}-{salt}"


def transcript_bytes(session: str, words: str) -> bytes:
    """The native transcript (``FORMAT``) of one message of the user."""
    lines = [{"type": "session", "id": session, "frozen": True},
             {"type": "message", "role": "user", "content": words, "complete": True}]
    return "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines).encode("utf-8")


def _stage(project: Project, session: str, words: str) -> Path:
    """The transcript, readable by its owner only, in the state dir (never the working tree)."""
    directory = store.ensure_state_dir(project) / STAGING_DIR
    directory.mkdir(parents=True, exist_ok=True)
    target = directory / f"{session}.jsonl"
    replace_atomically(target, transcript_bytes(session, words), directory, mode=0o600)
    return target


def queue_statement(project: Project, cfg: Config, words: str, *, prefix: str = "add",
                    start_worker: bool = True) -> tuple[str, str]:
    """Queue ``words`` as the user's one-message session; (job id, session id).

    ``start_worker``: hand the job to the project's worker (started if none runs); otherwise it is
    only queued, for a caller that drains the queue itself (``add --wait``)."""
    from chord_git.secrets import redact

    now = dt.datetime.now(dt.timezone.utc)
    session = session_id(now, os.urandom(4).hex(), prefix)
    staged = _stage(project, session, redact(words))
    try:
        if not start_worker:
            return queue.enqueue(project, staged, FORMAT), session
        submission = worker.submit(project, cfg, staged, FORMAT)
        if submission is None:  # memory is off: the caller checks that first
            raise RuntimeError("memory is off; nothing queued")
        return submission.job_id, session
    finally:
        staged.unlink(missing_ok=True)  # the queue keeps its own copy
