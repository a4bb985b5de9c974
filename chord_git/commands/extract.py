"""``git memory extract --session FILE``: one extraction run in the foreground (R14, R36).

With extraction off it says so and exits 0 without reading the session. Otherwise it prints one
line (written, replaced, dropped by reason) or, with ``--json``, the run's report. A dry run also
shows every record and index line it would write. Failures print their one-line reason and exit 1
(MEMORY-FAIL is recorded by the pipeline); a preempted run exits 1 and is retried later.
"""
from __future__ import annotations

from pathlib import Path

from chord_git.config import Config
from chord_git.errors import ExtractionFailed, Preempted
from chord_git.memory.project import Project
from chord_git.ui import Output

OFF_MESSAGE = "memory extraction is off (memory.enabled is false): nothing sent, nothing written"


def _counts(counts: dict[str, int]) -> str:
    if not counts:
        return ""
    return " (" + ", ".join(f"{reason} {n}" for reason, n in counts.items()) + ")"


def summary_line(data: dict[str, object]) -> str:
    written, replaced = data["written"], data["replaced"]
    dropped: dict[str, int] = data["dropped"]  # type: ignore[assignment]
    assert isinstance(written, list) and isinstance(replaced, dict)
    verb = "would write" if data["dry_run"] else "written"
    session = data.get("session") or "unnamed session"
    return (f"{session}: {verb} {len(written)}, replaced {len(replaced)}, "
            f"dropped {sum(dropped.values())}{_counts(dropped)} [{data['model']}]")


def extract(project: Project, cfg: Config, out: Output, *, session: Path, fmt: str = "auto",
            dry_run: bool = False, as_json: bool = False) -> int:
    if not cfg.memory.enabled:
        if as_json:
            out.json({"outcome": "off", "message": OFF_MESSAGE})
        else:
            out.line(OFF_MESSAGE)
        return 0
    from chord_git.background import activity

    try:
        from chord_git.extraction.pipeline import (
            extract_session,  # the pool imports openai lazily
        )
    except ImportError as exc:  # pydantic and openai come with the "llm" extra
        return _missing_client(project, out, exc, as_json)

    state_dir = project.state_dir
    try:
        # R15: with the main pool a busy agent preempts this run too (the pipeline ignores the
        # signal for a dedicated pool, R16).
        report = extract_session(project, cfg, session, fmt=fmt, dry_run=dry_run,
                                 should_cancel=lambda: activity.anyone_busy(state_dir))
    except Preempted as exc:
        if as_json:
            out.json({"outcome": "preempted", "reason": str(exc)})
        raise Preempted(f"preempted; retry later ({exc})") from None
    except ExtractionFailed as exc:
        if as_json:
            out.json({"outcome": "failed", "reason": str(exc)})
        raise
    data = report.as_json()
    if as_json:
        out.json(data)
        return 0
    out.line(summary_line(data))
    if dry_run:
        _show_dry_run(out, data)
    return 0


def _missing_client(project: Project, out: Output, exc: ImportError, as_json: bool) -> int:
    from chord_git.memory import store

    reason = f"the model client is not installed ({exc.name or exc}): pip install 'chord-git[llm]'"
    store.write_status(project, False, reason)
    if as_json:
        out.json({"outcome": "failed", "reason": reason})
    raise ExtractionFailed(reason)


def _show_dry_run(out: Output, data: dict[str, object]) -> None:
    records = data["records"]
    lines = data["index_lines"]
    assert isinstance(records, list) and isinstance(lines, list)
    if not records:
        out.line("nothing would be written")
        return
    out.line("index lines (on top of the managed section):")
    for line in lines:
        out.line(f"  {line}")
    for record in records:
        out.line("")
        out.line(f"--- {record['path']}")
        out.write(str(record["text"]))
