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


def test_a_line_opening_with_an_assignment_continues_no_value() -> None:
    """An env dump: each credential line's value ends at its line; the next line's key is kept."""
    from tests.secrets import fakes as f

    token = f.body(32, f.ALNUM, seed=5)
    for nxt in ("LOG_LEVEL_5=40038", 'datadogToken="abc"', "databricksToken = x", "PORT=8080"):
        text = f"DB_PASSWORD_4={token}\n{nxt}\n"
        spans = [(found.line, text[found.start:found.end]) for found in find(text)]
        assert (1, token) in spans, (nxt, spans)
        assert all("\n" not in value for _line, value in spans), (nxt, spans)


def test_a_value_wrapped_onto_the_next_line_is_still_joined() -> None:
    """The ends of a wrapped value, padding included, are still read as one value."""
    import base64

    from tests.secrets import fakes as f

    wrapped = base64.b64encode(f.GITHUB_CLASSIC.encode()).decode()  # ends in "=" padding
    assert wrapped.endswith("=")
    for value in (f.GITHUB_CLASSIC, wrapped):
        text = f"token: {value[:len(value) // 2]}\n{value[len(value) // 2:]}\n"
        (found,) = find(text)
        assert text[found.start:found.end].replace("\n", "") == value


def test_an_env_dump_is_not_rescanned_line_by_line() -> None:
    """No line of an env dump is joined with the next: each finding is one line's whole value, and
    every credential-named line's value is one."""
    from testing.adversarial import _CREDENTIAL_KEYS, env_dump

    text = env_dump(size=64 * 1024, seed=3)
    pairs = [line.split("=", 1) for line in text.splitlines() if "=" in line]
    every = {value for _key, value in pairs}
    credentials = {value for key, value in pairs if key.rstrip("0123456789").rstrip("_") in _CREDENTIAL_KEYS}
    found = {text[s.start:s.end] for s in find(text)}
    assert found <= every
    assert len(found & credentials) >= 0.95 * len(credentials)
