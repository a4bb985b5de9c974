"""Where literal words occur in a text, searched once per scan and shared by the detectors.

Several detectors start from the same words ("token", "pass", "key"...); each full-text search
costs a pass over the input, so the positions are found once per word and reused, and a word
that contains an already searched one ("pwd" contains "pw", "login" contains "log") is found by
filtering that word's positions instead of another pass.
"""
from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Iterable
from functools import lru_cache
from typing import Any

from ...support.regex_lazy import lazy
from .normalize import non_ascii_runs

# Scripts of the labels matched as written (Chinese, Japanese, Korean, Cyrillic, Spanish ñ).
_LABEL_SCRIPTS = lazy(r"[\u00f1\u0400-\u04ff\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]")
# Searched first when asked for, so that longer words can be derived from them.
BASES = ("pass", "pw", "token", "secret", "key", "cred", "auth", "log", "access")


@lru_cache(maxsize=1024)
def _base(word: str) -> str | None:
    """The first of ``BASES`` inside ``word`` (not the word itself): found once per word per process."""
    return next((b for b in BASES if b in word and b != word), None)


@lru_cache(maxsize=256)
def _plan(words: tuple[str, ...]) -> tuple[tuple[str, bool, tuple[str, ...]], ...]:
    """``words`` grouped by the word searched in the text for them: (that word, whether it is
    itself among ``words``, the words found by filtering its positions)."""
    groups: dict[str, tuple[bool, list[str]]] = {}
    for word in dict.fromkeys(words):
        base = _base(word)
        searched = word if base is None else base
        own, derived = groups.get(searched, (False, []))
        if base is None:
            own = True
        else:
            derived.append(word)
        groups[searched] = (own, derived)
    return tuple((searched, own, tuple(derived)) for searched, (own, derived) in groups.items())


# ``str.find`` skips at most the word's length per step, so a short word costs a full read of
# the text, while the regex engine's search for a literal skips to its first character in a C
# loop: twice as fast for "pw", "key", "log", "pass" in prose. Worth its compilation only in a
# long text, and only for words without a border (a prefix that is also a suffix), whose
# occurrences cannot overlap: ``finditer`` reports non-overlapping ones.
_SHORT_WORD = 4
_LONG_TEXT = 1 << 16


@lru_cache(maxsize=256)
def _literal(word: str) -> re.Pattern[str] | None:
    """The compiled literal for a short word without a border, else None."""
    if len(word) > _SHORT_WORD or any(word[:k] == word[-k:] for k in range(1, len(word))):
        return None
    return re.compile(re.escape(word))


def trie_pattern(words: list[str]) -> str:
    """An alternation of ``words`` with shared prefixes factored out: the engine tries one branch
    per character instead of one per word (longest first: a branch's own end comes last)."""
    tree: dict[str, Any] = {}
    for word in words:
        node = tree
        for char in word:
            node = node.setdefault(char, {})
        node[""] = {}

    def render(node: dict[str, Any]) -> str:
        branches = [re.escape(char) + render(child) for char, child in sorted(node.items()) if char]
        ends = "" in node
        if not branches:
            return ""
        body = branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"
        return f"(?:{body})?" if ends else body

    return render(tree)


class Occurrences:
    """Positions of words in ``low`` (the lower-cased ASCII view), memoised per word."""

    def __init__(self, low: str, text: str = "") -> None:
        self.low = low
        self._text = text
        self._found: dict[str, list[int]] = {}
        self._scripts: bool | None = None
        self._windows: dict[int, list[tuple[int, int]]] = {}
        self._runs: list[tuple[int, int]] | None = None
        self._settled: list[tuple[int, int]] = []  # stretches a rule reported whole: no word there is read

    def settle(self, start: int, end: int) -> None:
        """From now on, no word found in ``[start, end)`` is returned: the stretch is one finding
        already (a line dense with credentials, ``scanners.assignments``), so later rules skip it."""
        if end > start:
            self._settled.append((start, end))
            self._settled.sort()

    def _unsettled(self, positions: list[int]) -> list[int]:
        if not self._settled or not positions:
            return positions
        kept: list[int] = []
        for low, high in self._settled:
            cut, resume = bisect_left(positions, low), bisect_left(positions, high)
            kept.extend(positions[:cut])
            positions = positions[resume:]
        return kept + positions

    def _non_ascii_runs(self) -> list[tuple[int, int]]:
        if self._runs is None:
            self._runs = [] if self._text.isascii() else non_ascii_runs(self._text, self.low)  # "?" is its own lower case
        return self._runs

    def has_label_scripts(self) -> bool:
        """Does the (normalized) text hold characters of the scripts non-ASCII labels use?"""
        if self._scripts is None:
            # Its characters are all non-ASCII: only the non-ASCII runs are read.
            self._scripts = any(_LABEL_SCRIPTS.search(self._text, start, end) for start, end in self._non_ascii_runs())
        return self._scripts

    def script_windows(self, reach: int) -> list[tuple[int, int]]:
        """Disjoint spans holding every non-ASCII character with ``reach`` characters either side.

        A word that holds a non-ASCII character and is at most ``reach`` long lies inside one of
        them, so a search for such words (labels in other scripts) reads these spans instead of
        the whole text, with the same matches.
        """
        windows = self._windows.get(reach)
        if windows is None:
            windows = []
            for pos, end in self._non_ascii_runs():
                start, stop = max(0, pos - reach), min(len(self.low), end + reach)
                if windows and start <= windows[-1][1]:
                    windows[-1] = (windows[-1][0], stop)
                else:
                    windows.append((start, stop))
            self._windows[reach] = windows
        return windows

    def _search(self, word: str) -> list[int]:
        literal = _literal(word) if len(self.low) > _LONG_TEXT else None
        if literal is not None:
            return [match.start() for match in literal.finditer(self.low)]
        found: list[int] = []
        pos = self.low.find(word)
        while pos >= 0:
            found.append(pos)
            pos = self.low.find(word, pos + 1)
        return found

    def of(self, word: str) -> list[int]:
        return self._unsettled(self._of(word))

    def _of(self, word: str) -> list[int]:
        found = self._found.get(word)
        if found is None:
            base = _base(word)
            if base is None:
                found = self._search(word)
            else:
                offset, low = word.index(base), self.low
                found = [p - offset for p in self._of(base) if p >= offset and low.startswith(word, p - offset)]
            self._found[word] = found
        return found

    def of_all(self, words: Iterable[str]) -> list[int]:
        """Sorted positions of any of ``words`` (a position once even if several start there)."""
        positions: set[int] = set()
        found = self._found
        if not isinstance(words, tuple):
            for word in words:
                known = found.get(word)
                positions.update(self._of(word) if known is None else known)
            return self._unsettled(sorted(positions))
        # The detectors' word lists are constant tuples: grouped once by the word searched for
        # them, a group whose searched word does not occur is settled without a call per word.
        for searched, own, derived in _plan(words):
            hits = found.get(searched)
            if hits is None:
                hits = self._of(searched)
            if not hits:
                continue
            if own:
                positions.update(hits)
            for word in derived:
                known = found.get(word)
                positions.update(self._of(word) if known is None else known)
        return self._unsettled(sorted(positions))


__all__ = ["BASES", "Occurrences", "trie_pattern"]
