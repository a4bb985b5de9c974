"""A credential whose value is on the line after its label (R31).

"## Staging password" then the value, "Password below:" then the value, "The admin password, see
below", a definition list ("Password" then ": value"), a YAML block scalar after a credential key
(``db_password: |`` then the indented value), the value in a code fence under its heading. Called
by ``prose`` and ``languages`` for a label whose own line holds no value: the label's line must
end at the label, or with a colon, a "see below"/"here it is" phrase or a block indicator; and
the label must be a heading, bold, or followed by one of those (a sentence that merely ends with
"password" is no label of the next line). The next line (after at most one blank line and one
code-fence line) must hold one value and nothing else, which the value test then judges.

Linear time: the lookups are bounded (the rest of the label's line, at most four short lines
below it).
"""
from __future__ import annotations

import re

from ...support.regex_lazy import lazy
from ..text.reader import ValueReader
from ..text.spans import RANK_ASSIGNMENT, Span

# A word each cue of ``_BELOW`` holds (other scripts read as "?" in the view): what makes a
# label's line worth reading with the pattern at all.
_CUE_WORDS = ("below", "follow", "here", "dessous", "voici", "unten", "hier", "abajo", "abaixo", "aqu")
_BELOW = (r"(?:see[ \t]+)?below|as[ \t]+follows|follows|here[ \t]+it[ \t]+is|here[ \t]+you[ \t]+go|is[ \t]+below"
          r"|ci-dessous|voici|unten|hier|abajo|aqu[ií]|abaixo|aqui|sotto|ниже|вот|아래|下面|如下|以下")
# The rest of the label's line: markup, then what announces a value below (group ``cue``).
_REST = lazy(rf"""
    [*_`'")\]]{{0,4}}[ \t]*
    (?P<cue>
        ,?(?:[ \t]+(?!is\b|are\b|was\b)[\w.-]{{1,20}}){{0,4}}?[ \t]*\(?[ \t]*(?:(?:is|are|was|will[ \t]+be|it's|it[ \t]+is)[ \t]*)?(?:{_BELOW})[ \t]*\)?[ \t]*[:：]?
      | (?:[ \t]+(?:is|are|was))?[ \t]*[:：]
      | [ \t]*[:：][ \t]*[|>][-+]?[0-9]?
    )?
    [ \t]*[*_`]{{0,4}}[ \t]*\r?$
    """, re.X | re.IGNORECASE)
# A line that makes a label a heading: markdown heading, or the label in bold.
_HEADING = lazy(r"[ \t]{0,3}(?:#{1,6}[ \t]|\*\*|__)")
# A definition list's definition ("Password" then ": value"), in markdown extensions.
_DEFINITION = lazy(r"[ \t]{0,3}:[ \t]")
_FENCE = lazy(r"[ \t]*(?:```|~~~)[A-Za-z0-9_+-]{0,20}[ \t]*\r?$")
# The value line: optional list or definition marker, one value, nothing after it.
_VALUE_LINE = lazy(r"""[ \t]*(?:[-*+:>][ \t]+)?(?:`(?P<tick>[^`\n]{1,200})`|"(?P<dq>[^"\n]{1,200})"|'(?P<sq>[^'\n]{1,200})'|(?P<bare>[^\s`"']\S{0,199}))[ \t]*\r?$""")
# A value line that is an assignment of its own (``PERPLEXITY_API_KEY=`` under
# ``GEMINI_API_KEY=`` in an env template): a key of the next line, which the assignment scanner
# reads, not the value of the label above. Names of one case only: base64 also ends with ``=``.
_OWN_KEY = lazy(r"(?:[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+|[a-z][a-z0-9]*(?:_[a-z0-9]+)+)[ \t]*[=:]")
_MAX_VALUE_LINE = 256
MAX_REST = 40  # ", and here it is, see below:" and markup fit


def _line(view: str, start: int) -> tuple[int, int]:
    end = view.find("\n", start, start + _MAX_VALUE_LINE)
    return start, (end if end >= 0 else min(len(view), start + _MAX_VALUE_LINE))


def value_below(text: str, view: str, reader: ValueReader, line_start: int, label_start: int, label_end: int,
                line_end: int, cls: str, kind: str) -> Span | None:
    """The value on the line below a label that ends its line, or None."""
    if line_end >= len(view) or view[line_end] != "\n" or line_end - label_end > MAX_REST:
        return None  # a long rest of the line is a sentence going on, not a cue
    tail = view[label_end:line_end].lower()
    if tail.strip(" \t*_`'\")]\r") and ":" not in tail and "?" not in tail \
            and not any(cue in tail for cue in _CUE_WORDS):
        return None  # words after the label and none of them a cue: the sentence goes on
    rest = _REST.match(view, label_end, line_end)
    if rest is None:
        return None
    if rest.group("cue") is None and not _HEADING.match(view, line_start, label_start) \
            and not _DEFINITION.match(view, line_end + 1):
        return None  # "… and rotate the password": a sentence's end, not a label
    pos = line_end + 1
    for _ in range(3):  # one blank line and one fence line may come first
        start, end = _line(view, pos)
        if end >= len(view) and start >= len(view):
            return None
        if view[start:end].strip() == "" or _FENCE.match(view, start, end):
            if end >= len(view):
                return None
            pos = end + 1
            continue
        match = _VALUE_LINE.match(view, start, end)
        if match is None:
            return None
        return line_value(text, match, reader, cls, kind, own_key=True)
    return None


def line_value(text: str, match: re.Match[str], reader: ValueReader, cls: str, kind: str,
               *, own_key: bool = False) -> Span | None:
    """The credential a value line's match holds (its ``tick``/``dq``/``sq``/``bare`` group), or
    None; a bare value loses the sentence's trailing punctuation. With ``own_key``, a bare value
    that is an assignment of its own (``PERPLEXITY_API_KEY=``) is no value."""
    group = next(g for g in ("tick", "dq", "sq", "bare") if match.group(g) is not None)
    vs, ve = match.span(group)
    quoted = group != "bare"
    if not quoted and own_key and _OWN_KEY.match(text, vs, ve):
        return None
    if not quoted:
        while ve > vs and text[ve - 1] in ".,;":
            ve -= 1
    if ve > vs and reader.is_credential(text[vs:ve], cls, quoted):
        return Span(vs, ve, kind, RANK_ASSIGNMENT)
    return None


__all__ = ["MAX_REST", "line_value", "value_below"]
