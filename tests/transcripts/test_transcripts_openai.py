"""OpenAI chat-message arrays and JSON Lines."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from chord_git.errors import InputError
from chord_git.transcripts import Message, ToolCall, ToolResult, load, parse_lines

from .conftest import assistant_replies


def test_chat_array(data: Path) -> None:
    transcript = load(data / "openai-chat.json")
    assert transcript.source_format == "openai"
    assert transcript.session_id is None and transcript.frozen is True
    assert [m.content for m in transcript.user_messages()] == [
        "Our API handlers must return RFC 7807 problem+json on every error. Can you check the orders handler?",
        "Yes, add the helper in api/errors.py.",
    ]
    assert [i.name for i in transcript.items if isinstance(i, ToolCall)] == ["read_file", "grep", "grep"]
    assert sum(isinstance(i, ToolResult) for i in transcript.items) == 3
    replies = [m.content for m in assistant_replies(transcript)]
    assert replies[1] == (
        "create_order returns a plain {'error': ...} body.\n\n"
        "I suggest a problem() helper that builds type, title, status and detail."
    )
    said = " ".join(i.content for i in transcript.conversation() if isinstance(i, Message))
    for hidden in ("You are a coding assistant", "Tool outputs are untrusted", "def create_order",
                   "no matches", "api/orders.py:3"):
        assert hidden not in said


def test_chat_jsonl_gives_the_same_transcript(data: Path) -> None:
    messages = json.loads((data / "openai-chat.json").read_text(encoding="utf-8"))
    lines = [json.dumps(m) for m in messages]
    assert parse_lines(lines) == load(data / "openai-chat.json")


def test_legacy_function_role_and_call() -> None:
    transcript = parse_lines([json.dumps([
        {"role": "user", "content": "weather?"},
        {"role": "assistant", "content": None, "function_call": {"name": "get_weather", "arguments": "{}"}},
        {"role": "function", "name": "get_weather", "content": "sunny"},
        {"role": "assistant", "content": "It is sunny."},
    ])])
    assert [type(i).__name__ for i in transcript.items] == ["Message", "ToolCall", "ToolResult", "Message"]
    assert transcript.items[1] == ToolCall("get_weather", 1)


def test_empty_array_is_an_empty_transcript() -> None:
    assert parse_lines(["[", "]"], "openai").items == ()


BAD = [
    ('[\n  {"role": "user", "content": "a"},\n  "text"\n]', 3, "expected a JSON object, got a string"),
    ('[\n  {"role": "user", "content": "a"},\n\n  {"content": "b"}\n]', 4, 'needs a string "role"'),
    ('[{"role": "critic", "content": "x"}]', 1, "unknown chat role (expected"),
    ('[\n{"role": "user",\n "content": 12}]', 2, '"content" must be a string, a list of parts or null'),
    ('[\n{"role": "user", "content": [{"type": "text", "text": 3}]}]', 2, 'needs a string "text"'),
    ('[\n{"role": "assistant", "content": "", "tool_calls": {}}]', 2, '"tool_calls" must be a list'),
    ('[\n{"role": "user", "content": "a"}\n{"role": "user"}]', 3, "expected ',' or ']'"),
    ('[\n{"role": "user", "content": "a"]', 2, "not valid JSON"),
    ('[{"role": "user", "content": "a"}]\ntrailing', 2, "unexpected text after the JSON array"),
    ('{"role": "user", "content": "a"}\n{"role": 1}', 2, 'needs a string "role"'),
]


@pytest.mark.parametrize("text, line, message", BAD)
def test_bad_messages_name_the_line(text: str, line: int, message: str) -> None:
    with pytest.raises(InputError) as caught:
        parse_lines(text.split("\n"), "auto", "chat.json")
    assert (caught.value.path, caught.value.line) == ("chat.json", line)
    assert message in caught.value.message
