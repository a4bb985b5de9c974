"""Layer-1 scanner for credentials written after a label, as people write them (R31).

"The staging password is …", ``**Token:** …``, ``| Password | … |``, a markdown table whose
header names a password column, "use … as the password", "we changed it to … (the DB password)", "密码是 …", "パスワードは … です", and a
40-character AWS secret next to the word AWS. A hit needs a label (``labels``), a bridge to a
value (":", "=", "is", "is the word", "was changed to", "是", "は", a table cell, a quote, or
nothing but a space; the value on a line below: ``nextline``, ``below``) and a value that passes
the value test (``values`` via ``text.reader``); only the value is
reported, so redaction keeps the sentence. Login pairs are ``pairs``'.

Linear time: every lookup around a label is bounded to the label's line (``text.reader.LINE``
characters either way), labels inside a value already reported are skipped, each table row is
read once per labelled header column (at most ``_MAX_TABLE_COLUMNS``), and the AWS rule searches
the union of bounded windows after its anchors.
"""
from __future__ import annotations

import re

from ...support.regex_lazy import lazy
from ..text.anchors import Occurrences
from ..text.reader import LINE, ValueReader, unquote
from ..text.repeats import Reach, Runs, WindowVerdicts
from ..text.spans import RANK_ASSIGNMENT, Span
from ..verdicts import shapes, values
from ..words import languages, vocab
from . import below, nextline
from .labels import Label, labels

# Kind of finding per label class (a password a person typed, or any other credential).
KINDS = dict(zip((vocab.PASSWORD, vocab.SECRET, vocab.WEAK), ("password-in-text", "secret-in-text", "secret-in-text")))
AWS_KIND = "aws-secret-access-key"
_MAX_TABLE_COLUMNS = 64
_CJK = "\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af"


# Another language's copula after an English label: "la password è …", "el token es …".
_BORROWED = "|".join(re.escape(w) for w in sorted(languages.BORROWED_COPULAS, key=len, reverse=True))
# Searched apart from the English hint below, which stays as cheap as it was.
_BORROWED_HINT = lazy(" (?:" + "|".join(sorted((re.escape(w) for w in languages.BORROWED_COPULAS if w.isascii()),
                                              key=len, reverse=True)) + r")\b")


def _bridge(bare_to: bool) -> re.Pattern[str]:
    """Between a label and its value; the value starts where the match ends.

    Filler words ("for the staging db", "we gave the auditors") are allowed only before an
    explicit separator or verb. Each filler word is taken whole (a lookahead and a backreference
    make it atomic), so a failed match costs one try per word count, not one per character. A bare "to" or "as" is a bridge only after a setting verb ("set the
    password to …"); without ``bare_to`` it may be a filler word ("the password to the box is …").
    """
    to_verb = "| (?P<to>to|as)" if bare_to else "| (?P<to>(?!))"
    not_filler = "is|was|are|were|to|as" if bare_to else "is|was|are|were"
    return lazy(rf"""
    [*_`'"\]]{{0,3}}
    (?P<filler>(?:,?[ \t]{{1,3}}(?!(?:{not_filler})\b)(?=(?P<word>[A-Za-z0-9@._'!?-]{{1,24}}))(?P=word),?){{0,6}}?)
    [ \t]{{0,3}}
    (?:[(][^()\n]{{0,40}}[)][ \t]{{0,3}})?
    [{_CJK}]{{0,4}}?
    (?:
        (?P<sep>:{{1,2}}(?![/:]|[a-z]+(?::[a-z]+)?:`)|=>|=|->|(?<=[ \t])>(?=[ \t])|\||-{{1,2}}(?=[ \t])|\?(?=[ \t]))
      | (?P<verb>
            (?:
              (?:(?:has|have|had)[ \t]+been[ \t]+|was[ \t]+|were[ \t]+|is[ \t]+|got[ \t]+)?
              (?:changed|set|reset|updated|rotated|switched|moved)[ \t]+(?:back[ \t]+)?to
            | (?:is|was|are|were)(?:[ \t]+(?:now|still|currently|just|also|actually|simply|probably|always))?
              (?:[ \t]+the[ \t]+(?:word|string|phrase|text)(?=[ \t]*[`'"]))?
            | {_BORROWED}
            | turned[ \t]+out[ \t]+to[ \t]+be | will[ \t]+be | should[ \t]+be | becomes | became
            {to_verb}
            | ,[ \t]*(?:type|enter|use|paste)
            | we[ \t]+(?:use|used|settled[ \t]+on|chose|picked|agreed[ \t]+on)(?:[ \t]+is)?
            )(?![A-Za-z0-9])
          | 是|为|為|改成了?|改为|改為|设置为|设为|設為|设置成|换成|更新为|は|を|が|も
        )
    )
    [ \t]{{0,3}}[*_]{{0,3}}[ \t]{{0,3}}
    (?:</?(?:b|strong|em|i|u|span|code|kbd|label|dt|th)>[ \t]{{0,3}}){{0,2}}
    """, re.X)


