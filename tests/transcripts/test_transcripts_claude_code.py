"""Claude Code sessions: what counts as the user's words, grouped replies, completeness."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from chord_git.transcripts import Compaction, Message, ToolCall, load, parse_lines


def test_lint_session_user_words(data: Path) -> None:
    transcript = load(data / "claude-code-lint-session.jsonl")
    assert transcript.session_id == "5f0c2b7e-8d1a-4e63-a9b4-3c7e21d06f85"
    assert [m.content for m in transcript.user_messages()] == [
        "Add a make target that runs the linters. We use ruff only, no flake8.",
        "Now make CI call make lint instead of its own ruff invocation.",
        "Wait, keep the CI step as it is. Just add make lint locally, and have a sub-agent review the Makefile.",
        "also add a make fmt target",  # typed while the agent was busy (queued_command)
        "Last thing: document both targets in the README.",
    ]


def test_lint_session_keeps_tool_sidechain_and_markup_text_out(data: Path) -> None:
    transcript = load(data / "claude-code-lint-session.jsonl")
    said = "\n".join(
        i.content if isinstance(i, Message) else i.summary for i in transcript.conversation()
    )
    assert "SENTINEL" not in said
    for markup in ("system-reminder", "opened docs/setup.md", "/model", "Set model to opus",
                   "make lint</bash-input>", "Caveat", "Request interrupted", "No response requested"):
        assert markup not in said
    assert [i.name for i in transcript.items if isinstance(i, ToolCall)] == ["Read", "Agent"]


def test_lint_session_reply_completeness(data: Path) -> None:
    transcript = load(data / "claude-code-lint-session.jsonl")
    replies = [(m.content.split(".")[0], m.complete) for m in transcript.items
               if isinstance(m, Message) and m.role == "assistant"]
    assert replies == [
        ("I'll add a `lint` target", True),  # stop_reason tool_use; thinking line dropped
        ("Added `make lint`, which runs `ruff check ", True),
        ("I'll update the workflow so that the lint job", False),  # interrupted by the user
        ("Leaving CI unchanged", True),
        ("The reviewer found no problems", True),  # no stop_reason, but compaction followed
        ("Adding a short Development section to the README with", False),  # file ends mid-reply
    ]
    compactions = [i for i in transcript.conversation() if isinstance(i, Compaction)]
    assert len(compactions) == 1 and "ruff only, no flake8" in compactions[0].summary


def _assistant(mid: str, text: str, stop: str | None = None, **extra: Any) -> str:
    message = {"id": mid, "role": "assistant", "content": [{"type": "text", "text": text}],
               "stop_reason": stop}
    return json.dumps({"type": "assistant", "sessionId": "s", "uuid": "u-" + mid, "message": message, **extra})


def _user(content: Any, **extra: Any) -> str:
    return json.dumps({"type": "user", "sessionId": "s", "message": {"role": "user", "content": content}, **extra})


def _complete_flags(lines: list[str]) -> list[tuple[str, bool]]:
    transcript = parse_lines(lines, "claude-code")
    return [(m.content, m.complete) for m in transcript.items
            if isinstance(m, Message) and m.role == "assistant"]


def test_cut_replies_are_incomplete() -> None:
    assert _complete_flags([
        _user("go"),
        _assistant("m1", "long answer cut by the limit", "max_tokens"),
        _assistant("m2", "aborted answer", isAbortedMidStream=True),
        _assistant("m3", "retracted answer", "end_turn"),
        json.dumps({"type": "system", "subtype": "api_refusal", "retractedMessageUuids": ["u-m3"]}),
        _user("next"),
    ]) == [("long answer cut by the limit", False), ("aborted answer", False), ("retracted answer", False)]


def test_reply_followed_by_another_reply_is_complete() -> None:
    assert _complete_flags([
        _user("go"),
        _assistant("m1", "first part"),
        _assistant("m1", "same reply, second block"),
        _assistant("m2", "another reply"),
    ]) == [("first part\n\nsame reply, second block", True), ("another reply", False)]


def test_api_error_does_not_prove_a_reply_finished() -> None:
    assert _complete_flags([
        _user("go"),
        _assistant("m1", "partial"),
        json.dumps({"type": "system", "subtype": "api_error", "sessionId": "s"}),
    ]) == [("partial", False)]


def test_relayed_meta_and_reminder_only_prompts_are_not_user_words() -> None:
    transcript = parse_lines([
        _user("message from a teammate", origin={"kind": "task", "from": "alice", "senderTaskId": "t1"}),
        _user("expanded skill body", isMeta=True),
        _user([{"type": "text", "text": "<system-reminder>todo list is empty</system-reminder>"}]),
        _user("<task-notification>task 3 finished</task-notification>"),
        _user("keep <system-reminder>x</system-reminder>this"),
    ], "claude-code")
    assert [m.content for m in transcript.user_messages()] == ["keep this"]


def test_sidechain_compaction_summary_is_ignored() -> None:
    transcript = parse_lines([
        _user("Summary of a sub-agent's context.", isCompactSummary=True, isSidechain=True),
        _user("Summary of the main context.", isCompactSummary=True),
    ], "claude-code")
    assert transcript.items == (Compaction("Summary of the main context.", 0),)
