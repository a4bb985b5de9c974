"""Checks over the shared public corpus (skipped when it is not next to the checkout).

The corpus lives outside the repository (``$CHORD_CORPUS`` or ``<repo>/../shared/corpus/secrets``)
so this repository never holds its strings; ``bench/secrets_quality.py`` reports the figures.
"""
from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from chord_git.secrets import find, redact, scan_added_lines

CORPUS = Path(os.environ.get("CHORD_CORPUS") or Path(__file__).resolve().parents[3] / "shared" / "corpus" / "secrets")
FILES = ("gitleaks.jsonl", "detect_secrets.jsonl", "benign_memory.jsonl")


def _rows(name: str) -> list[dict[str, str]]:
    path = CORPUS / name
    if not path.exists():
        pytest.skip(f"corpus not found at {CORPUS}")
    with path.open(encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


@pytest.mark.parametrize("name", FILES)
def test_redacted_corpus_scans_clean_and_keeps_no_value(name: str) -> None:
    for row in _rows(name):
        text = row["text"]
        redacted = redact(text)
        assert find(redacted) == [], row["rule"]
        for finding in find(text):
            assert text[finding.start:finding.end] not in redacted, row["rule"]


def test_benign_memory_lines_raise_nothing_in_either_layer() -> None:
    rows = _rows("benign_memory.jsonl")
    added = {f"m{i}.md": list(enumerate(row["text"].split("\n"), start=1)) for i, row in enumerate(rows)}
    assert scan_added_lines(added) == []