_BRIDGE, _BRIDGE_NO_TO = _bridge(bare_to=True), _bridge(bare_to=False)
# Google app passwords are shown as four groups of four letters: "abcd efgh ijkl mnop".
_GROUPED_LETTERS = lazy(r"[a-z]{4}(?: [a-z]{4}){3}(?![a-z])")
# Cheap test before the bridge pattern: a separator or a bridging word follows on the line,
# within what the bridge can reach (filler words, blanks, commas, a parenthesis, CJK as "?").
_BRIDGE_HINT = lazy(r"[=|>?]|:(?!//)| (?:is|was|are|were|to|as|be|became|becomes|we)\b| --? |, (?:type|enter|use|paste)")
_BRIDGE_REACH = lazy(r"[*_`'\"\]]{0,3}(?:[A-Za-z0-9@._'!?, \t-]|\([^()\n]{0,40}\)){0,100}")
# After a plural label ("credentials:", "| Tokens |") only an explicit separator leads to a value.
_PLURAL_SEPARATOR = lazy(r"[*_`'\"\]]{0,3}[ \t]{0,3}(:(?!:)|=|\|)[ \t]{0,3}[*_]{0,3}[ \t]{0,3}")
# Right after a label, a value with no separator must show a quote or a digit early on.
_DIRECT_HINT = lazy(r"[*_`'\"\]]{0,3}[ \t]{0,2}(?:[`'\"*]|[^\s]{0,40}\d)")
_DIRECT = lazy(r"[*_`'\"\]]{0,3}(?:[ \t]{1,2}|(?=[\"'`]))")
_DIRECT_CJK = lazy(r"[*_`'\"\]]{0,3}[ \t]{0,2}")
_SETTING_BEFORE = lazy(r"\b(?:set|change|changed|reset|update|updated|rotate|rotated|switch|switched)\b")

# The value before the label: "use X as the password", "用 X 作为密码", "把 X 填到密码框".
_VALUE_RE = r"(?:`[^`\n]{1,100}`|\"[^\"\n]{1,100}\"|'[^'\n]{1,100}'|[\x21-\x7e]{1,100})"
_REVERSE = lazy(rf"""
    (?:\b(?i:use|using|used|try|with)[ \t]+(?P<en>{_VALUE_RE})[ \t]+(?i:as|for)[ \t]+
       (?:(?i:the|a|an|our|your|its|this|new|my)[ \t]+)?(?:[A-Za-z-]+[ \t]+){{0,3}}
     | (?:用|使用|以|拿)[ \t]*(?P<zh>{_VALUE_RE})[ \t]*(?:作为|作為|当作|当|做)(?:新的?|初始)?
     | 把[ \t]*(?P<put>{_VALUE_RE})[ \t]*(?:填到|填入|填进|输入到|输入|输进|设为|设置为|改成|作为)[{_CJK}]{{0,4}}?
     | (?:^|(?<=[\s(]))(?P<is>{_VALUE_RE})[ \t]+(?i:is|was)[ \t]+(?:(?i:the|our|my|your|its|their)[ \t]+)?(?:[A-Za-z-]+[ \t]+){{0,3}}
     | \b(?i:changed|set|reset|rotated|updated|switched|moved)[ \t]+(?i:it)[ \t]+(?:(?i:back)[ \t]+)?(?i:to)[ \t]+
       (?P<it>{_VALUE_RE})[ \t][^\n()]{{0,60}}?\([ \t]*(?:(?i:the|our|my|its|that)[ \t]+)?(?:[A-Za-z0-9-]+[ \t]+){{0,3}}
    )\Z""", re.X)

