"""Line reading shared by every transcript reader: decoding, line numbers, JSON per line.

Files are read line by line so a multi-megabyte session never sits in memory twice; every
problem is reported as ``InputError(path, line, …)`` so the user can open the file at that line.
"""
from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from typing import IO, Any

from chord_git.errors import InputError

NumberedLine = tuple[int, str]
Record = tuple[int, Any]

_BOM = "\ufeff"
_DECODER = json.JSONDecoder()


def iter_binary_lines(stream: IO[bytes], path: str) -> Iterator[NumberedLine]:
    """Decode a byte stream into numbered lines (1-based) without end-of-line characters.

    Blank lines are yielded too so numbering survives a later join (JSON arrays).
    """
    for number, raw in enumerate(stream, 1):
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            bad = f"0x{raw[exc.start]:02x}"
            raise InputError(
                path, number, f"not valid UTF-8 (byte {bad} at byte {exc.start + 1} of the line)"
            ) from None
        yield number, _clean(text, number)


def iter_text_lines(lines: Iterable[str]) -> Iterator[NumberedLine]:
    """Number already-decoded lines the same way ``iter_binary_lines`` does."""
    for number, text in enumerate(lines, 1):
        yield number, _clean(text, number)


def _clean(text: str, number: int) -> str:
    if number == 1 and text.startswith(_BOM):
        text = text[1:]
    # CRLF files: a stray "\r" would otherwise end up inside the last JSON token's line.
    return text.rstrip("\r\n")


def parse_json(text: str, path: str, line: int) -> Any:
    """One JSON value from one line, or an InputError naming the line."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(path, line, f"not valid JSON: {exc.msg} (column {exc.colno})") from None
    except RecursionError:
        raise InputError(path, line, "JSON nested too deeply") from None
    except ValueError as exc:  # an integer longer than Python converts (4,300 digits)
        raise InputError(path, line, f"not usable JSON: {str(exc).split(':')[0]}") from None


def iter_records(lines: Iterable[NumberedLine], path: str) -> Iterator[Record]:
    """JSON Lines: one parsed value per non-blank line."""
    for number, text in lines:
        if text.strip():
            yield number, parse_json(text, path, number)


def iter_json_array(lines: Iterable[NumberedLine], path: str) -> Iterator[Record]:
    """Elements of one JSON array (possibly pretty-printed), each with the line it starts on."""
    text = "\n".join(t for _, t in lines)
    pos = _skip_ws(text, 0)
    if pos >= len(text) or text[pos] != "[":
        raise InputError(path, _line_of(text, pos), "expected a JSON array")
    pos = _skip_ws(text, pos + 1)
    if pos < len(text) and text[pos] == "]":
        _expect_end(text, pos + 1, path)
        return
    line, counted_to = 1, 0
    while True:
        try:
            value, end = _DECODER.raw_decode(text, pos)
        except json.JSONDecodeError as exc:
            message = f"not valid JSON: {exc.msg} (column {exc.colno})"
            raise InputError(path, exc.lineno, message) from None
        except RecursionError:
            raise InputError(path, _line_of(text, pos), "JSON nested too deeply") from None
        except ValueError as exc:  # an integer longer than Python converts (4,300 digits)
            raise InputError(path, _line_of(text, pos), f"not usable JSON: {str(exc).split(':')[0]}") from None
        # Count newlines incrementally: recounting from the start would be quadratic.
        line += text.count("\n", counted_to, pos)
        counted_to = pos
        yield line, value
        pos = _skip_ws(text, end)
        if pos < len(text) and text[pos] == ",":
            pos = _skip_ws(text, pos + 1)
            continue
        if pos < len(text) and text[pos] == "]":
            _expect_end(text, pos + 1, path)
            return
        raise InputError(path, _line_of(text, pos), "expected ',' or ']' in JSON array")


def iter_json_document(lines: Iterable[NumberedLine], path: str) -> Iterator[Record]:
    """One JSON value spread over many lines (a pretty-printed export), as the only record."""
    text = "\n".join(t for _, t in lines)
    pos = _skip_ws(text, 0)
    try:
        value, end = _DECODER.raw_decode(text, pos)
    except json.JSONDecodeError as exc:
        raise InputError(path, exc.lineno, f"not valid JSON: {exc.msg} (column {exc.colno})") from None
    except RecursionError:
        raise InputError(path, _line_of(text, pos), "JSON nested too deeply") from None
    except ValueError as exc:  # an integer longer than Python converts (4,300 digits)
        raise InputError(path, _line_of(text, pos), f"not usable JSON: {str(exc).split(':')[0]}") from None
    _expect_end(text, end, path)
    yield _line_of(text, pos), value


def _expect_end(text: str, pos: int, path: str) -> None:
    pos = _skip_ws(text, pos)
    if pos < len(text):
        raise InputError(path, _line_of(text, pos), "unexpected text after the JSON array")


def _skip_ws(text: str, pos: int) -> int:
    while pos < len(text) and text[pos] in " \t\r\n":
        pos += 1
    return pos


def _line_of(text: str, pos: int) -> int:
    return text.count("\n", 0, pos) + 1


def require_object(value: Any, path: str, line: int) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise InputError(path, line, f"expected a JSON object, got {_json_kind(value)}")
    return value


def _json_kind(value: Any) -> str:
    if isinstance(value, list):
        return "an array"
    if isinstance(value, str):
        return "a string"
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    return "a number"
