"""Claude Code's auto memory: ``<config dir>/projects/<slug>/memory/``.

The config dir is ``$CLAUDE_CONFIG_DIR`` or ``~/.claude``. The slug is the git root's absolute path
(a linked worktree's is its main checkout's; outside git, the folder itself) with every character
that is not an ASCII letter or digit turned into ``-``; past 200 characters it is cut there and
ends in ``-`` and a base-36 hash of the path (the rule Claude Code names its folders by).
``MEMORY.md`` indexes topic files (``topics``).
"""
from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from chord_git.imports.reading import Problem
from chord_git.imports.registry import Read, Where
from chord_git.imports.sources.git_root import git_root
from chord_git.imports.sources.markdown_store import read_markdown
from chord_git.imports.sources.topics import topic_items

SLUG_CAP = 200


def _java_hash(text: str) -> int:
    """The 32-bit string hash Claude Code computes (over UTF-16 code units)."""
    data = text.encode("utf-16-le", "surrogatepass")
    value = 0
    for index in range(0, len(data), 2):
        value = (value * 31 + int.from_bytes(data[index:index + 2], "little")) & 0xFFFFFFFF
    return value - (1 << 32) if value >= 1 << 31 else value


def _base36(number: int) -> str:
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    out = ""
    while True:
        number, rest = divmod(number, 36)
        out = digits[rest] + out
        if not number:
            return out


def slug(project: Path) -> str:
    text = str(project)
    # One "-" per UTF-16 code unit, as the host replaces them: a character beyond the BMP gives two.
    units = "".join(ch if ch.isascii() and ch.isalnum() else "-" * (2 if ord(ch) > 0xFFFF else 1) for ch in text)
    if len(units) <= SLUG_CAP:
        return units
    return f"{units[:SLUG_CAP]}-{_base36(abs(_java_hash(text)))}"


def config_dir(where: Where) -> Path:
    configured = where.env.get("CLAUDE_CONFIG_DIR")
    return Path(configured) if configured else where.home / ".claude"


def stores(where: Where) -> list[Path]:
    return [config_dir(where) / "projects" / slug(git_root(where.project.resolve())) / "memory"]


def read(root: Path, where: Where, problems: list[Problem]) -> Iterator[Read]:
    return read_markdown(root, problems, recursive=False, file_items=topic_items)
