"""The patterns a project supplies: a baseline's ``exclude-lines``, ``exclude-files`` and
``exclude-secrets`` filters, compiled so that they can neither hang a scan nor switch it off.

- Bounded cost. Each pattern runs on RE2 (``google-re2``), whose time is linear in the text
  whatever the pattern. Python's backtracking engine takes exponential time on shapes like
  ``^(\\w+\\s?)*$`` and quadratic time on patterns as plain as ``\\w+foo`` (18 s on one
  40,000-character line); a check of a pattern's shape can refuse the first kind but not the
  second, and the scan reads lines of megabytes. A pattern RE2 cannot run (look-around,
  back-references: constructs only a backtracking engine has) is refused, as is one it cannot
  compile within its memory budget.
- Never wholesale. A pattern that matches the empty string inside a line, or half or more of a
  small probe set of ordinary lines (of paths for ``exclude-files``, of credential values for
  ``exclude-secrets``), would allow nearly everything: ``.*``, ``^``, ``\\S*``, ``[\\s\\S]*``.
  It is refused, as is an ``exclude-files`` pattern that takes MEMORY.md or every record. A
  pattern that only matches empty lines (``^$``) allows nothing and is kept.

A refusal is an ``InputError`` naming the baseline and the pattern's line (exit 2).
detect-secrets gets the baseline without these filters (``without_pattern_filters``): our
allowances (``allow``) apply them to both layers, and its own filter would run them on Python's
engine. Parsing is pure; ``re2`` is imported only when a baseline has patterns.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from ...errors import InputError, one_line
from ...support.dataclass_lazy import dataclass

LINES = "detect_secrets.filters.regex.should_exclude_line"
FILES = "detect_secrets.filters.regex.should_exclude_file"
SECRETS = "detect_secrets.filters.regex.should_exclude_secret"
_OPTION = {LINES: "exclude-lines", FILES: "exclude-files", SECRETS: "exclude-secrets"}
_MAX_MEM = 8 << 20  # RE2's budget for one compiled pattern: far above any real filter

# What each kind of pattern is matched against, in ordinary use. None of them names a word that
# allowlists commonly hold (example, test, dummy, fake, sample, mock, placeholder, localhost).
_PROBE_LINES = (
    "The deploy job runs after review, and the cache is warmed before traffic moves.",
    "## Decisions",
    "- Use pnpm, not npm, for the web app; the lockfile is committed.",
    "def load_config(path: Path) -> dict[str, Any]:",
    "    return json.loads(path.read_text(encoding='utf-8'))",
    "timeout_seconds: 30",
    "DATABASE_HOST=db.internal",
    "See https://docs.python.org/3/library/re.html for the syntax.",
    "数据库迁移在每次发布前运行。",
    "2026-05-01 12:00:00 INFO worker started (pid 4312)",
    "}",
    "42",
)
_PROBE_PATHS = (
    "README.md", ".chord/memory/decisions.md", "src/app/main.py", "config/settings.yaml",
    "docs/setup.md", "Makefile", ".env", "scripts/deploy.sh", "web/package.json", "LICENSE",
)
_PROBE_SECRETS = (
    "hunter2-Staging!", "Zq8XvL2mK9pT4wR7nB3cY6hJ", "3f9a0c7e5b1d2468ac0e9f7b3d5c1a2e",
    "p@ssw0rd#2026", "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl", "Tr0ub4dor&3",
    "AbCdEf123456/+xyz==", "s3cr3t_value_for_prod", "9b1deb4d3b7d4bad9bdd2b0d7b3dcb6d",
    "correct horse battery staple",
)
_PROBES = {LINES: _PROBE_LINES, FILES: _PROBE_PATHS, SECRETS: _PROBE_SECRETS}
# The files this tool writes and checks: an exclude-files pattern that takes the index, or every
# record, takes everything the hook and CI read here (``\.md$``, ``^\.chord/``). One that names
# a single record is an allowance, and is kept.
_MEMORY_INDEX = "MEMORY.md"
_MEMORY_RECORDS = (".chord/memory/records/20260105-use-pnpm-3f9a.md",
                   ".chord/memory/records/20261129-deploy-order-0001.md",
                   ".chord/memory/promotions/20261201-review-rules-7c2e.md")


class Matcher(Protocol):
    """A compiled pattern: ``search`` as in ``re``, on a linear-time engine."""

    def search(self, text: str) -> object | None: ...


@dataclass(frozen=True)
class Filters:
    """A baseline's patterns, compiled and checked."""

    lines: tuple[Matcher, ...] = ()
    files: tuple[Matcher, ...] = ()
    secrets: tuple[Matcher, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.lines or self.files or self.secrets)


