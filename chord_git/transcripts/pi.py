"""pi session files (``~/.pi/agent/sessions/--<cwd>--/<timestamp>_<uuid>.jsonl``).

The first line is a header ``{"type": "session", "version": 3, "id", "timestamp", "cwd"}``; every
later line is an entry with an ``id`` and the ``parentId`` it follows. The entries form a tree:
``/tree`` and forks continue from an earlier entry, and the last entry written is where the
session is now. What counts is that branch, read from the root to the last entry, which is what pi
itself sends to its model; text of abandoned branches is not taken (its ``branch_summary`` is).

What counts as what:

* ``message`` entries by ``message.role``: ``user`` is the user's words (a string, or its ``text``
  parts); ``assistant`` is a reply from its ``text`` parts, complete unless its ``stopReason`` is
  ``length``, ``error`` or ``aborted``, with a ``ToolCall`` marker per ``toolCall`` part;
  ``toolResult`` and ``bashExecution`` (the user's ``!`` commands, whose output is tool output)
  become markers; ``custom`` messages come from extensions, not the user, and are dropped, as are
  the ``compactionSummary``/``branchSummary`` roles, which repeat the entries below.
* ``compaction`` and ``branch_summary`` entries become a ``Compaction`` with their ``summary``.
* ``custom_message`` entries (extension text sent to the model), ``custom``, ``label``,
  ``model_change``, ``thinking_level_change``, ``session_info`` and unknown types are dropped.

The memory summary chord-git injects goes into the system prompt, which pi does not store, so no
line of the file holds it.
"""
from __future__ import annotations

from collections.abc import Iterable
from typing import Any

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

FORMAT = "pi"
ENTRY_TYPES = frozenset({"message", "compaction", "branch_summary", "custom", "custom_message", "label",
                         "model_change", "thinking_level_change", "session_info"})
_CUT = frozenset({"length", "error", "aborted"})


def detect(obj: Any) -> bool:
    """One parsed line: pi's header (``type: session`` with ``version`` and ``cwd``) or an entry
    (a known ``type`` with the ``id``/``parentId`` pair of its tree)."""
    if not isinstance(obj, dict):
        return False
    kind = obj.get("type")
    if kind == "session":
        return isinstance(obj.get("version"), int) and isinstance(obj.get("cwd"), str) and "id" in obj
    return (isinstance(kind, str) and kind in ENTRY_TYPES and isinstance(obj.get("id"), str)
            and "parentId" in obj)


def read_pi(records: Iterable[Record], path: str) -> Transcript:
    session_id: str | None = None
    parents: dict[str, str | None] = {}
    items: dict[str, list[Item]] = {}   # only what an entry contributes, never tool text
    leaf: str | None = None
    for line, value in records:
        obj = require_object(value, path, line)
        kind = obj.get("type")
        if kind == "session":
            if session_id is None and isinstance(obj.get("id"), str):
                session_id = obj["id"]
            continue
        entry_id = obj.get("id")
        if not isinstance(entry_id, str):
            continue
        parent = obj.get("parentId")
        parents[entry_id] = parent if isinstance(parent, str) else None
        items[entry_id] = _items(kind, obj)
        leaf = entry_id
    branch: list[str] = []
    seen: set[str] = set()
    while leaf is not None and leaf in parents and leaf not in seen:  # a cycle ends the walk
        seen.add(leaf)
        branch.append(leaf)
        leaf = parents[leaf]
    drafts = [item for entry in reversed(branch) for item in items[entry]]
    return Transcript(session_id, True, number_items(drafts), FORMAT)


def _items(kind: object, obj: dict[str, Any]) -> list[Item]:
    if kind in ("compaction", "branch_summary"):
        summary = obj.get("summary")
        return [Compaction(summary.strip(), 0)] if isinstance(summary, str) and summary.strip() else []
    message = obj.get("message")
    if kind != "message" or not isinstance(message, dict):
        return []
    role = message.get("role")
    if role == "user":
        text = "\n\n".join(t.strip() for t in _texts(message.get("content")) if t.strip())
        return [Message("user", text)] if text else []
    if role == "assistant":
        return _assistant(message)
    if role == "toolResult":
        return [ToolResult(0)]
    if role == "bashExecution":
        return [ToolCall("bash", 0), ToolResult(0)]
    return []


def _assistant(message: dict[str, Any]) -> list[Item]:
    out: list[Item] = []
    texts: list[str] = []
    content = message.get("content")
    for part in content if isinstance(content, list) else []:
        if not isinstance(part, dict):
            continue
        if part.get("type") == "text" and isinstance(part.get("text"), str) and part["text"].strip():
            texts.append(part["text"].strip())
        elif part.get("type") == "toolCall":
            name = part.get("name")
            out.append(ToolCall(name if isinstance(name, str) else "", 0))
    if texts:
        out.insert(0, Message("assistant", "\n\n".join(texts), message.get("stopReason") not in _CUT))
    return out


def _texts(content: Any) -> list[str]:
    if isinstance(content, str):
        return [content]
    if not isinstance(content, list):
        return []
    return [p["text"] for p in content
            if isinstance(p, dict) and p.get("type") == "text" and isinstance(p.get("text"), str)]
