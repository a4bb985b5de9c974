"""``added_lines``' decoded fast path gives the plain line-by-line result (the device in
``git/command._added_lines_decoded``)."""
from __future__ import annotations

import random
from collections import Counter

from chord_git.git import command
from chord_git.git.changes import AddedLines, line_text


def plain(old: bytes | None, new: bytes) -> AddedLines:
    """The line-at-a-time reading the fast path stands in for."""
    lines = new.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    if old is None:
        return tuple((number, line_text(raw)) for number, raw in enumerate(lines, start=1))
    before = old.split(b"\n")
    if before and before[-1] == b"":
        before.pop()
    left = Counter(raw.rstrip(b"\r") for raw in before)
    added = []
    for number, raw in enumerate(lines, start=1):
        key = raw.rstrip(b"\r")
        if left[key] > 0:
            left[key] -= 1
        else:
            added.append((number, line_text(raw)))
    return tuple(added)


_PIECES = [b"a", b"b", b"c", b"", b" ", b"token=x", "\u00e9\u4e2d".encode(), b"\xff", b"\xe2\x82", b"\r", b"x\r",
           b"\r\r", "\U0001f600".encode(), b"a\xc3"]


def _blob(rng: random.Random, lines: int) -> bytes:
    body = b"\n".join(rng.choice(_PIECES) for _ in range(lines))
    return body + rng.choice([b"", b"\n", b"\r\n", b"\n\n"])


def test_fast_path_equals_the_plain_reading_on_random_blobs() -> None:
    rng = random.Random(7)
    for _ in range(3000):
        new = _blob(rng, rng.randint(0, 30))
        old = None if rng.random() < 0.2 else _blob(rng, rng.randint(0, 30))
        assert command.added_lines(old, new) == plain(old, new), (old, new)


def test_fast_path_equals_the_plain_reading_on_valid_text() -> None:
    rng = random.Random(11)
    words = ["alpha", "beta", "gamma", "", "- note", "\u00e9t\u00e9", "\u4e2d\u6587"]
    for _ in range(2000):
        old = "\n".join(rng.choice(words) for _ in range(rng.randint(0, 20))).encode()
        new = ("\n".join(rng.choice(words) for _ in range(rng.randint(0, 40))) + rng.choice(["", "\n"])).encode()
        assert command._added_lines_decoded(old, new) is not None
        assert command.added_lines(old, new) == plain(old, new)
        assert command.added_lines(None, new) == plain(None, new)


def test_fast_path_stands_aside_for_cr_and_invalid_bytes() -> None:
    assert command._added_lines_decoded(None, b"a\r\nb\n") is None
    assert command._added_lines_decoded(None, b"\xff\n") is None
    assert command._added_lines_decoded(b"\xff", b"a\n") is None
