"""Codex CLI rollout files (``~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl``).

Both layouts are read, line by line, so a file mixing them is fine too:

* **envelope** (0.2x and later): ``{"timestamp", "type", "payload"}`` with ``type``
  ``session_meta``, ``response_item``, ``event_msg``, ``compacted``, ``turn_context``, …
* **legacy flat** (mid-2025): a bare header ``{"id", "timestamp", …}``, then bare response items;
  ``{"record_type": "state"}`` lines are skipped.

What counts as what:

* **User words** come from ``event_msg/user_message``, which holds only what the user typed
  (``kind`` absent, ``plain`` or ``user``; older files also emitted instruction and
  environment-context events with other kinds: dropped). User-role ``response_item`` messages
  repeat the prompt next to injected AGENTS.md / ``<environment_context>`` blocks, so they are
  used only when the file has no ``user_message`` event at all (the legacy layout), and then
  with the injected blocks removed.
* **Assistant replies** come from assistant ``response_item`` messages (``agent_message`` events
  are the same text again). Messages with ``phase: "commentary"`` are progress notes written
  between tool calls ("I'll look at the config first") and are dropped; ``final_answer``,
  ``output`` and unphased messages are kept. A response item is only written once the model
  finished it, so every kept reply is complete.
* ``compacted`` becomes a ``Compaction`` with its ``message`` (skipped when empty: the summary
  was encrypted); its ``replacement_history`` repeats earlier items and is skipped.
* ``function_call``, ``custom_tool_call``, ``local_shell_call``, ``web_search_call``,
  ``tool_search_call``, ``image_generation_call`` become ``ToolCall`` markers; their outputs
  ``ToolResult`` markers. ``developer`` messages, reasoning, ghost snapshots, inter-agent
  ``agent_message`` items and every other event are dropped.
* A rollout whose first ``session_meta`` has ``source: {"subagent": …}`` is a sub-agent thread:
  its "user" is the main agent, so nothing of it is kept (as with Claude Code sidechains).
  Later ``session_meta`` lines (forks, spawned threads) do not change the session.
"""
from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from chord_git.support.dataclass_lazy import dataclass, field
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

FORMAT = "codex"
ENVELOPE_TYPES = frozenset(
    {"session_meta", "response_item", "event_msg", "turn_context", "compacted", "world_state",
     "inter_agent_communication_metadata"}
)
_CALLS = {
    "function_call": None,
    "custom_tool_call": None,
    "local_shell_call": "local_shell",
    "web_search_call": "web_search",
    "tool_search_call": "tool_search",
    "image_generation_call": "image_generation",
}
_OUTPUTS = frozenset(
    {"function_call_output", "custom_tool_call_output", "local_shell_call_output", "tool_search_output"}
)
RESPONSE_ITEM_TYPES = frozenset({"message", "reasoning", *_CALLS, *_OUTPUTS})


def detect(obj: Any) -> bool | None:
    """One parsed line: a ``{"timestamp","type","payload"}`` envelope, a ``record_type`` line, a bare
    ``{"id","timestamp"}`` header (no ``type``, no ``role``), or a bare response item (a ``message``
    whose content is a list of parts, or another response item without Claude Code's ``sessionId``)."""
    if not isinstance(obj, dict):
        return False
    kind = obj.get("type")
    if "payload" in obj and isinstance(kind, str) and (kind in ENVELOPE_TYPES or "timestamp" in obj):
        return True
    if "record_type" in obj:
        return True
    if kind is None:
        return "id" in obj and "timestamp" in obj and not isinstance(obj.get("role"), str)
    if not isinstance(kind, str):
        return False
    if kind == "message":
        # Native content is always a string; a list of parts is a bare Codex response item.
        return isinstance(obj.get("content"), list)
    return kind in RESPONSE_ITEM_TYPES and "sessionId" not in obj
