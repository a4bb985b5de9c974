"""OpenCode sessions: ``opencode export`` documents and the per-message lines the plugin's hook keeps."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from chord_git.errors import InputError
from chord_git.transcripts import Compaction, Message, ToolCall, ToolResult, detect_format, load, parse_lines

from .conftest import assistant_replies

EXPORT = "opencode-1.18.33-export.json"
HOOK = "opencode-1.18.33-hook.jsonl"
RICH = "opencode-tools-compaction.jsonl"


def test_a_real_export_pretty_printed(data: Path) -> None:
    """What `opencode export <id>` printed for a one-turn `opencode run` (the prompt with the quotes
    `run` stores it with)."""
    path = data / EXPORT
    assert path.read_text(encoding="utf-8").startswith("{\n")
    assert detect_format(path) == "opencode"
    transcript = load(path)
    assert transcript.session_id == "ses_dcd35c771ffeYtSoOEU2MMq2Cx"
    assert transcript.items == (Message("user", '"We use pnpm, never npm."', True, 0),
                                Message("assistant", "Noted from the fake.", True, 1))


def test_the_same_document_on_one_line_and_the_hook_lines(data: Path) -> None:
    compact = json.dumps(json.loads((data / EXPORT).read_text(encoding="utf-8")))
    assert parse_lines([compact], "auto").items == load(data / EXPORT).items
    hook = load(data / HOOK)   # written by the hook from the plugin's payload, OpenCode 1.18.33
    assert hook.source_format == "opencode" and hook.session_id == "ses_dcd3299a7ffeIZKysiD54HIO8E"
    assert [m.content for m in hook.user_messages()] == ['"We use pnpm."']
    assert [m.content for m in assistant_replies(hook)] == ["Noted."]
    assert "zebra" not in (data / HOOK).read_text(encoding="utf-8")  # the injected summary is not stored


def test_user_words_replies_markers_and_the_compaction_summary(data: Path) -> None:
    transcript = load(data / RICH)
    assert transcript.session_id == "ses_0000000000000000000000beef"
    assert [m.content for m in transcript.user_messages()] == [
        "The API server listens on port 8443 in every environment.", "Never commit .env files."]
    assert transcript.items[1:4] == (Message("assistant", "Let me check the config.", True, 1), ToolCall("bash", 2),
                                     ToolResult(3))
    assert [i.summary for i in transcript.items if isinstance(i, Compaction)] == [
        "Summary: the API server port is 8443 everywhere."]
    assert transcript.items[-1] == Message("assistant", "Half a rep", False, 7)   # aborted: never used


def test_synthetic_text_tool_traffic_and_the_compaction_request_never_reach_extraction(data: Path) -> None:
    said = "\n".join(i.content if isinstance(i, Message) else i.summary for i in load(data / RICH).conversation())
    assert "SENTINEL" not in said


def test_a_broken_export_names_its_line(tmp_path: Path) -> None:
    path = tmp_path / "export.json"
    path.write_text('{\n  "info": {"id": "ses_x"},\n  "messages": [,]\n}\n', encoding="utf-8")
    with pytest.raises(InputError) as caught:
        load(path)
    assert str(caught.value).startswith(f"{path}:3: not valid JSON")
    path.write_text('{\n  "info": {"id": "ses_x"},\n  "messages": []\n}\n{}\n', encoding="utf-8")
    with pytest.raises(InputError, match="unexpected text after"):
        load(path, "opencode")


@pytest.mark.parametrize("line, fmt", [
    ('{"info": {"id": "m", "role": "user"}, "parts": []}', "opencode"),
    ('{"info": {"id": "ses_1"}, "messages": []}', "opencode"),
    ('{"role": "user", "content": "hi"}', "openai"),
])
def test_opencode_lines_are_told_from_others(line: str, fmt: str) -> None:
    assert parse_lines([line], "auto").source_format == fmt
