"""``git memory extract --session FILE --background``: queue a frozen session and return (R14).

The post-session hook runs this. It copies the transcript into the queue, starts the project's
worker unless one is already running, prints the job id and returns without waiting for a model.
"""
from __future__ import annotations

from pathlib import Path

from chord_git.background import worker
from chord_git.config import EXTRACTION_OFF, Config
from chord_git.errors import UsageError
from chord_git.memory.project import Project
from chord_git.ui import Output


def extract_background(project: Project, cfg: Config, out: Output, session: Path, *,
                       fmt: str = "auto", dry_run: bool = False, as_json: bool = False) -> int:
    if dry_run:
        raise UsageError("--dry-run cannot be combined with --background (a background run prints nothing)")
    submission = worker.submit(project, cfg, session, fmt)
    if submission is None:
        if as_json:
            out.json({"queued": None, "enabled": False})
        else:
            out.line(f"{EXTRACTION_OFF}; nothing queued")
        return 0
    if as_json:
        out.json({"queued": submission.job_id, "enabled": True,
                  "worker": "started" if submission.worker_started else "running"})
    else:
        out.line(submission.job_id)
    return 0
