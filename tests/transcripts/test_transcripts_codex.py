"""Codex rollouts: typed prompts only, final answers, compactions, sub-agent threads."""
from __future__ import annotations

import json
from pathlib import Path

from chord_git.transcripts import (
    Compaction,
    Message,
    ToolCall,
    ToolResult,
    load,
    parse_lines,
)

from .conftest import assistant_replies


def _said(path: Path) -> str:
    return "\n".join(
        i.content if isinstance(i, Message) else i.summary for i in load(path).conversation()
    )


def test_legacy_rollout_with_state_records(data: Path) -> None:
    transcript = load(data / "codex-legacy-state.jsonl")
    assert transcript.session_id == "3b9f6e2a-0c41-4d7e-b5a8-6f1d2e9c4a70"
    assert [m.content for m in transcript.user_messages()] == [
        "Rename the `utils` package to `helpers` everywhere. Keep the old import path working for one release."
    ]
    assert transcript.items[1] == ToolCall("shell", 1)
    assert transcript.items[2] == ToolResult(2)
    said = _said(data / "codex-legacy-state.jsonl")
    assert "SENTINEL" not in said and "Always run the tests" not in said and "<cwd>" not in said


def test_event_kinds_commentary_and_compaction(data: Path) -> None:
    transcript = load(data / "codex-kinds-compaction.jsonl")
    assert [m.content for m in transcript.user_messages()] == [
        "Pin the Python version to 3.12 in CI; 3.13 is not supported by our numpy build yet.",
        "Thanks, that's all.",
    ]
    assert [m.content for m in assistant_replies(transcript)] == [
        "CI now uses Python 3.12 in both jobs.", "You're welcome."]
    compactions = [i for i in transcript.items if isinstance(i, Compaction)]
    assert [c.summary for c in compactions] == [
        "Summary: the user pinned CI to Python 3.12 because the numpy build does not support 3.13."]
    said = _said(data / "codex-kinds-compaction.jsonl")
    assert "SENTINEL" not in said and "Use uv for everything" not in said


def test_subagent_thread_is_not_the_user(data: Path) -> None:
    transcript = load(data / "codex-subagent.jsonl")
    assert transcript.session_id == "0199ffff-0000-7000-8000-00000000aaaa"
    assert transcript.items == ()


def test_old_instructions_plus_request_message() -> None:
    item = {"type": "message", "role": "user", "content": [{"type": "input_text", "text":
            "<user_instructions>\nbe terse\n</user_instructions>\n\n## My request for Codex:\nfix the flaky test"}]}
    transcript = parse_lines([json.dumps({"id": "x", "timestamp": "t"}), json.dumps(item)])
    assert transcript.source_format == "codex"
    assert [m.content for m in transcript.user_messages()] == ["fix the flaky test"]


def test_response_item_prompts_are_dropped_once_user_events_exist() -> None:
    def env(kind: str, payload: dict[str, object]) -> str:
        return json.dumps({"timestamp": "t", "type": kind, "payload": payload})

    text = [{"type": "input_text", "text": "rename the module"}]
    transcript = parse_lines([
        env("session_meta", {"id": "s", "source": "cli"}),
        env("response_item", {"type": "message", "role": "user", "content": text}),
        env("event_msg", {"type": "user_message", "message": "rename the module"}),
        env("response_item", {"type": "message", "role": "developer", "content": text}),
        env("response_item", {"type": "web_search_call", "status": "completed"}),
    ])
    assert [type(i).__name__ for i in transcript.items] == ["Message", "ToolCall"]
    assert transcript.items[1] == ToolCall("web_search", 1)
