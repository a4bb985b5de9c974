"""The native JSONL format of SPEC, on realistic sessions and on every kind of bad line."""
from __future__ import annotations

from pathlib import Path

import pytest

from chord_git.errors import InputError
from chord_git.transcripts import (
    Compaction,
    Message,
    ToolCall,
    ToolResult,
    load,
    parse_lines,
)

from .conftest import assistant_replies


def test_chinese_session(data: Path) -> None:
    transcript = load(data / "native-zh.jsonl")
    assert transcript.source_format == "native"
    assert transcript.session_id == "7d3f9a52-1c4e-4b8a-9f60-2e8d5c1b7a43"
    assert transcript.frozen is True
    assert [m.content for m in transcript.user_messages()] == [
        "帮我看一下为什么 CI 上的单元测试一直超时？本地跑是好的。",
        "我们这个项目统一用 pnpm，不要用 npm。另外测试必须串行跑，因为集成测试共用一个数据库，这个 --runInBand 不能去掉。",
        "以后提交信息用中文写，格式是「模块: 做了什么」。",
    ]
    conversation = transcript.conversation()
    assert [type(i).__name__ for i in conversation] == [
        "Message", "Message", "Message", "Message", "Message", "Compaction", "Message"]
    assert isinstance(conversation[5], Compaction)
    assert conversation[5].summary.startswith("之前的对话")
    # The cut-off last reply is kept as an item but never offered as input.
    last = transcript.items[-1]
    assert isinstance(last, Message) and last.complete is False
    assert last not in conversation
    said = "".join(i.content if isinstance(i, Message) else i.summary for i in conversation)
    assert "已修改 1 个文件" not in said and "runs-on: ubuntu-latest" not in said


def test_english_session(data: Path) -> None:
    transcript = load(data / "native-en.jsonl")
    assert transcript.user_messages()[1].content == (
        "No fallback. Releases are always cut from a tag named like release-2024.06, never v1.2.3. "
        "Please change the tag pattern instead."
    )
    assert [i.name for i in transcript.items if isinstance(i, ToolCall)] == ["shell", "shell", "apply_patch"]
    assert sum(isinstance(i, ToolResult) for i in transcript.items) == 3
    assert len(assistant_replies(transcript)) == 4
    said = " ".join(i.content for i in transcript.conversation() if isinstance(i, Message))
    assert "no tag found matching pattern" not in said and "git-cliff --output" not in said


def test_unknown_line_types_are_skipped() -> None:
    transcript = parse_lines([
        '{"type":"session","id":"s1"}',
        '{"type":"note","text":"written by a newer host"}',
        '{"type":"message","role":"user","content":"hello"}',
    ], "native")
    assert [m.content for m in transcript.user_messages()] == ["hello"]


def test_session_header_rules() -> None:
    open_session = parse_lines(['{"type":"session","id":"s1","frozen":false}'], "native")
    assert open_session.frozen is False and open_session.session_id == "s1"
    closed_later = parse_lines([
        '{"type":"session","id":"s1","frozen":false}',
        '{"type":"message","role":"user","content":"hi"}',
        '{"type":"session","frozen":true}',
    ], "native")
    assert closed_later.frozen is True and closed_later.session_id == "s1"
    headerless = parse_lines(['{"type":"message","role":"assistant","content":"hi"}'], "native")
    assert headerless.session_id is None and headerless.frozen is True


def test_tool_lines_keep_only_markers() -> None:
    transcript = parse_lines([
        '{"type":"tool_call","arguments":{"cmd":"cat .env"}}',
        '{"type":"tool_result","content":{"stdout":"lots"}}',
    ], "native")
    assert transcript.items == (ToolCall("", 0), ToolResult(1))


BAD_LINES = [
    ('{"type":"message","role":"user","content":"ok"}\n{"type":"message",', 2, "not valid JSON"),
    ('["a","list"]', 1, "expected a JSON object, got an array"),
    ('{"role":"user","content":"no type"}', 1, 'needs a string "type"'),
    ('{"type":7}', 1, 'needs a string "type"'),
    ('{"type":"message","role":"system","content":"x"}', 1, '"role" must be'),
    ('{"type":"message","role":"user","content":42}', 1, '"content" must be a string'),
    ('{"type":"message","role":"user"}', 1, '"content" must be a string'),
    ('{"type":"message","role":"user","content":"x","complete":"yes"}', 1, '"complete" must be true or false'),
    ('{"type":"session","frozen":"true"}', 1, '"frozen" must be true or false'),
    ('{"type":"session","id":5}', 1, '"id" must be a string'),
    ('{"type":"session","id":"a"}\n{"type":"session","id":"b"}', 2, "differs from earlier id"),
    ('{"type":"compaction"}', 1, '"summary" must be a string'),
    ('{"type":"tool_call","name":["x"]}', 1, '"name" must be a string'),
    ('{"type":"note"}', 1, "no native transcript lines"),
]


@pytest.mark.parametrize("text, line, message", BAD_LINES)
def test_bad_lines_name_file_and_line(text: str, line: int, message: str) -> None:
    with pytest.raises(InputError) as caught:
        parse_lines(text.split("\n"), "native", "session.jsonl")
    assert caught.value.path == "session.jsonl"
    assert caught.value.line == line
    assert message in caught.value.message
    assert str(caught.value).startswith(f"session.jsonl:{line}: ")
