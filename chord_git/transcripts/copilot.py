"""GitHub Copilot CLI session files (``$COPILOT_HOME/session-state/<session-id>/events.jsonl``).

One typed event per line, ``{"type", "data", "id", "timestamp", "parentId"}``.

What counts as what:

* **User words** are the ``content`` of ``user.message`` events: what the user typed (the
  ``transformedContent`` next to it adds the date and reminders for the model).
* **Assistant replies** are the ``content`` of ``assistant.message`` events; each of their
  ``toolRequests`` becomes a ``ToolCall`` marker. An event is written once the model finished
  the message, so every reply with text is complete.
* ``tool.execution_complete`` events become ``ToolResult`` markers.
* Context that hooks inject (our memory summary) reaches the model as a separate user message,
  but the file keeps it only as the output of its ``hook.end`` event: hook, system, session and
  every other event are dropped.
"""
from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from chord_git.transcripts.jsonl import Record, require_object
from chord_git.transcripts.model import Item, Message, ToolCall, ToolResult, Transcript, number_items

FORMAT = "copilot"
_FAMILIES = ("session.", "user.", "assistant.", "hook.", "system.", "tool.", "subagent.", "skill.")


def detect(obj: Any) -> bool:
    """One parsed line: a dotted event ``type`` of Copilot's families with a ``data`` object."""
    if not isinstance(obj, dict) or not isinstance(obj.get("data"), dict):
        return False
    kind = obj.get("type")
    return isinstance(kind, str) and kind.startswith(_FAMILIES)


def read_copilot(records: Iterable[Record], path: str) -> Transcript:
    session_id: str | None = None
    items: list[Item] = []
    for line, value in records:
        obj = require_object(value, path, line)
        kind, data = obj.get("type"), obj.get("data")
        if not isinstance(kind, str) or not isinstance(data, dict):
            continue
        if kind == "session.start" and session_id is None and isinstance(data.get("sessionId"), str):
            session_id = data["sessionId"]
        elif kind == "user.message":
            text = data.get("content")
            if isinstance(text, str) and text.strip():
                items.append(Message("user", text.strip()))
        elif kind == "assistant.message":
            text = data.get("content")
            if isinstance(text, str) and text.strip():
                items.append(Message("assistant", text.strip()))
            requests = data.get("toolRequests")
            for request in requests if isinstance(requests, list) else ():
                name = request.get("name") if isinstance(request, dict) else None
                items.append(ToolCall(name if isinstance(name, str) else "", 0))
        elif kind == "tool.execution_complete":
            items.append(ToolResult(0))
    return Transcript(session_id, True, number_items(items), FORMAT)
