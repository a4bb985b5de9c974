"""What memory costs, in tokens: the ledger (issue 36).

One JSON line per event in ``<state dir>/ledger.jsonl``, beside the run log: each session start
records what it injected (characters, an estimate of tokens, the host, the session, and each entry
shown with the characters of its line), and each model call of extraction or curation what the
endpoint reported spending (``usage``: prompt and completion tokens; an estimate where it reports
none, marked so). No text is ever written here. ``git memory cost`` reads it; the extraction's daily
budget (``memory.extraction.max_tokens_per_day``) adds up the day's calls from it.

Appended whole, one line per event, rotated past ``ROTATE_BYTES`` (one old generation is kept and
read), as the run log is.
"""
from __future__ import annotations

import datetime as dt
import json
import math
import time
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

LEDGER = "ledger.jsonl"
ROTATE_BYTES = 4 * 1024 * 1024
INJECT = "inject"
MODEL = "model"


def estimate_tokens(text: str) -> int:
    """Tokens a text costs, as tokenizers of current models count them within ~20%: a CJK or kana
    character about one each, other text about four characters a token (pure)."""
    wide = sum(1 for ch in text if "\u3040" <= ch <= "\u30ff" or "\u3400" <= ch <= "\u9fff" or "\uac00" <= ch <= "\ud7af")
    return wide + math.ceil((len(text) - wide) / 4)


def _time(now: float | None) -> tuple[str, str]:
    stamp = time.gmtime(time.time() if now is None else now)
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", stamp), time.strftime("%Y-%m-%d", stamp)


def injection_line(*, host: str, session: str, text: str, entries: Sequence[tuple[str, str]],
                   now: float | None = None) -> dict[str, Any]:
    """The line of one session start (pure). ``entries``: (id, its line as injected), kept as the
    line's characters and its tokens, estimated as the whole text's are."""
    at, day = _time(now)
    return {"kind": INJECT, "at": at, "day": day, "host": host, "session": session, "chars": len(text),
            "tokens": estimate_tokens(text),
            "entries": [[rid, len(line), estimate_tokens(line)] for rid, line in entries]}


def model_line(*, purpose: str, session: str | None, model: str, usage: Mapping[str, Any] | None,
               prompt_chars: int, reply: str, day: dt.date | None = None, now: float | None = None) -> dict[str, Any]:
    """The line of one model call (pure): the endpoint's ``usage``, else an estimate from what was
    sent and received (``estimated`` true)."""
    at, today = _time(now)
    prompt = usage.get("prompt_tokens") if usage else None
    completion = usage.get("completion_tokens") if usage else None
    estimated = not (isinstance(prompt, int) and isinstance(completion, int))
    if estimated:
        prompt, completion = math.ceil(prompt_chars / 4), estimate_tokens(reply)
    return {"kind": MODEL, "at": at, "day": day.isoformat() if day else today, "purpose": purpose,
            "session": session, "model": model, "prompt_tokens": prompt, "completion_tokens": completion,
            "estimated": estimated}


def append(state_dir: Path, line: Mapping[str, Any]) -> None:
    """Append one line; failing to account never fails what was accounted."""
    from chord_git.errors import append_log

    try:
        state_dir.mkdir(parents=True, exist_ok=True)
        append_log(state_dir / LEDGER, (json.dumps(dict(line), ensure_ascii=False) + "\n").encode("utf-8"),
                   keep_bytes=ROTATE_BYTES, mode=0o644)
    except OSError:
        pass


def read(state_dir: Path) -> list[dict[str, Any]]:
    """Every line kept (the rotated generation first), oldest first; damaged lines are skipped."""
    out: list[dict[str, Any]] = []
    for path in (state_dir / (LEDGER + ".1"), state_dir / LEDGER):
        try:
            text = path.read_text("utf-8", errors="replace")
        except OSError:
            continue
        for raw in text.splitlines():
            try:
                value = json.loads(raw)
            except ValueError:
                continue
            if isinstance(value, dict) and value.get("kind") in (INJECT, MODEL):
                out.append(value)
    return out


