"""Reading a value out of a line of prose, and asking the value test about it (R31).

Shared by the label rules (``prose``) and the login pairs (``pairs``): a value is delimited by
quotes, backticks, bold markers or a table cell, or is a bare run of printable ASCII without the
sentence punctuation after it. Verdicts of ``values.credential_value`` are remembered for the
scan, since notes repeat their placeholders.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

from ..regex_lazy import lazy
from . import values, vocab
from .formats import RANK_ASSIGNMENT, Span, repeated

LINE = 400  # how far a rule looks along a line from where it starts
_BARE = lazy(r"[\x21-\x7e]{1,200}")
_TRAILING = ".,;:)]}>'\"`*"
_OPENERS = {")": "(", "]": "[", "}": "{", ">": "<"}
_INDIRECT = lazy(r"[A-Za-z_$][\w.$]*[(\[]")
_USER = lazy(r"[A-Za-z0-9_.@+\-]{1,40}")
# A string literal's prefix in code: bytes, raw, format, unicode.
_STRING_PREFIX = lazy(r"(?:[bBrRuUfF]|[rR][bBfF]|[bBfF][rR])(?=['\"])")

Value = tuple[int, int, bool]  # start, end, delimited


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


def line_bounds(view: str, start: int, end: int) -> tuple[int, int]:
    """The line around ``start``..``end``, at most ``LINE`` characters either way."""
    left = view.rfind("\n", max(0, start - LINE), start) + 1 or max(0, start - LINE)
    right = view.find("\n", end, end + LINE)
    return left, (right if right >= 0 else min(len(view), end + LINE))


def strip_value(text: str, start: int, end: int) -> tuple[int, int]:
    """Drop sentence punctuation after a bare value; keep balanced brackets and ellipses."""
    if text.startswith("...", end - 3) and end - 3 >= start:
        return start, end  # ``sk-...``: a truncated stand-in, which the value test recognises
    while end > start and text[end - 1] in _TRAILING:
        closer = text[end - 1]
        opener = _OPENERS.get(closer)
        if opener is not None and text.count(opener, start, end) >= text.count(closer, start, end):
            break
        end -= 1
    return start, end


def unquote(text: str, start: int, end: int) -> Value:
    """The inside of a quoted or backticked value, else the value without trailing punctuation."""
    if end - start >= 2 and text[start] in "`\"'" and text[end - 1] == text[start]:
        return start + 1, end - 1, True
    return (*strip_value(text, start, end), False)


class ValueReader:
    """Values in one text, with the value test's verdicts remembered for the scan."""

    def __init__(self, text: str) -> None:
        self.text = text
        self._verdicts: dict[tuple[str, str, bool, bool], bool] = {}

    def value_at(self, pos: int, end: int, cell: bool = False) -> Value | None:
        """The value that starts at ``pos`` (no further than ``end``)."""
        text = self.text
        if pos >= end:
            return None
        if cell:
            stop = text.find("|", pos, end)
            start, stop = pos, (end if stop < 0 else stop)
            while start < stop and text[start] in " \t*`":
                start += 1
            while stop > start and text[stop - 1] in " \t*`":
                stop -= 1
            return (start, stop, True) if stop > start else None
        prefix = _STRING_PREFIX.match(text, pos, end)
        if prefix is not None:
            pos = prefix.end()  # ``b'password1'``, ``r'[a-z]{64}'``: the string literal's inside
        for opener in ("**", "__", "`", '"', "'"):
            if text.startswith(opener, pos):
                close = text.find(opener, pos + len(opener), min(end, pos + 202))
                if close <= pos + len(opener):
                    return None
                inner = self.value_at(pos + len(opener), close) if opener in ("**", "__") else None
                return inner or (pos + len(opener), close, True)
        bare = _BARE.match(text, pos, end)
        if bare is None or _INDIRECT.match(text, pos, bare.end()):
            return None  # ``os.environ["X"]``, ``config.get(...)``: code that fetches the value
        start, stop = strip_value(text, pos, bare.end())
        return (start, stop, False) if stop > start else None

    def is_credential(self, value: str, cls: str, delimited: bool = False, direct: bool = False) -> bool:
        key = (value, cls, delimited, direct)
        verdict = self._verdicts.get(key)
        if verdict is None:
            verdict = self._verdicts[key] = values.credential_value(value, cls, quoted=delimited, direct=direct)
        return verdict

    def span(self, got: Value | None, cls: str, kind: str, direct: bool = False) -> Span | None:
        """A finding for the value ``got`` if the value test calls it a credential."""
        if got is None:
            return None
        start, end, delimited = got
        value = self.text[start:end]
        if cls == vocab.PASSWORD and not delimited and value.count("/") == 1:
            user, _, secret = value.partition("/")  # "admin/Tr0ub4dor&3" after a password label
            if _USER.fullmatch(user) and self.is_credential(secret, cls):
                return Span(end - len(secret), end, kind, RANK_ASSIGNMENT)
        if self.is_credential(value, cls, delimited, direct):
            return Span(start, end, kind, RANK_ASSIGNMENT)
        return None


__all__ = ["LINE", "MIN_RUN", "Value", "ValueReader", "line_bounds", "past_periodic_run", "strip_value", "unquote"]
