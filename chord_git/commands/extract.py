"""``git memory extract --session FILE``: one extraction run in the foreground (R14, R36).

With extraction off it says so and exits 0 without reading the session. Otherwise it prints one
line (written, replaced, dropped by reason) or, with ``--json``, the run's report. A dry run also
shows every record and index line it would write. Failures print their one-line reason and exit 1
(2 for a bad transcript); a preempted run exits 1. A run by hand reports to the person who ran it
and nothing else: the status (MEMORY / MEMORY-FAIL, the badge of ``status`` and the agent hosts)
is the background extraction's, and stays as it was.
"""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from chord_git.config import OFF_MESSAGE, Config
from chord_git.errors import ExtractionFailed, Preempted
from chord_git.memory.project import Project
from chord_git.ui import Output

if TYPE_CHECKING:
    from chord_git.extraction.pipeline import ExtractionReport
    from chord_git.transcripts.registry import Formats


def _counts(counts: dict[str, int]) -> str:
    if not counts:
        return ""
    return " (" + ", ".join(f"{reason} {n}" for reason, n in counts.items()) + ")"


def _promotion_files(report: ExtractionReport) -> list[dict[str, str]]:
    files = (report.maintenance or {}).get("promotion_files") or []
    return [dict(f) for f in files]


def summary_line(report: ExtractionReport) -> str:
    verb = "would write" if report.dry_run else "written"
    dropped = dict(report.dropped)
    return (f"{report.session_id or 'unnamed session'}: {verb} {len(report.written)}, "
            f"replaced {len(report.replaced)}, dropped {sum(dropped.values())}{_counts(dropped)}, "
            f"promotion files {len(_promotion_files(report))} [{report.model}]")


def extract(project: Project, cfg: Config, out: Output, *, session: Path, fmt: str = "auto",
            dry_run: bool = False, as_json: bool = False, formats: Formats | None = None) -> int:
    """``formats``: the transcript formats to read the session with (None: the built-in ones)."""
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
                                 should_cancel=lambda: activity.anyone_busy(state_dir), formats=formats,
                                 record_status=False)
    except Preempted as exc:
        if as_json:
            out.json({"outcome": "preempted", "reason": str(exc)})
        raise Preempted(f"preempted; retry later ({exc})") from None
    except ExtractionFailed as exc:
        if as_json:
            out.json({"outcome": "failed", "reason": str(exc)})
        raise
    if as_json:
        out.json(report.as_json())
        return 0
    out.line(summary_line(report))
    if dry_run:
        _show_dry_run(out, report)
    return 0


def _missing_client(project: Project, out: Output, exc: ImportError, as_json: bool) -> int:
    from chord_git.distribution.hints import missing_extra

    reason = missing_extra("llm", exc.name)
    if as_json:
        out.json({"outcome": "failed", "reason": reason})
    raise ExtractionFailed(reason)


def _show_dry_run(out: Output, report: ExtractionReport) -> None:
    suggested = _promotion_files(report)
    if not report.records and not suggested:
        out.line("nothing would be written")
        return
    if report.records:
        out.line("index lines (on top of the managed section):")
        for line in report.index_lines:
            out.line(f"  {line}")
    for record in report.records:
        out.line("")
        out.line(f"--- {record['path']}")
        out.write(str(record["text"]))
    for promotion in suggested:
        # The suggestion the file would hold, for review to accept into its target.
        out.line("")
        out.line(f"--- {promotion['path']} (promotion to {promotion['target']}, for git memory review)")
        text = str(promotion["text"])
        out.write(text if text.endswith("\n") else text + "\n")
