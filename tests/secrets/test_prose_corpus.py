"""The project's own prose corpora (tests/data/secrets): credentials as people write them, and talk.

Every line of the dev split is a case here; the held-out split is only checked against the
goals in aggregate (recall >= 0.95, false positives <= 5%), so that no rule is fitted to it line
by line. ``bench/secrets_quality.py --prose`` prints the figures for both splits.
"""
from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from chord_git.secrets import find, redact, scan_added_lines
from chord_git.secrets.words.patterns import TEXT_FORMATS, TOKEN_FORMATS
from testing.secret_corpus import CORPUS_DIR, FILES, Example, load_all
from tests.conftest import venv_tool

EXAMPLES = load_all()
DEV = [e for e in EXAMPLES if e.split == "dev"]
HELD_OUT = [e for e in EXAMPLES if e.split == "test"]
TOKEN_KINDS = {f.kind for f in TOKEN_FORMATS} | {f.kind for f in TEXT_FORMATS} | {"private-key"}


def _id(example: Example) -> str:
    return f"{example.file.split('.')[0]}:{example.lineno}"


def _both_layers_flag(examples: list[Example]) -> set[int]:
    added = {f"e{i}.md": list(enumerate(e.text.split("\n"), start=1)) for i, e in enumerate(examples)}
    return {int(hit.path[1:-3]) for hit in scan_added_lines(added)}


def test_the_corpora_are_large_and_cover_three_languages() -> None:
    secrets = [e for e in EXAMPLES if e.label == "secret"]
    talk = [e for e in EXAMPLES if e.label == "benign"]
    assert len(secrets) >= 200 and len(talk) >= 200
    for group in (secrets, talk):
        langs = {e.lang for e in group}
        assert {"en", "zh", "ja"} <= langs, langs
        assert sum(e.lang == "zh" for e in group) >= 40
    assert 0.2 < len(HELD_OUT) / len(EXAMPLES) < 0.4


@pytest.mark.parametrize("example", [e for e in DEV if e.label == "secret"], ids=_id)
def test_dev_credential_is_found_and_redacted(example: Example) -> None:
    findings = find(example.text)
    assert findings, example.template
    redacted = redact(example.text)
    assert find(redacted) == [], redacted
    for finding in findings:
        assert example.text[finding.start:finding.end] not in redacted


@pytest.mark.parametrize("example", [e for e in DEV if e.label == "benign"], ids=_id)
def test_dev_talk_line_is_left_alone(example: Example) -> None:
    assert find(example.text) == [], [(f.kind, example.text[f.start:f.end]) for f in find(example.text)]
    assert redact(example.text) == example.text


def test_dev_split_through_both_layers() -> None:
    flagged = _both_layers_flag(DEV)
    missed = [e.template for i, e in enumerate(DEV) if e.label == "secret" and i not in flagged]
    false = [e.template for i, e in enumerate(DEV) if e.label == "benign" and i in flagged]
    assert missed == [] and false == []


def test_held_out_split_meets_the_goals() -> None:
    flagged = _both_layers_flag(HELD_OUT)
    secrets = [i for i, e in enumerate(HELD_OUT) if e.label == "secret"]
    talk = [i for i, e in enumerate(HELD_OUT) if e.label == "benign"]
    recall = sum(i in flagged for i in secrets) / len(secrets)
    false_positives = sum(i in flagged for i in talk) / len(talk)
    assert recall >= 0.95 and false_positives <= 0.05, (recall, false_positives)


@pytest.mark.parametrize("name", list(FILES))
def test_corpus_files_hold_no_token_shaped_value(name: str) -> None:
    """Generated values are placeholders: the files as committed contain no vendor token."""
    raw = (CORPUS_DIR / name).read_text(encoding="utf-8")
    assert [f.kind for f in find(raw) if f.kind in TOKEN_KINDS] == []


def test_corpus_files_scan_clean_for_detect_secrets_token_plugins(tmp_path: Path) -> None:
    """detect-secrets finds at most typed passwords (keyword plugin) in the committed files."""
    exe = venv_tool("detect-secrets")
    for name in FILES:
        shutil.copy(CORPUS_DIR / name, tmp_path / name)
    out = subprocess.run([exe, "scan", *FILES], cwd=tmp_path, check=True, capture_output=True, text=True).stdout
    types = {r["type"] for results in json.loads(out)["results"].values() for r in results}
    assert types <= {"Secret Keyword", "Basic Auth Credentials"}, types
