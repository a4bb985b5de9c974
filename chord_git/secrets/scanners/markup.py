"""Layer-1 scanner for a credential placed by markup next to what names it (R31).

- the cell next to its label: ``<tr><td>Password</td><td>…</td></tr>``, a definition list
  ``<dt>API token</dt><dd>…</dd>``, the same split over lines;
- a tag's attributes: an attribute named for a credential (``data-token="…"``), or the value
  (``value``, ``content``) of a tag whose ``type="password"`` or whose ``name``/``key`` names one
  (``<add key="ApiKey" value="…"/>``, ``<meta name="api-key" content="…">``);
- the text of an element whose ``key``/``name`` names one (``<entry key="password">…</entry>``,
  ``<property name="db.password">…</property>``, a ``<value>`` child in settings files);
- a ``<kbd>``/``<samp>``/``<code>`` value in a sentence naming it (``type <kbd>…</kbd> as the
  password``), the value a ``<summary>`` labels (``<details><summary>staging password</summary>``);
- a markdown footnote definition that is one value, referenced right after a label (``the DB
  password[^db]`` … ``[^db]: …``).

The label must name a credential (``labels.classify`` for ASCII words, ``keys.classify_key`` for
key names, the labels of ``vocab`` and ``words.languages`` for other scripts) and the value must
be one value that passes the value test. Markdown tables are ``prose``'s; a definition
list in markdown and a YAML block scalar are ``nextline``'s; JSON keys spelled with ``\\u``
escapes and HTML character references are undone by ``text.normalize`` before any scanner reads.

Linear time: passes of patterns that start with a literal (``<``, ``[^``), each match bounded
in length; a tag's attributes are parsed only when they hold a credential word.
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


# A start tag and its attributes (XML and HTML): the engine skips to each ``<``; a tag is bounded.
_TAG = lazy(r"<([a-z][a-z0-9:._-]{0,40})([ \t\r\n][^<>]{0,1000}?)?(/?)>")
_ATTRIBUTE = lazy(r"""([A-Za-z_:][A-Za-z0-9_:.\-]{0,60})[ \t\r\n]*=[ \t\r\n]*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+))""")
# Attributes that name what another attribute or the element's text holds (``<add key="ApiKey"
# value="…">``, ``<entry key="password">…</entry>``, ``<meta name="api-key" content="…">``), and
# the attributes that hold it.
_NAMING = frozenset({"name", "key", "id", "property", "param", "field"})
_HOLDING = frozenset({"value", "content", "default", "defaultvalue"})
_MAX_ELEMENT_TEXT = 200
# The child element that holds a named element's value in some settings files.
_VALUE_ELEMENT = lazy(r"\s{0,40}<(value|string|content|default)>")


def _key_verdict(name: str) -> tuple[str, str] | None:
    """(kind, value class) for a key naming a credential (``db.password``, ``ApiKey``), or None."""
    verdict = keys.classify_key(name)
    if verdict is None or verdict[1] != "strong":
        return None
    return verdict[0], (vocab.PASSWORD if verdict[0].startswith("password") else vocab.SECRET)


def _attribute_values(text: str, start: int, end: int) -> list[tuple[str, int, int]]:
    """(lower-cased name, value start, value end) of each attribute in ``text[start:end]``."""
    out = []
    for match in _ATTRIBUTE.finditer(text, start, end):
        group = next(g for g in (2, 3, 4) if match.group(g) is not None)
        out.append((match.group(1).lower(), match.start(group), match.end(group)))
    return out


def _tag_spans(text: str, low: str, match: re.Match[str], reader: ValueReader) -> list[Span]:
    """Credentials in one start tag's attributes, or in the text of the element it opens."""
    if match.group(2) is None or not any(cue in low[match.start(2):match.end(2)] for cue in vocab.ASCII_ANCHORS):
        return []  # most tags name no credential: one look at their attributes settles them
    attributes = _attribute_values(text, match.start(2), match.end(2))
    found: list[Span] = []
    named: tuple[str, str] | None = None
    holder: tuple[int, int] | None = None
    for name, vs, ve in attributes:
        value = text[vs:ve]
        if name == "type" and value.lower() == "password":
            named = ("password-assignment", vocab.PASSWORD)
        elif name in _NAMING:
            named = named or _key_verdict(value)
        elif name in _HOLDING:
            holder = (vs, ve)
        elif name.startswith("data-") or "-" in name or "_" in name:
            # ``data-token="…"``, ``data-api-key="…"``: the attribute's own name names it.
            verdict = _key_verdict(name)
            if verdict and reader.is_credential(value, verdict[1], delimited=True):
                found.append(Span(vs, ve, verdict[0], RANK_ASSIGNMENT))
    if named is None:
        return found
    kind, cls = named
    if holder is None and not match.group(3):
        # ``<entry key="password">…</entry>``: the element's text, when it is one value.
        vs, element = match.end(), match.group(1)
        wrapper = _VALUE_ELEMENT.match(low, vs)
        if wrapper is not None:  # ``<setting name="AuthToken"><value>…</value></setting>``
            vs, element = wrapper.end(), wrapper.group(1)
        ve = low.find("</", vs, vs + _MAX_ELEMENT_TEXT + 1)
        if ve < 0 or not low.startswith(element, ve + 2):
            return found
        holder = (vs, ve)
    if holder is not None:
        vs, ve = holder
        value = text[vs:ve]
        if value and not any(c.isspace() for c in value) and reader.is_credential(value, cls, delimited=True):
            found.append(Span(vs, ve, kind, RANK_ASSIGNMENT))
    return found


