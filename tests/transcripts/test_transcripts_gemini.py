"""Gemini CLI session files: the event log replayed as the CLI loads it, injected context cut out."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from chord_git.transcripts import Message, ToolCall, ToolResult, detect_format, load, parse_lines
from chord_git.transcripts.gemini import strip_hook_context

CANARY = "zebra-quartz-7731"
HEADER = {"sessionId": "s-1", "projectHash": "ab12", "startTime": "t", "lastUpdated": "t", "kind": "main"}
CONTEXT = {"id": "ctx", "timestamp": "t", "type": "user",
           "content": [{"text": "<session_context>\nThis is the Gemini CLI.\n</session_context>"}]}


def user(mid: str, text: str) -> dict[str, Any]:
    return {"id": mid, "timestamp": "t", "type": "user", "content": [{"text": text}]}


def reply(mid: str, text: str, **extra: Any) -> dict[str, Any]:
    return {"id": mid, "timestamp": "t", "type": "gemini", "content": text, "thoughts": [], **extra}


def read(*lines: dict[str, Any]) -> list[tuple[str, str]]:
    transcript = parse_lines([json.dumps(line) for line in lines], "gemini")
    return [(i.role, i.content) for i in transcript.items if isinstance(i, Message)]


def test_a_captured_session_gives_the_user_words_without_the_injected_summary(data: Path) -> None:
    """Canary: 0.61.0 stored our SessionStart summary inside the user's message, twice (a
    resumed session); it never comes back as the user's words."""
    path = data / "gemini-0.61.0-hook-context.jsonl"
    assert CANARY in path.read_text(encoding="utf-8")
    assert detect_format(path) == "gemini"
    transcript = load(path)
    said = [m.content for m in transcript.user_messages()]
    # The resume's "$set" of the message list left the first prompt out, as the CLI itself does
    # (it was handed off when the first run ended).
    assert said == ["Also, the generated client under api/gen is never edited by hand."]
    assert not any(CANARY in item.content for item in transcript.conversation() if isinstance(item, Message))
    assert transcript.session_id and all(m.complete for m in transcript.items if isinstance(m, Message))


def test_hook_context_is_cut_wherever_it_is() -> None:
    assert strip_hook_context(f"<hook_context>{CANARY}</hook_context>\n\nhello") == "\n\nhello"
    assert strip_hook_context(f"a<hook_context>x</hook_context>b<hook_context>{CANARY}") == "ab"
    assert strip_hook_context("no context") == "no context"
    assert read(HEADER, {"$set": {"messages": [CONTEXT]}},
                {"id": "u1", "timestamp": "t", "type": "user",
                 "content": [{"text": f"<hook_context>{CANARY}</hook_context>\n\nUse pnpm."},
                             {"text": f"<hook_context>{CANARY} again</hook_context>"}]}) == [("user", "Use pnpm.")]
    # Only injected context: nothing the user said.
    assert read(HEADER, user("u1", f"<hook_context>{CANARY}</hook_context>")) == []


def test_set_messages_replaces_the_list_and_records_update_in_place() -> None:
    lines = [HEADER, {"$set": {"messages": [CONTEXT]}}, user("u1", "first"), reply("g1", "one"),
             {"$set": {"lastUpdated": "t2"}}, reply("g1", "one, revised", toolCalls=[{"name": "read_file"}]),
             {"$set": {"messages": [CONTEXT, reply("g1", "one, revised")]}}, user("u2", "second"),
             reply("g2", "two")]
    assert read(*lines) == [("assistant", "one, revised"), ("user", "second"), ("assistant", "two")]
    transcript = parse_lines([json.dumps(line) for line in lines[:6]], "gemini")
    kinds = [type(i).__name__ for i in transcript.items]
    assert kinds == ["Message", "Message", "ToolCall", "ToolResult"]
    assert isinstance(transcript.items[2], ToolCall) and transcript.items[2].name == "read_file"
    assert isinstance(transcript.items[3], ToolResult)


def test_rewind_drops_the_message_and_what_came_after() -> None:
    lines = [HEADER, user("u1", "keep"), reply("g1", "kept"), user("u2", "retracted"), reply("g2", "gone"),
             {"$rewindTo": "u2"}, user("u3", "instead")]
    assert read(*lines) == [("user", "keep"), ("assistant", "kept"), ("user", "instead")]
    assert read(HEADER, user("u1", "a"), {"$rewindTo": "nope"}) == [("user", "a")]


def test_notices_and_thoughts_are_not_conversation() -> None:
    lines = [HEADER, user("u1", "hi"), {"id": "i1", "timestamp": "t", "type": "info", "content": "Compressed."},
             {"id": "e1", "timestamp": "t", "type": "error", "content": "quota"},
             reply("g1", "", thoughts=[{"subject": "s", "description": "thinking"}])]
    assert read(*lines) == [("user", "hi")]


def test_the_header_and_events_say_gemini_and_claude_lines_do_not() -> None:
    from chord_git.transcripts import BUILTIN

    assert BUILTIN.detect_object(HEADER) == "gemini"
    assert BUILTIN.detect_object({"$set": {"lastUpdated": "t"}}) == "gemini"
    claude_line = {"type": "user", "uuid": "u", "parentUuid": None, "sessionId": "s",
                   "message": {"role": "user", "content": "hi"}}
    assert BUILTIN.detect_object(claude_line) == "claude-code"


def test_what_the_user_typed_wins_over_what_the_cli_sent() -> None:
    """An ``@file`` reference is sent with the file's text; the recorded ``displayContent`` is what
    the user typed."""
    sent = {"id": "u1", "timestamp": "t", "type": "user",
            "content": [{"text": f"<hook_context>{CANARY}</hook_context>\n\nExplain @src/a.py"},
                        {"text": "--- Content from referenced files ---\nAPI_TOKEN = 'x'"}],
            "displayContent": [{"text": f"<hook_context>{CANARY}</hook_context>\n\nExplain @src/a.py"}]}
    assert read(HEADER, sent) == [("user", "Explain @src/a.py")]
