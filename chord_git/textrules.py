"""Text patterns memory must not carry (R3, R18, R23), shared by ``check`` and extraction guards.

Every pattern is linear (no nested quantifiers) because memory text is untrusted input.
"""
from __future__ import annotations

import re

# Lookbehinds are ASCII-only on purpose: Unicode \w would match CJK text written right before a
# path ("代码在/Users/li/src"). Roots that only ever name a machine's own layout; API routes such as /v1/chat stay legal.
_POSIX_ROOTS = (
    "home|Users|root|usr|etc|var|tmp|opt|mnt|media|srv|run|private|Volumes|Library|Applications|"
    "System|nix|snap|proc|dev|sys|bin|sbin|lib|lib64|workspace|workspaces|builds|cygdrive|data|mnt"
)
ABSOLUTE_PATH = re.compile(
    r"(?:(?<![A-Za-z0-9_.~/\\:-])/(?:" + _POSIX_ROOTS + r")(?:/[^\s/`'\")\]>]+)+/?)"  # /home/ana/src
    r"|(?:(?<![A-Za-z0-9_])[A-Za-z]:[\\/][^\s`'\")\]>]*)"  # C:\Users\ana, D:/work
    r"|(?:(?<![A-Za-z0-9_\\])\\\\[\w.$-]+\\[^\s`'\")\]>]+)"  # \\server\share
    r"|(?:(?<![A-Za-z0-9_/])~[\w.-]*/[^\s`'\")\]>]*)"  # ~/src, ~ana/src
    r"|(?:\bfile:///[^\s`'\")\]>]+)"
)


def absolute_paths(text: str) -> list[tuple[int, int]]:
    """Spans of absolute paths (POSIX machine roots, Windows drives and shares, ``~/``)."""
    return [match.span() for match in ABSOLUTE_PATH.finditer(text)]


def line_of(text: str, offset: int) -> int:
    return text.count("\n", 0, offset) + 1
