"""The one in-memory shape every transcript format is read into.

Tool calls and tool results are kept only as markers (a name, a position): their arguments and
output are never sent to a model (R18), so the readers drop that text as early as possible instead
of carrying it around and trusting every later stage to leave it out.
"""
from __future__ import annotations

from typing import Literal, Union

from chord_git.support.dataclass_lazy import dataclass

Role = Literal["user", "assistant"]


@dataclass(frozen=True)
class Message:
    """Words of the user or a reply of the assistant.

    ``complete`` is False for an assistant reply that was cut off (aborted stream, length limit,
    the session died mid-reply); such a reply is never used as input. ``index`` is the item's
    position in ``Transcript.items`` (0-based).
    """

    role: Role
    content: str
    complete: bool = True
    index: int = 0

    def __post_init__(self) -> None:
        # A wrong role would silently turn assistant text into "user words" for the guards.
        if self.role not in ("user", "assistant"):
            raise ValueError("message role must be 'user' or 'assistant'")


@dataclass(frozen=True)
class ToolCall:
    """Marker: the assistant called a tool here (name only, never the arguments)."""

    name: str
    index: int


@dataclass(frozen=True)
class ToolResult:
    """Marker: a tool result came back here (its text is deliberately not kept)."""

    index: int


@dataclass(frozen=True)
class Compaction:
    """A summary the agent wrote of earlier context; sent to the model marked as history."""

    summary: str
    index: int


Item = Union[Message, ToolCall, ToolResult, Compaction]
ConversationItem = Union[Message, Compaction]


@dataclass(frozen=True)
class Transcript:
    """One session, in order.

    ``frozen`` says the session is over and the file will not grow: native files say so in their
    header; files of other agents are frozen once the post-session hook hands them over, so their
    readers set True. ``source_format`` names the format it was read from (``registry.py``).
    """

    session_id: str | None
    frozen: bool
    items: tuple[Item, ...]
    source_format: str

    def user_messages(self) -> tuple[Message, ...]:
        """The user's own words, in order (the only text a ``source: user`` record may quote)."""
        return tuple(i for i in self.items if isinstance(i, Message) and i.role == "user")

    def conversation(self) -> tuple[ConversationItem, ...]:
        """What extraction may see: messages and compactions in order, no tool items, no
        incomplete assistant replies."""
        out: list[ConversationItem] = []
        for item in self.items:
            if isinstance(item, Compaction):
                out.append(item)
            elif isinstance(item, Message) and (item.role == "user" or item.complete):
                out.append(item)
        return tuple(out)


def number_items(drafts: list[Item]) -> tuple[Item, ...]:
    """Give each item its final position; readers build items first and number them last
    because some (grouped replies, dropped duplicates) only settle at the end of the file."""
    out: list[Item] = []
    for position, item in enumerate(drafts):
        if isinstance(item, Message):
            out.append(Message(item.role, item.content, item.complete, position))
        elif isinstance(item, ToolCall):
            out.append(ToolCall(item.name, position))
        elif isinstance(item, ToolResult):
            out.append(ToolResult(position))
        else:
            out.append(Compaction(item.summary, position))
    return tuple(out)


def drop_blocks(text: str, open_tag: str, close_tag: str) -> str:
    """``text`` without its ``open_tag … close_tag`` blocks (an unclosed one runs to the end): what
    a host injected into a message it stores as the user's (Claude Code's system reminders, Gemini
    CLI's hook context)."""
    # str.find instead of a regex: linear on adversarial input.
    start = text.find(open_tag)
    if start < 0:
        return text
    kept: list[str] = []
    pos = 0
    while start >= 0:
        kept.append(text[pos:start])
        end = text.find(close_tag, start)
        if end < 0:
            pos = len(text)
            break
        pos = end + len(close_tag)
        start = text.find(open_tag, pos)
    kept.append(text[pos:])
    return "".join(kept)
