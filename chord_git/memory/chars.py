"""Characters memory text never holds: one rule for every reader and writer of memory files.

* C0 and C1 controls and DEL, but tab and newline (and a carriage return right before a newline,
  as CRLF files end their lines): a NUL makes git call the file binary (no diff, no merge driver,
  no review), and an escape sequence (ESC, or CSI ``\\x9b``) rewrites what a terminal shows.
* Line breaks other than ``\\n``, that is the rest of what ``str.splitlines`` splits on (``\\x0b``
  ``\\x0c`` ``\\x1c``-``\\x1e`` ``\\x85`` U+2028 U+2029): only ``\\n`` ends a line in our formats and in
  git, but editors and models show these as line breaks, so one index line could read as two and
  the second be an entry our parser never saw.
* Invisible characters: zero-width space and word joiner, a BOM inside the text, bidi embeddings,
  overrides and isolates. They make a path or a name read differently from what the checks looked
  at (``/ho<U+200B>me/ana`` is no absolute path to a regex; U+202E turns ``gnp.md`` around).
  The joiners U+200C and U+200D are legal between non-ASCII characters, where scripts and emoji
  need them (Persian ``فایل<U+200C>ها``, the emoji ``👩<U+200D>💻``), and refused next to ASCII, where
  they only hide text.

Pure functions over text; the formats (index lines, records, promotion and pending files) call
them where they read and where they render.
"""
from __future__ import annotations

import re
import unicodedata

# The line breaks (not "\n") str.splitlines() knows; each is refused below.
LINE_BREAKS = "\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"
# Every character refused somewhere: controls but tab, newline and carriage return, the line
# breaks, the invisible characters, and the two joiners (refused only next to ASCII, ``_joins``).
# One character class: a status on a large index searches it in a few milliseconds.
_CANDIDATES = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u200b-\u200d\u2028\u2029"
                         "\u202a-\u202e\u2060\u2066-\u2069\ufeff]")
_LONE_CR = re.compile("\r(?!\n)")  # a carriage return ends a line only as part of CRLF
# The ASCII ones, for ``bytes.translate``: ASCII text (most indexes) is searched at memory speed.
_ASCII_REFUSED = bytes(range(0x00, 0x09)) + b"\x0b\x0c" + bytes(range(0x0e, 0x20)) + b"\x7f"
_JOINERS = "\u200c\u200d"
# Names of the controls, which unicodedata does not name.
_CONTROL_NAMES = {0x00: "NUL", 0x07: "BELL", 0x08: "BACKSPACE", 0x09: "TAB", 0x0A: "LINE FEED",
                  0x0B: "LINE TABULATION", 0x0C: "FORM FEED", 0x0D: "CARRIAGE RETURN", 0x1B: "ESCAPE",
                  0x1C: "FILE SEPARATOR", 0x1D: "GROUP SEPARATOR", 0x1E: "RECORD SEPARATOR",
                  0x7F: "DELETE", 0x85: "NEXT LINE", 0x9B: "CONTROL SEQUENCE INTRODUCER"}


def name(char: str) -> str:
    """``U+2028 (LINE SEPARATOR)``: a character as a report names it, never the character itself."""
    code = ord(char)
    fallback = "a control character" if unicodedata.category(char) == "Cc" else "an unnamed character"
    label = unicodedata.name(char, "") or _CONTROL_NAMES.get(code, fallback)
    return f"U+{code:04X} ({label})"


def _why(char: str) -> str:
    if char == "\n":
        return "where one line is expected"
    if char in LINE_BREAKS or char == "\r":
        return "which editors and models read as a line break; only a newline ends a line here"
    if unicodedata.category(char) == "Cc":
        return "a control character no memory file holds"
    return "an invisible character that makes text read differently from what was checked"


def _joins(text: str, at: int) -> bool:
    """Whether the joiner at ``at`` sits between two non-ASCII characters (emoji, scripts)."""
    return 0 < at < len(text) - 1 and not text[at - 1].isascii() and not text[at + 1].isascii()


def _first_refused(text: str) -> tuple[int, str] | None:
    """(offset, character) of the first refused character, newlines aside (``first``)."""
    cr = _LONE_CR.search(text) if "\r" in text else None
    found: tuple[int, str] | None = (cr.start(), "\r") if cr is not None else None
    if text.isascii():  # known without reading: CPython keeps the flag with the string
        data = text.encode("ascii")
        if len(data.translate(None, _ASCII_REFUSED)) == len(data):
            return found
    for match in _CANDIDATES.finditer(text, 0, found[0] if found is not None else len(text)):
        char = match.group()
        if char in _JOINERS and _joins(text, match.start()):
            continue
        return match.start(), char
    return found


def first(text: str, *, one_line: bool = False) -> tuple[int, str] | None:
    """(offset, character) of the first character ``text`` may not hold, or None. ``one_line``:
    a newline is refused too (a summary, an index line, a target path)."""
    found = _first_refused(text)
    if one_line and "\n" in text:
        newline = text.index("\n")
        if found is None or newline < found[0]:
            return newline, "\n"
    return found


def problem(text: str, *, one_line: bool = False) -> str | None:
    """Why ``text`` may not be memory text, in one line naming the character, or None."""
    hit = first(text, one_line=one_line)
    if hit is None:
        return None
    return f"holds {name(hit[1])}, {_why(hit[1])}"


def line_problem(text: str) -> tuple[int, str] | None:
    """(1-based line, reason) of the first unsafe character in a file's ``text``, or None."""
    hit = first(text)
    if hit is None:
        return None
    return text.count("\n", 0, hit[0]) + 1, f"holds {name(hit[1])}, {_why(hit[1])}"


def require(text: str, what: str, *, one_line: bool = False) -> None:
    """Refuse to render ``text`` as ``what``: our writers never write what our readers refuse
    (ValueError; callers judge candidates first, so this is the last line of defence)."""
    reason = problem(text, one_line=one_line)
    if reason is not None:
        raise ValueError(f"{what} {reason}")
