"""Gemini CLI session files (``~/.gemini/tmp/<project>/chats/session-<date>-<id8>.jsonl``).

The file is an event log, replayed the way the CLI loads it:

* a header ``{"sessionId", "projectHash", "startTime", "lastUpdated", "kind"}`` (a resumed
  session appends another one);
* ``{"$set": {"messages": [...]}}`` replaces the whole message list; other ``$set`` keys
  (``lastUpdated``, ``sessionId``) change nothing here;
* message records ``{"id", "timestamp", "type", "content", …}``: a record whose ``id`` is already
  in the list replaces that message in place (the CLI rewrites a reply as it gains tool calls);
  a new ``id`` is appended;
* ``{"$rewindTo": id}`` drops that message and everything after it.

What counts as what:

* **User words** are the text of ``user`` messages (their ``displayContent``, what the user typed,
  where the CLI recorded one apart from what it sent, as for ``@file`` references), with every
  ``<hook_context>…</hook_context>`` block cut out: the CLI stores the context that hooks inject (our memory summary included)
  inside the user's own message. The synthetic first message that describes the workspace
  (``<session_context>…``) is not the user's.
* **Assistant replies** are the text of ``gemini`` messages; their ``toolCalls`` become
  ``ToolCall`` and ``ToolResult`` markers, and ``thoughts`` are dropped. A reply is written once
  the model finished it, so every reply with text counts as complete.
* ``info``, ``error`` and ``warning`` messages are the CLI's own notices: dropped.
"""
from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from chord_git.transcripts.jsonl import Record, require_object
from chord_git.transcripts.model import (
    Item, Message, ToolCall, ToolResult, Transcript, drop_blocks, number_items,
)

FORMAT = "gemini"
HOOK_CONTEXT = ("<hook_context>", "</hook_context>")
_SESSION_CONTEXT = "<session_context>"
_MESSAGE_TYPES = frozenset({"user", "gemini", "info", "error", "warning"})


def detect(obj: Any) -> bool:
    """One parsed line: a ``$set``/``$rewindTo`` event, the header (``projectHash`` and ``kind``),
    or a ``gemini`` message."""
    if not isinstance(obj, dict):
        return False
    if "$set" in obj or "$rewindTo" in obj:
        return True
    if "projectHash" in obj and "sessionId" in obj:
        return True
    return obj.get("type") == "gemini" and isinstance(obj.get("id"), str) and "uuid" not in obj


def read_gemini(records: Iterable[Record], path: str) -> Transcript:
    session_id: str | None = None
    order: list[str] = []
    by_id: dict[str, dict[str, Any]] = {}
    for line, value in records:
        obj = require_object(value, path, line)
        if "$set" in obj:
            changes = obj["$set"]
            if isinstance(changes, dict) and isinstance(changes.get("messages"), list):
                order, by_id = [], {}
                for message in changes["messages"]:
                    _upsert(order, by_id, message)
            if session_id is None and isinstance(changes, dict) and isinstance(changes.get("sessionId"), str):
                session_id = changes["sessionId"]
        elif "$rewindTo" in obj:
            target = obj["$rewindTo"]
            if isinstance(target, str) and target in by_id:
                cut = order.index(target)
                for gone in order[cut:]:
                    del by_id[gone]
                del order[cut:]
        elif "projectHash" in obj or ("sessionId" in obj and "type" not in obj):
            if session_id is None and isinstance(obj.get("sessionId"), str):
                session_id = obj["sessionId"]
        else:
            _upsert(order, by_id, obj)
    items: list[Item] = []
    for message_id in order:
        items.extend(_items(by_id[message_id]))
    return Transcript(session_id, True, number_items(items), FORMAT)


def _upsert(order: list[str], by_id: dict[str, dict[str, Any]], message: Any) -> None:
    if not isinstance(message, dict) or not isinstance(message.get("type"), str) \
            or message["type"] not in _MESSAGE_TYPES:
        return
    message_id = message.get("id")
    if not isinstance(message_id, str):
        return
    if message_id not in by_id:
        order.append(message_id)
    by_id[message_id] = message


def _items(message: dict[str, Any]) -> list[Item]:
    kind = message["type"]
    if kind == "user":
        # What the user typed, where the CLI kept it apart from what it sent (an @file reference
        # is sent with the file's text: a tool's output, not the user's words).
        typed = strip_hook_context(_text(message.get("displayContent"))).strip()
        text = typed or strip_hook_context(_text(message.get("content"))).strip()
        if not text or text.startswith(_SESSION_CONTEXT):
            return []
        return [Message("user", text)]
    if kind != "gemini":
        return []
    out: list[Item] = []
    text = _text(message.get("content")).strip()
    if text:
        out.append(Message("assistant", text))
    calls = message.get("toolCalls")
    for call in calls if isinstance(calls, list) else ():
        if isinstance(call, dict):
            name = call.get("name")
            out.append(ToolCall(name if isinstance(name, str) else "", 0))
            out.append(ToolResult(0))
    return out


def _text(content: Any) -> str:
    """A string, or the ``text`` of a list of parts (function calls and responses are not text)."""
    if isinstance(content, str):
        return content
    if not isinstance(content, list):
        return ""
    parts = [p["text"] for p in content if isinstance(p, dict) and isinstance(p.get("text"), str)]
    return "\n\n".join(p.strip() for p in parts if p.strip())


def strip_hook_context(text: str) -> str:
    """``text`` without its ``<hook_context>`` blocks (an unclosed one runs to the end)."""
    return drop_blocks(text, *HOOK_CONTEXT)
