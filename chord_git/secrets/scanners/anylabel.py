"""Layer-1 scanner for a value after a label in a language no table holds (R31).

``Gweinydd: db1.internal`` / ``Defnyddiwr: admin`` / ``Cyfrinair: X9!fk2Qz``: a short label (one
to three words of any script, no digit or "_": keys are ``assignments``') starting its line,
list item or bold run, or after a comma or a dash ("staging db: user admin, Cyfrinair: …"); a
separator (":", "=", a spaced dash; "：", "—", "–" read as those after ``text.normalize``); and
one value ending the line that looks typed or generated (three classes of lower case, upper
case, digits and symbols; no path, URL, version, date, host or e-mail address; then the value
test of ``verdicts.values``, as strict as for a value with no separator). A value alone in a
table cell is read too. The language is not needed; what vouches for the label instead is its
company: the line holds a word of login context (a credential, user, login, host, server,
database, mail or account word), or the value's list (its block of neighbouring lines, up to a
blank line) holds two other label–value lines and such a word, a stock account, a host or an
e-mail address. A table row needs such a word.

Labels the tables know are ``languages``' and ``prose``'s (a value both find is merged); this
rule skips labels that are themselves words of login context ("User: …", "Host: …"), name a
public value ("ID", "Hash", "Version", "Commit"…), or read as a key of code or configuration
(an ASCII word with a capital inside, a key indented without a list marker).

Linear time: one pass of ``_CANDIDATE`` finds the values (a separator and a strong word ending
its line, or a cell); only those are read further, each within its line (``_MAX_LINE``) and its
block (``_BLOCK_LINES`` lines either side, at most ``_BLOCK_CHARS`` characters), and a line
already read is not read again.
"""
from __future__ import annotations

import re
from functools import lru_cache
from typing import NamedTuple

from ...support.regex_lazy import lazy
from ..text.anchors import Occurrences
from ..text.reader import unquote
from ..text.spans import RANK_ASSIGNMENT, Span
from ..verdicts import values
from ..verdicts.shapes import VERDICTS
from ..words import vocab

KIND = "password-in-text"
# Words of login context, searched in the lower-cased view of a line or a block where a word
# starts; "@" stands for an e-mail address.
CONTEXT_ANCHORS = ("user", "login", "host", "server", "admin", "root", "db", "mail", "account", "ssh", "pass",
                   "pwd", "token", "secret", "cred", "@")
# Of those, the ones that may be a whole label naming something other than the value: a user
# name, a host. A label made of them is skipped (it names the login, not its secret).
_CONTEXT_LABEL_WORDS = frozenset({
    "user", "username", "users", "login", "logon", "host", "hostname", "server", "admin", "root", "db",
    "database", "mail", "email", "e-mail", "account", "ssh", "address", "port", "url", "uri", "name",
})
# Labels naming public values that look generated: ids, digests, versions, places.
_PUBLIC_LABEL_WORDS = frozenset({
    "id", "ids", "uuid", "guid", "hash", "sha", "sha1", "sha256", "md5", "digest", "checksum", "commit",
    "revision", "rev", "version", "build", "tag", "ref", "branch", "region", "zone", "instance", "image",
    "serial", "order", "invoice", "ticket", "issue", "session", "trace", "request", "fingerprint", "path",
    "file", "date", "time", "mode", "type", "kind", "status", "state", "code", "color", "colour", "size",
    "format", "sku", "model", "iban", "bic", "swift", "phone", "tel", "fax", "vat", "isbn", "doi", "arn",
    "bucket", "cluster", "node", "pod", "namespace", "project", "org", "organization", "tenant", "client",
    "app", "application", "channel", "key id", "keyid", "nonce", "salt", "iv", "public", "pub", "cert",
    "certificate", "thumbprint", "signature", "locale", "lang", "language", "timezone", "tz", "coupon",
    "promo", "voucher", "license", "licence", "product", "part", "item", "record", "row", "column",
})
# One search for any of them where a word starts (not "feedback" for "db", "superuser" for "user").
_CONTEXT_WORD = lazy("(?<![a-z])(?:" + "|".join(sorted((re.escape(w) for w in CONTEXT_ANCHORS if w != "@"),
                                                       key=len, reverse=True)) + ")|@")
