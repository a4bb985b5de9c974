"""What a project has allowed, applied the same way to both secret layers.

- Pragmas, with detect-secrets' own syntax so that one comment silences both layers:
  ``<!-- pragma: allowlist secret -->`` (or ``# …``, ``// …``) at the end of the line that holds
  the value, or ``<!-- pragma: allowlist nextline secret -->`` alone at the start of the line
  before it.
- A ``.secrets.baseline`` allows *values*: a finding is dropped when its value's hash is in the
  baseline for that file, or when it covers a value layer 2 matched against the baseline. Any
  other secret on the same line is still reported. The baseline's ``exclude-lines``,
  ``exclude-files`` and ``exclude-secrets`` patterns apply to both layers, here, on a
  linear-time engine; one that would match nearly everything is refused (``allow_patterns``).

Pure functions over lines; the baseline is the parsed JSON detect-secrets writes.
"""
from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from chord_git.support.dataclass_lazy import dataclass, field

from .allow_patterns import Filters, Matcher, any_match, compile_filters

# detect_secrets/filters/allowlist.py: a comment opener, then the pragma.
_COMMENT = r"(?:#|//|/\*|'|--|<!--[# \t]*?)"
SAME_LINE = re.compile(rf"{_COMMENT}[ \t]*pragma: ?(?:allow|white)list[ -]secret")
NEXT_LINE = re.compile(rf"^{_COMMENT}[ \t]*pragma: ?allowlist[ -]nextline[ -]secret")

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


@dataclass(frozen=True)
class Allowances:
    """What the baseline and the pragmas allow in one file."""

    excluded_file: bool = False
    lines: frozenset[int] = frozenset()  # allowed by a pragma or an exclude-lines pattern
    hashes: frozenset[str] = frozenset()  # values baselined for this file
    spans: Mapping[int, Sequence[Span]] = field(default_factory=dict)  # baselined layer-2 values
    secret_patterns: tuple[Matcher, ...] = ()

    def allows(self, line: int, start: int, end: int, value: str) -> bool:
        """Is a finding at ``line`` (characters ``start``..``end`` of it, holding ``value``) allowed?"""
        if self.excluded_file or line in self.lines:
            return True
        if self.hashes and value_hash(value) in self.hashes:
            return True
        if any(start < e and s < end for s, e in self.spans.get(line, ())):
            return True
        return any_match(self.secret_patterns, value)


def allowances(path: str, lines: Sequence[tuple[int, str]], baseline: Mapping[str, Any] | None,
               spans: Mapping[int, Sequence[Span]] | None = None, filters: Filters | None = None) -> Allowances:
    """The allowances for ``path``'s added ``lines`` under ``baseline`` (may be None), whose
    patterns ``filters`` holds compiled (compiled here when not given)."""
    if filters is None:
        filters = compile_filters(baseline)
    allowed = set(pragma_lines(lines))
    if filters.lines:
        allowed.update(n for n, text in lines if any_match(filters.lines, text))
    hashes: frozenset[str] = frozenset()
    if baseline:
        entries = baseline.get("results", {}).get(path, [])
        hashes = frozenset(e["hashed_secret"] for e in entries if isinstance(e, dict) and "hashed_secret" in e)
    return Allowances(
        excluded_file=any_match(filters.files, path),
        lines=frozenset(allowed),
        hashes=hashes,
        spans=spans or {},
        secret_patterns=filters.secrets,
    )


__all__ = ["Allowances", "NEXT_LINE", "SAME_LINE", "allowances", "pragma_lines", "value_hash"]
