"""Secrets hidden by an encoding or a line break (R31): decode bounded runs and scan them again.

- percent-encoding, ``\\xNN``/``\\uNNNN`` escapes (YAML and JSON strings) and base64 / hex / base32 runs
  that decode to text: the decoded text is scanned by the caller's scanner, and a finding there
  marks the encoded run;
- a value split over two adjacent lines (a long token wrapped in a record, a YAML ``\\``
  continuation): the end of the first line and the start of the next are joined and scanned, and
  findings that cross the join are reported over both pieces. A next line that opens with an
  assignment (``LOG_LEVEL=40``, as every line of an env dump does) continues no value;
- a value after a line continuation (``export API_TOKEN=\\`` then the value, a Dockerfile
  ``ENV KEY \\``) and a value written as adjacent string literals (``"ab12" "cd34"``,
  ``'ab12' + 'cd34'``, over lines too): the line is rebuilt without the continuation, or with the
  literals joined (``stitched``), scanned again, and findings are mapped back to the pieces.

Linear time: each candidate run is decoded at most once per encoding and is at most
``MAX_RUN`` characters long; a join looks at most ``_JOIN_CONTEXT`` characters either side, a
rebuilt line keeps at most ``_MAX_CONTINUED`` (continuations) or ``_LITERAL_CONTEXT`` (literals)
characters around its value, and each literal is read once; the caller bounds the depth of
rescans. The candidates of a text are rescanned together, in one call
(a scan has a fixed cost that would otherwise be paid once per candidate).
"""
from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Callable

from ...support.regex_lazy import lazy
from ..text.spans import Span
from .stitched import Stitched

Rescan = Callable[[list[str]], list[list[Span]]]  # texts -> the spans found in each, in one scan

MAX_RUN = 8192
_MIN_DECODED = 12
_JOIN_CONTEXT = 160
_B64_RUN = lazy(r"[A-Za-z0-9+/]{24,}={0,2}|[A-Za-z0-9_\-]{24,}={0,2}")
_HEX_RUN = lazy(r"(?:[0-9a-fA-F]{2}){12,}")
# What every match of ``_HEX_RUN`` and ``_B64_RUN`` holds (hex digits are base64 characters):
# one search of a run, instead of starting both ``finditer`` on it, settles the runs of notes
# (paths, host names, words joined by dots or dashes), which have none.
_ANY_RUN = lazy(r"[A-Za-z0-9+/]{24}|[A-Za-z0-9_\-]{24}")
_B32_RUN = lazy(r"[A-Z2-7]{24,}={0,2}")  # a base64 run's padding: at most two of base32's six
# Base64 of ASCII text: each 4-character group starts with a character worth less than 32
# (the byte's top bit is clear); hex of printable ASCII has a first digit 2-7 in every pair. A
# cheap test on the first groups that rejects random runs before decoding them.
_B64_OF_TEXT = lazy(r"(?:[A-Za-f][A-Za-z0-9+/_\-]{3}){4}")
_HEX_OF_TEXT = lazy(r"(?:[2-7][0-9a-fA-F]){8}")
# Base32 of ASCII text: each 8-character group opens with the top five bits of a byte below 128,
# a letter A-P.
_B32_OF_TEXT = lazy(r"(?:[A-P][A-Z2-7]{7}){2}")
_ESCAPE = lazy(r"%[0-9A-Fa-f]{2}|\\x[0-9A-Fa-f]{2}|\\u[0-9A-Fa-f]{4}")

# A line break with a value character on both sides (a digit just before it, and a run on the
# next line, indented at most 8): the literal newline first lets the engine skip between lines.
_LINE_BREAK_IN_VALUE = lazy(r"\n(?<=[0-9A-Za-z_\-+/=~%\\]{12}\n)[ \t]{0,8}[A-Za-z0-9_\-+/=~%]{6}")
_DIGITS = lazy(r"\d")
_LETTERS = lazy(r"[A-Za-z]")
_UPPER = lazy(r"[A-Z]")
_LOWER = lazy(r"[a-z]")
_RUN = lazy(r"[A-Za-z0-9_\-+/=.~%\\]+")
# A next line that opens with ``KEY=value`` (``KEY="…"``, ``KEY = …``) starts an assignment of its
# own: no encoding of a value puts "=" anywhere but in its closing padding, which ends the line.
_ASSIGNMENT_HEAD = lazy(r"[A-Za-z_][A-Za-z0-9_.\-]{0,127}[ \t]*=(?:[^=\s]|[ \t]+\S)")


