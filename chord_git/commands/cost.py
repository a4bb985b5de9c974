"""``git memory cost``: what memory costs in tokens (issue 36), from the ledger (``memory.ledger``).

Per day, per host, per session and per entry: the tokens each session start injected (an
estimate from its characters), and the tokens extraction and curation spent as the endpoint
reported them (an estimate where it reported none, counted apart). An entry's share is its index
line in every session start that injected it.
"""
from __future__ import annotations

import datetime as dt
import re

from chord_git.errors import UsageError
from chord_git.memory import ledger
from chord_git.memory.project import Project
from chord_git.support.escape import printable
from chord_git.ui import Output

ENTRY_ROWS = 10
_SINCE = re.compile(r"^(\d{1,4})d$")


def since_day(text: str, today: dt.date) -> dt.date:
    """``--since``: ``7d`` (the last seven days, today included) or a date ``YYYY-MM-DD`` (pure)."""
    found = _SINCE.match(text.strip())
    if found:
        return today - dt.timedelta(days=max(int(found.group(1)) - 1, 0))
    try:
        return dt.date.fromisoformat(text.strip())
    except ValueError:
        raise UsageError(f"--since {text!r}: give a number of days (7d) or a date (2026-12-01)") from None


def cost(project: Project, out: Output, *, since: str = "7d", as_json: bool = False,
         today: dt.date | None = None) -> int:
    day = today or dt.datetime.now(dt.timezone.utc).date()
    report = ledger.report(ledger.read(project.state_dir), since_day(since, day))
    if as_json:
        out.json(report)
        return 0
    totals = report["totals"]
    out.line(f"memory cost since {report['since']} (tokens; injected ones estimated from characters)")
    out.line(f"injected into sessions: {totals['injected_tokens']}; extraction and curation: "
             f"{totals['prompt_tokens']} prompt + {totals['completion_tokens']} completion"
             + (f" ({totals['model_calls_estimated']} calls estimated: no usage reported)"
                if totals["model_calls_estimated"] else ""))
    if not report["days"]:
        out.line("nothing recorded in that time (session starts and extraction runs record here)")
        return 0
    out.line("per day:")
    for row in report["days"]:
        out.line(f"  {row['day']}  {row['session_starts']} session starts, {row['injected_tokens']} injected; "
                 f"{row['model_calls']} model calls, {row['prompt_tokens']} + {row['completion_tokens']}")
    out.line("per host:")
    for row in report["hosts"]:
        out.line(f"  {printable(row['host'])}  {row['session_starts']} session starts, {row['injected_tokens']} injected")
    out.line("per session (most first):")
    for row in report["sessions"][:ENTRY_ROWS]:
        # Session ids come from the hosts' hook input: shown, never interpreted by the terminal.
        out.line(f"  {printable(row['session']) or '(no session)'}  {row['injected_tokens']} injected, "
                 f"{row['prompt_tokens']} + {row['completion_tokens']} by the model")
    out.line(f"per entry (its share of every start that injected it; top {ENTRY_ROWS}):")
    for row in report["entries"][:ENTRY_ROWS]:
        out.line(f"  {printable(row['id'])}  {row['tokens']} tokens over {row['sessions']} session starts")
    return 0
