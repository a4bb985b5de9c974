"""Secrets hidden by an encoding or a line break (R31): decode bounded runs and scan them again.

- percent-encoding, ``\\xNN``/``\\uNNNN`` escapes (YAML and JSON strings) and base64 / hex runs
  that decode to text: the decoded text is scanned by the caller's scanner, and a finding there
  marks the encoded run;
- a value split over two adjacent lines (a long token wrapped in a record, a YAML ``\\``
  continuation): the end of the first line and the start of the next are joined and scanned, and
  findings that cross the join are reported over both pieces. A next line that opens with an
  assignment (``LOG_LEVEL=40``, as every line of an env dump does) continues no value.

Linear time: each candidate run is decoded at most once per encoding and is at most
``MAX_RUN`` characters long; a join looks at most ``_JOIN_CONTEXT`` characters either side; the
caller bounds the depth of rescans. The candidates of a text are rescanned together, in one call
(a scan has a fixed cost that would otherwise be paid once per candidate).
"""
from __future__ import annotations

import base64
import binascii
from collections.abc import Callable

from ...support.regex_lazy import lazy
from ..text.spans import Span

Rescan = Callable[[list[str]], list[list[Span]]]  # texts -> the spans found in each, in one scan

MAX_RUN = 8192
_MIN_DECODED = 12
_JOIN_CONTEXT = 160
_B64_RUN = lazy(r"[A-Za-z0-9+/]{24,}={0,2}|[A-Za-z0-9_\-]{24,}={0,2}")
_HEX_RUN = lazy(r"(?:[0-9a-fA-F]{2}){12,}")
# Base64 of ASCII text: each 4-character group starts with a character worth less than 32
# (the byte's top bit is clear); hex of printable ASCII has a first digit 2-7 in every pair. A
# cheap test on the first groups that rejects random runs before decoding them.
_B64_OF_TEXT = lazy(r"(?:[A-Za-f][A-Za-z0-9+/_\-]{3}){4}")
_HEX_OF_TEXT = lazy(r"(?:[2-7][0-9a-fA-F]){8}")
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


def _hex(run: str) -> str | None:
    if not _HEX_OF_TEXT.match(run):
        return None
    try:
        return _text(bytes.fromhex(run))
    except ValueError:
        return None


def encoded(view: str, runs: list[tuple[int, int]], rescan: Rescan) -> list[Span]:
    """Runs whose percent-/escape-/base64-/hex-decoded text holds a secret."""
    found: list[Span] = []
    runs = [(start, end) for start, end in runs if 24 <= end - start <= MAX_RUN]
    # Shorter runs decode to fewer than the 12 characters of a secret.
    escaped: list[tuple[int, int, str]] = []
    for start, end in runs:
        run = view[start:end]
        if "%" in run or "\\" in run:
            unescaped = _unescape(run)
            if unescaped != run:
                escaped.append((start, end, unescaped))
    settled: set[int] = set()
    for (start, end, _), hits in zip(escaped, rescan([text for _, _, text in escaped])):
        if hits:
            found.append(Span(start, end, hits[0].kind, hits[0].rank))
            settled.add(start)
    decoded: list[tuple[int, int, str]] = []
    seen: dict[tuple[bool, str], str | None] = {}  # runs repeat in dense text: decode each once
    for start, end in runs:
        if start in settled:
            continue
        for pattern, decoder in ((_HEX_RUN, _hex), (_B64_RUN, _b64)):
            for match in pattern.finditer(view, start, end):
                key = (decoder is _hex, match.group(0))
                text = seen[key] if key in seen else seen.setdefault(key, decoder(key[1]))
                if text:
                    decoded.append((match.start(), match.end(), text))
    for (start, end, _), hits in zip(decoded, rescan([text for _, _, text in decoded])):
        if hits:
            found.append(Span(start, end, hits[0].kind, hits[0].rank))
    return found


def split_values(view: str, text: str, rescan: Rescan) -> list[Span]:
    """Secrets that a line break cuts in two: found in the joined ends of adjacent lines."""
    joins = [piece for match in _LINE_BREAK_IN_VALUE.finditer(view)
             if (piece := _join_at(view, text, match.start())) is not None]
    found: list[Span] = []
    for (left, head, join, _), hits in zip(joins, rescan([joined for _, _, _, joined in joins])):
        for hit in hits:
            if hit.start < join < hit.end:
                found.append(Span(left + hit.start, head + hit.end - join, hit.kind, hit.rank))
    return found


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
