"""Secret scrubbing in two layers (R31): our sanitizer (layer 1), detect-secrets (layer 2).

``scan_added_lines`` is what the hooks and the CI scan call. Layer 2 runs first, on the part of
each file it can afford (see ``LAYER2_MAX_LINE``), because a baseline match there tells layer 1
which values the team has accepted; then layer 1 reads every added line of each file joined
together (so a private-key block spanning lines is seen whole). Both layers honour the same
allowances (``allow``: pragmas, the baseline's values and patterns) and the ignore file
(``ignore``). Each secret is reported once per line and kind family, layer 1's more specific kind
first. Importing this package does not import detect-secrets; ``detect.py`` does that only when
there are lines to scan.
"""
from __future__ import annotations

from bisect import bisect_right
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from ..dataclass_lazy import replace
from ..findings import Finding
from . import prefilter
from .allow import Allowances, allowances, value_hash
from .hits import LAYER1_FORMAT_FAMILIES, kind_family, secret_finding
from .ignore import IgnoreList
from .sanitize import SecretSpan, find, redact

# detect-secrets is slow on long text: its ``is_indirect_reference`` filter runs a regex that is
# quadratic in the line length on every line up to 1,000 characters (12 ms for a 560-character
# prose line here), and its plugins cost more per line as lines grow (a 10 MB line takes ~20 s).
# A hook cannot wait for that. Layer 1 is linear and reads everything; layer 2 reads lines up to
# LAYER2_MAX_LINE characters, and the first LAYER2_MAX_CHARS of each file (a record's size cap).
LAYER2_MAX_LINE = 4096
LAYER2_MAX_CHARS = 64 * 1024
Lines = Sequence[tuple[int, str]]


def layer2_part(lines: Lines) -> list[tuple[int, str]]:
    """The lines layer 2 reads: each up to ``LAYER2_MAX_LINE``, ``LAYER2_MAX_CHARS`` in all."""
    if sum(len(text) for _, text in lines) + len(lines) <= LAYER2_MAX_LINE:
        return list(lines)  # a record: every line fits, and so does the whole
    budget = LAYER2_MAX_CHARS
    part = []
    for number, text in lines:
        if budget > 0 and len(text) <= LAYER2_MAX_LINE:
            part.append((number, text))
            budget -= len(text) + 1
    return part


def _layer1(path: str, lines: Lines, allow: Allowances, ignored_hashes: frozenset[str]) -> list[Finding]:
    """Scan the added lines as one text and map each span back to its original line.

    A finding is dropped when the project allows it (``allow``: pragmas, the baseline's values
    and patterns) or its value's hash is in the ignore file; other findings on the same line stay.
    """
    starts: list[int] = []
    offset = 0
    for _, text in lines:
        starts.append(offset)
        offset += len(text) + 1
    joined = "\n".join(text for _, text in lines)
    found: list[Finding] = []
    for span in find(joined):
        index = bisect_right(starts, span.start) - 1
        number = lines[index][0]
        value = joined[span.start:span.end]
        start = span.start - starts[index]
        if allow.allows(number, start, start + len(value), value):
            continue
        if ignored_hashes and value_hash(value) in ignored_hashes:
            continue
        found.append(secret_finding(path, number, span.kind, span.layer))
    return found


def _combine(findings: list[Finding]) -> list[Finding]:
    """One finding per path, line and kind family; layer 1 decides on the formats it checks exactly."""
    seen: set[tuple[str, int | None, str]] = set()
    unique: list[Finding] = []
    for finding in findings:  # layer 1 first, so its more specific kind wins
        if finding.layer != "sanitizer" and kind_family(finding.kind) in LAYER1_FORMAT_FAMILIES:
            continue
        key = (finding.path, finding.line, kind_family(finding.kind))
        if key not in seen:
            seen.add(key)
            unique.append(finding)
    return sorted(unique, key=lambda f: (f.path, f.line or 0))


Unit = tuple[str, Lines]  # a path and its added lines


def load_baseline(baseline: Path | None) -> dict[str, Any] | None:
    """The parsed ``.secrets.baseline`` (None without one); an unreadable one is an InputError."""
    if baseline is None:
        return None
    from . import detect

    return detect.load_baseline(baseline)