def _text(data: bytes) -> str | None:
    """``data`` as text when it is mostly printable (a decoded secret), else None."""
    try:
        decoded = data.decode("utf-8")
    except UnicodeDecodeError:
        return None
    printable = len(decoded) if decoded.isprintable() else sum(1 for c in decoded if c.isprintable() or c in "\n\t")
    return decoded if len(decoded) >= _MIN_DECODED and printable >= 0.95 * len(decoded) else None


def _unescape(run: str) -> str:
    return _ESCAPE.sub(lambda m: chr(int(m.group(0)[2:] if m.group(0)[0] == "\\" else m.group(0)[1:], 16)), run)


def _b64(run: str) -> str | None:
    core = run.rstrip("=")
    if len(core) % 4 == 1 or not _B64_OF_TEXT.match(core):
        return None
    data = core.replace("-", "+").replace("_", "/") + "=" * (-len(core) % 4)
    try:
        return _text(base64.b64decode(data, validate=True))
    except (binascii.Error, ValueError):
        return None


def _b32(run: str) -> str | None:
    core = run.rstrip("=")
    if len(core) % 8 in (1, 3, 6) or not _B32_OF_TEXT.match(core):
        return None
    try:
        return _text(base64.b32decode(core + "=" * (-len(core) % 8)))
    except (binascii.Error, ValueError):
        return None


def _hex(run: str) -> str | None:
    if not _HEX_OF_TEXT.match(run):
        return None
    try:
        return _text(bytes.fromhex(run))
    except ValueError:
        return None


def _may_decode(view: str, pos: int, hex_run: bool) -> bool:
    """Whether the decoders could read text from the run matched at ``pos``: a test that needs
    no slice of it, so runs that can't decode to text (hashes, ids) are never sliced, keyed or
    memoised. Each decoder's first test is one of these three patterns, applied to the run's
    first 16 characters. A match is at least 24 characters long before its ``=`` padding, so
    those characters are the ones at ``pos`` in the view. ``_b64`` reads ``_B64_OF_TEXT``, and
    ``_b32``, tried after it on the same run, reads ``_B32_OF_TEXT``."""
    if hex_run:
        return _HEX_OF_TEXT.match(view, pos) is not None
    return _B64_OF_TEXT.match(view, pos) is not None or _B32_OF_TEXT.match(view, pos) is not None


def encoded(view: str, runs: list[tuple[int, int]], rescan: Rescan) -> list[Span]:
    """Runs whose percent-/escape-/base64-/hex-/base32-decoded text holds a secret."""
    found: list[Span] = []
    runs = [(start, end) for start, end in runs if 24 <= end - start <= MAX_RUN]
    # Shorter runs decode to fewer than the 12 characters of a secret.
    escaped: list[tuple[int, int, str]] = []
    # A run is sliced only when it holds an escape's lead: most runs hold none, and a text with
    # neither character holds none.
    percent, backslash = "%" in view, "\\" in view
    for start, end in runs if percent or backslash else ():
        if (percent and view.find("%", start, end) >= 0) or (backslash and view.find("\\", start, end) >= 0):
            run = view[start:end]
            unescaped = _unescape(run)
            if unescaped != run:
                escaped.append((start, end, unescaped))
    settled: set[int] = set()
    for (start, end, _), hits in zip(escaped, rescan([text for _, _, text in escaped])):
        if hits:
            found.append(Span(start, end, hits[0].kind, hits[0].rank))
            settled.add(start)
    decoded: list[tuple[int, int, str]] = []
    seen: dict[tuple[str, str], str | None] = {}  # runs repeat in dense text: decode each once
    for start, end in runs:
        if start in settled or _ANY_RUN.search(view, start, end) is None:
            continue
        for pattern, decoder in ((_HEX_RUN, _hex), (_B64_RUN, _b64)):
            for match in pattern.finditer(view, start, end):
                if not _may_decode(view, match.start(), decoder is _hex):
                    continue
                key = (decoder.__name__, match.group(0))
                text = seen[key] if key in seen else seen.setdefault(key, decoder(key[1]))
                if not text and decoder is _b64 and key[1].isupper() and _B32_RUN.fullmatch(key[1]):
                    # Base32's alphabet is inside base64's: its runs are the base64 runs in capitals.
                    key = ("_b32", key[1])
                    text = seen[key] if key in seen else seen.setdefault(key, _b32(key[1]))
                if text:
                    decoded.append((match.start(), match.end(), text))
    for (start, end, _), hits in zip(decoded, rescan([text for _, _, text in decoded])):
        if hits:
            found.append(Span(start, end, hits[0].kind, hits[0].rank))
    return found


