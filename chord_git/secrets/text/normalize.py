"""Undo the disguises a secret can wear before the detectors look at a text (R31).

One substitution pass removes zero-width and bidirectional control characters, reads Unicode
tag characters as the ASCII they spell, and folds
full-width forms, common Cyrillic/Greek homoglyphs, mathematical alphanumerics, typographic
quotes, ideographic punctuation and exotic spaces to their ASCII look-alikes, one character for
one character. Only removals shift offsets; ``Normalized.original`` maps an offset of the
normalized text back to the text the caller gave, so findings and redactions land on the
original characters (the invisible ones included). ASCII text is returned as it is.
"""
from __future__ import annotations

import re
import sys
import unicodedata
from bisect import bisect_left, bisect_right
from collections.abc import Iterator
from types import MappingProxyType

from ...support.dataclass_lazy import dataclass
from ...support.regex_lazy import lazy

# Characters that render as nothing (or only reorder what follows) and can hide inside a token.
_INVISIBLE = (
    "\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180e\u200b\u200c\u200d\u200e\u200f"
    "\u202a\u202b\u202c\u202d\u202e\u2060\u2061\u2062\u2063\u2064\u2066\u2067\u2068\u2069"
    "\u206a\u206b\u206c\u206d\u206e\u206f\u3164\ufeff\uffa0"
)

# Letters that look like ASCII in common fonts (Unicode confusables, Cyrillic and Greek).
_HOMOGLYPHS = {
    "а": "a", "е": "e", "о": "o", "р": "p", "с": "c", "у": "y", "х": "x", "ѕ": "s", "і": "i",
    "ј": "j", "ԁ": "d", "ԛ": "q", "ԝ": "w", "һ": "h", "ӏ": "l", "ɡ": "g",
    "А": "A", "В": "B", "Е": "E", "К": "K", "М": "M", "Н": "H", "О": "O", "Р": "P", "С": "C",
    "Т": "T", "Х": "X", "Ѕ": "S", "І": "I", "Ј": "J", "Ү": "Y", "Ԛ": "Q", "Ԝ": "W",
    "Α": "A", "Β": "B", "Ε": "E", "Ζ": "Z", "Η": "H", "Ι": "I", "Κ": "K", "Μ": "M", "Ν": "N",
    "Ο": "O", "Ρ": "P", "Τ": "T", "Υ": "Y", "Χ": "X", "ο": "o", "ν": "v", "ρ": "p", "ι": "i",
    "κ": "k", "υ": "u", "α": "a", "ı": "i", "ȷ": "j",
}
# Punctuation and spaces with an ASCII twin. Japanese/Chinese corner brackets read as quotes.
_PUNCTUATION = {
    "\u2018": "'", "\u2019": "'", "\u201a": "'", "\u201b": "'", "\u2032": "'",
    "\u201c": '"', "\u201d": '"', "\u201e": '"', "\u201f": '"', "\u2033": '"',
    "「": '"', "」": '"', "『": '"', "』": '"', "【": "[", "】": "]", "〔": "[", "〕": "]",
    "。": ".", "、": ",", "・": "-", "\u2013": "-", "\u2014": "-", "\u2015": "-", "\u2212": "-",
    "\u2192": ">", "\u21d2": ">", "\u279c": ">", "\u2794": ">", "\u27f6": ">",
    "\u2022": "*", "\u25cf": "*", "\u2217": "*",
    "\u3000": " ", "\u00a0": " ", "\u202f": " ", "\u205f": " ",
}


# The blocks of the BMP holding every character whose compatibility form (NFKC) is one ASCII
# letter or digit: "paſſword" (long s), "api_Key" (Kelvin sign), "ᵖᵃˢˢʷᵒʳᵈ", "Ⓣⓞⓚⓔⓝ". Scanned at
# import (a few hundred characters); a test checks that no such character lies outside them.
_COMPATIBILITY_BLOCKS = ((0x80, 0x100), (0x17F, 0x180), (0x2B0, 0x300), (0x1D00, 0x1DC0), (0x2070, 0x20A0),
                         (0x2100, 0x2190), (0x2460, 0x2500), (0x2C7C, 0x2C7E), (0xA7F0, 0xA800))


