"""Runs of hits that repeat a text's period: settled by their first hit (R31).

Dense text (a word pasted a thousand times, ``key key …``, ``密码密码…``) gives a detector a run
of hits that each read the same characters, shifted; these helpers let the first hit of such a
run decide for all of them, so dense text costs a comparison per hit instead of a rule.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from operator import eq, sub
from typing import Any, Literal

from .reader import LINE
from .spans import Span


def repeated(span: Span | None, step: int, repeats: int) -> list[Span]:
    """``span`` shifted by ``step``, ``2 * step``… ``repeats`` times: what a periodic run of
    hits that each find ``span``'s value, shifted, reports after its first (none without one)."""
    if span is None:
        return []
    first, stop, kind, rank = span
    return [Span(first + shift, stop + shift, kind, rank) for shift in range(step, (repeats + 1) * step, step)]


def may_repeat(items: Sequence[Any], pairs: int, start: Callable[[Any], int] | None = None) -> bool:
    """Do ``items`` (hits, or tuples whose ``start`` is their position) step by the same
    distance ``pairs + 1`` times in a row anywhere?

    A periodic run (``repeated``) needs that; ordinary text has none, and its per-hit run test
    is then skipped after one pass of C loops over the steps instead of a call per hit. Dense
    text repeats from its first hits: their run is found before the pass over all of them."""
    for part in (items[:8 * pairs], items):
        starts = list(part) if start is None else list(map(start, part))
        steps = list(map(sub, starts[1:], starts))
        if b"\x01" * pairs in bytes(map(eq, steps[1:], steps)):
            return True
        if len(part) == len(items):
            break
    return False


_WINDOWS = 4096  # windows whose verdict a scan remembers


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

    def verdict(self, base: int, end: int, where: object) -> Span | None | Literal[False]:
        """The verdict for ``text[base:end]`` (``where``: what sits where in it) placed at
        ``base``, or False when it is not known yet (then ``remember`` it)."""
        if not (where == self._where and end - base == len(self._window)
                and self.text.startswith(self._window, base, end)):
            self._window, self._where = self.text[base:end], where
            last = self._verdicts.get((self._window, where), False)
            if last is False:
                return False
            self._last = last  # type: ignore[assignment]  # not False: a verdict
        last = self._last
        return None if last is None else Span(last[0] + base, last[1] + base, last[2], last[3])

    def remember(self, base: int, span: Span | None) -> Span | None:
        """The verdict for the window last asked about, which starts at ``base``."""
        if len(self._verdicts) >= _WINDOWS:
            self._verdicts.clear()
        self._last = self._verdicts[(self._window, self._where)] = \
            None if span is None else (span.start - base, span.end - base, span.kind, span.rank)
        return span


MIN_RUN = 8  # repeats a run needs before its text is compared (a comparison reads ~800 characters)


def past_periodic_run(text: str, view: str, items: Sequence[tuple[Any, ...]], index: int, span: Span | None,
                      done: int, found: list[Span], tables: bool = False) -> tuple[int, int, int]:
    """After ``items[index - 1]`` (a label or an account word: start, end, what else decides
    its verdict), which yielded ``span`` (or nothing) and let scanning resume at ``done``:
    where to resume in ``items``, the index before which no run is looked for again, and
    ``done`` past the items that repeat it every ``step`` characters in text that repeats every
    ``step`` characters (their findings, ``span`` shifted, are added to ``found``).

    An item's outcome is a function of its window (its line, at most ``LINE`` characters either
    way, and the character before it: ``WindowVerdicts``) and of what sits where in it. When the
    text from ``LINE + 1`` characters before the first item to ``LINE`` after the last one repeats
    with period ``step``, and neither end of the text cuts a window, every item of the run finds
    the same window shifted by a multiple of ``step``: the same outcome shifted (and, with
    ``tables``, no table: no "|" there). The next item starts after ``done``, so each item of
    the run is read as the first was. A run of the same word (``key key …``, ``密码密码…``) then
    costs a comparison per item. A run that fails the test is not walked again from each of
    its items, so the walks stay linear.
    """
    start, end = items[index - 1][0], items[index - 1][1]
    step = items[index][0] - start
    if step <= 0 or start <= LINE or items[index][0] < done:
        return index, index, done
    width, rest = end - start, items[index - 1][2:]
    last = index - 1
    count, limit = len(items), len(text) - LINE
    while last + 1 < count:
        nxt = items[last + 1]
        if nxt[0] != items[last][0] + step or nxt[1] - nxt[0] != width or nxt[1] > limit or nxt[2:] != rest:
            break
        last += 1
    if last - index < MIN_RUN:
        return index, last + 1, done
    low, high = start - LINE - 1, items[last][1] + LINE
    if (tables and view.find("|", low, high) >= 0) or text[low + step:high] != text[low:high - step]:
        return index, last + 1, done
    repeats = last + 1 - index
    found.extend(repeated(span, step, repeats))
    return last + 1, last + 1, done if span is None else done + repeats * step


__all__ = ["MIN_RUN", "WindowVerdicts", "may_repeat", "past_periodic_run", "repeated"]
