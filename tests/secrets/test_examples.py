"""Documentation examples are benign by exact value, in both layers; a real key of their shape is not."""
from __future__ import annotations

import pytest

from chord_git.secrets import find, scan_added_lines
from chord_git.secrets.verdicts.examples import DOCUMENTATION_EXAMPLES, is_documentation_example
from testing.secret_corpus import DOC_EXAMPLES

LINES = {
    "aws_id": "aws_access_key_id = {}",
    "aws_pair": "aws_secret_access_key = {}",
    "jwtio": "Authorization: Bearer {}",
    "telegram": "TELEGRAM_BOT_TOKEN={}",
    "stripe_test": 'stripe.api_key = "{}"',
}


def _near_miss(value: str) -> str:
    """The same shape, one character changed: no longer the published example."""
    i = len(value) // 2
    while not value[i].isalnum() or value[i] in "0O":
        i += 1
    return value[:i] + ("7" if value[i].isalpha() else "Q") + value[i + 1:]


@pytest.mark.parametrize("name", sorted(LINES))
def test_published_example_is_not_a_finding(name: str) -> None:
    line = LINES[name].format(DOC_EXAMPLES[name])
    assert is_documentation_example(DOC_EXAMPLES[name])
    assert find(line) == []
    assert scan_added_lines({"MEMORY.md": [(1, line)]}) == []


@pytest.mark.parametrize("name", ["jwtio", "telegram", "stripe_test"])
def test_a_key_of_the_same_shape_is_still_found(name: str) -> None:
    line = LINES[name].format(_near_miss(DOC_EXAMPLES[name]))
    assert not is_documentation_example(_near_miss(DOC_EXAMPLES[name]))
    assert scan_added_lines({"MEMORY.md": [(1, line)]}) != []


def test_examples_are_listed_by_digest_with_a_source() -> None:
    assert len({e.sha256 for e in DOCUMENTATION_EXAMPLES}) == len(DOCUMENTATION_EXAMPLES)
    assert all(e.source.startswith("https://") and e.what and "…" in e.looks_like for e in DOCUMENTATION_EXAMPLES)
    assert is_documentation_example(f'"{DOC_EXAMPLES["jwtio"]}"')  # quotes around it are ignored