# Stock accounts: a list that names one is a login (``pairs`` knows "admin:" and "root:").
_STOCK_ACCOUNTS = frozenset({"admin", "root", "administrator", "postgres", "sa", "ubuntu", "ec2-user", "pi",
                             "deploy", "git", "oracle", "mysql", "sysadmin", "operator", "superuser"})

_BLOCK_LINES = 4
_BLOCK_CHARS = 2400
_MAX_LINE = 400
_REACH = _BLOCK_LINES * (_MAX_LINE + 1) + 1  # what a line's verdict reads on either side

_MARK = r"(?:\*\*|__)?"
# A label's letters after its first: any but ASCII digits, punctuation and blanks (the marks of
# Indic scripts are no word characters to ``re``). Keys with digits or "_" are assignments.
_LABEL_CHAR = r"[^\x00-\x40\x5b-\x60\x7b-\x7f\s]"  # a hyphen joins two words: one reading of a label
# One label–value line: indentation, a list marker, words before a comma or a dash ("staging:
# user admin, …"), a label of one to three words starting with a letter (any script), a
# separator, one value, nothing after it.
_ITEM = lazy(rf"""[ \t]{{0,8}}(?P<marker>(?:[-*+•·]|\d{{1,2}}[.)])[ \t]+)?
    (?:[^\n]{{0,120}}?(?:[,;]|[ \t][-–—/])[ \t]+)?{_MARK}
    (?P<label>[^\W\d_]{_LABEL_CHAR}{{0,30}}(?:[ \t-][^\W\d_]{_LABEL_CHAR}{{0,30}}){{0,2}}?)
    {_MARK}[ \t]*{_MARK}
    (?P<sep>[ \t]*[:=：՝៖፦][ \t]*|[ \t]+(?:-{{1,2}}|—|–)[ \t]+)
    {_MARK}[ \t]*
    (?P<value>`[^`\s]{{1,128}}`|"[^"\s]{{1,128}}"|'[^'\s]{{1,128}}'|[\x21-\x7e]{{1,128}})
    [ \t]*\r?$""", re.X)
_EMAIL = lazy(r"[A-Za-z0-9._%+-]{1,64}@[A-Za-z0-9-]{1,63}(?:\.[A-Za-z0-9-]{1,63})*\.[A-Za-z]{2,12}")
_HOST_VALUE = lazy(r"(?:[A-Za-z0-9-]{1,63}\.)+[A-Za-z]{2,12}(?::\d{1,5})?|\d{1,3}(?:\.\d{1,3}){3}(?::\d{1,5})?"
                   r"|(?:db|srv|host|server|node|vm)[-_]?\d{1,3}")
# Values that are names of public things, not secrets: versions, dates, hosts, paths, e-mails.
_VERSION = lazy(r"v?\d+(?:[._-]\d+)+(?:[-+._][0-9A-Za-z.-]*)?", re.I)
_VERSION_INSIDE = lazy(r"\d+\.\d+\.\d+")  # "strict-uri-encode@npm:2.0.0": a package, not a password
_DATE = lazy(r"\d{4}-\d{2}-\d{2}")
_STRONG = frozenset("!@#$%^&*+=?~|")

# A value's characters: no blank, path, URL, template, bracket or quote.
_TAIL_CHARS = r"[^\s|/\\:$<>{}()\[\]\"'`]"
# Eight or more of them with both cases and a digit or symbol, or a letter, a digit and a symbol
# (``_typed_or_generated`` asks three classes of four).
_STRONG_VALUE = rf"""
    (?:(?={_TAIL_CHARS}{{0,159}}[a-z])(?={_TAIL_CHARS}{{0,159}}[A-Z])(?={_TAIL_CHARS}{{0,159}}[0-9!@#$%^&*+=?~])
     | (?={_TAIL_CHARS}{{0,159}}[A-Za-z])(?={_TAIL_CHARS}{{0,159}}[0-9])(?={_TAIL_CHARS}{{0,159}}[!@#$%^&*+=?~]))
    {_TAIL_CHARS}{{8,160}}"""
