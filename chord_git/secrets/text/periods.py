"""Long periodic stretches, read once: the scan's device for text that repeats a unit many times.

A text that repeats one unit thousands of times (a paste repeated, one log line 5,000 times, the
10 MB single line of the hook bench) hands every rule the same hits again and again: the rules'
own devices settle a word repeated in place (``repeats``), not a unit of 2 KB holding dozens of
different hits. Here the driver settles it: whole periods are cut out of the middle of the
stretch, the rules read the shorter text, and each finding in the period just after the cut
stands for the finding at the same place of every period cut out.

What it promises: the findings are those of reading the whole text. Why that holds:

- Every rule's verdict on a hit reads a bounded neighbourhood of it (the scanners' bounded
  lookups; the farthest is a private key's search for its END line, 64 KiB after BEGIN), and
  ``REACH`` exceeds them all. Both ends of the cut lie more than ``REACH`` (plus the periods the
  check below reads) inside the stretch, so every neighbourhood of the cut text is one of the
  original's, and the one after the cut is also the one at the same place of each period cut out.
- Runs of characters are bounded by the period: the unit must hold a blank (space, tab or line
  end), which ends every token run, encoded run and word, so no rule sees a run whose length is
  the stretch's.
- What the rules carry along a text counts distinct values (the shape verdicts, a line's
  credential dump), and a period adds none; their caches only save work.

And it checks itself on what it read: the findings within ``CHECK`` characters (or two periods)
either side of the cut must repeat exactly with the period (in the order the rules reported
them), so a rule whose state runs along the text with another period shows itself; and no
finding near the cut may be longer than ``LOCAL`` (a finding that long may reach as far as the stretch goes);
otherwise the caller reads the whole text as it is. Everything here is pure.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from .spans import Span

REACH = 1 << 17  # beyond what any rule reads around a hit (a private key's END: 64 KiB after BEGIN)
LOCAL = 1 << 16  # a finding near the cut longer than this may depend on how long the stretch is
CHECK = 1 << 14  # at least this much text either side of the cut must repeat its findings
MIN_CUT = 1 << 18  # a shorter cut saves less than its checks cost
MAX_PERIOD = 1 << 16  # longer units are not looked for
_PROBE = 64  # characters whose next occurrence proposes a period
_CANDIDATES = 32  # occurrences tried per probe
_QUICK = 4096  # characters compared before a proposed period is followed to its stretch's ends
_PROBES = (1 / 2, 1 / 4, 3 / 4)  # where in the text a probe sits
_BLOCK = 1 << 14  # characters compared at once while a stretch is followed
_BLANKS = " \t\n"


def _checked(period: int) -> int:
    """How far either side of a cut the findings must repeat: two periods, or ``CHECK``."""
    return max(CHECK, 2 * period)


class Cut(NamedTuple):
    """``times`` periods of ``period`` characters cut out of a text at ``at``."""

    at: int
    period: int
    times: int

    @property
    def checked(self) -> int:
        """How far either side of the cut the findings must repeat."""
        return _checked(self.period)

    def apply(self, text: str) -> str:
        """``text`` without the periods cut out."""
        return text[:self.at] + text[self.at + self.period * self.times:]


def _forward(text: str, start: int, period: int) -> int:
    """The first ``i >= start`` with ``text[i] != text[i + period]`` (or the last ``i`` there is)."""
    end, size, block = start, len(text), _BLOCK
    while block:
        while end + block + period <= size and text[end:end + block] == text[end + period:end + period + block]:
            end += block
        block >>= 1
    return end


def _backward(text: str, start: int, period: int) -> int:
    """The least ``a <= start`` with ``text[i] == text[i + period]`` for every ``i`` in ``[a, start)``."""
    low, block = start, _BLOCK
    while block:
        while low - block >= 0 and text[low - block:low] == text[low - block + period:low + period]:
            low -= block
        block >>= 1
    return low


def _cut_at(text: str, low: int, high: int, period: int, min_cut: int) -> Cut | None:
    """The cut for the ``period``-periodic stretch ``text[low:high]``, if it is worth one."""
    checked = _checked(period)
    at = low + REACH + checked  # the check reads this much before the cut, and its reach
    times = (high - REACH - checked - at) // period  # and as much after it, and its reach
    if times < 1 or times * period < min_cut:
        return None
    unit = text[at:at + period]
    if not any(blank in unit for blank in _BLANKS):
        return None  # one run of characters as long as the stretch: its length is not local
    return Cut(at, period, times)


def find_cut(text: str, min_cut: int = MIN_CUT) -> Cut | None:
    """Where to cut periods out of ``text``: the first long periodic stretch a probe finds, or None.

    Ordinary text costs a few searches of ``MAX_PERIOD`` characters: the probe's window does not
    come again.
    """
    size = len(text)
    if size < 2 * REACH + min_cut:
        return None
    for fraction in _PROBES:
        probe = int(size * fraction)
        window = text[probe:probe + _PROBE]
        found = probe
        for _ in range(_CANDIDATES):
            found = text.find(window, found + 1, probe + MAX_PERIOD + _PROBE)
            if found < 0:
                break
            period = found - probe
            if text[probe:probe + _QUICK] != text[found:found + _QUICK]:
                continue
            high = _forward(text, probe, period) + period
            low = _backward(text, probe, period)
            if high - low >= 2 * REACH + min_cut:
                cut = _cut_at(text, low, high, period, min_cut)
                if cut is not None:
                    return cut
                break  # a multiple of this period holds no blank either
    return None


def expand(spans: Sequence[Span], cut: Cut) -> list[Span] | None:
    """The spans of the whole text from ``spans``, those of ``cut.apply(text)``; None when they do
    not repeat around the cut as a periodic stretch's must (then read the whole text).

    A span of the period after the cut becomes its copies where it stood in the list: two spans
    at one place come from one place of the shorter text, so they keep the order the rules
    reported them in (``scan._merge`` names a merged span after the first of equal rank).
    """
    at, period, times = cut
    first, last = at - cut.checked, at + cut.checked
    shifted: list[Span] = []  # the findings of the checked stretch but its last period, shifted by one
    kept: list[Span] = []  # and those but its first period
    for span in spans:
        start, end, kind, rank = span
        if end - start > LOCAL and start < last + REACH and end > first - REACH:
            return None
        if first <= start < last:
            if start < last - period:
                shifted.append(Span(start + period, end + period, kind, rank))
            if start >= first + period:
                kept.append(span)
    if shifted != kept:
        return None  # what the rules carried along the text does not repeat with the period
    whole: list[Span] = []
    moved = period * times
    for span in spans:
        start, end, kind, rank = span
        if start < at:
            whole.append(span)
        elif start < at + period:
            whole.extend(Span(start + shift, end + shift, kind, rank) for shift in range(0, moved + 1, period))
        else:
            whole.append(Span(start + moved, end + moved, kind, rank))
    return whole


__all__ = ["CHECK", "LOCAL", "MIN_CUT", "REACH", "Cut", "expand", "find_cut"]
