"""Odd values anywhere in a line end in a transcript or an InputError, never a crash."""
from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from chord_git.errors import InputError
from chord_git.transcripts import FORMATS, Transcript, parse_lines

KEYS = ["type", "role", "content", "message", "payload", "id", "sessionId", "uuid", "text", "name",
        "isSidechain", "isMeta", "isCompactSummary", "stop_reason", "phase", "kind", "source",
        "summary", "frozen", "complete", "tool_calls", "function", "attachment", "prompt",
        "commandMode", "origin", "record_type", "timestamp", "replacement_history",
        "supersedesUuids", "retractedMessageUuids", "toolUseResult"]
WORDS = ["user", "assistant", "system", "tool", "message", "session", "text", "tool_use",
         "tool_result", "event_msg", "response_item", "user_message", "compacted", "session_meta",
         "queued_command", "commentary", "function_call", "subagent", "output_text", "end_turn"]

scalars = st.one_of(st.none(), st.booleans(), st.integers(), st.sampled_from(WORDS), st.just(""))
values = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.dictionaries(st.sampled_from(KEYS), inner, max_size=5),
    ),
    max_leaves=8,
)
objects = st.dictionaries(st.sampled_from(KEYS), values, min_size=1, max_size=5)
lines = st.lists(objects, min_size=1, max_size=5)


@settings(max_examples=150, deadline=None)
@given(lines, st.sampled_from(("auto", *FORMATS)))
def test_readers_never_crash(objects: list[dict[str, Any]], fmt: str) -> None:
    try:
        result = parse_lines([json.dumps(o) for o in objects], fmt)
    except InputError as exc:
        assert exc.line is None or exc.line >= 1
    else:
        assert isinstance(result, Transcript)
        assert [i.index for i in result.items] == list(range(len(result.items)))