# Characters that render as nothing and can be appended to any other: Unicode tag characters
# (an invisible copy of ASCII) and variation selectors.
_HIDDEN_RANGES = ((0xE0000, 0xE0080), (0xFE00, 0xFE10), (0xE0100, 0xE01F0))
# Tag characters U+E0020-U+E007E spell printable ASCII invisibly (U+E0041 is an invisible "A"): a
# text can smuggle a whole secret in them. They are read as the ASCII they spell, one character
# for one, so offsets stay; after a black flag (U+1F3F4) they name a subdivision flag and go.
_TAG_ASCII = (0xE0020, 0xE007F)
_BLACK_FLAG = "\U0001f3f4"
# Combining marks: "pas\u0301sword" reads as a word with an accent, not as "password". Dropped only
# after an ASCII letter or digit, so that accents of other scripts (and their labels) stay.
_COMBINING_RANGES = ((0x300, 0x370), (0x1AB0, 0x1B00), (0x1DC0, 0x1E00), (0x20D0, 0x2100), (0xFE20, 0xFE30))
_COMBINING = frozenset(chr(code) for first, last in _COMBINING_RANGES for code in range(first, last))
# Numeric HTML character references: "p&#97;ssword", "&#x77;". Named ones carry markup, not letters.
# And JSON/JavaScript escapes of the same: "\u0070assword".
# Each form its own pattern, led by its literal: the engine skips to a "&" or a backslash at
# memory speed, and a text holding only one kind reads only that pattern.
_REFERENCES = (("&#", lazy(r"&#(?:([0-9]{1,7})|[xX]([0-9a-fA-F]{1,6}));")), ("\\u", lazy(r"\\u()([0-9a-fA-F]{4})")))


def _build_table() -> MappingProxyType[str, str]:
    table: dict[str, str] = {c: "" for c in _INVISIBLE}
    table.update({chr(code): chr(code - 0xFEE0) for code in range(0xFF01, 0xFF5F)})  # full-width ASCII
    table.update({chr(code): " " for code in range(0x2000, 0x200B)})  # en quad .. hair space
    for code in range(0x1D400, 0x1D800):  # mathematical bold/italic/monospace letters and digits
        folded = unicodedata.normalize("NFKC", chr(code))
        if len(folded) == 1 and folded.isascii():
            table[chr(code)] = folded
    for first, last in _COMPATIBILITY_BLOCKS:  # long s, Kelvin sign, super/subscripts, circled letters
        for code in range(first, last):
            folded = unicodedata.normalize("NFKC", chr(code))
            if len(folded) == 1 and folded.isascii() and folded.isalnum():
                table[chr(code)] = folded
    table.update(_HOMOGLYPHS)
    table.update(_PUNCTUATION)
    for first, last in _HIDDEN_RANGES:  # tag characters, variation selectors
        table.update({chr(code): "" for code in range(first, last)})
    table.update({chr(code): chr(code - 0xE0000) for code in range(*_TAG_ASCII)})
    for first, last in _COMBINING_RANGES:  # dropped only after an ASCII letter or digit (``normalize``)
        table.update({chr(code): "" for code in range(first, last)})
    return MappingProxyType(table)


def _character_class(chars: list[str]) -> str:
    """A regex class of ``chars`` written as ranges, which the engine tests as a bitmap."""
    ranges: list[list[int]] = []
    for code in sorted(ord(c) for c in chars):
        if ranges and code == ranges[-1][1] + 1:
            ranges[-1][1] = code
        else:
            ranges.append([code, code])
    return "".join(re.escape(chr(a)) if a == b else f"{re.escape(chr(a))}-{re.escape(chr(b))}" for a, b in ranges)


_TABLE = _build_table()
# Every character to fold or drop: text without any is left as it is, and text with some is
# rewritten only there (``str.translate`` would look up every character). Astral characters get
# their own class so the other one stays a bitmap.
_FOLDABLE_BMP = lazy(f"[{_character_class([c for c in _TABLE if ord(c) < 0x10000])}]")
_FOLDABLE_ALL = lazy(f"{_FOLDABLE_BMP.pattern}|[{_character_class([c for c in _TABLE if ord(c) >= 0x10000])}]")
_ASTRAL = lazy("[\U00010000-\U0010ffff]")
# "?"s less than 33 characters apart, as one span (possessive: no backtracking inside).
_QUESTION_CLUSTER = lazy(r"\?(?:[^?]{0,32}\?)*+")
_ONLY_NON_ASCII = not any(c.isascii() for c in _TABLE)  # so only the text's non-ASCII runs are read


@dataclass(frozen=True)
class Normalized:
    """A text prepared for matching, and the way back to the caller's offsets."""

    text: str  # folded, invisible characters removed
    view: str  # ``text`` with every non-ASCII character as ``?``: same length, one byte each
    removed: tuple[int, ...] = ()  # normalized offsets at which a removed character sat

    def original(self, pos: int) -> int:
        """Offset in the caller's text of the character at ``pos`` of ``text``."""
        return pos + bisect_right(self.removed, pos) if self.removed else pos

    def original_end(self, end: int) -> int:
        """Exclusive end offset in the caller's text for an exclusive ``end`` of ``text``: past
        the characters removed right after it (the rest of a character reference that ends a
        value, an invisible character), so that redaction takes them with it."""
        if end <= 0:
            return 0
        after = bisect_right(self.removed, end) - bisect_left(self.removed, end) if self.removed else 0
        return self.original(end - 1) + 1 + after


