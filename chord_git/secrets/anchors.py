"""Where literal words occur in a text, searched once per scan and shared by the detectors.

Several detectors start from the same words ("token", "pass", "key"...); each full-text search
costs a pass over the input, so the positions are found once per word and reused.
"""
from __future__ import annotations

from collections.abc import Iterable


class Occurrences:
    """Positions of words in ``low`` (the lower-cased ASCII view), memoised per word."""

    def __init__(self, low: str) -> None:
        self.low = low
        self._found: dict[str, list[int]] = {}

    def of(self, word: str) -> list[int]:
        found = self._found.get(word)
        if found is None:
            found = []
            pos = self.low.find(word)
            while pos >= 0:
                found.append(pos)
                pos = self.low.find(word, pos + 1)
            self._found[word] = found
        return found

    def of_all(self, words: Iterable[str]) -> list[int]:
        """Sorted positions of any of ``words`` (a position once even if several start there)."""
        return sorted({pos for word in words for pos in self.of(word)})


__all__ = ["Occurrences"]
