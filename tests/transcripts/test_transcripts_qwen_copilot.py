"""Qwen Code and Copilot CLI session files: the user's words, finished replies, tool markers, and
never the memory summary that the hooks injected."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from chord_git.transcripts import BUILTIN, Message, ToolCall, ToolResult, detect_format, load, parse_lines

CANARY = "zebra-quartz-7731"
SAID = ["We use pnpm, never npm, in this repo.", "Also, the generated client under api/gen is never edited by hand."]


def messages(lines: list[dict[str, Any]], fmt: str) -> list[tuple[str, str]]:
    transcript = parse_lines([json.dumps(line) for line in lines], fmt)
    return [(i.role, i.content) for i in transcript.items if isinstance(i, Message)]


# ---------------------------------------------------------------------------- Qwen Code
def test_a_captured_qwen_session_and_its_resume(data: Path) -> None:
    """Qwen 0.24.4 puts the SessionStart summary into the system prompt: the file never holds it."""
    path = data / "qwen-0.24.4-hook-context.jsonl"
    assert CANARY not in path.read_text(encoding="utf-8")
    assert detect_format(path) == "qwen"
    transcript = load(path)
    assert [m.content for m in transcript.user_messages()] == SAID
    assert [i.role for i in transcript.conversation() if isinstance(i, Message)] == ["user", "assistant"] * 2


def qwen(uuid: str, parent: str | None, kind: str, parts: list[dict[str, Any]] | None = None, **extra: Any) -> dict[str, Any]:
    role = {"user": "user", "assistant": "model"}.get(kind, "user")
    line: dict[str, Any] = {"uuid": uuid, "parentUuid": parent, "sessionId": "q1", "timestamp": "t", "type": kind, **extra}
    if parts is not None:
        line["message"] = {"role": role, "parts": parts}
    return line


def test_qwen_reads_the_branch_that_ends_at_the_last_record() -> None:
    lines = [qwen("1", None, "user", [{"text": "keep this"}], provenance="real_user"),
             qwen("2", "1", "assistant", [{"text": "kept", "thought": False}], provenance="assistant_output"),
             qwen("3", "2", "user", [{"text": "rewound away"}], provenance="real_user"),
             qwen("4", "3", "assistant", [{"text": "gone"}], provenance="assistant_output"),
             qwen("5", "2", "user", [{"text": "instead"}], provenance="real_user")]
    assert messages(lines, "qwen") == [("user", "keep this"), ("assistant", "kept"), ("user", "instead")]


def test_qwen_drops_thoughts_commands_and_system_records() -> None:
    lines = [qwen("1", None, "user", [{"text": "/compress"}], provenance="real_user", subtype="slash_command"),
             qwen("2", "1", "user", [{"text": "@src/a.py contents…"}], provenance="real_user", subtype="at_command"),
             qwen("3", "2", "system", None, provenance="system", subtype="ui_telemetry"),
             qwen("4", "3", "user", [{"text": "real words"}]),  # an older file: no provenance
             qwen("5", "4", "assistant", [{"text": "thinking…", "thought": True}, {"text": "answer"},
                                          {"functionCall": {"name": "read_file", "args": {}}}],
                  provenance="assistant_output"),
             qwen("6", "5", "tool_result", [{"functionResponse": {"name": "read_file", "response": {}}}],
                  provenance="tool_result")]
    transcript = parse_lines([json.dumps(line) for line in lines], "qwen")
    assert [(i.role, i.content) for i in transcript.items if isinstance(i, Message)] == [
        ("user", "real words"), ("assistant", "answer")]
    assert [type(i) for i in transcript.items] == [Message, Message, ToolCall, ToolResult]


def test_qwen_takes_what_the_user_typed_over_what_it_sent() -> None:
    sent = qwen("1", None, "user", [{"text": "Explain @src/a.py"}, {"text": "--- src/a.py ---\nAPI_TOKEN = 'x'"}],
                provenance="real_user", systemPayload={"displayText": "Explain @src/a.py"})
    assert messages([sent], "qwen") == [("user", "Explain @src/a.py")]


def test_qwen_and_claude_lines_are_told_apart() -> None:
    assert BUILTIN.detect_object(qwen("1", None, "user", [{"text": "x"}], provenance="real_user")) == "qwen"
    claude = {"type": "user", "uuid": "u", "parentUuid": None, "sessionId": "s", "message": {"role": "user", "content": "x"}}
    assert BUILTIN.detect_object(claude) == "claude-code"


# ---------------------------------------------------------------------------- Copilot CLI
def test_a_captured_copilot_session_keeps_the_summary_out_of_the_user_words(data: Path) -> None:
    """Canary: Copilot 1.0.102 records the SessionStart output in ``hook.end``; it never comes back
    as the user's words."""
    path = data / "copilot-1.0.102-hook-context.jsonl"
    assert CANARY in path.read_text(encoding="utf-8")
    assert detect_format(path) == "copilot"
    transcript = load(path)
    assert [m.content for m in transcript.user_messages()] == SAID
    assert not any(CANARY in i.content for i in transcript.conversation() if isinstance(i, Message))


def copilot(kind: str, **data: Any) -> dict[str, Any]:
    return {"type": kind, "data": data, "id": "e", "timestamp": "t", "parentId": None}


def test_copilot_events_to_items() -> None:
    lines = [copilot("session.start", sessionId="c1"),
             copilot("hook.end", hookType="sessionStart", output={"additionalContext": CANARY}),
             copilot("user.message", content="Fix the build.", transformedContent="<current_datetime>…</current_datetime>\n\nFix the build."),
             copilot("assistant.message", content="", toolRequests=[{"name": "bash", "arguments": {}}]),
             copilot("tool.execution_start", toolName="bash"),
             copilot("tool.execution_complete", success=True, result={"content": "secret output"}),
             copilot("assistant.message", content="Fixed.", toolRequests=[]),
             copilot("session.shutdown")]
    transcript = parse_lines([json.dumps(line) for line in lines], "copilot")
    assert transcript.session_id == "c1"
    assert [type(i) for i in transcript.items] == [Message, ToolCall, ToolResult, Message]
    assert [(i.role, i.content) for i in transcript.items if isinstance(i, Message)] == [
        ("user", "Fix the build."), ("assistant", "Fixed.")]
    assert BUILTIN.detect_object(lines[0]) == "copilot"
