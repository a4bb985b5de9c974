"""The extraction run log: one JSON line per run in ``<state dir>/runs.jsonl``.

It says what happened (when, which session, which models were tried and how they fared, what was
written, replaced and dropped by reason, the outcome, the input size) and never what was said:
no message text, no record text, no reply. The file lives in the runtime state directory, never in
the working tree, and is rotated once it grows past ``ROTATE_BYTES`` (one old generation kept).
"""
from __future__ import annotations

import json
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from chord_git.errors import append_log, one_line
from chord_git.extraction.pool import Attempt
from chord_git.memory import store
from chord_git.memory.project import Project

LOG_NAME = "runs.jsonl"
ROTATE_BYTES = 1024 * 1024
# Only these keys are ever written: the log must not become a second copy of the conversation.
FIELDS = ("time", "session", "outcome", "reason", "model", "attempts", "written", "replaced",
          "dropped", "adjusted", "input_chars", "dry_run", "format")


def log_path(project: Project) -> Path:
    return project.state_dir / LOG_NAME


def attempts_json(attempts: Sequence[Attempt]) -> list[dict[str, str]]:
    return [{"model": a.model, "outcome": a.outcome, **({"detail": a.detail} if a.detail else {})}
            for a in attempts]


def entry(*, session: str | None, outcome: str, reason: str | None = None, model: str | None = None,
          attempts: Sequence[Attempt] = (), written: Sequence[str] = (),
          replaced: Mapping[str, str] | None = None, dropped: Mapping[str, int] | None = None,
          adjusted: Mapping[str, int] | None = None, input_chars: int = 0, dry_run: bool = False,
          fmt: str | None = None, now: float | None = None) -> dict[str, Any]:
    """One log line (pure). ``reason`` must be one of our one-line reasons, never reply text."""
    return {
        "time": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(now if now is not None else time.time())),
        "session": session, "outcome": outcome,
        "reason": one_line(reason, 400) if reason else None,
        "model": model, "attempts": attempts_json(attempts), "written": list(written),
        "replaced": dict(replaced or {}), "dropped": dict(dropped or {}), "adjusted": dict(adjusted or {}),
        "input_chars": input_chars, "dry_run": dry_run, "format": fmt,
    }


def append(project: Project, line: Mapping[str, Any]) -> None:
    """Append one line; a failure to log never fails the run."""
    data = {key: line.get(key) for key in FIELDS}
    payload = (json.dumps(data, ensure_ascii=False, sort_keys=False) + "\n").encode("utf-8")
    try:
        store.ensure_state_dir(project)
        append_log(log_path(project), payload, keep_bytes=ROTATE_BYTES, mode=0o644)  # one line per run, whole
    except OSError:
        pass


def read(project: Project) -> list[dict[str, Any]]:
    """Every logged run, oldest first (lines that do not parse are skipped)."""
    try:
        text = log_path(project).read_text("utf-8")
    except (FileNotFoundError, OSError):
        return []
    out = []
    for raw in text.splitlines():
        try:
            value = json.loads(raw)
        except ValueError:
            continue
        if isinstance(value, dict):
            out.append(value)
    return out
