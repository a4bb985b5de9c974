"""Texts that repeat a unit long enough for the scan to cut periods out (``secrets.text.periods``).

Shared by ``tests/secrets/test_periodic_text.py`` and ``bench/periodic_check.py``: each text is a
lead, one unit repeated, and a tail, where the unit is one or a few pieces from a pool (corpus
rows, credential forms, adversarial units) joined by a blank, a line end or punctuation.
"""
from __future__ import annotations

import random
from collections.abc import Sequence

from chord_git.secrets import scan
from chord_git.secrets.text import periods
from chord_git.secrets.text.normalize import normalize
from chord_git.secrets.text.spans import Span

SEPARATORS = (" ", "\n", "; ", " | ", "\n\n", ", ", "\t", "\u200b ")


def repeated(unit: str, lead: str = "", tail: str = "", min_cut: int = 1) -> str:
    """``unit`` repeated past what a cut of ``min_cut`` needs, between ``lead`` and ``tail``."""
    reach = periods.REACH + max(periods.CHECK, 2 * len(unit))
    repeats = (2 * reach + min_cut + 4 * len(unit) + 4096) // len(unit) + 1
    return lead + unit * repeats + tail


def periodic(rng: random.Random, pool: Sequence[str]) -> str:
    """A lead, a unit of one to three pieces of ``pool`` repeated, a tail."""
    pieces = [rng.choice(pool)[:6000] for _ in range(rng.choice((1, 1, 2, 3)))]
    unit = rng.choice(SEPARATORS).join(pieces) + rng.choice(SEPARATORS)
    lead = rng.choice(pool)[:3000] + rng.choice(("", "\n", " "))
    return repeated(unit, lead, rng.choice(pool)[:3000])


def merge_order(spans: Sequence[Span]) -> list[Span]:
    """What ``scan._merge`` reads: spans by place and rank, equal ones in the order reported."""
    return sorted(spans, key=lambda span: (span.start, span.rank))


def both_readings(text: str, min_cut: int = 1) -> tuple[list[Span] | None, list[Span]]:
    """The spans of ``text`` read with a cut (None: not cut) and read whole, in the normalized
    text's offsets."""
    norm = normalize(text)
    return scan._periodic_spans(norm.text, norm.view, min_cut), scan._raw_spans(norm.text, norm.view, 0)


__all__ = ["SEPARATORS", "both_readings", "merge_order", "periodic", "repeated"]
