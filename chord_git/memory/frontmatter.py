"""YAML front matter shared by record and promotion files: split, load, and the common field checks."""
from __future__ import annotations

import datetime as dt
import errno
import os
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from chord_git.support import safe_yaml
from chord_git.support.dataclass_lazy import dataclass
from chord_git.findings import Problem
from chord_git.memory import chars


@dataclass(frozen=True)
class FrontMatter:
    lines: list[str]  # the front-matter lines, without the '---' fences
    data: dict[Any, Any]
    close: int  # index of the closing '---' among the file's lines
    file_lines: list[str]

    def line_of(self, name: str) -> int | None:
        """1-based file line of a top-level field, for reports."""
        for number, line in enumerate(self.lines, start=2):
            if line.startswith(f"{name}:"):
                return number
        return None


def read_file(path: Path, cap: int, what: str) -> bytes | Problem:
    """A record or promotion file's bytes: never through a symlink, never more than ``cap`` bytes.

    The one way the tool opens these files; every reader (strict, lenient, raw) starts here.
    """
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            return Problem(None, "symlink", f"{what} file is a symlink; refused")
        return Problem(None, "io", f"cannot read: {exc.strerror}")
    try:
        size = os.fstat(fd).st_size
        if size > cap:
            return Problem(None, "size", f"{what} file is {size} bytes (cap {cap})")
        # Plain reads on the descriptor: a file object per record was a tenth of reading 10,000.
        chunks: list[bytes] = []
        left = cap + 1
        while left > 0:
            chunk = os.read(fd, left)
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
    except OSError as exc:
        return Problem(None, "io", f"cannot read: {exc.strerror}")
    finally:
        os.close(fd)
    return b"".join(chunks)


def decode(data: bytes, cap: int, what: str) -> str | Problem:
    """The file's text (a leading BOM dropped), or why it is not text within ``cap`` bytes."""
    if len(data) > cap:
        return Problem(None, "size", f"{what} file is {len(data)} bytes (cap {cap})")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        return Problem(data[: exc.start].count(b"\n") + 1, "encoding", "not valid UTF-8")
    return text.lstrip("\ufeff")


def load_yaml(text: str) -> Any:
    """Plain, bounded values (``safe_yaml``): dates stay text, aliases and sizes are capped.

    Front matter as the tool writes it is read by ``read_simple``, without YAML."""
    simple = read_simple(text)
    return simple if simple is not None else safe_yaml.load(text)


# ``read_simple`` reads front matter in the shape the tool writes (one ``key: value`` per line)
# in a few microseconds, where YAML costs a quarter of a millisecond per record and 10 ms to
# import: a whole-project check of 10,000 records spent most of its time there. It answers only
# when ``safe_yaml.load`` certainly reads the same mapping (tests compare the two on generated
# front matter) and returns None for anything else: comments, continuation lines, flow style,
# unknown escapes, and plain values YAML reads as numbers or booleans.
_SIMPLE_LINE = re.compile(r"([a-z_]+): (.+)")
# PyYAML's timestamp resolver (yaml/resolver.py): such a value stays the text it was written as.
_TIMESTAMP = re.compile(r"""[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]
    |[0-9][0-9][0-9][0-9]-[0-9][0-9]?-[0-9][0-9]?(?:[Tt]|[ \t]+)[0-9][0-9]?:[0-9][0-9]:[0-9][0-9](?:\.[0-9]*)?
     (?:[ \t]*(?:Z|[-+][0-9][0-9]?(?::[0-9][0-9])?))?""", re.X)
# PyYAML's int and float resolvers, for plain values that start with a digit (record and session
# ids do): a value they match is left to YAML.
_NUMBER = re.compile(r"""0b[0-1_]+|0[0-7_]+|(?:0|[1-9][0-9_]*)|0x[0-9a-fA-F_]+|[1-9][0-9_]*(?::[0-5]?[0-9])+
    |[0-9][0-9_]*\.[0-9_]*(?:[eE][-+][0-9]+)?|[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*""", re.X)
# YAML 1.1 words that are not strings (PyYAML's bool and null resolvers).
_NOT_STRINGS = frozenset("yes Yes YES no No NO true True TRUE false False FALSE on On ON off Off OFF "
                         "null Null NULL".split())
# First characters of plain values that YAML reads as indicators, signed numbers or specials.
_RISKY_START = frozenset("-?:,[]{}#&*!|>'\"%@`+.<=~ ")
# Characters YAML treats as line breaks, refuses or reads specially: with any of them, YAML decides.
_UNSURE_CHARS = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\ufeff\ud800-\udfff\ufffe\uffff\t]")
# Escapes of double-quoted YAML (yaml/scanner.py ESCAPE_REPLACEMENTS and ESCAPE_CODES).
_ESCAPES = {"0": "\0", "a": "\x07", "b": "\x08", "t": "\t", "n": "\n", "v": "\x0b", "f": "\x0c", "r": "\r",
            "e": "\x1b", " ": " ", '"': '"', "/": "/", "\\": "\\", "N": "\x85", "_": "\xa0", "L": "\u2028",
            "P": "\u2029"}
_HEX_ESCAPES = {"x": 2, "u": 4, "U": 8}
_UNSURE = object()  # what ``_simple_value`` returns for a value it leaves to YAML


def read_simple(text: str) -> dict[str, Any] | None:
    """The mapping in ``text`` when every line is ``key: value`` in a form read without doubt."""
    if not text or len(text) > safe_yaml.MAX_CHARS or _UNSURE_CHARS.search(text):
        return None
    data: dict[str, Any] = {}
    for line in text.split("\n"):
        match = _SIMPLE_LINE.fullmatch(line)
        if match is None:
            return None
        key, raw = match.groups()
        if key in data or key in _NOT_STRINGS or raw != raw.strip():
            return None
        value = _simple_value(raw)
        if value is _UNSURE:
            return None
        data[key] = value
    return data


