"""OpenCode sessions: the JSON of ``opencode export <session>``, or one message per line.

OpenCode keeps its sessions in SQLite (``$XDG_DATA_HOME/opencode/opencode.db``), not in a file. Its
client and ``opencode export`` give a session as ``{"info": {…session…}, "messages": [{"info",
"parts"}, …]}``. This reader takes that document on one line or pretty-printed over many (as
``opencode export`` prints it), and also JSON Lines holding one ``{"info", "parts"}`` message per
line, which is what the OpenCode plugin's hook writes for each session.

What counts as what:

* A ``user`` message's ``text`` parts are the user's words, except ``synthetic`` ones (text OpenCode
  adds itself, such as the content of an attached file) and ``ignored`` ones. A user message holding
  a ``compaction`` part is OpenCode asking for a summary, not the user speaking: dropped.
* An ``assistant`` message's ``text`` parts are its reply, complete when the message finished
  (``time.completed``) without ``error`` and not for a length limit. An assistant message marked
  ``summary`` is the compaction summary: a ``Compaction``. Each ``tool`` part is a ``ToolCall``
  marker (the tool's name), followed by a ``ToolResult`` marker once the call completed or
  failed; its input and output are not kept. ``reasoning``, ``step-start``/``step-finish``,
  ``snapshot``, ``patch``, ``file``, ``agent`` and other parts are dropped.

The memory summary chord-git injects goes into the system prompt, which OpenCode does not store,
so no message holds it.
"""
from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from chord_git.transcripts.jsonl import Record, require_object
from chord_git.transcripts.model import Compaction, Item, Message, ToolCall, ToolResult, Transcript, number_items

FORMAT = "opencode"
_CUT = frozenset({"length"})
_DONE = frozenset({"completed", "error"})


def detect(obj: Any) -> bool:
    """One parsed line: an object with an ``info`` object and ``parts`` or ``messages`` lists."""
    return (isinstance(obj, dict) and isinstance(obj.get("info"), dict)
            and (isinstance(obj.get("parts"), list) or isinstance(obj.get("messages"), list)))


def read_opencode(records: Iterable[Record], path: str) -> Transcript:
    session_id: str | None = None
    drafts: list[Item] = []
    for line, value in records:
        obj = require_object(value, path, line)
        info = obj.get("info")
        messages = obj.get("messages")
        if isinstance(messages, list):   # a whole export
            if session_id is None and isinstance(info, dict) and isinstance(info.get("id"), str):
                session_id = info["id"]
            for message in messages:
                if isinstance(message, dict):
                    drafts.extend(_message(message))
        else:
            if session_id is None and isinstance(info, dict) and isinstance(info.get("sessionID"), str):
                session_id = info["sessionID"]
            drafts.extend(_message(obj))
    return Transcript(session_id, True, number_items(drafts), FORMAT)


def _message(message: dict[str, Any]) -> list[Item]:
    info = message.get("info")
    parts = message.get("parts")
    if not isinstance(info, dict) or not isinstance(parts, list):
        return []
    parts = [p for p in parts if isinstance(p, dict)]
    role = info.get("role")
    if role == "user":
        if any(p.get("type") == "compaction" for p in parts):
            return []
        text = _text(parts)
        return [Message("user", text)] if text else []
    if role != "assistant":
        return []
    if info.get("summary") is True:
        text = _text(parts)
        return [Compaction(text, 0)] if text else []
    out: list[Item] = []
    for part in parts:
        if part.get("type") == "tool":
            name = part.get("tool")
            out.append(ToolCall(name if isinstance(name, str) else "", 0))
            state = part.get("state")
            if isinstance(state, dict) and state.get("status") in _DONE:
                out.append(ToolResult(0))
    text = _text(parts)
    if text:
        time = info.get("time")
        finished = isinstance(time, dict) and time.get("completed") is not None
        complete = finished and not info.get("error") and info.get("finish") not in _CUT
        out.insert(0, Message("assistant", text, complete))
    return out


def _text(parts: list[dict[str, Any]]) -> str:
    return "\n\n".join(p["text"].strip() for p in parts
                       if p.get("type") == "text" and isinstance(p.get("text"), str) and p["text"].strip()
                       and not p.get("synthetic") and not p.get("ignored"))
