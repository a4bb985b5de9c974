"""OpenAI chat messages: a JSON array (or JSON Lines) of ``{"role", "content", …}`` objects.

* ``system`` and ``developer`` messages are instructions, not the user's words: dropped.
* ``user``: the text (a string or the ``text`` parts of a list; images, audio and files are
  dropped).
* ``assistant``: its text as a complete reply (a chat log only holds finished messages), then one
  ``ToolCall`` per entry of ``tool_calls`` (or the legacy ``function_call``).
* ``tool`` and the legacy ``function`` role: a ``ToolResult`` marker, content not kept.
* Anything else (no role, an unknown role, a content that is neither string, list nor null) is
  an ``InputError`` naming the line where the message starts.
"""
from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from chord_git.errors import InputError
from chord_git.transcripts.jsonl import Record, require_object
from chord_git.transcripts.model import (
    Item,
    Message,
    ToolCall,
    ToolResult,
    Transcript,
    number_items,
)

FORMAT = "openai"
_DROPPED_ROLES = frozenset({"system", "developer"})
_TOOL_ROLES = frozenset({"tool", "function"})
_TEXT_PART_TYPES = frozenset({"text", "input_text", "output_text"})


def detect(obj: Any) -> bool:
    """One parsed line: a list (of messages), or an object with a ``role`` and no ``type``."""
    if isinstance(obj, list):
        return True
    return isinstance(obj, dict) and obj.get("type") is None and isinstance(obj.get("role"), str)


def read_openai(records: Iterable[Record], path: str) -> Transcript:
    items: list[Item] = []
    for line, value in records:
        msg = require_object(value, path, line)
        role = msg.get("role")
        if not isinstance(role, str):
            raise InputError(path, line, 'chat message needs a string "role"')
        if role in _DROPPED_ROLES:
            continue
        if role in _TOOL_ROLES:
            items.append(ToolResult(0))
            continue
        if role not in ("user", "assistant"):
            # The value is never echoed: a transcript holds whatever was pasted, keys included.
            raise InputError(path, line, "unknown chat role (expected user, assistant, system, developer, tool or function)")
        text = _text(msg.get("content"), path, line)
        if role == "user":
            if text.strip():
                items.append(Message("user", text))
            continue
        if text.strip():
            items.append(Message("assistant", text))
        items.extend(_tool_calls(msg, path, line))
    return Transcript(None, True, number_items(items), FORMAT)


def _text(content: Any, path: str, line: int) -> str:
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if not isinstance(content, list):
        raise InputError(path, line, '"content" must be a string, a list of parts or null')
    texts: list[str] = []
    for part in content:
        if isinstance(part, str):
            texts.append(part)
        elif isinstance(part, dict) and _is_text_part(part):
            text = part.get("text")
            if not isinstance(text, str):
                raise InputError(path, line, 'a text part needs a string "text"')
            texts.append(text)
        elif not isinstance(part, dict):
            raise InputError(path, line, "content parts must be objects")
    return "\n\n".join(t for t in texts if t.strip())


def _is_text_part(part: dict[str, Any]) -> bool:
    kind = part.get("type")
    return isinstance(kind, str) and kind in _TEXT_PART_TYPES


def _tool_calls(msg: dict[str, Any], path: str, line: int) -> list[Item]:
    calls = msg.get("tool_calls")
    out: list[Item] = []
    if calls is not None:
        if not isinstance(calls, list):
            raise InputError(path, line, '"tool_calls" must be a list')
        for call in calls:
            if not isinstance(call, dict):
                raise InputError(path, line, '"tool_calls" entries must be objects')
            out.append(ToolCall(_call_name(call), 0))
    legacy = msg.get("function_call")
    if isinstance(legacy, dict):
        name = legacy.get("name")
        out.append(ToolCall(name if isinstance(name, str) else "", 0))
    return out


def _call_name(call: dict[str, Any]) -> str:
    kind = call.get("type")
    # "function" calls carry function.name; "custom" tool calls carry custom.name.
    for key in (kind, "function", "custom"):
        inner = call.get(key) if isinstance(key, str) else None
        if isinstance(inner, dict) and isinstance(inner.get("name"), str):
            return str(inner["name"])
    return ""