def spent(lines: Iterable[Mapping[str, Any]], day: dt.date, session: str | None = None) -> int:
    """Tokens the model calls of ``day`` (of one ``session``, when given) spent (pure)."""
    return sum(_int(line.get("prompt_tokens")) + _int(line.get("completion_tokens")) for line in lines
               if line.get("kind") == MODEL and line.get("day") == day.isoformat()
               and (session is None or line.get("session") == session))


def within_day(state_dir: Path, day: dt.date, limit: int | None, prompt: int, what: str) -> None:
    """Raise ``BudgetReached`` (waiting for the next day) when the day's model calls so far and
    ``prompt`` more tokens pass ``memory.extraction.max_tokens_per_day`` (``limit``; None: none)."""
    if limit is None:
        return
    spent_today = spent(read(state_dir), day)
    if spent_today + prompt > limit:
        from chord_git.errors import BudgetReached

        tomorrow = day + dt.timedelta(days=1)
        raise BudgetReached(f"the daily token budget is spent ({spent_today} of memory.extraction.max_tokens_per_day "
                            f"{limit}, {what} needs about {prompt} more); the queue waits for {tomorrow.isoformat()}",
                            until=tomorrow)


def _int(value: object) -> int:
    return value if isinstance(value, int) and value >= 0 else 0


def report(lines: Iterable[Mapping[str, Any]], since: dt.date) -> dict[str, Any]:
    """``git memory cost``: per day, per host, per session and per entry, from ``since`` on (pure).
    An entry's share is the tokens of its line in every session start that injected it."""
    days: dict[str, dict[str, int]] = {}
    hosts: dict[str, dict[str, int]] = {}
    sessions: dict[str, dict[str, Any]] = {}
    entries: dict[str, dict[str, int]] = {}
    estimated = 0
    for line in lines:
        day = str(line.get("day", ""))
        if day < since.isoformat():
            continue
        row = days.setdefault(day, {"session_starts": 0, "injected_tokens": 0, "model_calls": 0,
                                    "prompt_tokens": 0, "completion_tokens": 0})
        session = str(line.get("session") or "")
        per_session = sessions.setdefault(session, {"host": None, "session_starts": 0, "injected_tokens": 0,
                                                    "prompt_tokens": 0, "completion_tokens": 0})
        if line.get("kind") == INJECT:
            tokens = _int(line.get("tokens"))
            host = str(line.get("host") or "unknown")
            row["session_starts"] += 1
            row["injected_tokens"] += tokens
            per_host = hosts.setdefault(host, {"session_starts": 0, "injected_tokens": 0})
            per_host["session_starts"] += 1
            per_host["injected_tokens"] += tokens
            per_session.update(host=host)
            per_session["session_starts"] += 1
            per_session["injected_tokens"] += tokens
            for item in line.get("entries") or []:
                if isinstance(item, list) and len(item) in (2, 3) and isinstance(item[0], str):
                    share = entries.setdefault(item[0], {"sessions": 0, "tokens": 0})
                    share["sessions"] += 1
                    # [id, chars, tokens]; a line written before tokens were kept: chars / 4
                    share["tokens"] += _int(item[2]) if len(item) == 3 else math.ceil(_int(item[1]) / 4)
        else:
            row["model_calls"] += 1
            for key in ("prompt_tokens", "completion_tokens"):
                row[key] += _int(line.get(key))
                per_session[key] += _int(line.get(key))
            estimated += bool(line.get("estimated"))
    return {"since": since.isoformat(),
            "days": [{"day": day, **row} for day, row in sorted(days.items())],
            "hosts": [{"host": host, **row} for host, row in sorted(hosts.items())],
            "sessions": [{"session": s, **row} for s, row in sorted(sessions.items(), key=lambda kv: -(
                kv[1]["injected_tokens"] + kv[1]["prompt_tokens"] + kv[1]["completion_tokens"]))],
            "entries": [{"id": rid, **row} for rid, row in sorted(entries.items(), key=lambda kv: -kv[1]["tokens"])],
            "totals": {"injected_tokens": sum(r["injected_tokens"] for r in days.values()),
                       "prompt_tokens": sum(r["prompt_tokens"] for r in days.values()),
                       "completion_tokens": sum(r["completion_tokens"] for r in days.values()),
                       "model_calls_estimated": estimated}}