def _simple_value(raw: str) -> Any:
    if raw == "null":
        return None
    if raw[0] == "'":
        body = raw[1:-1]
        if len(raw) < 2 or raw[-1] != "'" or "'" in body.replace("''", ""):
            return _UNSURE
        return body.replace("''", "'")
    if raw[0] == '"':
        return _double_quoted(raw)
    if raw[0] in _RISKY_START or raw in _NOT_STRINGS or ": " in raw or " #" in raw or raw.endswith(":"):
        return _UNSURE
    if raw[0].isdigit():
        if _TIMESTAMP.fullmatch(raw):
            return raw  # safe_yaml keeps a date as the text it was written as
        if _NUMBER.fullmatch(raw):
            return _UNSURE
    return raw


def _double_quoted(raw: str) -> Any:
    if len(raw) < 2 or raw[-1] != '"':
        return _UNSURE
    body = raw[1:-1]
    if "\\" not in body:
        return _UNSURE if '"' in body else body
    out: list[str] = []
    i = 0
    while i < len(body):
        cut = body.find("\\", i)
        plain = body[i:] if cut < 0 else body[i:cut]
        if '"' in plain:
            return _UNSURE  # the value ends before the last quote: not a simple line
        out.append(plain)
        if cut < 0:
            break
        code = body[cut + 1:cut + 2]
        if code in _ESCAPES:
            out.append(_ESCAPES[code])
            i = cut + 2
        elif code in _HEX_ESCAPES:
            digits = body[cut + 2:cut + 2 + _HEX_ESCAPES[code]]
            if len(digits) != _HEX_ESCAPES[code] or not all(c in "0123456789abcdefABCDEF" for c in digits):
                return _UNSURE
            point = int(digits, 16)
            if point > 0x10FFFF or 0xD800 <= point <= 0xDFFF:
                return _UNSURE
            out.append(chr(point))
            i = cut + 2 + len(digits)
        else:
            return _UNSURE
    return "".join(out)


def dump_yaml(data: dict[str, Any], quoted: Sequence[str] = ()) -> str:
    """Front matter as YAML; the string values of ``quoted`` fields come out double-quoted, so a
    hand edit of the value (a colon, a '#', a leading '-') cannot change how the line parses.

    Every other value is quoted by the emitter exactly when it would otherwise read back
    differently (``null``, ``123``, ``a: b``…), so a render always parses back to the same data.
    """
    return safe_yaml.dump(data, quoted)


def split(text: str, what: str) -> tuple[FrontMatter | None, list[Problem]]:
    """The front matter of ``text``, or the one problem that stops reading it."""
    lines = text.split("\n")
    if not lines or lines[0].rstrip("\r") != "---":
        return None, [Problem(1, "front-matter", f"{what} must start with a '---' front-matter line")]
    close = next((i for i in range(1, len(lines)) if lines[i].rstrip("\r") == "---"), None)
    if close is None:
        return None, [Problem(1, "front-matter", "front matter is not closed by a '---' line")]
    front_lines = [line.rstrip("\r") for line in lines[1:close]]
    try:
        data = load_yaml("\n".join(front_lines))
    except safe_yaml.YamlRefused as exc:
        hint = '; put free text in double quotes, e.g. summary: "…" (docs/records.md)' \
            if exc.message.startswith("invalid YAML") else ""
        return None, [Problem(exc.line + 1 if exc.line else 1, "front-matter", f"{exc.message}{hint}")]
    if not isinstance(data, dict):
        return None, [Problem(2, "front-matter", "front matter must be a mapping of fields")]
    return FrontMatter(front_lines, data, close, lines), []


def character_problems(front: FrontMatter, values: Mapping[str, str | None]) -> list[Problem]:
    """Characters no memory file holds (``chars``): the first in the file as written, at its line,
    and any in a field as read, where a YAML escape (``"\\0"``, ``"\\u2028"``) puts one that the
    file's bytes do not show."""
    problems: list[Problem] = []
    text = "\n".join(front.file_lines)
    found = chars.line_problem(text)
    if found is not None:
        problems.append(Problem(found[0], "unsafe-character", found[1]))
    elif "\\" not in text:
        return problems  # a value holds only what the file shows, but for a backslash escape
    for name, value in values.items():
        reason = chars.problem(value) if value is not None else None
        if reason is None:
            continue
        line = front.line_of(name)
        if found is None or line != found[0]:
            problems.append(Problem(line, "unsafe-character", f"field {name!r} {reason}"))
    return problems


def as_text(value: Any) -> str | None:
    if value is None:
        return None
    if isinstance(value, (dt.date, dt.datetime)):
        return value.isoformat()[:10]
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return str(value)
    return value if isinstance(value, str) else None


def check_fields(front: FrontMatter, fields: Sequence[str], required: Sequence[str]) -> tuple[dict[str, str | None], list[Problem]]:
    """Unknown, missing and non-text fields; returns the fields as text."""
    problems: list[Problem] = []
    for name in front.data:
        if name not in fields:
            problems.append(Problem(front.line_of(str(name)), "field-unknown", f"unknown field {name!r}"))
    for name in required:
        if front.data.get(name) in (None, ""):
            problems.append(Problem(1, "field-missing", f"missing field {name!r}"))
    values = {name: as_text(front.data.get(name)) for name in fields}
    for name in fields:
        if front.data.get(name) is not None and values[name] is None:
            problems.append(Problem(front.line_of(name), "field-type", f"field {name!r} must be text"))
    return values, problems
