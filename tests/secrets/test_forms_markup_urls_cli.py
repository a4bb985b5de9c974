"""Credentials in markup, links, command lines and continued lines (``forms_markup_urls_cli_data``).

Every positive of the dev and both held-out sets is redacted (the value gone, what precedes it
kept), and no hard negative beside them is reported. The rebuilt-text helper (``Stitched``) maps
spans back exactly.
"""
from __future__ import annotations

import pytest

from chord_git.secrets import find, redact
from chord_git.secrets.scanners.stitched import Stitched
from chord_git.secrets.text.spans import Span

from .forms_markup_urls_cli_data import DEV, HELDOUT, HELDOUT_B, NEGATIVES, NEGATIVES_B, Case, cases, negatives

POSITIVES = [*cases(DEV, "dev"), *cases(HELDOUT, "heldout"), *cases(HELDOUT_B, "heldoutB")]
HARD_NEGATIVES = [*negatives(NEGATIVES), *negatives(NEGATIVES_B)]


def _pieces(case: Case) -> list[str]:
    """The value as written: whole, or its two halves when written as two literals."""
    return [case.value] if case.value in case.text else [case.value[:20], case.value[20:]]


@pytest.mark.parametrize("case", POSITIVES, ids=lambda c: c.text[:60])
def test_the_value_is_redacted_and_its_label_kept(case: Case) -> None:
    redacted = redact(case.text)
    pieces = _pieces(case)
    assert all(piece not in redacted for piece in pieces), redacted
    before = case.text[:case.text.index(pieces[0])]
    # The words before the value are kept; a vendor format may take its whole URL or word.
    kept = before[:max(before.rfind(" "), before.rfind("\n")) + 1]
    assert redacted.startswith(kept), redacted


@pytest.mark.parametrize("case", HARD_NEGATIVES, ids=lambda c: c.text[:60])
def test_the_same_shape_without_a_secret_is_left_alone(case: Case) -> None:
    assert find(case.text) == []


def test_each_class_has_positives_and_negatives_in_every_set() -> None:
    for table in (DEV, HELDOUT, HELDOUT_B, NEGATIVES, NEGATIVES_B):
        assert set(table) == {"markup", "url", "cli", "continuation"}


@pytest.mark.parametrize("text, kept", [
    ('<add key="ApiKey" value="aZ3kQ9mW2xR7tY5uP1sD8fG4"/>', '<add key="ApiKey" value="[REDACTED:'),
    ('<entry key="password">Winter2024!</entry>', '<entry key="password">[REDACTED:password-assignment]</entry>'),
    ("type <kbd>Winter2024!</kbd> as the password", "type <kbd>[REDACTED:password-in-text]</kbd> as the password"),
    ("https://example.com/login?pass=Summer#2023 now", "https://example.com/login?pass=[REDACTED:token-in-url] now"),
    ("export API_TOKEN=\\\n  aZ3kQ9mW2xR7tY5uP1sD8fG4hJ6k", "export API_TOKEN=\\\n  [REDACTED:"),
    ("export API_TOKEN=\\\r\n  aZ3kQ9mW2xR7tY5uP1sD8fG4hJ6k\r\n", "export API_TOKEN=\\\r\n  [REDACTED:"),
])
def test_redaction_keeps_the_markup_and_the_key(text: str, kept: str) -> None:
    assert redact(text).startswith(kept)


def test_adjacent_literals_are_redacted_as_one_span_over_both_halves() -> None:
    text = 'token = "aZ3kQ9mW2xR7tY5u" "P1sD8fG4hJ6kL0zX"\nnext = 1'
    redacted = redact(text)
    assert redacted.startswith('token = "[REDACTED:') and redacted.endswith('"\nnext = 1')


@pytest.mark.parametrize("text", [
    "RUN apt-get update && \\\n    apt-get install -y ca-certificates",  # continues a command
    'say("Your token " "has expired")',  # words joined into a sentence
    '<input type="password" value="">',
    "https://example.com/login?pass=x#section-password-reset",
])
def test_continuations_and_markup_that_hold_no_value(text: str) -> None:
    assert find(text) == []


def test_stitched_maps_spans_back_over_copied_pieces() -> None:
    source = 'k = "abcd" + "efgh";'
    stitched = Stitched(source)
    stitched.copy(0, 5)
    stitched.copy(5, 9)
    stitched.copy(14, 18)
    stitched.insert('"')
    assert stitched.text == 'k = "abcdefgh"'
    assert stitched.original(Span(5, 13, "k", 3)) == Span(5, 18, "k", 3)
    assert stitched.original(Span(7, 11, "k", 3)) == Span(7, 16, "k", 3)
    assert stitched.original(Span(13, 14, "k", 3)) is None  # inserted characters only
