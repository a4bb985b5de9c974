"""Tell the four transcript formats apart from their first lines.

Each line is judged on its own; the first line that settles it wins, so leading lines every
format may share (none today) cannot mislead. The signals, strongest first:

* a JSON array (``[`` as the first character) or a line without ``type`` but with ``role``:
  OpenAI chat messages;
* ``{"timestamp","type","payload"}`` envelopes, a bare ``{"id","timestamp"}`` header,
  ``record_type`` lines or bare response items (content as a list of parts): Codex;
* ``type`` one of ``session``/``message``/``tool_call``/``tool_result``/``compaction`` with
  native field shapes: native;
* Claude Code's envelope keys (``sessionId``, ``parentUuid``, ``uuid``, ``leafUuid``, …) or one
  of its line kinds: Claude Code.
"""
from __future__ import annotations

from typing import Any

from chord_git.transcripts.codex import ENVELOPE_TYPES, RESPONSE_ITEM_TYPES
from chord_git.transcripts.native import KNOWN_TYPES as NATIVE_TYPES

FORMATS = ("native", "openai", "claude-code", "codex")

_CLAUDE_KEYS = frozenset(
    {"sessionId", "parentUuid", "leafUuid", "uuid", "isSidechain", "messageId", "userType"}
)
_CLAUDE_TYPES = frozenset(
    {"user", "assistant", "summary", "system", "file-history-snapshot", "progress", "attachment",
     "permission-mode", "last-prompt", "queue-operation", "custom-title", "ai-title", "agent-name"}
)


def detect_object(obj: Any) -> str | None:
    """The format one parsed line belongs to, or None when the line alone cannot tell."""
    if isinstance(obj, list):
        return "openai"
    if not isinstance(obj, dict):
        return None
    kind = obj.get("type")
    if "payload" in obj and isinstance(kind, str) and (kind in ENVELOPE_TYPES or "timestamp" in obj):
        return "codex"
    if "record_type" in obj:
        return "codex"
    if kind is None:
        if isinstance(obj.get("role"), str):
            return "openai"
        if "id" in obj and "timestamp" in obj:
            return "codex"
        return None
    if not isinstance(kind, str):
        return None
    if kind in NATIVE_TYPES:
        return _native_or_codex(kind, obj)
    if kind in RESPONSE_ITEM_TYPES and "sessionId" not in obj:
        return "codex"
    if _CLAUDE_KEYS.intersection(obj) or kind in _CLAUDE_TYPES:
        return "claude-code"
    return None


def _native_or_codex(kind: str, obj: dict[str, Any]) -> str | None:
    if kind != "message":
        return "native"
    content = obj.get("content")
    if isinstance(content, str):
        return "native"
    if isinstance(content, list):
        # Native content is always a string; a list of parts is a bare Codex response item.
        return "codex"
    return None
