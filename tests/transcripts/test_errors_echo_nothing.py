"""A reader's error names the file, the line and what is wrong, never a value of the transcript:
a transcript holds whatever was pasted into it, keys included, and errors reach logs and status."""
from __future__ import annotations

import json

import pytest

from chord_git.errors import InputError
from chord_git.transcripts import FORMATS, parse_lines

VALUE = "sk-proj-Zq8Xv3Lm9Tn4Rb7Kc2Wd5Hf1Jg6Ps0Ya" + "T3BlbkFJ" + "Qe4Uo8Ii2Nm6Bv0Cx5Zl"


def _fragments(value: str, size: int = 6) -> set[str]:
    return {value[i:i + size] for i in range(len(value) - size + 1)}


@pytest.mark.parametrize("fmt, lines", [
    ("native", [json.dumps({"type": "message", "role": VALUE, "content": "x"})]),
    ("native", [json.dumps({"type": "session", "id": "first-session"}), json.dumps({"type": "session", "id": VALUE})]),
    ("native", [json.dumps({"type": "session", "id": VALUE}), json.dumps({"type": "session", "id": "second"})]),
    ("openai", [json.dumps({"role": VALUE, "content": "x"})]),
])
def test_errors_never_echo_a_value(fmt: str, lines: list[str]) -> None:
    assert fmt in FORMATS
    with pytest.raises(InputError) as caught:
        parse_lines(lines, fmt, "session.jsonl")
    said = str(caught.value)
    assert said.startswith("session.jsonl:") and not any(part in said for part in _fragments(VALUE)), said
