"""Inputs dense with findings: each distinct value is judged once per scan, however many rules
read it (cost per finding, counted in verdicts computed, not in seconds)."""
from __future__ import annotations

import re

from chord_git.secrets import find
from chord_git.secrets.verdicts import benign, shapes
from testing.adversarial import DENSE_SIZE, assignment_run


def test_each_distinct_value_is_judged_once_per_scan() -> None:
    """The assignment rule and the label rule both judge an assigned value, in two passes over
    the text; 326 KiB of assignments holds 12,000 distinct values, more than a small verdict cache
    keeps from the first pass to the second, which then judged every value again."""
    text = assignment_run(size=DENSE_SIZE, seed=7)
    distinct = set(re.findall(r"=(\S+)", text))
    assert len(distinct) > 2_000
    for verdict in (benign.benign_reason, shapes.is_placeholder):
        verdict.cache_clear()
    found = find(text)
    assert len(found) > 2_000
    for verdict in (benign.benign_reason, shapes.is_placeholder):
        assert verdict.cache_info().misses <= len(distinct), verdict
