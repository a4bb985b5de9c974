"""The project's own transcript format (SPEC, "Session transcripts"), one JSON object per line::

    {"type":"session","id":"…","frozen":true}
    {"type":"message","role":"user"|"assistant","content":"…","complete":true}
    {"type":"tool_call","name":"…", …}
    {"type":"tool_result", …}
    {"type":"compaction","summary":"…"}

Rules where SPEC is silent:

* A line with an unknown ``type`` is skipped without error, so a newer writer can add line kinds
  without breaking older readers; a line without a string ``type`` is an error, and so is a file
  with no known line at all (most likely another format read as native by mistake).
* ``session`` lines may appear anywhere and more than once (a host can append
  ``{"type":"session","frozen":true}`` when the session ends): the last ``frozen`` wins, and two
  different non-null ids are an error. Without any ``frozen`` the session counts as frozen.
* ``complete`` defaults to true; ``tool_call.name`` is optional; the rest of a tool line
  (arguments, output) is ignored and never kept.
* Wrong field types (a non-string content, a non-boolean ``frozen``, …) raise ``InputError``.
"""
from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from chord_git.errors import InputError
from chord_git.transcripts.jsonl import Record, require_object
from chord_git.transcripts.model import (
    Compaction,
    Item,
    Message,
    ToolCall,
    ToolResult,
    Transcript,
    number_items,
)

FORMAT = "native"
KNOWN_TYPES = frozenset({"session", "message", "tool_call", "tool_result", "compaction"})


def detect(obj: Any) -> bool | None:
    """One parsed line: a known ``type`` with native field shapes. A ``message`` whose content is
    neither a string nor a list settles nothing (None); a list of parts is Codex's."""
    if not isinstance(obj, dict):
        return False
    kind = obj.get("type")
    if not isinstance(kind, str) or kind not in KNOWN_TYPES:
        return False
    if kind != "message":
        return True
    content = obj.get("content")
    if isinstance(content, str):
        return True
    return False if isinstance(content, list) else None


def read_native(records: Iterable[Record], path: str) -> Transcript:
    session_id: str | None = None
    frozen = True
    items: list[Item] = []
    known_seen = False
    for line, value in records:
        obj = require_object(value, path, line)
        kind = obj.get("type")
        if not isinstance(kind, str):
            raise InputError(path, line, 'native transcript line needs a string "type"')
        if kind not in KNOWN_TYPES:
            continue
        known_seen = True
        if kind == "session":
            new_id = _optional(obj, "id", str, path, line)
            if new_id is not None:
                if session_id is not None and new_id != session_id:
                    # Neither id is echoed (nor any value below): a transcript holds whatever
                    # was pasted into it, keys included.
                    raise InputError(path, line, "session id differs from earlier id")
                session_id = new_id
            new_frozen = _optional(obj, "frozen", bool, path, line)
            if new_frozen is not None:
                frozen = new_frozen
        elif kind == "message":
            role = obj.get("role")
            if role not in ("user", "assistant"):
                raise InputError(path, line, 'message "role" must be "user" or "assistant"')
            content = _required(obj, "content", str, path, line)
            complete = _optional(obj, "complete", bool, path, line)
            items.append(Message(role, content, True if complete is None else complete))
        elif kind == "tool_call":
            name = _optional(obj, "name", str, path, line)
            items.append(ToolCall(name or "", 0))
        elif kind == "tool_result":
            items.append(ToolResult(0))
        else:
            items.append(Compaction(_required(obj, "summary", str, path, line), 0))
    if not known_seen:
        raise InputError(
            path, 1, "no native transcript lines (session, message, tool_call, tool_result, compaction)"
        )
    return Transcript(session_id, frozen, number_items(items), FORMAT)


def _required(obj: dict[str, Any], key: str, kind: type, path: str, line: int) -> Any:
    value = obj.get(key)
    if not isinstance(value, kind) or (kind is not bool and isinstance(value, bool)):
        raise InputError(path, line, f'"{key}" must be {_name(kind)}')
    return value


def _optional(obj: dict[str, Any], key: str, kind: type, path: str, line: int) -> Any:
    if obj.get(key) is None:
        return None
    return _required(obj, key, kind, path, line)


def _name(kind: type) -> str:
    return {str: "a string", bool: "true or false"}.get(kind, kind.__name__)