# A markdown footnote whose reference follows a label (``the DB password[^db]``) and whose
# definition is one value (``[^db]: …``). A definition that is a sentence is ``prose``'s.
_FOOTNOTE_REF = lazy(r"\[\^([^\]\s]{1,40})\](?!:)")
_FOOTNOTE_DEF = lazy(r"^[ \t]{0,3}\[\^([^\]\s]{1,40})\]:[ \t]*(?:`([^`\s]{1,200})`|([^\s`]{1,200}))[ \t]*\r?$", re.M)
_LABEL_BEFORE = lazy(r"([A-Za-z][A-Za-z0-9_\-]{0,40})[*_`]{0,2}\Z")


def _footnotes(text: str, reader: ValueReader) -> list[Span]:
    labelled: dict[str, str] = {}  # footnote id -> class of the label its first reference follows
    for ref in _FOOTNOTE_REF.finditer(text):
        name = ref.group(1)
        if name in labelled:
            continue
        word = _LABEL_BEFORE.search(text, max(0, ref.start() - 42), ref.start())
        if word is None:
            continue
        parts = keys.word_parts(word.group(1).replace("-", "_"))
        cls = classify(parts, "", "") if parts else None
        if cls is not None:
            labelled[name] = cls
    found: list[Span] = []
    if not labelled:
        return found
    for definition in _FOOTNOTE_DEF.finditer(text):
        cls = labelled.get(definition.group(1))
        group = 2 if definition.group(2) is not None else 3
        vs, ve = definition.span(group)
        # A bare definition is judged as a value said directly: footnotes also cite ("RFC6749").
        if cls is not None and reader.is_credential(text[vs:ve], cls, delimited=group == 2, direct=group == 3):
            found.append(Span(vs, ve, KINDS.get(cls, "secret-in-text"), RANK_ASSIGNMENT))
    return found


# A value in a keyboard or sample element, in a sentence that names it: ``type <kbd>…</kbd> as the
# password``, ``password: <kbd>…</kbd>``.
_KEYBOARD = lazy(r"<(kbd|samp|var|code)>[ \t]*([^<>\s]{1,200})[ \t]*</\1>")
_LABEL_THEN = lazy(r"([A-Za-z][A-Za-z0-9_\-]{0,40})[*_]{0,2}[ \t]*(?:(?:is|was|=|:)[ \t]*)?\Z")
_THEN_LABEL = lazy(r"[ \t]+(?:as|is|for)[ \t]+(?:(?:the|your|my|our|a|an)[ \t]+)?(?:[A-Za-z][\w-]{0,30}[ \t]+){0,2}?"
                   r"([A-Za-z][A-Za-z0-9_\-]{0,40})\b")
# ``<details><summary>staging password</summary>…</details>``: the summary labels the value that
# the folded block shows, after at most a paragraph or code tag.
_SUMMARY = lazy(r"<summary\b[^<>\n]{0,100}>[ \t]*(?:<(?:b|strong|em)>)?([^<>\n]{1,80}?)(?:</(?:b|strong|em)>)?[ \t]*</summary>"
                r"\s{0,20}(?:<(?:p|pre|code|kbd|samp)\b[^<>\n]{0,60}>\s{0,8}){0,2}([^<>\s]{1,200})[ \t]*(?=<|\r?\n|\Z)")


def _word_class(word: str) -> str | None:
    parts = keys.word_parts(word.replace("-", "_"))
    return classify(parts, "", "") if parts else None


def _keyboard(text: str, low: str, reader: ValueReader) -> list[Span]:
    found: list[Span] = []
    for match in _KEYBOARD.finditer(low):
        before = _LABEL_THEN.search(text, max(0, match.start() - 48), match.start())
        cls = _word_class(before.group(1)) if before else None
        if cls is None:
            after = _THEN_LABEL.match(text, match.end(), match.end() + 100)
            cls = _word_class(after.group(1)) if after else None
        vs, ve = match.span(2)
        if cls is not None and reader.is_credential(text[vs:ve], cls, delimited=True):
            found.append(Span(vs, ve, KINDS.get(cls, "secret-in-text"), RANK_ASSIGNMENT))
    return found


def _summaries(text: str, low: str, reader: ValueReader) -> list[Span]:
    found: list[Span] = []
    for match in _SUMMARY.finditer(low):
        cls = _cell_class(text[match.start(1):match.end(1)])
        vs, ve = match.span(2)
        if cls is not None and reader.is_credential(text[vs:ve], cls, delimited=True):
            found.append(Span(vs, ve, KINDS.get(cls, "secret-in-text"), RANK_ASSIGNMENT))
    return found


def scan(text: str, low: str, reader: ValueReader) -> list[Span]:
    """Values in the HTML cell after a cell that names a credential, in a tag's attributes or
    the element a tag names, and in a markdown footnote referenced from a label."""
    found: list[Span] = []
    if "[^" in low:
        found.extend(_footnotes(text, reader))
    if "<" not in low:
        return found
    for tag in _TAG.finditer(low):
        found.extend(_tag_spans(text, low, tag, reader))
    found.extend(_keyboard(text, low, reader))
    found.extend(_summaries(text, low, reader))
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
