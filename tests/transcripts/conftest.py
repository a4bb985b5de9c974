from __future__ import annotations

import os
from pathlib import Path

import pytest

from chord_git.transcripts import Message, Transcript
from tests.conftest import shared_corpus

REPO = Path(__file__).resolve().parents[2]
DATA = REPO / "tests" / "data" / "transcripts"


CORPUS_VAR = "CHORD_TRANSCRIPT_CORPUS"


def corpus_root() -> Path:
    """Where the shared format corpus should be (for listing its files at collection time)."""
    override = os.environ.get(CORPUS_VAR)
    return Path(override) if override else REPO.parent / "shared" / "corpus" / "transcripts"


@pytest.fixture
def corpus() -> Path:
    """The shared corpus of real Claude Code and Codex sessions (fails in CI when missing)."""
    return shared_corpus("transcripts", CORPUS_VAR, holds=("claude-code", "codex"))


@pytest.fixture
def data() -> Path:
    return DATA


def assistant_replies(transcript: Transcript) -> tuple[Message, ...]:
    """The complete assistant replies a reader kept, in order (what extraction may see of them)."""
    return tuple(item for item in transcript.conversation() if isinstance(item, Message) and item.role == "assistant")
