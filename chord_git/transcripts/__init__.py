"""Session transcripts: the native format of SPEC plus readers for other agents' files.

``load(path)`` returns a ``Transcript`` whatever the format; ``detect_format(path)`` names it.
Every reader keeps tool calls and tool results only as markers and streams the file line by
line (JSON arrays of chat messages excepted: they are one JSON document).

Every format other than native is treated as frozen: the post-session hook hands a file over
once the session has ended, so ``Transcript.frozen`` is True unless a native header says false.
"""
from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator
from pathlib import Path

from chord_git.errors import InputError
from chord_git.transcripts.jsonl import (
    NumberedLine,
    iter_binary_lines,
    iter_json_array,
    iter_json_document,
    iter_records,
    iter_text_lines,
    parse_json,
)
from chord_git.transcripts.model import (
    Compaction,
    ConversationItem,
    Item,
    Message,
    ToolCall,
    ToolResult,
    Transcript,
)
from chord_git.transcripts.registry import BUILTIN, Formats

__all__ = [
    "BUILTIN",
    "FORMATS",
    "Compaction",
    "ConversationItem",
    "Item",
    "Message",
    "ToolCall",
    "ToolResult",
    "Formats",
    "Transcript",
    "detect_format",
    "load",
    "parse_lines",
]

# How many non-blank lines auto-detection may look at before giving up.
SNIFF_LINES = 20
FORMATS = BUILTIN.names()


def load(path: Path | str, fmt: str = "auto", formats: Formats = BUILTIN) -> Transcript:
    """Read a transcript file; ``fmt`` is ``auto`` or one of ``formats``."""
    formats.check(fmt)
    try:
        with open(path, "rb") as stream:
            return _parse_numbered(iter_binary_lines(stream, str(path)), fmt, str(path), formats)
    except OSError as exc:
        raise InputError(path, None, f"cannot read transcript: {exc.strerror or exc}") from None


def detect_format(path: Path | str, formats: Formats = BUILTIN) -> str:
    """The name of the file's format, judged from its first lines."""
    try:
        with open(path, "rb") as stream:
            fmt, _ = _sniff(iter_binary_lines(stream, str(path)), str(path), formats)
            return fmt
    except OSError as exc:
        raise InputError(path, None, f"cannot read transcript: {exc.strerror or exc}") from None


def parse_lines(
    lines: Iterable[str], fmt: str = "auto", path_for_errors: str = "<transcript>", formats: Formats = BUILTIN
) -> Transcript:
    """Read a transcript from decoded lines (with or without line ends); errors name
    ``path_for_errors`` and the 1-based line. Split text on "\\n" only: ``str.splitlines``
    also splits on U+2028 and friends, which JSON may carry unescaped inside strings."""
    formats.check(fmt)
    return _parse_numbered(iter_text_lines(lines), fmt, path_for_errors, formats)


def _parse_numbered(lines: Iterator[NumberedLine], fmt: str, path: str, formats: Formats) -> Transcript:
    if fmt == "auto":
        fmt, peeked = _sniff(lines, path, formats)
        lines = itertools.chain(peeked, lines)
    else:
        peeked = _peek_content(lines, path)
        lines = itertools.chain(peeked, lines)
    chosen = formats.get(fmt)
    if chosen.array_document and _starts_array(peeked):
        records = iter_json_array(lines, path)
    elif chosen.object_document and _opens_object(peeked):
        records = iter_json_document(lines, path)
    else:
        records = iter_records(lines, path)
    return chosen.read(records, path)


def _sniff(lines: Iterator[NumberedLine], path: str, formats: Formats) -> tuple[str, list[NumberedLine]]:
    """Detect the format; return it with the lines consumed so far (to be replayed)."""
    peeked: list[NumberedLine] = []
    first_line: int | None = None
    judged = 0
    array = formats.array_format()
    whole = formats.object_format()
    for number, text in lines:
        peeked.append((number, text))
        if not text.strip():
            continue
        judged += 1
        if first_line is None:
            first_line = number
            if array is not None and text.lstrip().startswith("["):
                return array.name, peeked
            if whole is not None and text.strip() == "{":
                return whole.name, peeked
        found = formats.detect_object(parse_json(text, path, number))
        if found is not None:
            return found, peeked
        if judged >= SNIFF_LINES:
            break
    if first_line is None:
        raise InputError(path, None, "empty transcript")
    raise InputError(path, first_line, formats.undetected_message())


def _peek_content(lines: Iterator[NumberedLine], path: str) -> list[NumberedLine]:
    """Consume up to the first non-blank line so an empty file is reported as such."""
    peeked: list[NumberedLine] = []
    for number, text in lines:
        peeked.append((number, text))
        if text.strip():
            return peeked
    raise InputError(path, None, "empty transcript")


def _opens_object(peeked: list[NumberedLine]) -> bool:
    """Whether the first non-blank line is a lone ``{``: a JSON object spread over many lines."""
    first = next((text for _, text in peeked if text.strip()), "")
    return first.strip() == "{"


def _starts_array(peeked: list[NumberedLine]) -> bool:
    for _, text in peeked:
        if text.strip():
            return text.lstrip().startswith("[")
    return False
