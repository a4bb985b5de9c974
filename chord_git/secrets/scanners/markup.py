"""Layer-1 scanner for a credential in the cell next to its label in HTML (R31).

``<tr><td>Password</td><td>…</td></tr>``, a definition list ``<dt>API token</dt><dd>…</dd>``,
the same split over lines. The label cell must name a credential (``labels.classify`` for ASCII
words, the labels of ``vocab`` and ``words.languages`` for other scripts) and the value cell
must hold one value that passes the value test. Markdown tables are ``prose``'s; a definition
list in markdown and a YAML block scalar are ``nextline``'s; JSON keys spelled with ``\\u``
escapes and HTML character references are undone by ``text.normalize`` before any scanner reads.

Linear time: one pass of a pattern that starts with the literal ``<`` (the engine skips to each
``<``), each match bounded in length.
"""
from __future__ import annotations

import re

from ...support.regex_lazy import lazy
from ..text.reader import ValueReader
from ..text.spans import RANK_ASSIGNMENT, Span
from ..words import keys, vocab
from .labels import classify
from .languages import KINDS, label_class

_INLINE = r"(?:<(?:code|kbd|samp|tt|b|strong|em|i|span|p)\b[^<>\n]{0,60}>[ \t]*)"
_INLINE_END = r"(?:</(?:code|kbd|samp|tt|b|strong|em|i|span|p)>[ \t]*)"
_CELL_PAIR = lazy(rf"""<(?P<lt>t[dh]|dt)\b[^<>\n]{{0,100}}>[ \t]*{_INLINE}{{0,2}}(?P<label>[^<>\n]{{1,60}}?)[ \t]*{_INLINE_END}{{0,2}}
    </(?P=lt)>\s{{0,40}}<(?P<vt>td|dd)\b[^<>\n]{{0,100}}>[ \t]*{_INLINE}{{0,2}}(?P<value>[^<>\s][^<>\n]{{0,199}}?)[ \t]*{_INLINE_END}{{0,2}}</(?P=vt)>""",
                  flags=re.X)


def _cell_class(cell: str) -> str | None:
    """The class of credential a label cell names, or None."""
    cell = cell.strip(" \t:*_")
    if not cell:
        return None
    if cell.isascii():
        parts = keys.word_parts(cell.replace(" ", "_"))
        return classify(parts, "", "") if parts else None
    return label_class(cell) or next((cls for table, cls in ((vocab.PASSWORD_LABELS, vocab.PASSWORD),
                                                             (vocab.SECRET_LABELS, vocab.SECRET))
                                      if any(label in cell for label in table)), None)


def scan(text: str, low: str, reader: ValueReader) -> list[Span]:
    """Values in the HTML cell after a cell that names a credential."""
    found: list[Span] = []
    if "<" not in low:
        return found
    for match in _CELL_PAIR.finditer(low):
        cls = _cell_class(text[match.start("label"):match.end("label")])
        if cls is None:
            continue
        start, end = match.span("value")
        if any(c.isspace() for c in text[start:end]):
            continue  # words in the cell ("Min 8 chars!", "see the vault"): a description
        if reader.is_credential(text[start:end], cls, delimited=True):
            found.append(Span(start, end, KINDS.get(cls, "secret-in-text"), RANK_ASSIGNMENT))
    return found


__all__ = ["scan"]