_REVERSE_HINT = lazy(r"[ \t](?i:as|for)[ \t]|[ \t](?i:it[ \t]+(?:back[ \t]+)?to)[ \t]|作为|作為|当|做|填|输|设|改成")
# "<value> is the password": the verb stands a few words before the label.
_REVERSE_IS_HINT = lazy(r"[ \t](?i:is|was)[ \t]")
_REVERSE_IS_REACH = 40

# What may precede the label in a header cell: markup and up to two qualifiers ("admin password").
# (matched in the lower-cased ASCII view, where CJK qualifiers such as 数据库 read as "???").
_HEADER_CELL = lazy(
    r"[ \t*_`]*(?:(?!(?:to|of|for|the|a|an|and|or|is|no|not|with|in|on)\b)[a-z0-9][a-z0-9_.-]*[ \t]+){0,2}\?{0,8}")
_ROW_START = lazy(r"[ \t]*\|")
# A table separator row: | --- | :---: |
_TABLE_SEPARATOR = lazy(r"[ \t]*\|?[ \t]*:?-{2,}:?[ \t]*(?:\|[ \t]*:?-{2,}:?[ \t]*)*\|?[ \t]*$")

# AWS secret access keys: 40 base64 characters near the word AWS.
_AWS_ANCHORS = ("aws",)
_AWS_WINDOW = 200
_AWS_SECRET = lazy(r"(?<![A-Za-z0-9/+=])[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+=])")


