"""Runs of repeated hits, settled by their first hit: the detectors' one speed device for dense text.

Dense text (a word pasted a thousand times: ``key key …``, ``密码密码…``, ``&key=a1&key=a1…``)
hands a detector thousands of hits that each read the same characters, shifted. Two devices,
both here, let it pay for one hit and a comparison per repeat instead of its rule per hit:

- ``Runs``: a detector walks its hits in order and, after each one, calls ``Runs.after``.
  When the next hits step by the same distance ``d`` at least ``MIN_RUN + 1`` times in a row and
  the text they read repeats every ``d`` characters, the call reports the first hit's finding
  shifted onto each of them and returns the index after the run, so the detector resumes there.
- ``WindowVerdicts``: a rule's verdict per window of the text, for repeats that are not a run.

What ``Runs`` promises: the findings are exactly those of reading every hit in turn. Why that
holds: each detector declares a ``Reach``, the characters its verdict on one hit reads (from
``before`` characters before the hit's start to ``after`` plus ``after_per_step`` times the
step after its end); the bound is derived from the detector's patterns and written next to its
declaration. The verdict on a hit is a function of those characters and of the hit itself (its
width and the other fields of its tuple, which a run's hits share). When the text from the
first hit's reach to the last one's equals itself shifted by ``d``, and neither end of the text
cuts a reach, every hit of the run reads the first hit's characters shifted by a multiple of
``d``: the same verdict, shifted. The next hit starts after where the first let scanning resume
(``done``), so each hit of the run is read as the first was. A run that fails the test is not
walked again from each of its hits, and text with no run at all (ordinary prose) is told apart
by one pass of C loops over the steps, so the device costs ordinary text one call per hit.

Everything here is pure and per scan: nothing outlives the text it was built for.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from operator import eq, itemgetter, sub
from typing import Any, Literal, NamedTuple

from .spans import Span

MIN_RUN = 8  # hits a run needs after its first before its text is compared (a comparison reads ~800 characters)


class Reach(NamedTuple):
    """The characters a detector's verdict on one hit reads, around the hit."""

    before: int  # characters before the hit's start (no run is looked for closer to the text's start)
    after: int  # characters after the hit's end ...
    after_per_step: int = 0  # ... plus this many times the run's step
    # A period in which the bound above does not hold (the detector says why): no run then.
    refuses: Callable[[str, int, int, int, int], bool] | None = None  # (view, low, high, start, step)
    # The detector sets ``done`` at every hit it reads (not only when the hit finds something),
    # so ``done`` moves with the run even when the first hit found nothing.
    every_hit_sets_done: bool = False


def _shifted(span: Span | None, step: int, repeats: int) -> list[Span]:
    """``span`` shifted by ``step``, ``2 * step``… ``repeats`` times (none without a span)."""
    if span is None:
        return []
    first, stop, kind, rank = span
    return [Span(first + shift, stop + shift, kind, rank) for shift in range(step, (repeats + 1) * step, step)]


def _may_repeat(starts: Sequence[Any], pairs: int, start: Callable[[Any], int] | None) -> bool:
    """Do ``starts`` (positions, or tuples whose ``start`` is their position) step by the same
    distance ``pairs + 1`` times in a row anywhere?

    Ordinary text has no such steps, and its per-hit run test is then skipped after one pass of
    C loops over the steps instead of a call per hit. Dense text repeats from its first hits:
    their run is found before the pass over all of them."""
    for part in (starts[:8 * pairs], starts):
        positions = list(part) if start is None else list(map(start, part))
        steps = list(map(sub, positions[1:], positions))
        if b"\x01" * pairs in bytes(map(eq, steps[1:], steps)):
            return True
        if len(part) == len(starts):
            break
    return False