_TYPED_KINDS = frozenset({"plain", "user"})
_INJECTED_PREFIXES = (
    "# AGENTS.md instructions",
    "<INSTRUCTIONS>",
    "<user_instructions>",
    "<environment_context>",
    "<permissions instructions>",
    "<user_shell_command>",
    "<turn_aborted>",
    "<collaboration_mode>",
    "<skills_instructions>",
)
# Codex once prefixed the typed request with injected instructions and this heading.
_REQUEST_HEADING = "## My request for Codex:"


@dataclass
class _State:
    drafts: list[Item] = field(default_factory=list)
    # Positions in drafts of user messages taken from response items (a fallback).
    item_prompts: list[int] = field(default_factory=list)
    saw_user_event: bool = False
    session_id: str | None = None
    saw_meta: bool = False
    subagent: bool = False


def read_codex(records: Iterable[Record], path: str) -> Transcript:
    state = _State()
    first = True
    for line, value in records:
        obj = require_object(value, path, line)
        payload = obj.get("payload")
        kind = obj.get("type")
        if isinstance(payload, dict) and isinstance(kind, str):
            _envelope(state, kind, payload)
        elif first and kind is None and isinstance(obj.get("id"), str):
            state.session_id = obj["id"]  # legacy header
        elif "record_type" not in obj and not state.subagent:
            _response_item(state, obj)
        first = False
    drafts = state.drafts
    if state.saw_user_event and state.item_prompts:
        dropped = set(state.item_prompts)
        drafts = [d for i, d in enumerate(drafts) if i not in dropped]
    return Transcript(state.session_id, True, number_items(drafts), FORMAT)


def _envelope(state: _State, kind: str, payload: dict[str, Any]) -> None:
    if kind == "session_meta":
        if not state.saw_meta:
            state.saw_meta = True
            if isinstance(payload.get("id"), str):
                state.session_id = payload["id"]
            source = payload.get("source")
            state.subagent = isinstance(source, dict) and "subagent" in source
        return
    if state.subagent:
        return
    if kind == "response_item":
        _response_item(state, payload)
    elif kind == "event_msg" and payload.get("type") == "user_message":
        _user_event(state, payload)
    elif kind == "compacted":
        message = payload.get("message")
        if isinstance(message, str) and message.strip():
            state.drafts.append(Compaction(message.strip(), 0))


def _user_event(state: _State, payload: dict[str, Any]) -> None:
    state.saw_user_event = True
    kind = payload.get("kind")
    text = payload.get("message")
    typed = kind is None or (isinstance(kind, str) and kind in _TYPED_KINDS)
    if not typed or not isinstance(text, str):
        return
    text = _typed_part(text)
    if text:
        state.drafts.append(Message("user", text))


def _response_item(state: _State, item: dict[str, Any]) -> None:
    kind = item.get("type")
    if kind == "message":
        role = item.get("role")
        if role == "user":
            text = "\n\n".join(
                t for t in (_typed_part(p) for p in _texts(item.get("content"))) if t
            )
            if text:
                state.item_prompts.append(len(state.drafts))
                state.drafts.append(Message("user", text))
        elif role == "assistant" and item.get("phase") != "commentary":
            text = "\n\n".join(t.strip() for t in _texts(item.get("content")) if t.strip())
            if text:
                state.drafts.append(Message("assistant", text))
    elif isinstance(kind, str) and kind in _CALLS:
        name = item.get("name")
        state.drafts.append(ToolCall(name if isinstance(name, str) else _CALLS[kind] or "", 0))
    elif isinstance(kind, str) and kind in _OUTPUTS:
        state.drafts.append(ToolResult(0))


def _texts(content: Any) -> list[str]:
    if isinstance(content, str):
        return [content]
    if not isinstance(content, list):
        return []
    return [
        p["text"]
        for p in content
        if isinstance(p, dict)
        and p.get("type") in ("input_text", "output_text", "text")
        and isinstance(p.get("text"), str)
    ]


def _typed_part(text: str) -> str:
    """The typed text alone: empty for an injected block, the request part of an old
    instructions-plus-request message."""
    heading = text.find(_REQUEST_HEADING)
    if heading >= 0:
        text = text[heading + len(_REQUEST_HEADING):]
    text = text.strip()
    return "" if text.startswith(_INJECTED_PREFIXES) else text