def patterns(baseline: Mapping[str, Any] | None) -> dict[str, list[str]]:
    """The pattern strings of each regex filter of ``baseline`` (an entry may be absent)."""
    found: dict[str, list[str]] = {}
    for entry in (baseline or {}).get("filters_used", []) or []:
        if isinstance(entry, dict) and entry.get("path") in _OPTION:
            listed = entry.get("pattern", [])
            items = listed if isinstance(listed, list) else [listed]
            found.setdefault(entry["path"], []).extend(p for p in items if isinstance(p, str))
    return found


def without_pattern_filters(baseline: Mapping[str, Any]) -> list[Any]:
    """The baseline's ``filters_used`` less the regex filters, for detect-secrets' settings."""
    return [e for e in baseline.get("filters_used", []) or []
            if not (isinstance(e, dict) and e.get("path") in _OPTION)]


def _line_of(pattern: str, text: str | None) -> int | None:
    """Where a pattern sits in the baseline's text, as detect-secrets writes it (JSON strings)."""
    if not text:
        return None
    import json  # only a refusal gets here: a hook's start-up never pays for it

    for ascii_only in (True, False):
        at = text.find(json.dumps(pattern, ensure_ascii=ascii_only))
        if at >= 0:
            return text.count("\n", 0, at) + 1
    return None


def refusal(option: str, pattern: str, compiled: Matcher) -> str | None:
    """Why a pattern that compiled would allow nearly everything (None: it would not)."""
    probes = _PROBES[option]
    hits = 0
    for probe in probes:
        match = compiled.search(probe)
        if match is None:
            continue
        span = match.span()  # type: ignore[attr-defined]
        if span[0] == span[1]:
            return (f"{_OPTION[option]} pattern {_shown(pattern)} matches the empty string, so it "
                    "matches everything and would switch secret scanning off; refused")
        hits += 1
    if option == FILES and (compiled.search(_MEMORY_INDEX) is not None
                            or all(compiled.search(path) is not None for path in _MEMORY_RECORDS)):
        return (f"exclude-files pattern {_shown(pattern)} matches the memory files themselves (MEMORY.md "
                "or every record), so it would switch secret scanning off for them; refused")
    if hits * 2 >= len(probes):
        return (f"{_OPTION[option]} pattern {_shown(pattern)} matches ordinary "
                f"{'paths' if option == FILES else 'values' if option == SECRETS else 'lines'} "
                f"({hits} of {len(probes)} tried), so it would switch secret scanning off; refused")
    return None


def _shown(pattern: str) -> str:
    return repr(one_line(pattern, 80))


def _engine() -> tuple[Any, Any]:
    import re2  # deferred: a baseline without patterns never loads it

    options = re2.Options()
    options.log_errors = False  # its reasons are raised, not printed on the user's terminal
    options.max_mem = _MAX_MEM
    return re2, options


def compile_filters(baseline: Mapping[str, Any] | None, source: str = ".secrets.baseline",
                    text: str | None = None) -> Filters:
    """The baseline's patterns on RE2; an ``InputError`` naming ``source`` and the pattern's line
    (found in ``text``, the baseline as read) for one that RE2 cannot run or that matches nearly
    everything."""
    found = patterns(baseline)
    if not found:
        return Filters()
    re2, options = _engine()
    compiled: dict[str, list[Matcher]] = {}
    for option, listed in found.items():
        for pattern in listed:
            try:
                matcher: Matcher = re2.compile(pattern, options)
            except re2.error as exc:
                reason = exc.args[0] if exc.args else exc
                reason = reason.decode("utf-8", "replace") if isinstance(reason, bytes) else str(reason)
                raise InputError(source, _line_of(pattern, text),
                                 f"{_OPTION[option]} pattern {_shown(pattern)} cannot run in linear time "
                                 f"({one_line(reason, 80)}); rewrite it without look-around or "
                                 "back-references") from None
            why = refusal(option, pattern, matcher)
            if why:
                raise InputError(source, _line_of(pattern, text), why)
            compiled.setdefault(option, []).append(matcher)
    return Filters(tuple(compiled.get(LINES, ())), tuple(compiled.get(FILES, ())),
                   tuple(compiled.get(SECRETS, ())))


def any_match(matchers: Sequence[Matcher], text: str) -> bool:
    return any(m.search(text) is not None for m in matchers)


__all__ = ["FILES", "LINES", "SECRETS", "Filters", "Matcher", "any_match", "compile_filters", "patterns",
           "refusal", "without_pattern_filters"]
