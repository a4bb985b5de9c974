"""A text put together from pieces of a scanned text and a few inserted characters (R31).

Two readers rescan a text they rebuild: ``decode.split_values`` joins a value cut by a line
continuation or written as adjacent string literals, ``markup.rendered`` reads markup as the
text it renders to. A span found in the rebuilt text is mapped back to the characters it was
copied from; a span that starts or ends on inserted characters maps to the nearest copied one
inside it, and a span holding no copied character maps to nothing.

Linear time: pieces are appended in order, and mapping a span is a binary search.
"""
from __future__ import annotations

from bisect import bisect_right

from ..text.spans import Span


class Stitched:
    """Pieces of ``source`` and inserted strings, in order; ``text`` is what they read as."""

    def __init__(self, source: str) -> None:
        self._source = source
        self._parts: list[str] = []
        self._size = 0
        self._starts: list[int] = []  # where each copied piece starts in the rebuilt text
        self._origins: list[int] = []  # where it starts in ``source``
        self._lengths: list[int] = []

    def copy(self, start: int, end: int) -> None:
        """Append ``source[start:end]``."""
        if end <= start:
            return
        self._starts.append(self._size)
        self._origins.append(start)
        self._lengths.append(end - start)
        self._parts.append(self._source[start:end])
        self._size += end - start

    def insert(self, extra: str) -> None:
        """Append characters that are not in ``source``."""
        self._parts.append(extra)
        self._size += len(extra)

    @property
    def text(self) -> str:
        return "".join(self._parts)

    def _piece_at_or_after(self, pos: int) -> int:
        index = bisect_right(self._starts, pos) - 1
        if index >= 0 and pos < self._starts[index] + self._lengths[index]:
            return index
        return index + 1  # ``pos`` is on inserted characters: the next copied piece

    def original(self, span: Span) -> Span | None:
        """``span`` of the rebuilt text on ``source``, or None when it holds no copied character."""
        first = self._piece_at_or_after(span.start)
        last = bisect_right(self._starts, span.end - 1) - 1
        if first >= len(self._starts) or last < first:
            return None
        start = self._origins[first] + max(0, span.start - self._starts[first])
        end = self._origins[last] + min(self._lengths[last], span.end - self._starts[last])
        return Span(start, end, span.kind, span.rank) if end > start else None


__all__ = ["Stitched"]