def split_values(view: str, text: str, rescan: Rescan) -> list[Span]:
    """Secrets that a line break cuts in two: found in the joined ends of adjacent lines; and
    values written over a line continuation or as adjacent string literals, found in the line
    rebuilt without the continuation or with the literals joined."""
    joins = [piece for match in _LINE_BREAK_IN_VALUE.finditer(view)
             if (piece := _join_at(view, text, match.start())) is not None]
    rebuilt = [*_continued_lines(view, text), *_joined_literals(view, text)]
    texts = [joined for _, _, _, joined in joins] + [stitched.text for stitched in rebuilt]
    found: list[Span] = []
    results = rescan(texts)
    for (left, head, join, _), hits in zip(joins, results):
        for hit in hits:
            if hit.start < join < hit.end:
                found.append(Span(left + hit.start, head + hit.end - join, hit.kind, hit.rank))
    for stitched, hits in zip(rebuilt, results[len(joins):]):
        found.extend(span for hit in hits if (span := stitched.original(hit)) is not None)
    return found


# A line continued by a final backslash whose value is on the next line: ``export API_TOKEN=\``,
# ``-e DB_PASSWORD=\``, ``password: \``, a Dockerfile ``ENV API_KEY \``. A continued line that
# ends anywhere else (``apt-get update && \``) continues a command, not a value.
_CONTINUATION = lazy(r"\\\r?\n")
_MAX_CONTINUED = 256
# The end of a line before its continuing backslash: ``KEY=``, ``KEY:`` as its last word, or a
# Dockerfile / shell ``ENV KEY`` alone on the line.
_KEY_AT_END = lazy(r"(?:^|[ \t])[A-Za-z_][A-Za-z0-9_.\-]{0,127}[ \t]*[=:][ \t]*\Z"
                   r"|^[ \t]*(?:ENV|ARG)[ \t]+[A-Za-z_][A-Za-z0-9_.\-]{0,127}[ \t]+\Z", re.MULTILINE)


def _line_start(view: str, pos: int, reach: int) -> int:
    """The start of ``pos``'s line, or ``reach`` characters back when the line starts further."""
    low = max(0, pos - reach)
    newline = view.rfind("\n", low, pos)
    return newline + 1 if newline >= 0 else low


def _continued_lines(view: str, text: str) -> list[Stitched]:
    """Each line that ends in ``KEY=\\`` joined with the line after it, as one line."""
    rebuilt: list[Stitched] = []
    for continuation in _CONTINUATION.finditer(view):
        pos, head = continuation.start(), continuation.end()
        line_start = _line_start(view, pos, _MAX_CONTINUED)
        while head < len(view) and view[head] in " \t":
            head += 1
        end = view.find("\n", head, head + _MAX_CONTINUED)
        end = end if end >= 0 else min(len(view), head + _MAX_CONTINUED)
        if end > head and view[end - 1] == "\r":
            end -= 1
        if end > head and _key_before(view, line_start, pos):
            stitched = Stitched(text)
            stitched.copy(line_start, pos)
            stitched.copy(head, end)
            rebuilt.append(stitched)
    return rebuilt