_STRONG_TAIL = lazy(_STRONG_VALUE, re.X)
_LINE_END = r"""[ \t\r*`'"|]*$"""
# Where the rule starts: a separator (":", "=", a spaced dash; the text is normalised, so "：",
# "—" and "–" read as those), then one word of value characters ending the line, or such a word
# alone in a table cell; ``_STRONG_TAIL`` then asks its classes. One pass over the text: the
# pattern starts with a plain class of four ASCII characters, which the engine skips to, and each
# try stops at the first blank (possessive).
_CANDIDATE = lazy(rf"""
    [:=|-](?:
        (?:(?<=[:=])|(?<=[ \t]-)(?=[ \t]))[ \t]*[*_`'"]{{0,3}}[ \t]*(?P<value>{_TAIL_CHARS}{{8,160}}+){_LINE_END}
      | (?<=\|)[ \t]*[*`]{{0,2}}(?P<cell>{_TAIL_CHARS}{{8,160}}+)[*`]{{0,2}}[ \t]*(?=\|)
    )""", re.M | re.X)


def _classes(value: str) -> int:
    return (any(c.islower() for c in value) + any(c.isupper() for c in value) + any(c.isdigit() for c in value)
            + any(c in _STRONG for c in value))


@lru_cache(maxsize=VERDICTS)
def _typed_or_generated(value: str) -> bool:
    """Shaped like a credential someone typed or a program made, and no public name."""
    if not 8 <= len(value) <= 128 or _classes(value) < 3 or not any(c.isalpha() for c in value):
        return False
    if "/" in value or "\\" in value or _EMAIL.fullmatch(value) or _HOST_VALUE.fullmatch(value) \
            or _VERSION.fullmatch(value) or _VERSION_INSIDE.search(value) or _DATE.match(value):
        return False
    return values.credential_value(value, vocab.PASSWORD, direct=True) or values.token_like(value)


def _may_hold_item(text: str, line_start: int, line_end: int) -> bool:
    """False when no label-value line of ``_ITEM`` on ``text[line_start:line_end]`` can pass
    ``_typed_or_generated``: two string searches instead of the pattern's match per candidate.

    Why it is sound: that value has no "/" or "\\" (nor has the match before ``unquote``, which
    only drops quotes and trailing punctuation), and no label, mark or separator holds one, so the
    line's last "/" or "\\" lies before the label; the label then starts after ``_ITEM``'s
    prefix, which ends in blanks. A line whose last slash has no blank after it (a URL or path
    ending the line: the bulk of the candidates in notes) holds no such item.
    """
    if line_end - line_start > _MAX_LINE:
        return True  # no claim on a line cut short (its start is not known): two reads stay bounded
    slash = max(text.rfind("/", line_start, line_end), text.rfind("\\", line_start, line_end))
    if slash < 0:
        return True
    return text.find(" ", slash, line_end) >= 0 or text.find("\t", slash, line_end) >= 0


def _label_words(label: str) -> list[str]:
    return [w for w in re.split(r"[ \t-]+", label.lower()) if w]


def _skipped_label(label: str, indented: bool) -> bool:
    """A label that names a login or a public value, or a key of code or configuration: an
    ASCII word with a capital inside ("nameM", "apiKey") or a key indented without a list marker
    (YAML, which ``assignments`` reads)."""
    words = _label_words(label)
    if label.isascii() and (indented or any(not w.islower() and not w.istitle() for w in re.split(r"[ \t-]+", label)
                                            if w)):
        return True
    return (not words or any(w in _CONTEXT_LABEL_WORDS or w in _PUBLIC_LABEL_WORDS for w in words)
            or " ".join(words[-2:]) in _PUBLIC_LABEL_WORDS)


def _has_context(low: str, start: int, end: int) -> bool:
    """A word of login context in ``low[start:end]`` (a line, a row, a block)."""
    return _CONTEXT_WORD.search(low, start, end) is not None


def _login_value(value: str) -> bool:
    """A value that makes its list a login: a stock account, a host, an e-mail address."""
    low = value.lower().strip("`'\"")
    return low in _STOCK_ACCOUNTS or _EMAIL.fullmatch(low) is not None or _HOST_VALUE.fullmatch(low) is not None


