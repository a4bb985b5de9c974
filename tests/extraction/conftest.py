from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

# `testing/` (test support, like pre-commit's) sits at the repository root, next to `chord_git/`.
ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from testing.fake_openai import FakeOpenAI  # noqa: E402


@pytest.fixture
def fake_openai() -> Iterator[FakeOpenAI]:
    with FakeOpenAI() as server:
        yield server


@pytest.fixture
def good_output() -> dict[str, Any]:
    """A complete, valid model output object (SPEC "Model output")."""
    return {
        "records": [{
            "type": "preference", "summary": "Use pnpm, never npm, for JS dependencies.",
            "statement": "All JS dependency commands use pnpm.",
            "why": "The lockfile is pnpm's; npm would create a second one.",
            "how_to_apply": "Use pnpm add / pnpm install.",
            "source": "user", "status": "stated",
            "evidence": "this repo only uses pnpm", "supersedes": None,
        }],
        "retire": [{"id": "20261101-old-rule-aa11", "reason": "no longer true"}],
        "promotions": [{"id": None, "target": "docs", "path": "docs/dev.md",
                        "proposed_text": "Use pnpm.", "reason": "rarely needed"}],
    }