class _Scan:
    """One text being scanned: the normalized text, its ASCII view and the value reader."""

    def __init__(self, text: str, view: str, low: str, reader: ValueReader) -> None:
        self.text, self.view, self.low, self.reader = text, view, low, reader
        self.table = (0, 0)  # (end of the header line, end of the rows) of the last table read

    def line_start(self, pos: int) -> int:
        return self.view.rfind("\n", max(0, pos - LINE), pos) + 1 or max(0, pos - LINE)

    def forward(self, label: Label, line_end: int) -> Span | None:
        """The value after the label: over a bridge, or right after it."""
        text, reader, cls = self.text, self.reader, label.cls
        if label.plural:
            sep = _PLURAL_SEPARATOR.match(text, label.end, line_end)
            if sep is None:
                return None
            cell = sep.group(1) == "|"
            if cell and not self._in_table_row(self.line_start(label.start), label.start):
                return None
            return reader.span(reader.value_at(sep.end(), line_end, cell=cell), cls, KINDS[cls])
        reach = _BRIDGE_REACH.match(self.low, label.end, line_end).end()  # type: ignore[union-attr]  # always matches
        if label.cjk or _BRIDGE_HINT.search(self.low, label.end, min(line_end, reach + 3)) \
                or _BORROWED_HINT.search(self.low, label.end, min(line_end, reach + 3)):
            bridge = _BRIDGE.match(text, label.end, line_end)
            if bridge is None or (bridge.group("to") is not None
                                  and not _SETTING_BEFORE.search(self.low, self.line_start(label.start), label.start)):
                bridge = _BRIDGE_NO_TO.match(text, label.end, line_end)  # "the password to the box is …"
            if bridge is not None and label.cls == vocab.PASSWORD:
                grouped = _GROUPED_LETTERS.match(text, bridge.end(), line_end)
                if grouped and values.token_like(grouped.group(0).replace(" ", "")):
                    return Span(grouped.start(), grouped.end(), KINDS[cls], RANK_ASSIGNMENT)
            if bridge is not None:
                cell = bridge.group("sep") == "|"
                if not cell or self._in_table_row(self.line_start(label.start), label.start):
                    span = reader.span(reader.value_at(bridge.end(), line_end, cell=cell), cls, KINDS[cls])
                    if span is not None:
                        return span
        if not _DIRECT_HINT.match(text, label.end, line_end):
            return None  # nothing value-like right after the label
        quote = text[label.end:label.end + 1]
        if quote in ("\"", "'", "`") and label.start and text[label.start - 1] == quote:
            return None  # ``("change_password", 1)``: the quote closes the label, it opens no value
        direct = (_DIRECT_CJK if label.cjk else _DIRECT).match(text, label.end, line_end)
        if direct is None:
            return None
        return reader.span(reader.value_at(direct.end(), line_end), cls, KINDS[cls], direct=True)

    def reverse(self, label: Label, line_start: int) -> Span | None:
        """The value before a password label: "use X as the password", "用 X 作为密码"."""
        window_start = max(line_start, label.start - 120)
        if not _REVERSE_HINT.search(self.text, window_start, label.start) \
                and not _REVERSE_IS_HINT.search(self.text, max(window_start, label.start - _REVERSE_IS_REACH), label.start):
            return None
        match = _REVERSE.search(self.text, window_start, label.start)
        if match is None:
            return None
        group = next(g for g in ("en", "zh", "put", "is", "it") if match.group(g) is not None)
        start, end, _ = unquote(self.text, *match.span(group))
        return self.reader.span((start, end, True), vocab.PASSWORD, KINDS[vocab.PASSWORD])

    def _in_table_row(self, line_start: int, pos: int) -> bool:
        """A "|" separates cells only in a markdown table row, which starts with one."""
        row = _ROW_START.match(self.view, line_start, pos)
        return row is not None

    def _cells(self, start: int, end: int) -> list[tuple[int, int]]:
        """Cell spans of a markdown table row (without the outer pipes)."""
        bars: list[int] = []
        pos = self.view.find("|", start, end)
        while pos >= 0 and len(bars) <= _MAX_TABLE_COLUMNS:
            bars.append(pos)
            pos = self.view.find("|", pos + 1, end)
        return [(a + 1, b) for a, b in zip(bars, bars[1:])]

    def table_column(self, label: Label, line_start: int, line_end: int) -> list[Span]:
        """A header cell naming a credential: check that column in every row below it."""
        view = self.view
        if self.table[0] < label.start < self.table[1] or not self._in_table_row(line_start, label.start):
            return []  # a row of a table already read (a table has one header), or no table
        # The separator row first: it is one test per line, where the cells cost a step per "|".
        separator_end = view.find("\n", line_end + 1, line_end + 4096)
        if separator_end < 0 or not _TABLE_SEPARATOR.fullmatch(view, line_end + 1, separator_end):
            return []
        cells = self._cells(line_start, line_end)
        column = next((i for i, (a, b) in enumerate(cells) if a <= label.start and label.end <= b), None)
        if column is None or not _HEADER_CELL.fullmatch(self.low, cells[column][0], label.start):
            return []  # "Condition to pass": the word is part of a phrase, not the column's name
        found: list[Span] = []
        row_start = separator_end + 1
        while row_start < len(view) and view[row_start:row_start + 64].lstrip()[:1] == "|":
            row_end = view.find("\n", row_start, row_start + 4096)
            row_end = row_end if row_end >= 0 else min(len(view), row_start + 4096)
            row = self._cells(row_start, row_end)
            if column < len(row):
                got = self.reader.value_at(row[column][0], row[column][1], cell=True)
                span = self.reader.span(got, label.cls, KINDS[label.cls])
                if span is not None:
                    found.append(span)
            if row_end >= len(view) or view[row_end] != "\n":
                break
            row_start = row_end + 1
        self.table = (line_end, row_start)
        return found


