"""Secret scrubbing in two layers (R31): our sanitizer (layer 1), detect-secrets (layer 2).

This face only hands names on; the rooms behind it:

- ``scan``: the driver (``find``/``redact`` over a text; ``scan_units``/``scan_added_lines``
  over the added lines of files, both layers);
- ``scanners``: layer 1's readers, one module per kind of text (assignments, prose labels,
  login pairs, command lines, links, token formats, encoded runs);
- ``words``: what the scanners look for (the vendor token table, the prose vocabulary in every
  language, the key names of assignments);
- ``verdicts``: whether a value is a credential (shapes, the value test, benign values,
  documentation examples) and whether the project allows it (pragmas, baseline, ignore file);
- ``text``: how the scanners read a text (the span types, normalisation, word positions, value
  reading, runs of repeated hits);
- ``layer2``: detect-secrets behind one adapter, its prefilter, its kinds, and the named verdicts
  (``floor``) that alone may leave one of its findings out of the report.

``docs/secrets.md`` says where to add a rule. Importing this package does not import
detect-secrets.
"""
from __future__ import annotations

from .scan import (
    LAYER2_MAX_CHARS,
    LAYER2_MAX_LINE,
    Unit,
    explain_units,
    find,
    load_baseline,
    needs_layer2,
    redact,
    scan_added_lines,
    scan_units,
)
from .layer2.floor import Removal
from .text.spans import SecretSpan
from .verdicts.ignore import IgnoreList

__all__ = ["LAYER2_MAX_CHARS", "LAYER2_MAX_LINE", "IgnoreList", "Removal", "SecretSpan", "Unit", "explain_units",
           "find", "load_baseline", "needs_layer2", "redact", "scan_added_lines", "scan_units"]
