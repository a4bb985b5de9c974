from __future__ import annotations

import os
from pathlib import Path

import pytest

from chord_git.transcripts import Message, Transcript

REPO = Path(__file__).resolve().parents[2]
DATA = REPO / "tests" / "data" / "transcripts"


def corpus_root() -> Path:
    """The shared format corpus, beside the checkout unless CHORD_TRANSCRIPT_CORPUS says where."""
    override = os.environ.get("CHORD_TRANSCRIPT_CORPUS")
    return Path(override) if override else REPO.parent / "shared" / "corpus" / "transcripts"


@pytest.fixture
def corpus() -> Path:
    root = corpus_root()
    if not (root / "claude-code").is_dir() or not (root / "codex").is_dir():
        pytest.skip(
            f"transcript corpus not found at {root} "
            "(set CHORD_TRANSCRIPT_CORPUS to the folder holding claude-code/ and codex/)"
        )
    return root


@pytest.fixture
def data() -> Path:
    return DATA


def assistant_replies(transcript: Transcript) -> tuple[Message, ...]:
    """The complete assistant replies a reader kept, in order (what extraction may see of them)."""
    return tuple(item for item in transcript.conversation() if isinstance(item, Message) and item.role == "assistant")
