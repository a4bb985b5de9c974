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
    pairs = assignment_run(size=DENSE_SIZE, seed=7).split(" ")
    # Lines of 32 assignments: short of a dump line (``test_a_line_dense_with_credentials_...``).
    text = "\n".join(" ".join(pairs[n:n + 32]) for n in range(0, len(pairs), 32))
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


def test_a_line_dense_with_credentials_settles_in_bulk() -> None:
    """One verdict per line: after 64 credentials on one line the rest of it is one finding, and
    the value tests run for those 64 values (and the line's tail), not for 12,000."""
    from chord_git.secrets import redact
    from chord_git.secrets.scanners.assignments import DUMP_AFTER, DUMP_KIND

    text = assignment_run(size=DENSE_SIZE, seed=11)
    values = re.findall(r"=(\S+)", text)
    for verdict in (benign.benign_reason, shapes.is_placeholder):
        verdict.cache_clear()
    found = find(text)
    assert [s.kind for s in found].count(DUMP_KIND) == 1
    assert len(found) == DUMP_AFTER + 1 and found[-1].kind == DUMP_KIND
    assert benign.benign_reason.cache_info().misses < 3 * DUMP_AFTER
    redacted = redact(text)
    assert not any(value in redacted for value in values if len(value) >= 6)
    assert redacted.startswith(text[:text.index("=") + 1])  # the first keys are kept


def test_a_line_short_of_the_dump_keeps_every_key() -> None:
    from chord_git.secrets import redact
    from chord_git.secrets.scanners.assignments import DUMP_AFTER
    from tests.secrets import fakes as f

    pairs = [f"token_{n}={f.body(20, f.ALNUM, seed=n)}" for n in range(DUMP_AFTER - 1)]
    text = " ".join(pairs) + " " + "ordinary words " * 200
    found = find(text)
    assert len(found) == DUMP_AFTER - 1
    redacted = redact(text)
    assert all(f"token_{n}=[REDACTED:" in redacted for n in range(DUMP_AFTER - 1))


def test_the_tail_of_a_dump_line_is_still_read() -> None:
    """A label near the end of a dense line whose value stands on the next line."""
    from tests.secrets import fakes as f

    secret = "Zq8XvL2mK9pT4wR7"
    text = assignment_run(size=64 * 1024, seed=12) + " and the admin password is below:\n" + secret + "\n"
    assert any(text[s.start:s.end] == secret for s in find(text)), f.PASSWORD


def test_dense_text_shares_only_credential_verdicts() -> None:
    """In an env dump, a value shaped like the credentials around it takes their verdict without
    the whole chain; stand-ins and low-variety values are still judged in full."""
    from testing.adversarial import env_dump

    dump = env_dump(size=DENSE_SIZE, seed=13)
    planted = "\nAPI_KEY_900001=changeme12345678\nAPI_KEY_900002=aaaaaaaaaaaa1111\nDB_PASSWORD_900003=${DB_PASSWORD}\n"
    text = dump + planted
    benign.benign_reason.cache_clear()
    found = {text[s.start:s.end] for s in find(text)}
    assert not found & {"changeme12345678", "aaaaaaaaaaaa1111", "${DB_PASSWORD}"}
    credentials = {line.split("=", 1)[1] for line in dump.splitlines()
                   if "=" in line and line.split("=", 1)[0].rstrip("0123456789").rstrip("_") in
                   {"DB_PASSWORD", "API_KEY", "SECRET_KEY", "AUTH_TOKEN", "GITHUB_TOKEN"}}
    assert len(credentials & found) >= 0.95 * len(credentials)
    assert benign.benign_reason.cache_info().misses < len(credentials) / 2


def test_settled_stretches_are_not_read_again() -> None:
    from chord_git.secrets.text.anchors import Occurrences

    low = "token a token b token c"
    occurrences = Occurrences(low, low)
    assert occurrences.of_all(("token",)) == [0, 8, 16]
    occurrences.settle(5, 12)
    assert occurrences.of_all(("token",)) == [0, 16] and occurrences.of("token") == [0, 16]
