"""The Transcript helpers that extraction relies on."""
from __future__ import annotations

import pytest

from chord_git.support.dataclass_lazy import FrozenInstanceError
from chord_git.transcripts import Compaction, Message, ToolCall, ToolResult, Transcript

from .conftest import assistant_replies


def _transcript() -> Transcript:
    return Transcript("s", True, (
        Message("user", "use tabs", index=0),
        Message("assistant", "ok, tabs", index=1),
        ToolCall("edit", 2),
        ToolResult(3),
        Compaction("earlier: the user chose tabs", 4),
        Message("assistant", "I will also conv", complete=False, index=5),
        Message("user", "and no trailing spaces", index=6),
    ), "native")


def test_conversation_drops_tools_and_incomplete_replies() -> None:
    assert [i.index for i in _transcript().conversation()] == [0, 1, 4, 6]


def test_user_messages_and_replies() -> None:
    transcript = _transcript()
    assert [m.content for m in transcript.user_messages()] == ["use tabs", "and no trailing spaces"]
    assert [m.content for m in assistant_replies(transcript)] == ["ok, tabs"]


def test_items_are_frozen_and_roles_checked() -> None:
    with pytest.raises(FrozenInstanceError):
        _transcript().items[0].content = "changed"  # type: ignore[misc]
    with pytest.raises(ValueError):
        Message("system", "x")  # type: ignore[arg-type]
