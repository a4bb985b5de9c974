"""Items of a Markdown memory file (pure): one per list item, one per paragraph.

Memory files of every agent are Markdown written by a model or a person: a bullet is one thing
to remember, and so is a paragraph outside a list. Headings, code blocks, tables, HTML comments
(markers included) and rules are structure, not items. A bullet's continuation lines join it.
"""
from __future__ import annotations

import re
from collections.abc import Callable

from chord_git.support.dataclass_lazy import dataclass

_BULLET = re.compile(r"^(\s*)(?:[-*+•]|\d{1,3}[.)])\s+(.*)$")
_CHECKBOX = re.compile(r"^\[[ xX]\]\s+")
_FENCE = re.compile(r"^\s*(```|~~~)")
_HEADING = re.compile(r"^\s{0,3}#{1,6}(\s|$)")
_RULE = re.compile(r"^\s{0,3}([-*_])(\s*\1){2,}\s*$")
_TABLE = re.compile(r"^\s*\|")
_COMMENT_OPEN = "<!--"
_COMMENT_CLOSE = "-->"


@dataclass(frozen=True)
class Item:
    line: int  # 1-based, in the file
    text: str  # one line: the item's words with the list marker gone
    heading: str = ""  # the nearest heading above it


@dataclass(frozen=True)
class FrontMatter:
    fields: dict[str, str]
    body: str
    body_line: int  # the body's first line number in the file


def front_matter(text: str) -> FrontMatter:
    """``--- key: value ---`` at the top, read as flat one-line fields (a model writes no YAML
    structures there); anything else is body."""
    lines = text.split("\n")
    if not lines or lines[0].strip() != "---":
        return FrontMatter({}, text, 1)
    fields: dict[str, str] = {}
    for number, line in enumerate(lines[1:], start=1):
        if line.strip() in ("---", "..."):
            return FrontMatter(fields, "\n".join(lines[number + 1:]), number + 2)
        key, sep, value = line.partition(":")
        if sep and key.strip() and not key.startswith((" ", "\t")):
            fields[key.strip().lower()] = value.strip().strip("'\"")
    return FrontMatter({}, text, 1)  # never closed: not front matter


def _strip_comments(line: str, open_comment: bool) -> tuple[str, bool]:
    """The line without HTML comments, and whether a comment is still open after it."""
    out: list[str] = []
    rest = line
    while rest:
        if open_comment:
            end = rest.find(_COMMENT_CLOSE)
            if end < 0:
                return "".join(out), True
            rest, open_comment = rest[end + len(_COMMENT_CLOSE):], False
            continue
        start = rest.find(_COMMENT_OPEN)
        if start < 0:
            out.append(rest)
            break
        out.append(rest[:start])
        rest, open_comment = rest[start + len(_COMMENT_OPEN):], True
    return "".join(out), open_comment


def items(text: str, first_line: int = 1, *, starts: Callable[[str], bool] | None = None) -> list[Item]:
    """The items of ``text``, whose first line is line ``first_line`` of its file. A line for which
    ``starts`` says True begins an item of its own, as a bullet does."""
    found: list[Item] = []
    current: list[str] = []
    start = 0
    heading = ""
    fence: str | None = None
    in_comment = False

    def close() -> None:
        nonlocal current
        words = " ".join(part.strip() for part in current if part.strip())
        if words:
            found.append(Item(start, words, heading))
        current = []

    for number, raw in enumerate(text.split("\n"), start=first_line):
        line = raw.rstrip("\r")
        match = _FENCE.match(line)
        if fence is not None:
            if match and match.group(1) == fence:
                fence = None
            continue
        if match:
            close()
            fence = match.group(1)
            continue
        line, in_comment = _strip_comments(line, in_comment)
        if not line.strip():
            close()
            continue
        if _HEADING.match(line):
            close()
            heading = line.strip().lstrip("#").strip()
            continue
        if _RULE.match(line) or _TABLE.match(line):
            close()
            continue
        bullet = _BULLET.match(line)
        if not bullet and starts is not None and starts(line):
            close()
            start = number
            current = [line]
            continue
        if bullet:
            close()
            start = number
            current = [_CHECKBOX.sub("", bullet.group(2))]
            continue
        if not current:
            start = number
        current.append(line)
    close()
    return found


def is_bullet(line: str) -> bool:
    return _BULLET.match(line) is not None