def needs_layer2(units: Sequence[Unit], baseline: dict[str, Any] | None) -> bool:
    """Whether any line of ``units`` goes to detect-secrets (so it must be imported)."""
    gate = prefilter.default() if baseline is None else prefilter.for_baseline(baseline)
    parts = prefilter.layer2_parts(gate, [(path, layer2_part(lines)) for path, lines in units])
    return any(parts)


def scan_units(units: Sequence[Unit], *, baseline: dict[str, Any] | None = None,
               ignored_hashes: frozenset[str] = frozenset()) -> list[list[Finding]]:
    """Secrets on each unit's added lines, both layers, one list per unit (paths may repeat: the
    units of a history scan are the files of many commits).

    Both layers honour the project's allowances (pragmas, the baseline's values and patterns) and
    drop values whose hash is in ``ignored_hashes`` (the ignore file's value entries; its
    positional fingerprints are the caller's, since they name a commit). Layer 2 reads only the
    lines its plugins could report (``prefilter``), all units in one detect-secrets session; when
    there are none, detect-secrets is not imported.
    """
    gate = prefilter.default() if baseline is None else prefilter.for_baseline(baseline)
    bounded = [(path, layer2_part(lines)) for path, lines in units]
    parts = prefilter.layer2_parts(gate, bounded)
    wanted = [number for number, part in enumerate(parts) if part]
    layer2: list[list[Finding]] = [[] for _ in units]
    spans: list[dict[int, list[tuple[int, int]]]] = [{} for _ in units]
    allowed = [allowances(path, lines, baseline) for path, lines in units]
    if wanted:
        from . import detect

        # The empty lines ``layer2_parts`` puts between passing lines that are not neighbours
        # are left out: they can hold no finding, and what they kept apart (a line and the
        # previous line's "allowlist nextline" pragma) is no longer read by detect-secrets, whose
        # allowlist filter is off (``allow`` applies pragmas by the real line numbers). Each
        # still cost every plugin and filter call.
        picked = [(bounded[n][0], [(bounded[n][1][i][0], text) for i, text in parts[n] if i is not None])
                  for n in wanted]
        contexts: list[str | None] = ["\n".join(text for _, text in bounded[n][1]) for n in wanted]
        found, baselined = detect.scan_units(picked, baseline, contexts, [allowed[n] for n in wanted],
                                             ignored_hashes)
        for n, unit_found, unit_spans in zip(wanted, found, baselined):
            layer2[n], spans[n] = unit_found, unit_spans
    results = []
    for (path, lines), unit_layer2, unit_spans, allow in zip(units, layer2, spans, allowed):
        allow = replace(allow, spans=unit_spans) if unit_spans else allow
        layer1 = _layer1(path, lines, allow, ignored_hashes) if lines else []
        results.append(_combine(layer1 + unit_layer2))
    return results


def scan_added_lines(added: Mapping[str, Lines], *, baseline: Path | None = None,
                     ignore: IgnoreList | None = None, commit: str | None = None) -> list[Finding]:
    """Secrets on the added lines of each file, both layers, sorted by path and line.

    ``added`` maps a repository-relative path to ``(line_number, text)`` pairs; ``baseline`` is
    a ``.secrets.baseline`` whose values both layers accept; ``ignore`` holds the entries of
    ``.chord/secrets-ignore`` (positional fingerprints match in ``commit`` when given).
    Findings never hold a value.
    """
    units = [(path, lines) for path, lines in added.items() if lines]
    if not units:
        return []
    ignore = ignore or IgnoreList()
    found = scan_units(units, baseline=load_baseline(baseline), ignored_hashes=ignore.hashes)
    combined = sorted((f for per_unit in found for f in per_unit), key=lambda f: (f.path, f.line or 0))
    if ignore.fingerprints:
        combined = [f for f in combined if not ignore.ignores(f.path, f.kind, f.line or 0, commit)]
    return combined


__all__ = ["LAYER2_MAX_CHARS", "LAYER2_MAX_LINE", "IgnoreList", "SecretSpan", "Unit", "find", "load_baseline",
           "needs_layer2", "redact", "scan_added_lines", "scan_units"]
