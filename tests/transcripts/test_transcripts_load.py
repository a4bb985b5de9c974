"""Loading files: detection, encodings, line ends, empty and broken files, big files."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from chord_git.errors import InputError, UsageError
from chord_git.transcripts import (
    FORMATS,
    Message,
    ToolResult,
    detect_format,
    load,
    parse_lines,
)

from .conftest import assistant_replies


@pytest.mark.parametrize("name, fmt", [
    ("native-zh.jsonl", "native"),
    ("native-en.jsonl", "native"),
    ("openai-chat.json", "openai"),
    ("claude-code-lint-session.jsonl", "claude-code"),
    ("codex-legacy-state.jsonl", "codex"),
    ("codex-kinds-compaction.jsonl", "codex"),
    ("codex-subagent.jsonl", "codex"),
])
def test_detects_each_sample(data: Path, name: str, fmt: str) -> None:
    assert detect_format(data / name) == fmt
    assert detect_format(str(data / name)) == fmt
    assert load(data / name).source_format == fmt


@pytest.mark.parametrize("first_line, fmt", [
    ('{"type":"session","id":"x","frozen":true}', "native"),
    ('{"type":"message","role":"user","content":"hi"}', "native"),
    ('{"role":"user","content":"hi"}', "openai"),
    ('[{"role":"user","content":"hi"}]', "openai"),
    ('{"type":"summary","summary":"A title","leafUuid":"u"}', "claude-code"),
    ('{"type":"permission-mode","permissionMode":"plan","sessionId":"s"}', "claude-code"),
    ('{"timestamp":"t","type":"session_meta","payload":{"id":"s"}}', "codex"),
    ('{"id":"s","timestamp":"t"}', "codex"),
    ('{"type":"message","role":"user","content":[{"type":"input_text","text":"hi"}]}', "codex"),
])
def test_detection_from_first_line(tmp_path: Path, first_line: str, fmt: str) -> None:
    path = tmp_path / "session.jsonl"
    path.write_text(first_line + "\n", encoding="utf-8")
    assert detect_format(path) == fmt


def test_detection_looks_past_lines_that_cannot_tell(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    path.write_text('{"type":"mystery"}\n\n{"type":"user","sessionId":"s","message":{"content":"hi"}}\n')
    assert detect_format(path) == "claude-code"
    assert [m.content for m in load(path).user_messages()] == ["hi"]


def test_undetectable_file_names_file_and_line_1(tmp_path: Path) -> None:
    path = tmp_path / "odd.jsonl"
    path.write_text('{"kind":"x"}\n{"kind":"y"}\n', encoding="utf-8")
    with pytest.raises(InputError) as caught:
        load(path)
    assert caught.value.line == 1
    assert str(caught.value).startswith(f"{path}:1: cannot tell the transcript format")


@pytest.mark.parametrize("content", [b"", b"\n\n  \n", b"\xef\xbb\xbf"])
def test_empty_file(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "empty.jsonl"
    path.write_bytes(content)
    for fmt in ("auto", *FORMATS):
        with pytest.raises(InputError, match="empty transcript"):
            load(path, fmt)


def test_non_utf8_names_the_line(tmp_path: Path) -> None:
    path = tmp_path / "latin1.jsonl"
    path.write_bytes(
        b'{"type":"session","id":"s"}\n'
        b'{"type":"message","role":"user","content":"ok"}\n'
        b'{"type":"message","role":"user","content":"caf\xe9"}\n'
    )
    with pytest.raises(InputError) as caught:
        load(path)
    assert caught.value.line == 3 and "not valid UTF-8" in caught.value.message


def test_malformed_line_in_the_middle(tmp_path: Path, data: Path) -> None:
    lines = (data / "claude-code-lint-session.jsonl").read_text(encoding="utf-8").splitlines()
    lines[4] = lines[4][:-10]
    path = tmp_path / "broken.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(InputError) as caught:
        load(path)
    assert caught.value.line == 5 and "not valid JSON" in caught.value.message


def test_first_line_not_json(tmp_path: Path) -> None:
    path = tmp_path / "notes.txt"
    path.write_text("just some notes\n", encoding="utf-8")
    with pytest.raises(InputError) as caught:
        load(path)
    assert caught.value.line == 1


@pytest.mark.parametrize("name", ["native-zh.jsonl", "openai-chat.json", "claude-code-lint-session.jsonl",
                                  "codex-kinds-compaction.jsonl"])
def test_bom_and_crlf_read_the_same(tmp_path: Path, data: Path, name: str) -> None:
    original = (data / name).read_bytes()
    path = tmp_path / name
    path.write_bytes(b"\xef\xbb\xbf" + original.replace(b"\n", b"\r\n"))
    assert load(path) == load(data / name)


def test_parse_lines_with_or_without_line_ends(data: Path) -> None:
    text = (data / "native-en.jsonl").read_text(encoding="utf-8")
    assert parse_lines(text.splitlines(keepends=True)) == load(data / "native-en.jsonl")
    assert parse_lines(text.splitlines(), "native") == load(data / "native-en.jsonl")


def test_forcing_the_wrong_format_is_an_error(data: Path) -> None:
    with pytest.raises(InputError, match="no native transcript lines"):
        load(data / "claude-code-lint-session.jsonl", "native")
    with pytest.raises(InputError, match='needs a string "role"'):
        load(data / "native-en.jsonl", "openai")


def test_unknown_format_and_missing_file(tmp_path: Path) -> None:
    with pytest.raises(UsageError):
        load(tmp_path / "x.jsonl", "markdown")
    with pytest.raises(InputError, match="cannot read transcript"):
        load(tmp_path / "missing.jsonl")
    with pytest.raises(InputError, match="cannot read transcript"):
        detect_format(tmp_path)


def test_big_session_keeps_only_markers_for_tool_output(tmp_path: Path) -> None:
    # About 6 MB, mostly tool output: the transcript keeps the words and the markers only.
    bulky = "x" * 50_000
    path = tmp_path / "big.jsonl"
    with path.open("w", encoding="utf-8") as fh:
        for turn in range(120):
            fh.write(json.dumps({"type": "user", "sessionId": "big", "message": {"content": f"prompt {turn}"}}) + "\n")
            fh.write(json.dumps({"type": "assistant", "sessionId": "big", "message": {
                "id": f"m{turn}", "content": [{"type": "tool_use", "name": "Read", "input": {}}],
                "stop_reason": "tool_use"}}) + "\n")
            fh.write(json.dumps({"type": "user", "sessionId": "big", "message": {"content": [
                {"type": "tool_result", "content": bulky}]}}) + "\n")
            fh.write(json.dumps({"type": "assistant", "sessionId": "big", "message": {
                "id": f"r{turn}", "content": [{"type": "text", "text": f"reply {turn}"}],
                "stop_reason": "end_turn"}}) + "\n")
    assert path.stat().st_size > 5_000_000
    transcript = load(path)
    assert len(transcript.user_messages()) == 120
    assert len(assistant_replies(transcript)) == 120
    assert sum(isinstance(i, ToolResult) for i in transcript.items) == 120
    assert max(len(i.content) for i in transcript.items if isinstance(i, Message)) < 20
