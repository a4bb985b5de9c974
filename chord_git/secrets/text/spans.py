"""Where a secret sits in a text: the span every scanner returns, and the one ``find`` reports.

A scanner's ``Span`` carries a rank, so that when spans overlap the driver (``scan._merge``)
names the merged span after the most specific detector; ``SecretSpan`` is what callers of
``find`` get (kind, line and offsets, never the value).
"""
from __future__ import annotations

from typing import NamedTuple

from ...support.dataclass_lazy import dataclass

# Ranks order kinds when spans overlap: lower is more specific.
RANK_KEY_BLOCK, RANK_FORMAT, RANK_URL, RANK_ASSIGNMENT = 0, 1, 2, 3


class Span(NamedTuple):
    start: int
    end: int
    kind: str
    rank: int


@dataclass(frozen=True)
class SecretSpan:
    """Where one secret sits in a text and what kind it is; the value stays in the text."""

    kind: str
    line: int  # 1-based line of ``start``
    start: int  # character offsets into the scanned text
    end: int
    layer: str = "sanitizer"


__all__ = ["RANK_ASSIGNMENT", "RANK_FORMAT", "RANK_KEY_BLOCK", "RANK_URL", "SecretSpan", "Span"]
