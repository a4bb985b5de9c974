"""A text that repeats a unit is read with whole periods cut out (``secrets.text.periods``): the
findings are those of reading every character, and the rules read a text of bounded length."""
from __future__ import annotations

import random
from pathlib import Path

from chord_git.secrets import find, redact, scan
from chord_git.secrets.text import periods
from chord_git.secrets.text.normalize import normalize
from chord_git.secrets.text.spans import Span
from testing import adversarial, credential_forms
from testing.periodic_texts import both_readings, merge_order, periodic, repeated

DATA = Path(__file__).resolve().parent.parent / "data" / "secrets"
_TOKEN = "".join(("Zq8Xv", "L2mK9", "pT4wR", "7nB3c", "Y6hJ"))  # built here: no literal token in the tree


def _deploy_line(size: int) -> str:
    """The hook bench's long line: a 2 KB unit of deploy notes with a token, repeated."""
    prose = "the deploy key rotates weekly, see https://example.com/a?b=c and the runbook; " * 25
    return ((f"note: token={_TOKEN} then commit 3f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c4d3e2f1a " + prose) * (size // 2000 + 1))[:size]


def test_a_long_periodic_line_is_read_once_with_every_finding() -> None:
    text = "# Project memory\n\n" + _deploy_line(1_200_000) + "\n"
    cut = periods.find_cut(text)
    assert cut is not None
    assert cut.period == len(_deploy_line(4000).split("note:")[1]) + len("note:")
    # What the rules read is bounded by the reach and the check, not by the text's length.
    assert len(cut.apply(text)) <= 2 * (periods.REACH + cut.checked) + 3 * cut.period + 20
    cut_spans, whole = both_readings(text, periods.MIN_CUT)
    assert cut_spans is not None and merge_order(cut_spans) == merge_order(whole)
    found = find(text)
    assert len(found) == text.count(_TOKEN) == len(scan._merge(whole))
    assert redact(text).count(_TOKEN) == 0


def _pool() -> list[str]:
    pool = [form.text for form in credential_forms.all_forms()]
    pool += adversarial.UNITS
    for path in sorted(DATA.glob("*.txt")):
        pool += [line for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    return [text for text in pool if text]


def test_periodic_texts_find_what_reading_every_character_finds() -> None:
    """Units of credential forms, adversarial units and test data, joined by blanks, line ends,
    punctuation or invisible characters, between other pieces (``bench/periodic_check.py`` runs
    thousands of these over the public corpora). A unit without a blank, or findings the check
    refuses, are read whole: most are cut."""
    pool = _pool()
    cut_texts = 0
    for seed in range(24):
        cut, whole = both_readings(periodic(random.Random(seed), pool))
        if cut is not None:
            cut_texts += 1
            assert merge_order(cut) == merge_order(whole), seed
    assert cut_texts >= 20


def test_a_unit_without_a_blank_is_not_cut() -> None:
    """One run of characters as long as the stretch: a rule may read its length."""
    text = repeated("ab" * 20 + "=")
    assert periods.find_cut(text, 1) is None


def test_ordinary_text_is_not_cut() -> None:
    rng = random.Random(5)
    words = (DATA / "talk.txt").read_text(encoding="utf-8").split()
    text = " ".join(rng.choice(words) for _ in range(150_000))
    assert len(text) > 2 * periods.REACH + periods.MIN_CUT
    assert periods.find_cut(text) is None


def test_a_long_finding_near_the_cut_reads_the_whole_text() -> None:
    """A line holding 64 distinct credentials is a credential dump to its end: a finding that
    reaches as far as the stretch goes, so the cut is refused and the whole text read."""
    pairs = " ".join(f"API_KEY_{n}=Qz{n:03d}x8Lm2Vb7Rt5Wk9Hs4Jd" for n in range(70))
    text = repeated(pairs + " ")
    norm = normalize(text)
    cut = periods.find_cut(norm.text, 1)
    assert cut is not None
    short = scan._raw_spans(cut.apply(norm.text), cut.apply(norm.view), 0)
    assert any(span.kind == "credential-dump" for span in short)
    assert periods.expand(short, cut) is None
    assert scan._periodic_spans(norm.text, norm.view, 1) is None


def test_findings_with_another_period_refuse_the_cut() -> None:
    """A rule whose state ran along the text with its own period (one finding every 14 periods)
    shows itself in the checked stretch: the cut is refused, whatever three periods show."""
    cut = periods.Cut(at=200_000, period=30, times=1000)
    every_14 = [Span(p, p + 10, "password-in-command", 3) for p in range(120_000, 280_000, 14 * 30)]
    assert periods.expand(every_14, cut) is None
    every_period = [Span(p, p + 10, "password-in-command", 3) for p in range(120_000, 280_000, 30)]
    assert periods.expand(every_period, cut) is not None


def test_copies_keep_the_order_of_equal_spans() -> None:
    """``scan._merge`` names a merged span after the first of equal rank: the copies of two
    spans at one place keep the order the rules reported them in."""
    cut = periods.Cut(at=200_000, period=100, times=3)
    spans = []
    for start in range(200_000 - periods.CHECK - 100, 200_000 + periods.CHECK + 100, 100):
        spans.append(Span(start + 5, start + 15, "first", 3))
        spans.append(Span(start + 5, start + 12, "second", 3))
    expanded = periods.expand(spans, cut)
    assert expanded is not None
    at_place: dict[int, list[str]] = {}
    for span in merge_order(expanded):
        at_place.setdefault(span.start, []).append(span.kind)
    assert all(kinds == ["first", "second"] for kinds in at_place.values())
    assert len(expanded) == len(spans) + 2 * cut.times