def _block(view: str, pos: int) -> tuple[int, int]:
    """The lines around ``pos`` up to a blank line, at most ``_BLOCK_LINES`` either side."""
    # Bounded both ways: a line longer than the reach is read from the reach, never from the
    # text's start or to its end (a 10 MB line would be read once per candidate).
    floor = max(0, pos - _BLOCK_CHARS)
    newline = view.rfind("\n", floor, pos)
    start = newline + 1 if newline >= 0 else floor
    for _ in range(_BLOCK_LINES):
        if start <= 0:
            break
        above = view.rfind("\n", max(0, start - 1 - _MAX_LINE), start - 1) + 1
        if not view[above:start - 1].strip() or start - above > _MAX_LINE:
            break
        start = above
    end = view.find("\n", pos, pos + _MAX_LINE)
    end = min(len(view), pos + _MAX_LINE) if end < 0 else end
    for _ in range(_BLOCK_LINES):
        if end >= len(view):
            break
        below = view.find("\n", end + 1, end + 1 + _MAX_LINE)
        below = min(len(view), end + 1 + _MAX_LINE) if below < 0 else below
        if not view[end + 1:below].strip():
            break
        end = below
    return start, end


def _lines(view: str, start: int, end: int) -> list[tuple[int, int]]:
    out = []
    pos = start
    while pos <= end:
        stop = view.find("\n", pos, end)
        stop = end if stop < 0 else stop
        out.append((pos, stop))
        pos = stop + 1
    return out


class _Item(NamedTuple):
    line_start: int
    indented: bool  # indented without a list marker
    label_start: int
    label_end: int
    value_start: int
    value_end: int


def _item_at(text: str, line_start: int, line_end: int) -> _Item | None:
    match = _ITEM.match(text, line_start, line_end)
    if match is None:
        return None
    vs, ve, _ = unquote(text, *match.span("value"))  # "(user: qa, password: …)": not the ")"
    if ve <= vs:
        return None
    indented = match.group("marker") is None and text[line_start] in " \t"
    return _Item(line_start, indented, match.start("label"), match.end("label"), vs, ve)


class _Reading:
    """What one scan has read: each line's item and each block's verdict, read once (a list of
    candidates reads the same block for each)."""

    def __init__(self, text: str, view: str, low: str) -> None:
        self.text, self.view, self.low = text, view, low
        self._items: dict[int, _Item | None] = {}
        self._blocks: dict[tuple[int, int], bool] = {}
        self._company: dict[int, bool] = {}  # a line names a login (a word, or its value)
        # A line's item relative to the line, per line as written: ``_item_at`` reads nothing
        # outside the line (no look-behind; ``unquote`` stays inside the value), and dense text
        # repeats its lines, so a repeat costs a slice of the line instead of the pattern.
        self._by_line: dict[str, tuple[bool, int, int, int, int] | None] = {}

    def item(self, line_start: int, line_end: int) -> _Item | None:
        if line_start in self._items:
            return self._items[line_start]
        if line_end - line_start > _MAX_LINE:  # a line cut short: no slice of a long one
            found = self._items[line_start] = _item_at(self.text, line_start, line_end)
            return found
        line = self.text[line_start:line_end]
        if line in self._by_line:
            relative = self._by_line[line]
        else:
            got = _item_at(self.text, line_start, line_end)
            relative = self._by_line[line] = None if got is None else (
                got.indented, got.label_start - line_start, got.label_end - line_start, got.value_start - line_start,
                got.value_end - line_start)
        if relative is None:
            found = None
        else:
            indented, label_start, label_end, value_start, value_end = relative
            found = _Item(line_start, indented, line_start + label_start, line_start + label_end,
                          line_start + value_start, line_start + value_end)
        self._items[line_start] = found
        return found

    def login_list(self, start: int, end: int) -> bool:
        """Whether the block holds three label–value lines in the company of a login."""
        known = self._blocks.get((start, end))
        if known is None:
            items = 0
            company = False
            for line_start, line_end in _lines(self.view, start, end):
                if line_end - line_start > _MAX_LINE:
                    continue
                item = self.item(line_start, line_end)
                items += item is not None
                company = company or self._names_login(line_start, line_end, item)
            known = self._blocks[(start, end)] = items >= 3 and company
        return known

    def _names_login(self, line_start: int, line_end: int, item: _Item | None) -> bool:
        known = self._company.get(line_start)
        if known is None:
            if item is None:
                known = _has_context(self.low, line_start, line_end)
            else:  # the words before the value, and the value itself as a login's ("@" in a password is none)
                known = _has_context(self.low, line_start, item.value_start) \
                    or _login_value(self.text[item.value_start:item.value_end])
            self._company[line_start] = known
        return known


