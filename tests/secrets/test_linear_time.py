"""No catastrophic backtracking: adversarial and huge inputs scan in linear time.

Bounds are deliberately generous (machines are shared and slow); they only catch quadratic or
exponential behaviour, which would blow through them by orders of magnitude. Time is this
process's CPU time, not the clock's: other tests running beside it (pytest-xdist workers, other
jobs on the machine) take turns on the cores but do not add to it.
"""
from __future__ import annotations

import time

import pytest

from chord_git.secrets import find, redact
from testing import adversarial

from . import fakes as f

UNITS = adversarial.UNITS


def _elapsed(text: str) -> float:
    started = time.process_time()
    find(text)
    return time.process_time() - started


@pytest.mark.parametrize("unit", UNITS)
def test_100k_repetitions_scan_quickly(unit: str) -> None:
    text = unit * max(1, 100_000 // len(unit)) if len(unit) > 1 else unit * 100_000
    assert _elapsed(text) < 5.0


def _mixed(size: int) -> str:
    parts = [f"export DEPLOY_TOKEN={f.body(32)}", "the key is rotated", "a" * 300, "=" * 200,
             "token " * 50, "ghp_" + "A" * 300, "://" * 50, f.pem_private_key().split("\n")[0],
             "eyJ" * 100, "x:y@" * 80]
    block = " ".join(parts)
    return (block * (size // len(block) + 1))[:size]


def test_time_grows_linearly_with_input() -> None:
    small, large = _mixed(1_000_000), _mixed(4_000_000)
    _elapsed(small[:10_000])  # warm caches and compiled patterns
    t_small = min(_elapsed(small) for _ in range(2))
    t_large = _elapsed(large)
    # Linear would be 4x; quadratic 16x. Allow noise from a shared machine.
    assert t_large < 10 * max(t_small, 0.01), (t_small, t_large)


def test_ten_megabyte_single_line() -> None:
    prose = "the deploy key rotates weekly, see https://example.com/a?b=c and the runbook; " * 25
    line = (f"note: token={f.body(40)} then commit {f.body(40, f.HEX)} " + prose) * 5000
    line = line[:10_000_000]
    assert "\n" not in line
    started = time.process_time()
    findings = find(line)
    redacted = redact(line)
    assert time.process_time() - started < 20.0
    assert findings and all(x.line == 1 for x in findings)
    assert "[REDACTED:token-assignment]" in redacted
