"""One verdict per shape in text dense with credentials: cost per finding, not per value.

A rule judges each distinct value through its whole chain of tests: about 30 µs for a new random
value, where ordinary text costs a few µs per line. A pasted env dump or a run of assignments
holds thousands of distinct values of a handful of shapes, and that chain, run for each of them,
made such text 7-25 times as slow as ordinary text of the same size.

So once one scan has judged ``DENSE_AFTER`` distinct values for one rule, a value whose shape
matches one that rule already called a credential, in the same context (its key's strength and
word, or its label's class), takes that verdict without the chain. The shape is what a
generated value's verdict turns on: its length, which character classes it mixes, exactly which
symbols it holds and how many distinct characters it has (by fours). A value with a stand-in word
(``example``, ``changeme``, ``xxxx``…) anywhere inside it, or without a digit (words and names),
is always judged in full. Only credential verdicts are shared: a value is never let through because a
look-alike was; at worst a value shaped exactly like a credential found in the same scan is
reported too. Ordinary text never reaches the threshold (it holds a few assigned values, not
hundreds), so its findings are the chain's.
"""
from __future__ import annotations

import string
from collections.abc import Hashable
from functools import lru_cache

from ...support.regex_lazy import lazy
from .shapes import VERDICTS, has_stand_in_word

DENSE_AFTER = 256  # distinct values judged in full by one rule in one scan before shapes count
_MAX_SHAPE_LENGTH = 256  # longer values are rare and judged in full
_LOWER = lazy(r"[a-z]")
_UPPER = lazy(r"[A-Z]")
_DIGIT = lazy(r"[0-9]")
_NOT_HEX = lazy(r"[^0-9a-fA-F]")
_ALNUM = frozenset(string.ascii_letters + string.digits)


@lru_cache(maxsize=VERDICTS)  # the assignment rule and the label rule both ask for the same values
def shape(value: str) -> tuple[object, ...] | None:
    """The shape a generated value's verdict turns on, or None when the value must be judged in
    full (a stand-in word inside, no digit, too long)."""
    if len(value) > _MAX_SHAPE_LENGTH or _DIGIT.search(value) is None:
        return None  # letters only: words and names, whose verdicts read more than a shape
    if has_stand_in_word(value.lower()):
        return None
    chars = set(value)
    return (len(value), _LOWER.search(value) is not None, _UPPER.search(value) is not None,
            _NOT_HEX.search(value) is None, "".join(sorted(chars - _ALNUM)), len(chars) // 4)


class ShapeVerdicts:
    """One rule's shared verdicts for one scan (see the module's text)."""

    def __init__(self, after: int = DENSE_AFTER) -> None:
        self.after = after
        self.judged = 0
        self.credentials: set[tuple[Hashable, tuple[object, ...]]] = set()

    def known(self, value: str, context: Hashable) -> bool:
        """True when ``value`` takes a credential verdict from its shape; False: judge it in full
        (then ``remember`` the verdict)."""
        if self.judged < self.after or not self.credentials:
            return False
        found = shape(value)
        return found is not None and (context, found) in self.credentials

    def remember(self, value: str, context: Hashable, verdict: bool) -> None:
        self.judged += 1
        if verdict:
            found = shape(value)
            if found is not None:
                self.credentials.add((context, found))


__all__ = ["DENSE_AFTER", "ShapeVerdicts", "shape"]
