"""Secret scrubbing in two layers (R31): our sanitizer, then detect-secrets.

``scan_added_lines`` is what the hooks and the CI scan call: it runs layer 1 on each file's added
lines joined together (so a private-key block spanning lines is seen whole), then layer 2, and
reports each secret once per line and kind family. Importing this package does not import
detect-secrets; ``detect.py`` does that only when there are lines to scan.
"""
from __future__ import annotations

import hashlib
from bisect import bisect_right
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from .hits import LAYER1_FORMAT_FAMILIES, SecretHit, kind_family
from .sanitize import Finding, find, redact

_ALLOWLIST_PRAGMA = "pragma: allowlist secret"


def _sha1(value: str) -> str:
    return hashlib.sha1(value.encode("utf-8", "replace")).hexdigest()


def _layer1_hits(path: str, lines: Sequence[tuple[int, str]], accepted: frozenset[str],
                 accepted_lines: frozenset[tuple[str, int]]) -> list[SecretHit]:
    """Scan the added lines as one text and map each finding back to its original line.

    Skipped, as in layer 2: lines carrying ``pragma: allowlist secret``, values whose hash the
    baseline lists, and lines where layer 2 found a baselined secret.
    """
    starts: list[int] = []
    offset = 0
    for _, text in lines:
        starts.append(offset)
        offset += len(text) + 1
    joined = "\n".join(text for _, text in lines)
    hits: list[SecretHit] = []
    for finding in find(joined):
        number, text = lines[bisect_right(starts, finding.start) - 1]
        if _ALLOWLIST_PRAGMA in text or (path, number) in accepted_lines:
            continue
        if accepted and _sha1(joined[finding.start:finding.end]) in accepted:
            continue
        hits.append(SecretHit(path, number, finding.kind, finding.layer))
    return hits


def _combine(hits: list[SecretHit]) -> list[SecretHit]:
    """One hit per path, line and kind family; layer 1 decides on the formats it checks exactly."""
    seen: set[tuple[str, int, str]] = set()
    unique: list[SecretHit] = []
    for hit in hits:  # layer 1 first, so its more specific kind wins
        if hit.layer != "sanitizer" and kind_family(hit.kind) in LAYER1_FORMAT_FAMILIES:
            continue
        key = (hit.path, hit.line, kind_family(hit.kind))
        if key not in seen:
            seen.add(key)
            unique.append(hit)
    return sorted(unique, key=lambda h: (h.path, h.line))


def scan_added_lines(
    added: Mapping[str, Sequence[tuple[int, str]]], *, baseline: Path | None = None
) -> list[SecretHit]:
    """Secrets on the added lines of each file, both layers, sorted by path and line.

    ``added`` maps a repository-relative path to ``(line_number, text)`` pairs; ``baseline`` is
    a ``.secrets.baseline`` whose known findings layer 2 suppresses.
    """
    if not any(added.values()):
        return []
    from . import detect  # imports detect-secrets lazily, inside its functions

    data: dict[str, Any] | None = detect.load_baseline(baseline) if baseline is not None else None
    layer2, accepted_lines = detect.scan_with_baseline(added, data)
    hits: list[SecretHit] = []
    for path, lines in added.items():
        if lines:
            accepted = detect.baselined_hashes(data, path) if data else frozenset()
            hits.extend(_layer1_hits(path, lines, accepted, accepted_lines))
    return _combine(hits + layer2)


__all__ = ["Finding", "SecretHit", "find", "redact", "scan_added_lines"]
