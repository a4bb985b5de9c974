"""``added_lines``' decoded fast path gives the plain line-by-line result (the device in
``git/command._added_lines_decoded``)."""
from __future__ import annotations

import random

from chord_git.git import command
from chord_git.git.changes import AddedLines


def plain(old: bytes | None, new: bytes) -> AddedLines:
    """The line-at-a-time reading the fast path stands in for."""
    return command._added_lines_plain(old, new)


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