def _item_span(reading: _Reading, line_start: int, line_end: int) -> Span | None:
    """The value of the label–value line, when its line or its list names a login."""
    text, low = reading.text, reading.low
    item = reading.item(line_start, line_end)
    if item is None:
        return None
    value = text[item.value_start:item.value_end]
    if _skipped_label(text[item.label_start:item.label_end], item.indented) or not _typed_or_generated(value):
        return None
    span = Span(item.value_start, item.value_end, KIND, RANK_ASSIGNMENT)
    # The line's own words, not the value's (a value may hold "pass" or "@").
    if _has_context(low, line_start, item.label_start) or _has_context(low, item.label_end, item.value_start):
        return span
    # A list: this line and two other label–value lines, in the company of a login.
    return span if reading.login_list(*_block(reading.view, line_start)) else None


def _row(text: str, low: str, start: int, end: int) -> list[Span]:
    """A table row holding a word of login context and a cell with one credential-shaped value."""
    cells: list[tuple[int, int]] = []
    bar = text.find("|", start, end)
    while bar >= 0 and len(cells) < 32:
        nxt = text.find("|", bar + 1, end)
        if nxt < 0:
            break
        cells.append((bar + 1, nxt))
        bar = nxt
    spans: list[Span] = []
    candidates = []
    for cell_start, cell_end in cells:
        cell = text[cell_start:cell_end].strip(" \t*`")
        if cell and " " not in cell and _typed_or_generated(cell):
            offset = text.find(cell, cell_start, cell_end)
            candidates.append((offset, offset + len(cell)))
    if not candidates:
        return spans
    for offset, stop in candidates:
        if _has_context(low, start, offset) or _has_context(low, stop, end):
            spans.append(Span(offset, stop, KIND, RANK_ASSIGNMENT))
    return spans


def scan(text: str, view: str, occurrences: Occurrences) -> list[Span]:
    """Credential-shaped values after short labels in any language, in the company of a login."""
    low = occurrences.low
    size = len(view)
    found: list[Span] = []
    done = -1
    reading = _Reading(text, view, low)
    verdicts: dict[tuple[str, int, int], tuple[int, int] | None] = {}
    for candidate in _CANDIDATE.finditer(text):
        value = "value" if candidate.group("value") is not None else "cell"
        if candidate.start() < done or _STRONG_TAIL.match(text, *candidate.span(value)) is None:
            continue
        floor = max(0, candidate.start() - _MAX_LINE)
        newline = view.rfind("\n", floor, candidate.start())
        line_start = newline + 1 if newline >= 0 else floor  # not 0: a long line's reach starts here
        line_end = view.find("\n", candidate.start(), candidate.start() + _MAX_LINE)
        line_end = min(size, candidate.start() + _MAX_LINE) if line_end < 0 else line_end
        if candidate.group("cell") is not None:
            if view[line_start:line_start + 8].lstrip().startswith("|"):
                found.extend(_row(text, low, line_start, line_end))
            done = line_end
            continue
        # Lines that hold no label-value item (most candidates: URLs, paths, keys of code) are
        # settled before the verdict's window is sliced (~3 KB per candidate).
        if not _may_hold_item(text, line_start, line_end) or reading.item(line_start, line_end) is None:
            done = line_end
            continue
        # The verdict reads the line and its block, no farther than ``_BLOCK_LINES`` lines of at
        # most ``_MAX_LINE`` either side: dense text repeats that window, read once.
        low_end = max(0, line_start - _REACH)
        key = (text[low_end:line_end + _REACH], line_start - low_end, line_end - low_end)
        if key in verdicts:
            known = verdicts[key]
        else:
            span = _item_span(reading, line_start, line_end)
            known = verdicts[key] = None if span is None else (span.start - line_start, span.end - line_start)
        if known is not None:
            found.append(Span(line_start + known[0], line_start + known[1], KIND, RANK_ASSIGNMENT))
        done = line_end
    return found


__all__ = ["CONTEXT_ANCHORS", "KIND", "scan"]
