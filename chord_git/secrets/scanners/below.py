"""A credential announced on its label's line and written a few lines down (R31).

"Password for staging: see below" then, on the next line or after a few lines, the value alone
on its line; "Пароль: см. ниже", "Kennwort (siehe unten):". Called by ``prose`` and ``languages``
for a label whose own line holds no value, after ``nextline`` (the value right below a label or
a cue that ends the line) found none: here the cue may follow a separator and words about what
the credential opens, and the value may stand up to ``_MAX_LINES`` lines down, after blank
lines, fences and lines of prose, as long as no other label or heading comes first. The value
line must hold one value and nothing else, which the value test then judges.

Linear time: the label's line is read up to ``MAX_REST`` characters after the label, and at most
``_MAX_LINES`` lines of at most ``_MAX_LINE`` characters below it.
"""
from __future__ import annotations

import re

from ...support.regex_lazy import lazy
from ..text.normalize import normalize
from ..text.reader import ValueReader
from ..text.spans import Span
from .nextline import line_value

MAX_REST = 60
_MAX_LINES = 5
_MAX_LINE = 256
# Words that hold a cue (other scripts read as "?" in the view): what makes the line worth a pattern.
_CUE_WORDS = ("below", "follow", "dessous", "unten", "abajo", "abaixo", "sotto", "onder", "poniżej", "nize")
# Written as the text reads them after ``text.normalize`` (Cyrillic look-alikes folded: "cм", "нижe").
_SEE = ("see", "siehe", "voir", "ver", "vedi", "zie", "см.", "см", "смотри", "смотрите", "див.", "дивись")
_BELOW = ("below", "as follows", "follows", "ci-dessous", "unten", "abajo", "abaixo", "sotto", "hieronder",
          "poniżej", "ниже", "нижче", "下面", "如下", "以下", "아래")


def _alternation(words: tuple[str, ...]) -> str:
    folded = sorted({normalize(word).text for word in words}, key=len, reverse=True)
    return "|".join(re.escape(word).replace(r"\ ", r"[ \t]+") for word in folded)


_CUE = rf"(?:(?:{_alternation(_SEE)})[ \t]*)?(?:{_alternation(_BELOW)})"
# The rest of the label's line: words (what the credential opens), a separator, the cue.
_REST = lazy(rf"""
    [*_`'")\]]{{0,4}}
    (?:[ \t]+[^\s:：=]{{1,24}}){{0,4}}?
    [ \t]*[:：=-]?[ \t]*[(\[]?[ \t]*{_CUE}[ \t]*[)\]]?[ \t]*[.:：…]?[ \t]*[*_`]{{0,4}}[ \t]*\r?$
    """, re.X | re.IGNORECASE)
_FENCE = lazy(r"[ \t]*(?:```|~~~)")
# A line that starts something else: a heading, a rule, another label with its separator.
_OTHER = lazy(r"[ \t]*(?:#{1,6}[ \t]|-{3,}|\*{3,}|[^\s:：=`'\"]{1,30}[ \t]*[:：=][ \t]*\S)")
_VALUE_LINE = lazy(r"""[ \t]*(?:[-*+>][ \t]+)?(?:`(?P<tick>[^`\n]{1,200})`|"(?P<dq>[^"\n]{1,200})"|'(?P<sq>[^'\n]{1,200})'|(?P<bare>[^\s`"']\S{0,199}))[ \t]*\r?$""")


def _line(view: str, start: int) -> tuple[int, int]:
    end = view.find("\n", start, start + _MAX_LINE)
    return start, (end if end >= 0 else min(len(view), start + _MAX_LINE))


def value_below(text: str, view: str, reader: ValueReader, label_end: int, line_end: int, cls: str,
                kind: str) -> Span | None:
    """The value a few lines below a label whose line ends with "see below", or None."""
    if line_end >= len(view) or view[line_end] != "\n" or line_end - label_end > MAX_REST:
        return None
    tail = view[label_end:line_end].lower()
    if "?" not in tail and not any(cue in tail for cue in _CUE_WORDS):
        return None
    if _REST.match(text, label_end, line_end) is None:
        return None
    pos = line_end + 1
    for _ in range(_MAX_LINES):
        if pos >= len(view):
            return None
        start, end = _line(view, pos)
        pos = end + 1
        if not view[start:end].strip() or _FENCE.match(view, start, end):
            continue
        match = _VALUE_LINE.match(text, start, end)
        if match is None:
            if _OTHER.match(text, start, end):
                return None  # another label or a heading: the announced value is not this far down
            continue  # a line of prose between the cue and the value
        return line_value(text, match, reader, cls, kind)
    return None


__all__ = ["MAX_REST", "value_below"]
