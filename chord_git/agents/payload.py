"""The JSON payload an agent host writes to a hook's stdin, read defensively (pure).

Both hosts send ``hook_event_name``, ``session_id``, ``transcript_path`` and ``cwd``; SessionStart
adds ``source`` (startup, resume, clear, compact) and SessionEnd ``reason``. Codex also sends
``turn_id`` and ``model``. The OpenCode plugin adds ``messages``, the session's conversation, at
the end of each turn (OpenCode keeps no transcript file). Our own pi and OpenCode shims also send
``reply: "json"``: they take the SessionStart reply as ``{"context", "notice"}`` (``host.shim_reply``)
rather than as plain text, which is what a shim installed by an older version still expects.
Anything else in the payload (the prompt text included) is ignored.
"""
from __future__ import annotations

import json
import re
from pathlib import Path

from chord_git.support.dataclass_lazy import dataclass

MAX_PAYLOAD_BYTES = 64 * 1024 * 1024  # a pasted file makes a prompt payload large; still bounded
_SESSION_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._:-]{0,199}$")
_EVENT = re.compile(r"^[A-Za-z]{1,64}$")


class PayloadError(ValueError):
    """The payload cannot be used; the message is one line, without the payload's content."""


@dataclass(frozen=True)
class HookEvent:
    event: str
    session_id: str
    cwd: Path
    transcript: Path | None
    source: str | None = None   # SessionStart
    reason: str | None = None   # SessionEnd
    fields: frozenset[str] = frozenset()  # the payload's top-level keys (a host tells its own by them)
    # The conversation itself, from a host that keeps no transcript file of its own (OpenCode):
    # the host module writes it where ``transcript`` then points (``Host.keep_transcript``).
    messages: tuple[object, ...] | None = None
    reply: str | None = None  # "json" from a shim that takes the context and the notice apart


def _text(data: dict[str, object], key: str) -> str | None:
    value = data.get(key)
    return value if isinstance(value, str) and value else None


def parse(raw: bytes, fallback_cwd: Path) -> HookEvent:
    if len(raw) > MAX_PAYLOAD_BYTES:
        raise PayloadError("payload larger than 64 MiB")
    if not raw.strip():
        raise PayloadError("no JSON payload on stdin (this command is run by an agent host's hook)")
    try:
        data = json.loads(raw.decode("utf-8", "replace"))
    except ValueError as exc:
        raise PayloadError(f"payload is not JSON ({exc.msg if isinstance(exc, json.JSONDecodeError) else exc})") from None
    if not isinstance(data, dict):
        raise PayloadError("payload is not a JSON object")
    event = _text(data, "hook_event_name")
    if event is None or not _EVENT.match(event):
        raise PayloadError("payload has no valid hook_event_name")
    session = _text(data, "session_id")
    if session is None or not _SESSION_ID.match(session):
        raise PayloadError(f"{event}: payload has no valid session_id")
    cwd_text = _text(data, "cwd")
    cwd = Path(cwd_text) if cwd_text and Path(cwd_text).is_absolute() else fallback_cwd
    transcript_text = _text(data, "transcript_path")
    transcript = Path(transcript_text) if transcript_text and Path(transcript_text).is_absolute() else None
    messages = data.get("messages")
    return HookEvent(event=event, session_id=session, cwd=cwd, transcript=transcript,
                     source=_text(data, "source"), reason=_text(data, "reason"),
                     fields=frozenset(data), messages=tuple(messages) if isinstance(messages, list) else None,
                     reply=_text(data, "reply"))