def _key_before(view: str, line_start: int, pos: int) -> bool:
    """Does the line end, before its backslash at ``pos``, with a key and ``=`` / ``:``, or is it ``ENV KEY``?"""
    last = pos - 1
    while last > line_start and view[last] in " \t":
        last -= 1
    first = line_start
    while first < pos and view[first] in " \t":
        first += 1
    if view[last] not in "=:" and not view.startswith(("ENV", "ARG"), first, pos):
        return False  # most continued lines continue a command: one look settles them
    return _KEY_AT_END.search(view, max(line_start, pos - 140), pos) is not None


# Adjacent string literals holding one value: ``"ab12" "cd34"`` (implicit concatenation in C and
# Python), ``"ab12" + "cd34"`` (Python, JavaScript, Java), over a line break (or a backslash
# continuation) too. Each literal holds
# no blank (a credential has none; words joined into a sentence do) and no escape.
_LITERAL_GAP = lazy(r"""(["'])(?:[ \t]*\+[ \t]*(?:\\?\r?\n[ \t]*)?|[ \t]+|[ \t]*\\?\r?\n[ \t]*(?:\+[ \t]*)?)(["'])""")
_MAX_LITERAL = 200
_MIN_JOINED = 8
_LITERAL_CONTEXT = 96


def _literal_before(view: str, close: int) -> int:
    """The opening quote of the literal closed at ``close``, or -1 when it is not one short run."""
    quote = view[close]
    opening = view.rfind(quote, max(0, close - _MAX_LITERAL - 1), close)
    if opening < 0 or close - opening < 2:
        return -1
    inner = view[opening + 1:close]
    return opening if not any(c in inner for c in " \t\n\\\"'") else -1


def _literal_after(view: str, opening: int) -> int:
    """The closing quote of the literal opened at ``opening``, or -1."""
    quote = view[opening]
    close = view.find(quote, opening + 1, opening + _MAX_LITERAL + 2)
    if close < 0 or close - opening < 2:
        return -1
    inner = view[opening + 1:close]
    return close if not any(c in inner for c in " \t\n\\\"'") else -1


