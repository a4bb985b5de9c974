"""Checks over the shared public corpus (``$CHORD_CORPUS`` or ``<repo>/../shared/corpus/secrets``).

Missing, it skips these tests on a developer's machine and fails them in CI (``tests.conftest.
shared_corpus``); ``bench/secrets_quality.py`` reports the figures.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from chord_git.secrets import find, redact, scan_added_lines
from tests.conftest import SUITE_CI, shared_corpus

FILES = ("gitleaks.jsonl", "detect_secrets.jsonl", "benign_memory.jsonl")


def _rows(name: str) -> list[dict[str, str]]:
    path = shared_corpus("secrets", "CHORD_CORPUS", holds=FILES) / name
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


def test_a_missing_corpus_fails_in_ci_and_skips_elsewhere(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CHORD_CORPUS", str(tmp_path / "absent"))
    monkeypatch.setenv(SUITE_CI, "true")
    with pytest.raises(pytest.fail.Exception, match="CI runs every test"):
        shared_corpus("secrets", "CHORD_CORPUS", holds=FILES)
    monkeypatch.delenv(SUITE_CI)
    with pytest.raises(pytest.skip.Exception, match="shared corpus not found"):
        shared_corpus("secrets", "CHORD_CORPUS", holds=FILES)


def test_a_corpus_folder_missing_a_file_says_which(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "corpus" / "secrets"
    folder.mkdir(parents=True)
    (folder / "gitleaks.jsonl").write_text("")
    monkeypatch.setenv("CHORD_CORPUS", str(folder))
    monkeypatch.delenv(SUITE_CI, raising=False)
    with pytest.raises(pytest.skip.Exception) as missing:
        shared_corpus("secrets", "CHORD_CORPUS", holds=FILES)
    assert str(missing.value) == (f"shared corpus at {folder} lacks detect_secrets.jsonl, benign_memory.jsonl "
                                  "(CHORD_CORPUS names the …/corpus/secrets folder holding gitleaks.jsonl, "
                                  "detect_secrets.jsonl, benign_memory.jsonl)")


def test_the_corpus_parent_is_refused_with_the_folder_to_name(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "corpus" / "secrets"
    folder.mkdir(parents=True)
    for name in FILES:
        (folder / name).write_text("")
    monkeypatch.setenv("CHORD_CORPUS", str(folder.parent))
    monkeypatch.setenv(SUITE_CI, "true")
    with pytest.raises(pytest.fail.Exception) as wrong:
        shared_corpus("secrets", "CHORD_CORPUS", holds=FILES)
    assert str(wrong.value).startswith(f"shared corpus at {folder.parent} lacks gitleaks.jsonl, detect_secrets.jsonl, "
                                       f"benign_memory.jsonl: CHORD_CORPUS names the …/corpus/secrets folder itself "
                                       f"(set CHORD_CORPUS={folder})")
    monkeypatch.setenv("CHORD_CORPUS", str(folder))
    assert shared_corpus("secrets", "CHORD_CORPUS", holds=FILES) == folder