def _merge_windows(windows: list[tuple[int, int]]) -> list[tuple[int, int]]:
    merged: list[tuple[int, int]] = []
    for start, end in sorted(windows):
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], end))
        else:
            merged.append((start, end))
    return merged


def _aws_secrets(text: str, occurrences: Occurrences) -> list[Span]:
    found: list[Span] = []
    low = occurrences.low
    windows = [(pos, pos + _AWS_WINDOW) for pos in occurrences.of_all(_AWS_ANCHORS)
               if not (pos and low[pos - 1].isalpha())]  # "AWS", "aws_…", not "draws", "laws"
    for start, end in _merge_windows(windows):
        for match in _AWS_SECRET.finditer(text, start, min(end, len(text))):
            value = match.group(0)
            if values.token_like(value) and any(c.isupper() for c in value) and any(c.islower() for c in value) \
                    and any(c.isdigit() for c in value) and not values.is_reference_or_default(value) \
                    and shapes.looks_random(value):  # not ``V1OrganizationExternalKeysPostRequestGcp``
                found.append(Span(match.start(), match.end(), AWS_KIND, RANK_ASSIGNMENT))
    return found


def _table_bar(view: str, low: int, high: int, start: int, step: int) -> bool:
    """A bar in the reach: a label there may head a table column, which other rows read."""
    return view.find("|", low, high) >= 0


# What a label's verdict reads (``repeats.Runs``): its line, at most ``LINE`` characters either
# way, and the character before it (``\b`` and look-behinds), with the label's width, class and
# flags (the rest of its tuple); and no bar, or it may be a table's header cell.
_RUNS = Reach(before=LINE + 1, after=LINE, refuses=_table_bar)


def scan(text: str, view: str, occurrences: Occurrences | None = None,
         reader: ValueReader | None = None) -> list[Span]:
    """Credentials after labels, in labelled table columns, and AWS secrets in prose."""
    occurrences = occurrences or Occurrences(view.lower(), text)
    state = _Scan(text, view, occurrences.low, reader or ValueReader(text))
    found: list[Span] = []
    done = -1
    size = len(view)
    # A label's value depends only on the characters of its window (its line, bounded, and the
    # character before it, which ``\b`` and look-behinds read).
    windows = WindowVerdicts(text)
    bars = "|" in view  # a table's header cell: without a bar there is no table to read
    found_labels = labels(text, view, occurrences)
    count = len(found_labels)
    index = 0
    runs = Runs(text, view, found_labels, _RUNS)
    while index < count:
        label = found_labels[index]
        index += 1
        start, end, cls, cjk, plural = label
        if start < done or (start and text[start - 1] in "?&#;"):
            continue  # already reported, or a URL parameter (``links``)
        line_end = view.find("\n", end, end + LINE)
        if line_end < 0:
            line_end = min(size, end + LINE)
        reach = start - LINE if start > LINE else 0
        line_start = view.rfind("\n", reach, start) + 1 or reach  # ``state.line_start``, inlined
        base = line_start - 1 if line_start else 0
        span = windows.verdict(base, line_end, (line_start - base, start - base, end - base, cls, cjk, plural))
        if span is False:
            span = state.forward(label, line_end)
            if span is None and cls == vocab.PASSWORD:
                span = state.reverse(label, line_start)
            windows.remember(base, span)
        if span is None and line_end - end <= below.MAX_REST and line_end < size and view[line_end] == "\n":
            if line_end - end <= nextline.MAX_REST:
                span = nextline.value_below(text, view, state.reader, line_start, start, end, line_end, cls,
                                            KINDS[cls])
            if span is None:  # "Password for staging: see below", the value a few lines down
                span = below.value_below(text, view, state.reader, end, line_end, cls, KINDS[cls])
        if span is not None:
            found.append(span)
            done = max(span.end, end)
        if bars and view.find("|", line_start, start) >= 0:
            found.extend(state.table_column(label, line_start, line_end))
        else:
            index, done = runs.after(index, span, done, found)
    found.extend(_aws_secrets(text, occurrences))
    return found


__all__ = ["AWS_KIND", "KINDS", "scan"]
