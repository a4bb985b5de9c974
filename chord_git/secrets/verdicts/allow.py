"""What a project has allowed, applied the same way to both secret layers.

- Pragmas, with detect-secrets' own syntax so that one comment silences both layers:
  ``<!-- pragma: allowlist secret -->`` (or ``# …``, ``// …``) at the end of the line that holds
  the value, or ``<!-- pragma: allowlist nextline secret -->`` alone at the start of the line
  before it.
- A ``.secrets.baseline`` allows *values*: a finding is dropped when its value's hash is in the
  baseline for that file, or when it covers a value layer 2 matched against the baseline. Any
  other secret on the same line is still reported. The baseline's ``exclude-lines``,
  ``exclude-files`` and ``exclude-secrets`` patterns apply to layer 1 as well.

Pure functions over lines; the baseline is the parsed JSON detect-secrets writes.
"""
from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from chord_git.support.dataclass_lazy import dataclass, field

# detect_secrets/filters/allowlist.py: a comment opener, then the pragma.
_COMMENT = r"(?:#|//|/\*|'|--|<!--[# \t]*?)"
SAME_LINE = re.compile(rf"{_COMMENT}[ \t]*pragma: ?(?:allow|white)list[ -]secret")
NEXT_LINE = re.compile(rf"^{_COMMENT}[ \t]*pragma: ?allowlist[ -]nextline[ -]secret")

_FILTER_LINES = "detect_secrets.filters.regex.should_exclude_line"
_FILTER_FILES = "detect_secrets.filters.regex.should_exclude_file"
_FILTER_SECRETS = "detect_secrets.filters.regex.should_exclude_secret"

Span = tuple[int, int]


def value_hash(value: str) -> str:
    """The hash detect-secrets stores for a value (SHA-1 hex), which baselines and ignore files use."""
    import hashlib  # off the hook's start-up (OpenSSL): only a finding gets here

    return hashlib.sha1(value.encode("utf-8", "replace")).hexdigest()


def pragma_lines(lines: Sequence[tuple[int, str]]) -> frozenset[int]:
    """Line numbers a pragma allows: its own line, or the line after a nextline pragma."""
    allowed: set[int] = set()
    for number, text in lines:
        if "pragma" not in text:
            continue
        if SAME_LINE.search(text):
            allowed.add(number)
        if NEXT_LINE.match(text):
            allowed.add(number + 1)
    return frozenset(allowed)


def _patterns(baseline: Mapping[str, Any] | None, path: str) -> tuple[re.Pattern[str], ...]:
    if not baseline:
        return ()
    for entry in baseline.get("filters_used", []):
        if isinstance(entry, dict) and entry.get("path") == path:
            try:
                return tuple(re.compile(p) for p in entry.get("pattern", []) if isinstance(p, str))
            except re.error:
                return ()  # detect-secrets refuses such a baseline; layer 2 reports it
    return ()


@dataclass(frozen=True)
class Allowances:
    """What the baseline and the pragmas allow in one file."""

    excluded_file: bool = False
    lines: frozenset[int] = frozenset()  # allowed by a pragma or an exclude-lines pattern
    hashes: frozenset[str] = frozenset()  # values baselined for this file
    spans: Mapping[int, Sequence[Span]] = field(default_factory=dict)  # baselined layer-2 values
    secret_patterns: tuple[re.Pattern[str], ...] = ()

    def allows(self, line: int, start: int, end: int, value: str) -> bool:
        """Is a finding at ``line`` (characters ``start``..``end`` of it, holding ``value``) allowed?"""
        if self.excluded_file or line in self.lines:
            return True
        if self.hashes and value_hash(value) in self.hashes:
            return True
        if any(start < e and s < end for s, e in self.spans.get(line, ())):
            return True
        return any(p.search(value) for p in self.secret_patterns)


def allowances(path: str, lines: Sequence[tuple[int, str]], baseline: Mapping[str, Any] | None,
               spans: Mapping[int, Sequence[Span]] | None = None) -> Allowances:
    """The allowances for ``path``'s added ``lines`` under ``baseline`` (may be None)."""
    allowed = set(pragma_lines(lines))
    line_patterns = _patterns(baseline, _FILTER_LINES)
    if line_patterns:
        allowed.update(n for n, text in lines if any(p.search(text) for p in line_patterns))
    hashes: frozenset[str] = frozenset()
    if baseline:
        entries = baseline.get("results", {}).get(path, [])
        hashes = frozenset(e["hashed_secret"] for e in entries if isinstance(e, dict) and "hashed_secret" in e)
    return Allowances(
        excluded_file=any(p.search(path) for p in _patterns(baseline, _FILTER_FILES)),
        lines=frozenset(allowed),
        hashes=hashes,
        spans=spans or {},
        secret_patterns=_patterns(baseline, _FILTER_SECRETS),
    )


__all__ = ["Allowances", "NEXT_LINE", "SAME_LINE", "allowances", "pragma_lines", "value_hash"]