def ascii_view(text: str) -> str:
    """``text`` with every non-ASCII character replaced by ``?``: same length, cheap to search."""
    if text.isascii():
        return text
    return text.encode("ascii", "replace").decode("ascii")


def _may_hold_astral(text: str) -> bool:
    """False when ``text`` certainly has no character beyond U+FFFF, without reading it.

    CPython stores a string with 1, 2 or 4 bytes per character, the widest it needs; a long
    string using fewer than 3 bytes per character holds no astral character.
    """
    return len(text) < 4096 or sys.getsizeof(text) > 3 * len(text)


def question_clusters(view: str) -> Iterator[tuple[int, int]]:
    """Spans of ``view`` holding all its "?"s: found by ``str.find``, a "?" less than 33
    characters after the last one joining its cluster, so that text in another script (all "?"
    in the view) with ASCII punctuation is one span, not one per word."""
    pos = view.find("?")
    while pos >= 0:
        end = _QUESTION_CLUSTER.match(view, pos).end()  # type: ignore[union-attr]  # starts with the "?" found
        yield pos, end
        pos = view.find("?", end)


def non_ascii_runs(text: str, view: str) -> list[tuple[int, int]]:
    """Spans of ``text`` that hold all its non-ASCII characters (and maybe some ASCII ones): the
    clusters of "?" in its view where the text holds a non-ASCII character. Every character the
    table folds or drops is non-ASCII, so only these spans are read for them."""
    return [(start, end) for start, end in question_clusters(view) if not text[start:end].isascii()]


def _entity(match: re.Match[str]) -> str | None:
    """The character a numeric reference stands for, folded like any other, or None."""
    decimal, hexadecimal = match.groups()
    code = int(decimal) if decimal else int(hexadecimal, 16)
    if not 0 < code <= 0x10FFFF or 0xD800 <= code < 0xE000:
        return None
    char = chr(code)
    return _TABLE.get(char, char)


def normalize(text: str) -> Normalized:
    """Fold and strip ``text`` for the detectors (identity for ASCII text without references)."""
    ascii = text.isascii()
    view = text if ascii else ascii_view(text)
    # Searched in the view: one byte a character, where the text may take two or four.
    entities = [pattern for lead, pattern in _REFERENCES if lead in view]
    if ascii and not entities:
        return Normalized(text, text)
    # (start, end, replacement) of each character or reference to rewrite, in order.
    edits: list[tuple[int, int, str]] = []
    if not ascii:
        foldable = _FOLDABLE_ALL if _may_hold_astral(text) and _ASTRAL.search(text) else _FOLDABLE_BMP
        combining = _COMBINING
        tag_end, flag = -1, False  # where the last tag character ended, and whether its run is a flag's
        for start, end in (non_ascii_runs(text, view) if _ONLY_NON_ASCII else [(0, len(text))]):
            for match in foldable.finditer(text, start, end):
                char, at = match.group(0), match.start()
                if char in combining and not (at and text[at - 1].isascii() and text[at - 1].isalnum()):
                    continue  # an accent of another script's letter: part of its word
                folded = _TABLE[char]
                if _TAG_ASCII[0] <= ord(char) < _TAG_ASCII[1]:
                    if at != tag_end:
                        flag = at > 0 and text[at - 1] == _BLACK_FLAG
                    tag_end = match.end()
                    folded = "" if flag else folded
                edits.append((at, match.end(), folded))
    for pattern in entities:
        for match in pattern.finditer(text):
            replacement = _entity(match)
            if replacement is not None:
                edits.append((match.start(), match.end(), replacement))
    if entities:
        edits.sort()
    if not edits:
        return Normalized(text, view)
    pieces: list[str] = []
    removed: list[int] = []
    last = 0
    for start, end, replacement in edits:
        if start < last:
            continue  # inside a reference already rewritten
        pieces.append(text[last:start])
        if replacement:
            pieces.append(replacement)
            start += 1  # the reference's first character carries the replacement, the rest are removed
        for pos in range(start, end):
            removed.append(pos - len(removed))
        last = end
    pieces.append(text[last:])
    folded = "".join(pieces)
    return Normalized(folded, ascii_view(folded), tuple(removed))


__all__ = ["Normalized", "ascii_view", "non_ascii_runs", "normalize", "question_clusters"]
