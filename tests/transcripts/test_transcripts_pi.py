"""pi session files: the branch the session ended on, user words and finished replies only."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from chord_git.transcripts import Compaction, Message, ToolCall, ToolResult, detect_format, load, parse_lines

from .conftest import assistant_replies

BRANCHES = "pi-branches-compaction.jsonl"


def _said(path: Path) -> str:
    return "\n".join(i.content if isinstance(i, Message) else i.summary for i in load(path).conversation())


def test_a_real_pi_session(data: Path) -> None:
    """Written by pi 0.73.1 with chord-git's extension: the injected summary is not in it at all."""
    path = data / "pi-0.73.1-session.jsonl"
    assert detect_format(path) == "pi"
    transcript = load(path)
    assert transcript.session_id == "01a232c2-eba0-74ff-9e91-cec61af4bf09"
    assert transcript.items == (Message("user", "We use pnpm, never npm.", True, 0),
                                Message("assistant", "Noted from the fake.", True, 1))
    assert "zebra" not in path.read_text(encoding="utf-8")


def test_the_branch_it_ended_on_with_markers_and_summaries(data: Path) -> None:
    transcript = load(data / BRANCHES)
    assert transcript.session_id == "a1b2c3d4-0000-4000-8000-00000000beef"
    assert [m.content for m in transcript.user_messages()] == [
        "Our migrations live in db/migrate; never edit an applied one.",
        "Use uv, not pip, for Python tooling."]
    assert [m.content for m in assistant_replies(transcript)] == ["Let me look.", "There are 12 migrations."]
    kinds = [type(i).__name__ for i in transcript.items]
    assert kinds == ["Message", "Message", "ToolCall", "ToolResult", "Message", "Compaction", "ToolCall",
                     "ToolResult", "Compaction", "Message", "Message"]
    assert transcript.items[2] == ToolCall("bash", 2) and transcript.items[3] == ToolResult(3)
    assert [i.summary for i in transcript.items if isinstance(i, Compaction)] == [
        "The user considered dropping a table and changed their mind.",
        "Summary: migrations are in db/migrate and applied ones are frozen."]
    assert transcript.items[-1] == Message("assistant", "Half a repl", False, 10)  # cut off: never used


def test_injected_text_tool_output_and_abandoned_branches_never_reach_extraction(data: Path) -> None:
    """The canary: text an extension injected (as a custom message, or a message with the custom
    role) is not the user's words, and neither is tool output or a branch the user left."""
    said = _said(data / BRANCHES)
    assert "SENTINEL" not in said and "zebra" not in said
    users = "\n".join(m.content for m in load(data / BRANCHES).user_messages())
    assert "zebra" not in users and "SENTINEL" not in users


def test_a_cycle_or_a_missing_parent_ends_the_walk() -> None:
    lines = [json.dumps(x) for x in (
        {"type": "session", "version": 3, "id": "s", "timestamp": "t", "cwd": "/"},
        {"type": "message", "id": "a", "parentId": "b", "message": {"role": "user", "content": "first"}},
        {"type": "message", "id": "b", "parentId": "a", "message": {"role": "user", "content": "second"}},
        {"type": "message", "id": "c", "parentId": "gone", "message": {"role": "user", "content": "third"}},
        {"type": "message", "id": "d", "parentId": "c", "message": {"role": "user", "content": "fourth"}},
    )]
    assert [m.content for m in parse_lines(lines, "pi").user_messages()] == ["third", "fourth"]
    looped = parse_lines(lines[:3], "pi")
    assert [m.content for m in looped.user_messages()] == ["first", "second"]


@pytest.mark.parametrize("line, fmt", [
    ('{"type":"session","version":3,"id":"s","timestamp":"t","cwd":"/w"}', "pi"),
    ('{"type":"message","id":"e1","parentId":null,"message":{"role":"user","content":"hi"}}', "pi"),
    ('{"type":"session","id":"x","frozen":true}', "native"),
    ('{"type":"compaction","summary":"s"}', "native"),
])
def test_pi_lines_are_told_from_native_ones(line: str, fmt: str) -> None:
    assert parse_lines([line], "auto").source_format == fmt
