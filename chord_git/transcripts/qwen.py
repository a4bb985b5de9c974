"""Qwen Code session files (``~/.qwen/projects/<sanitized-cwd>/chats/<session-id>.jsonl``).

One record per line, ``{"uuid", "parentUuid", "sessionId", "timestamp", "type", "provenance",
"message": {"role", "parts": [...]}, …}``, with ``type`` ``user``, ``assistant``, ``tool_result``
or ``system``. The records form a tree through ``parentUuid`` (a rewind or a fork starts a new
branch); the conversation is the branch that ends at the file's last record, as Qwen resumes it.

What counts as what:

* **User words** are ``text`` parts of ``user`` records whose ``provenance`` is ``real_user``
  (older files without it: no ``subtype``, or ``mid_turn_user_message``), or the record's
  ``systemPayload.displayText`` where Qwen kept what the user typed apart from what it sent. Slash commands,
  ``@``-file expansions and every other subtype are not statements. The SessionStart context
  (our memory summary) goes into the system prompt and is never written here.
* **Assistant replies** are the ``text`` parts of ``assistant`` records (``thought`` parts
  dropped); ``functionCall`` parts become ``ToolCall`` markers. A record is written once the
  model finished, so every reply with text is complete.
* ``tool_result`` records become ``ToolResult`` markers; ``system`` records (telemetry,
  snapshots, compression checkpoints, titles) are dropped.
"""
from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from chord_git.transcripts.jsonl import Record, require_object
from chord_git.transcripts.model import Item, Message, ToolCall, ToolResult, Transcript, number_items

FORMAT = "qwen"
_USER_SUBTYPES = (None, "mid_turn_user_message")


def detect(obj: Any) -> bool:
    """One parsed line: a record with Qwen's ``provenance``, or a ``message`` of ``parts``."""
    if not isinstance(obj, dict) or "uuid" not in obj or not isinstance(obj.get("type"), str):
        return False
    if isinstance(obj.get("provenance"), str):
        return True
    message = obj.get("message")
    return isinstance(message, dict) and isinstance(message.get("parts"), list)


def read_qwen(records: Iterable[Record], path: str) -> Transcript:
    session_id: str | None = None
    kept: list[dict[str, Any]] = []
    parents: dict[str, str | None] = {}
    for line, value in records:
        obj = require_object(value, path, line)
        if session_id is None and isinstance(obj.get("sessionId"), str):
            session_id = obj["sessionId"]
        uuid = obj.get("uuid")
        if not isinstance(uuid, str):
            continue
        parent = obj.get("parentUuid")
        parents[uuid] = parent if isinstance(parent, str) else None
        kept.append(obj)
    branch = _branch(kept, parents)
    items: list[Item] = []
    for obj in kept:
        if branch is None or obj["uuid"] in branch:
            items.extend(_items(obj))
    return Transcript(session_id, True, number_items(items), FORMAT)


def _branch(kept: list[dict[str, Any]], parents: dict[str, str | None]) -> set[str] | None:
    """The uuids from the last record back to the root; None (keep every record) when the chain
    runs into a record the file does not have (a file cut at the front)."""
    if not kept:
        return set()
    seen: set[str] = set()
    current: str | None = kept[-1]["uuid"]
    while current is not None and current not in seen:
        if current not in parents:
            return None
        seen.add(current)
        current = parents[current]
    return seen


def _parts(obj: dict[str, Any]) -> list[Any]:
    message = obj.get("message")
    parts = message.get("parts") if isinstance(message, dict) else None
    return parts if isinstance(parts, list) else []


def _texts(parts: list[Any]) -> str:
    texts = [p["text"].strip() for p in parts
             if isinstance(p, dict) and isinstance(p.get("text"), str) and p.get("thought") is not True]
    return "\n\n".join(t for t in texts if t)


def _items(obj: dict[str, Any]) -> list[Item]:
    kind, provenance = obj.get("type"), obj.get("provenance")
    if kind == "user":
        own = provenance == "real_user" if isinstance(provenance, str) else obj.get("subtype") in _USER_SUBTYPES
        if not own or obj.get("subtype") not in _USER_SUBTYPES:
            return []
        # What the user typed, where Qwen kept it apart from what it sent (an @file reference is
        # sent with the file's text: a tool's output, not the user's words).
        payload = obj.get("systemPayload")
        typed = payload.get("displayText") if isinstance(payload, dict) else None
        text = typed.strip() if isinstance(typed, str) and typed.strip() else _texts(_parts(obj))
        return [Message("user", text)] if text else []
    if kind == "assistant":
        if isinstance(provenance, str) and provenance != "assistant_output":
            return []
        parts = _parts(obj)
        out: list[Item] = []
        text = _texts(parts)
        if text:
            out.append(Message("assistant", text))
        for part in parts:
            call = part.get("functionCall") if isinstance(part, dict) else None
            if isinstance(call, dict):
                name = call.get("name")
                out.append(ToolCall(name if isinstance(name, str) else "", 0))
        return out
    if kind == "tool_result":
        return [ToolResult(0)]
    return []