def _joined_literals(view: str, text: str) -> list[Stitched]:
    """Each run of adjacent string literals rebuilt as one literal, on its first line with what
    follows the last on its own line."""
    rebuilt: list[Stitched] = []
    pos = 0
    for candidate in _gap_candidates(view):
        if candidate < pos:
            continue
        gap = _LITERAL_GAP.match(view, candidate)
        if gap is None:
            continue
        pos = gap.end(1)
        opening = _literal_before(view, gap.start(1))
        if opening < 0:
            continue
        pieces = [(opening + 1, gap.start(1))]
        while gap is not None and (close := _literal_after(view, gap.start(2))) >= 0:
            pieces.append((gap.start(2) + 1, close))
            pos = close
            gap = _LITERAL_GAP.match(view, close) if len(pieces) < 8 else None
        if len(pieces) < 2 or max(end - start for start, end in pieces) < 4 \
                or not _partial_value("".join(view[start:end] for start, end in pieces), _MIN_JOINED):
            pos = max(pos, pieces[0][1] + 1)
            continue
        # The key before the literals and the end of the statement after them: short contexts,
        # so that a line dense with literals is rebuilt at about its own length.
        line_start = _line_start(view, opening, _LITERAL_CONTEXT)
        last = pieces[-1][1]
        line_end = view.find("\n", last, last + _LITERAL_CONTEXT // 2)
        line_end = line_end if line_end >= 0 else min(len(view), last + _LITERAL_CONTEXT // 2)
        stitched = Stitched(text)
        group = _grouping(view, line_start, opening, last, line_end)
        if group is None:
            stitched.copy(line_start, pieces[0][0])
        else:  # ``password = ("ab12"\n "cd34")``: read as ``password = "ab12cd34"``
            stitched.copy(line_start, group[0])
            stitched.copy(opening, pieces[0][0])
        for start, end in pieces:
            stitched.copy(start, end)
        stitched.copy(last, last + 1)
        stitched.copy(last + 1 if group is None else group[1] + 1, line_end)
        rebuilt.append(stitched)
    return rebuilt


# What a gap between two literals starts with: a quote, then a blank, a "+", a backslash or a
# line break. One pattern per quote, each starting with its literal quote, which the engine skips
# to (a pattern starting with either quote tests every character: seven times slower).
_GAP_LEADS = (lazy(r"\"[ \t+\\\r\n]"), lazy(r"'[ \t+\\\r\n]"))


def _gap_candidates(view: str) -> list[int]:
    """Where a gap between two literals may start, in order."""
    found = [match.start() for lead in _GAP_LEADS for match in lead.finditer(view)]
    found.sort()
    return found


def _grouping(view: str, line_start: int, opening: int, close: int, line_end: int) -> tuple[int, int] | None:
    """(open, close) of the parentheses that only group the literals, after ``=`` or ``:``, or None."""
    before = opening - 1
    while before > line_start and view[before] in " \t":
        before -= 1
    after = close + 1
    while after < line_end and view[after] in " \t":
        after += 1
    if before <= line_start or view[before] != "(" or after >= line_end or view[after] != ")":
        return None
    assigner = before - 1
    while assigner > line_start and view[assigner] in " \t":
        assigner -= 1
    return (before, after) if view[assigner] in "=:" else None


def _partial_value(piece: str, minimum: int = 12) -> bool:
    """Could ``piece`` be half of a generated value: long enough, letters and digits mixed?"""
    if len(piece) < minimum or "://" in piece:
        return False
    # Searches that stop at the first character deciding each test, not counts over the piece:
    # every line of a column of blobs is tested twice (as a tail and as a head), and the counts
    # were half the time of a 326 KiB column of hex values (``_join_at`` 268 of 511 ms profiled;
    # the whole column 179-207 -> 133-135 ms CPU, base64 values 156-180 -> 129-135 ms).
    first = _LETTERS.search(piece)
    if first is None or _LETTERS.search(piece, first.end()) is None:
        return False  # fewer than two letters
    upper = _UPPER.search(piece) is not None
    if (len(piece) >= 16 or upper) and _DIGITS.search(piece) is not None:
        return True
    return upper and len(piece) >= 12 and _LOWER.search(piece) is not None


def _join_at(view: str, text: str, newline: int) -> tuple[int, int, int, str] | None:
    """(start of the left piece, start of the right piece, where they meet in the joined text,
    the joined text) for the line break at ``newline``, or None when no value crosses it."""
    head = newline + 1
    while head < len(view) and head - newline <= 8 and view[head] in " \t":
        head += 1
    head_run = _RUN.match(view, head, head + _JOIN_CONTEXT)
    # The next line first: one that opens with an assignment continues no value (``_ASSIGNMENT_HEAD``).
    if head_run is None or _ASSIGNMENT_HEAD.match(view, head) or not _partial_value(head_run.group(0), 6):
        return None
    back = _RUN.match(view[max(0, newline - _JOIN_CONTEXT):newline][::-1])
    tail_start = newline - (back.end() if back else 0)
    value_start = max(view.rfind(c, tail_start, newline) for c in "=:/") + 1 or tail_start
    if not _partial_value(view[max(tail_start, value_start):newline]):
        return None  # the line ends in a word, a date or a path, not in the middle of a value
    cut = newline - 1 if view[newline - 1] == "\\" else newline  # YAML line continuation
    left = max(text.rfind("\n", max(0, tail_start - _JOIN_CONTEXT), tail_start) + 1, tail_start - _JOIN_CONTEXT)
    right_end = view.find("\n", head_run.end(), head_run.end() + _JOIN_CONTEXT)
    right_end = right_end if right_end >= 0 else min(len(view), head_run.end() + _JOIN_CONTEXT)
    return left, head, cut - left, text[left:cut] + text[head:right_end]


__all__ = ["MAX_RUN", "encoded", "split_values"]
