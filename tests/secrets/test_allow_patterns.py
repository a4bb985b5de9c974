"""A baseline's own patterns (``exclude-lines``, ``exclude-files``, ``exclude-secrets``): bounded
cost whatever the pattern, and never a switch that turns scanning off for everything."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from chord_git.errors import InputError
from chord_git.secrets import scan_added_lines
from chord_git.secrets.verdicts import allow_patterns
from chord_git.secrets.verdicts.allow_patterns import FILES, LINES, SECRETS, compile_filters

from . import fakes as f

PROSE = f"the staging password is {f.PASSWORD}"


def baseline_with(tmp_path: Path, option: str, *patterns: str) -> Path:
    """A detect-secrets baseline (as its CLI writes it: JSON, two-space indent) with one regex filter."""
    data = {
        "version": "1.5.0",
        "plugins_used": [{"name": "KeywordDetector", "keyword_exclude": ""}],
        "filters_used": [{"path": "detect_secrets.filters.heuristic.is_sequential_string"},
                         {"path": option, "pattern": list(patterns)}],
        "results": {},
        "generated_at": "2026-12-01T00:00:00Z",
    }
    path = tmp_path / ".secrets.baseline"
    path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    return path


def line_of(path: Path, pattern: str) -> int:
    return next(n for n, line in enumerate(path.read_text().splitlines(), 1) if json.dumps(pattern) in line)


# The catastrophic shapes: nested quantifiers and overlapping alternatives under a repeat, and the
# plain-looking quadratic ones (a repeat before a literal the line does not hold). On a backtracking
# engine each of these costs 2**60 steps or more on the lines below, so the scan finishing at all
# proves the cost bounded; no clock is read.
CATASTROPHIC = [r"^(\w+\s?)*$", r"^(a+)+$", r"(\w|\d)*!x", r"^(?:[a-z]+ ?)*[A-Z]$", r"\w+zq"]


@pytest.mark.parametrize("pattern", CATASTROPHIC)
def test_a_catastrophic_exclude_lines_pattern_costs_a_linear_pass(tmp_path: Path, pattern: str) -> None:
    baseline = baseline_with(tmp_path, LINES, pattern)
    sentence = " ".join(["word"] * 60) + "!"  # ordinary words ending where no pattern above can finish
    long_line = "a" * 200_000 + "!"  # \w+zq: 200,000 starts x 200,000 steps on a backtracking engine
    lines = [(1, sentence), (2, PROSE), (3, "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!"),
             (4, long_line), (5, PROSE + " " + sentence)]
    found = scan_added_lines({"MEMORY.md": lines}, baseline=baseline)
    assert (2, "password-in-text") in [(x.line, x.kind) for x in found]


def test_the_patterns_never_reach_pythons_engine(tmp_path: Path) -> None:
    """detect-secrets would run a baseline's regex filters with ``re``: it gets the baseline without them."""
    baseline = baseline_with(tmp_path, LINES, r"^(\w+\s?)*$")
    data = json.loads(baseline.read_text())
    kept = allow_patterns.without_pattern_filters(data)
    assert kept == [{"path": "detect_secrets.filters.heuristic.is_sequential_string"}]
    compiled = compile_filters(data)
    assert len(compiled.lines) == 1 and type(compiled.lines[0]).__module__.startswith("re2")


def test_exclude_lines_still_allow_what_they_name(tmp_path: Path) -> None:
    baseline = baseline_with(tmp_path, LINES, "^ACCEPTED:", r"(?i)\brotated\b")
    found = scan_added_lines({"MEMORY.md": [(1, f"ACCEPTED: {PROSE}"), (2, f"{PROSE} (Rotated)"), (3, PROSE)]},
                             baseline=baseline)
    assert [(x.line, x.kind) for x in found] == [(3, "password-in-text")]


EVERYTHING = {
    LINES: [".*", "^", "(?s).*", r"\S*", r"[\s\S]*", "", "x?", r"\b", ".", r"\w", "(?m)$", "[^\n]"],
    FILES: [".*", "^", "", ".", r"[\w.]", r"\.md$", r"^\.chord/", "MEMORY", "memory/"],
    SECRETS: [".*", "^", r"\S*", ".", r"\w", "[A-Za-z0-9]"],
}


@pytest.mark.parametrize("option, pattern", [(o, p) for o, ps in EVERYTHING.items() for p in ps])
def test_a_match_everything_pattern_is_refused_naming_the_file_and_line(tmp_path: Path, option: str,
                                                                       pattern: str) -> None:
    baseline = baseline_with(tmp_path, option, "^ACCEPTED:", pattern)
    with pytest.raises(InputError) as caught:
        scan_added_lines({"MEMORY.md": [(1, PROSE)]}, baseline=baseline)
    err = caught.value
    assert err.path == str(baseline) and err.line == line_of(baseline, pattern)
    assert "would switch secret scanning off" in err.message and "\n" not in str(err)


@pytest.mark.parametrize("option, pattern", [
    (LINES, "^ACCEPTED:"), (LINES, r"^\s*#"), (LINES, "example\\.com"), (LINES, "^$"), (LINES, r"^\s*$"),
    (LINES, "(?i)dummy|fake|placeholder"), (LINES, r"pragma: allowlist"),
    (FILES, r"\.lock$"), (FILES, "^tests/fixtures/"), (FILES, r"package-lock\.json"), (FILES, r"^docs/.*\.md$"),
    (FILES, r"^\.chord/memory/records/20261129-vendor-fixture-0001\.md$"),
    (SECRETS, "^EXAMPLE"), (SECRETS, "x{8,}"), (SECRETS, r"^\$\{.*\}$"),
])
def test_ordinary_patterns_are_kept(tmp_path: Path, option: str, pattern: str) -> None:
    assert compile_filters(json.loads(baseline_with(tmp_path, option, pattern).read_text()))


@pytest.mark.parametrize("pattern", [r"(?=password)\w+", r"(a)\1", r"foo(?<!bar)", r"\Z", "(a{1000}){1000}"])
def test_a_pattern_a_linear_engine_cannot_run_is_refused(tmp_path: Path, pattern: str) -> None:
    baseline = baseline_with(tmp_path, LINES, pattern)
    with pytest.raises(InputError) as caught:
        scan_added_lines({"MEMORY.md": [(1, PROSE)]}, baseline=baseline)
    assert caught.value.line == line_of(baseline, pattern)
    assert "cannot run in linear time" in caught.value.message
