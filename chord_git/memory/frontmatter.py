"""YAML front matter shared by record and promotion files: split, load, and the common field checks."""
from __future__ import annotations

import datetime as dt
import errno
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from chord_git import safe_yaml
from chord_git.findings import Problem


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
        with os.fdopen(fd, "rb") as handle:
            size = os.fstat(handle.fileno()).st_size
            if size > cap:
                return Problem(None, "size", f"{what} file is {size} bytes (cap {cap})")
            data = handle.read(cap + 1)
    except OSError as exc:
        return Problem(None, "io", f"cannot read: {exc.strerror}")
    return data


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
    """Plain, bounded values (``safe_yaml``): dates stay text, aliases and sizes are capped."""
    return safe_yaml.load(text)


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