class Runs:
    """The runs among one detector's hits in one text.

    ``hits`` are sorted positions, or tuples ``(start, end, *what)`` sorted by start, whose
    ``what`` (with the width) decides the verdict together with the characters of the reach.
    ``view`` is the text's ASCII view (same offsets), which ``reach.refuses`` reads.
    """

    __slots__ = ("_count", "_hits", "_reach", "_retry", "_text", "_tuples", "_view")

    def __init__(self, text: str, view: str, hits: Sequence[Any], reach: Reach) -> None:
        self._text, self._view, self._hits, self._reach = text, view, hits, reach
        self._count = len(hits)
        self._tuples = bool(hits) and not isinstance(hits[0], int)
        start = itemgetter(0) if self._tuples else None
        # The index from which a run is looked for; without a run anywhere, never.
        self._retry = 0 if _may_repeat(hits, MIN_RUN, start) else self._count

    def after(self, index: int, span: Span | None, done: int, found: list[Span]) -> tuple[int, int]:
        """After ``hits[index - 1]``, which found ``span`` (or nothing) and let scanning resume
        at ``done``: the index to resume at and ``done``, past the run that follows that hit
        when there is one (its findings, ``span`` shifted, are added to ``found``)."""
        if not self._retry <= index < self._count:
            return index, done
        hits, reach = self._hits, self._reach
        if self._tuples:
            first = hits[index - 1]
            start, end, what = first[0], first[1], first[2:]
            step = hits[index][0] - start
        else:
            start = end = hits[index - 1]
            step = hits[index] - start
        if step <= 0 or start < reach.before or start + step < done:
            self._retry = index
            return index, done
        after = reach.after + reach.after_per_step * step
        limit = len(self._text) - after
        last, count = index - 1, self._count
        if self._tuples:
            width = end - start
            while last + 1 < count:
                nxt = hits[last + 1]
                if nxt[0] != hits[last][0] + step or nxt[1] - nxt[0] != width or nxt[1] > limit or nxt[2:] != what:
                    break
                last += 1
            high = hits[last][1] + after
        else:
            while last + 1 < count and hits[last + 1] - hits[last] == step and hits[last + 1] <= limit:
                last += 1
            high = hits[last] + after
        self._retry = last + 1
        if last - index < MIN_RUN:
            return index, done
        low, text = start - reach.before, self._text
        if (reach.refuses is not None and reach.refuses(self._view, low, high, start, step)) \
                or text[low + step:high] != text[low:high - step]:
            return index, done
        repeats = last + 1 - index
        found.extend(_shifted(span, step, repeats))
        if span is not None or reach.every_hit_sets_done:
            done += repeats * step
        return last + 1, done


_WINDOWS = 4096  # windows whose verdict a scan remembers
# A lookup slices and hashes its window (a line, up to ~800 characters on a long line), which
# costs as much as a cheap rule's verdict: on text whose windows never repeat (notes with their
# own values, a 10 MB line of them: a quarter of ``prose.scan``) the memo is pure cost. After
# ``_PROBES`` lookups in a row that all missed, the next ``_REST`` windows are read without it;
# then it is tried again. A verdict is the same either way (the memo only remembers the rule's
# own answer), so this changes no finding; dense text keeps its hits (a repeat within the probes
# resets the count), and a stretch read without the memo costs what the rule costs, bounded.
_PROBES = 64
_REST = 1024


class WindowVerdicts:
    """A rule's verdict per window of the text (a label's or an account word's bounded line and
    the character before it: the only characters the rule reads), relative to the window.

    Dense text repeats its windows, so a repeat costs a slice and a lookup instead of the rule;
    a run of the same word (``密码密码…``, ``key key …``) repeats the window of the one before,
    which a comparison in place settles without even the slice.
    """

    def __init__(self, text: str) -> None:
        self.text = text
        self._verdicts: dict[tuple[str, object], tuple[int, int, str, int] | None] = {}
        self._window = ""
        self._where: object = None
        self._last: tuple[int, int, str, int] | None = None
        self._misses = 0  # lookups in a row that missed
        self._resting = 0  # windows still to read without the memo
        self._asked = False  # the last window asked about was sliced, so ``remember`` keeps it

    def verdict(self, base: int, end: int, where: object) -> Span | None | Literal[False]:
        """The verdict for ``text[base:end]`` (``where``: what sits where in it) placed at
        ``base``, or False when it is not known yet (then ``remember`` it)."""
        if not (where == self._where and end - base == len(self._window)
                and self.text.startswith(self._window, base, end)):
            if self._resting:
                self._resting -= 1
                self._asked = False
                return False
            self._window, self._where = self.text[base:end], where
            last = self._verdicts.get((self._window, where), False)
            if last is False:
                self._asked = True
                self._misses += 1
                if self._misses >= _PROBES:
                    self._misses, self._resting = 0, _REST
                return False
            self._misses = 0
            self._last = last  # type: ignore[assignment]  # not False: a verdict
        last = self._last
        return None if last is None else Span(last[0] + base, last[1] + base, last[2], last[3])

    def remember(self, base: int, span: Span | None) -> Span | None:
        """The verdict for the window last asked about, which starts at ``base``."""
        if not self._asked:
            return span  # read while the memo rests: nothing sliced to keep
        self._asked = False
        if len(self._verdicts) >= _WINDOWS:
            self._verdicts.clear()
        self._last = self._verdicts[(self._window, self._where)] = \
            None if span is None else (span.start - base, span.end - base, span.kind, span.rank)
        return span


__all__ = ["MIN_RUN", "Reach", "Runs", "WindowVerdicts"]
