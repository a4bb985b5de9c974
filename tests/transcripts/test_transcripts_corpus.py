"""Every file of the shared corpus of real Claude Code and Codex sessions reads cleanly."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from chord_git.transcripts import (
    Compaction,
    Message,
    ToolCall,
    ToolResult,
    detect_format,
    load,
)

from .conftest import assistant_replies, corpus_root

CLAUDE_01_PROMPTS = [
    "Hey Claude, can you please add a Github Action to run tests and linting? You can test it with `act`.",
    "Wait, does it only run on main? I think we should run it on all push? Also, would you mind fixing "
    "the type issues? They don't look that bad.",
]
CLAUDE_05_PROMPTS = [
    "Ok, so there's isn't much to see here, mostly one idea about how to organize the work Markdown "
    "documents generated during a Claude Code session.",
    "I very much like this idea, and I used it already with some success in the clmail project. Can you "
    "list, in 5 bullet points, what are the strengths of this proposal?",
    "OK, so, to be fair, maybe also list 5 weak points, risks, or caveats.",
    "Fair enough. Can you write a balanced opinion on this approach? Keep it same overall length as the "
    "pros or cons.",
    "I actually don't like much this idea, and I somewhat struggled with it in the clmail project. Can "
    "you list, in 5 bullet points, what are the weak points, risks, or caveats of this proposal?",
    "Ok, so, to be fair, maybe also list 5 strengths of this proposal.",
    "Fair enough. Can you write a balanced opinion on this approach? Keep it same overall length as the "
    "pros or cons.",
]

# file -> (session id, user prompts (None: only the count is checked), count, compactions)
EXPECTED: dict[str, tuple[str, list[str] | None, int, int]] = {
    "claude-code/01-v1.0.24-summaries-thinking.jsonl": (
        "fe869ecb-c176-478f-9734-7e4b8ef12cff", CLAUDE_01_PROMPTS, 2, 0),
    "claude-code/02-v1.0.51-system-hooks-bash-mode.jsonl": (
        "326189cf-5676-4237-8cde-1ce80aae4a9f", ["please fix these"], 1, 0),
    "claude-code/03-v2.0.64-file-tools.jsonl": (
        "4c2ddfdc-b619-4525-8d03-1950fb1b0257",
        ["create hello.py, md and js", "update py with one liner comment", "delete js"], 3, 0),
    "claude-code/04-v2.0.76-compaction-excerpt.jsonl": (
        "624a4a58-b34c-462d-a70d-13421c8125a8",
        ["before providing proposal for phase 4.1 check existing implementation for metrics. erorrs "
         "handling is already present in metrics. don't overcomplicate"], 1, 1),
    "claude-code/05-v2.1.42-hooks-progress.jsonl": (
        "03eb5929-52b3-4b13-ada3-b93ae35806b8", CLAUDE_05_PROMPTS, 7, 0),
    "claude-code/06-v2.1.114-teammates-main.jsonl": ("ef958aa1-0e93-49f0-bb71-150f63befcd1", None, 2, 0),
    # A sub-agent file: every line is a sidechain, none of it is the user talking.
    "claude-code/07-v2.1.114-teammates-subagent.jsonl": ("ef958aa1-0e93-49f0-bb71-150f63befcd1", [], 0, 0),
    # Skeleton with trimmed values; its only compaction summary sits on a sidechain line.
    "claude-code/08-v2.1.x-schema-catalog.jsonl": ("ses_stage0_small", None, 5, 0),
    "codex/01-legacy-flat-synthetic.jsonl": (
        "44444444-4444-4444-8444-444444444444", ["Open the synthetic legacy session."], 1, 0),
    "codex/02-v0.77.0-exec-shell.jsonl": (
        "019b7f94-51b4-7593-922e-ba12b5b73b52",
        ["what is current repository about? summarize purpuse and explain goals"], 1, 0),
    "codex/03-v0.104.0-desktop-compaction-excerpt.jsonl": (
        "019c8a59-e9dd-71f0-9ae3-4079fe9726a9",
        ["[REDACTED_MESSAGE len=1533 sha=89386347]", "[REDACTED_MESSAGE len=188 sha=d62a3c8d]"], 2, 1),
    "codex/04-v0.125.0-tui-two-turns.jsonl": (
        "019e1625-789d-76c0-80ab-3724b5ddb799",
        ["show tools", "let's update the defailt context compart to 90 in env var"], 2, 0),
    "codex/05-v0.129.0-two-turns-handwritten.jsonl": (
        "a1b2c3d4-e5f6-7890-abcd-ef1234567890",
        ["Hello, Codex! Please explain what you do.", "What languages can you work with?"], 2, 0),
    # Skeleton: five non-empty compactions (one more is empty), one user_message of unknown kind.
    "codex/06-v0.146.0-schema-catalog.jsonl": ("019fc8be-3658-7ca3-9e29-000000000000", None, 2, 5),
}

INJECTED_MARKERS = (
    "<environment_context>", "AGENTS.md instructions", "<INSTRUCTIONS>", "<permissions instructions>",
    "<user_instructions>", "<command-name>", "<local-command-stdout>", "<local-command-caveat>",
    "Caveat: The messages below", "<bash-input>", "<bash-stdout>", "<system-reminder>",
    "[Request interrupted by user",
)


def _corpus_files() -> list[str]:
    root = corpus_root()
    found = sorted(str(p.relative_to(root)) for p in root.glob("*/*.jsonl"))
    return found or list(EXPECTED)


@pytest.mark.parametrize("name", _corpus_files())
def test_every_corpus_file_loads_with_its_detected_format(corpus: Path, name: str) -> None:
    path = corpus / name
    expected_format = name.split("/")[0]
    assert detect_format(path) == expected_format
    transcript = load(path)
    assert transcript.source_format == expected_format
    assert transcript.frozen is True
    assert [item.index for item in transcript.items] == list(range(len(transcript.items)))
    assert load(path, expected_format) == transcript


@pytest.mark.parametrize("name", list(EXPECTED))
def test_corpus_user_prompts_and_compactions(corpus: Path, name: str) -> None:
    session_id, prompts, count, compactions = EXPECTED[name]
    transcript = load(corpus / name)
    users = [m.content for m in transcript.user_messages()]
    assert transcript.session_id == session_id
    assert len(users) == count
    if prompts is not None:
        assert users == prompts
    assert sum(isinstance(i, Compaction) for i in transcript.items) == compactions


@pytest.mark.parametrize("name", list(EXPECTED))
def test_corpus_user_messages_hold_no_injected_context(corpus: Path, name: str) -> None:
    for message in load(corpus / name).user_messages():
        for marker in INJECTED_MARKERS:
            assert marker not in message.content, (name, marker)


@pytest.mark.parametrize("name", list(EXPECTED))
def test_corpus_tool_output_never_reaches_the_conversation(corpus: Path, name: str) -> None:
    transcript = load(corpus / name)
    said = "\n".join(_text(item) for item in transcript.conversation())
    leaked = [chunk for chunk in _tool_output_chunks(corpus / name) if chunk in said]
    assert leaked == []
    assert all(isinstance(i, (Message, Compaction)) for i in transcript.conversation())


def test_claude_compaction_summary_is_history_not_user_words(corpus: Path) -> None:
    transcript = load(corpus / "claude-code/04-v2.0.76-compaction-excerpt.jsonl")
    (compaction,) = [i for i in transcript.items if isinstance(i, Compaction)]
    assert compaction.summary.startswith("This session is being continued from a previous conversation")
    assert all("being continued" not in m.content for m in transcript.user_messages())
    kinds = [type(i).__name__ for i in transcript.conversation()]
    assert kinds == ["Message", "Message", "Compaction", "Message"]


def test_claude_replies_are_grouped_by_message_id(corpus: Path) -> None:
    # 59 assistant lines for 34 message ids, 7 of them with text: 7 replies, thinking dropped.
    transcript = load(corpus / "claude-code/01-v1.0.24-summaries-thinking.jsonl")
    replies = assistant_replies(transcript)
    assert len(replies) == 7
    assert replies[0].content.startswith("I'll add a GitHub Action to run tests and linting")
    assert replies[-1].content.startswith("Perfect! I've successfully updated the GitHub Action")
    assert all("The user is asking about two things" not in r.content for r in replies)
    assert sum(isinstance(i, ToolCall) for i in transcript.items) == 32
    assert sum(isinstance(i, ToolResult) for i in transcript.items) == 32


def test_claude_sidechain_lines_are_excluded(corpus: Path) -> None:
    main = load(corpus / "claude-code/06-v2.1.114-teammates-main.jsonl")
    sub = load(corpus / "claude-code/07-v2.1.114-teammates-subagent.jsonl")
    assert sub.items == ()
    assert all("You are **alice**" not in m.content for m in main.user_messages())
    catalog = load(corpus / "claude-code/08-v2.1.x-schema-catalog.jsonl")
    texts = [m.content for m in catalog.items if isinstance(m, Message)]
    assert "Hello" not in texts and "Partial reply" not in texts and "I'll list files." not in texts


def test_claude_final_reply_after_stop_hooks_is_complete(corpus: Path) -> None:
    # 1.0.x writes no stop_reason on text lines; the stop hooks that follow show the turn ended.
    transcript = load(corpus / "claude-code/02-v1.0.51-system-hooks-bash-mode.jsonl")
    last = [i for i in transcript.items if isinstance(i, Message)][-1]
    assert last.role == "assistant" and last.complete
    assert last.content.startswith("Perfect! Both type checking issues have been resolved")


def test_codex_commentary_dropped_final_answers_kept(corpus: Path) -> None:
    transcript = load(corpus / "codex/04-v0.125.0-tui-two-turns.jsonl")
    replies = assistant_replies(transcript)
    assert [r.content.split("\n")[0] for r in replies] == ["Available tool groups in this session:"]
    assert all("superpowers:brainstorming" not in r.content for r in replies)
    desktop = load(corpus / "codex/03-v0.104.0-desktop-compaction-excerpt.jsonl")
    assert [r.content for r in assistant_replies(desktop)] == [
        "[REDACTED_TEXT len=3093 sha=087a4bc4]", "[REDACTED_TEXT len=1943 sha=b2ae5087]"]


def test_codex_compaction_replacement_history_is_not_repeated(corpus: Path) -> None:
    transcript = load(corpus / "codex/03-v0.104.0-desktop-compaction-excerpt.jsonl")
    kinds = [type(i).__name__ for i in transcript.conversation()]
    assert kinds == ["Message", "Compaction", "Message", "Message", "Message"]
    catalog = load(corpus / "codex/06-v0.146.0-schema-catalog.jsonl")
    assert "List the files" in [m.content for m in catalog.user_messages()]
    assert [r.content for r in assistant_replies(catalog)] == ["Found 2 files."]


def test_codex_tool_calls_are_markers(corpus: Path) -> None:
    transcript = load(corpus / "codex/02-v0.77.0-exec-shell.jsonl")
    assert [i.name for i in transcript.items if isinstance(i, ToolCall)] == ["shell"] * 3
    assert sum(isinstance(i, ToolResult) for i in transcript.items) == 3
    assert assistant_replies(transcript) == ()


def _text(item: Message | Compaction) -> str:
    return item.content if isinstance(item, Message) else item.summary


def _tool_output_chunks(path: Path) -> list[str]:
    """Distinctive lines (40+ characters) of every tool output in a raw session file."""
    outputs: list[str] = []
    with path.open(encoding="utf-8") as fh:
        for raw in fh:
            obj = json.loads(raw)
            if obj.get("type") == "user":
                content = (obj.get("message") or {}).get("content")
                for block in content if isinstance(content, list) else []:
                    if isinstance(block, dict) and block.get("type") == "tool_result":
                        outputs.extend(_strings(block.get("content")))
            payload = obj.get("payload") if isinstance(obj.get("payload"), dict) else obj
            if payload.get("type") in ("function_call_output", "custom_tool_call_output"):
                outputs.extend(_strings(payload.get("output")))
    return [line.strip() for out in outputs for line in out.splitlines() if len(line.strip()) >= 40]


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v)]
    return []
