"""Base64'd JWTs found without reading a crafted run again from every substart."""
from __future__ import annotations

import base64
import random
import re
from typing import Any

import pytest

from chord_git.secrets import find
from chord_git.secrets.scanners import formats
from chord_git.secrets.words import patterns

_JWT_B64 = next(fmt for fmt in patterns.TOKEN_FORMATS if fmt.check == "jwt-base64")


def _by_pattern(view: str, pos: int) -> int | None:
    """What the format's own pattern and check say (the reference)."""
    match = _JWT_B64.pattern.match(view, pos)
    if match is None or not formats._valid_jwt_base64(match.group(0)):
        return None
    return match.end()


def _samples() -> list[str]:
    rng = random.Random(13)
    header = base64.urlsafe_b64encode(b'{"alg":"HS256","typ":"JWT"}').decode().rstrip("=")
    good = base64.b64encode(f"{header}.eyJzdWIiOiIxMjM0NTY3ODkwIn0.c2lnbmF0dXJl".encode()).decode()
    pieces = ["ZXlK", "/", "=", "==", "a", "Zz9", "-", "_", "+", " ", ".", good[:30], good, good.rstrip("=")]
    samples = [good, good + "x", good + "===", "ZXlK/" * 50, good.rstrip("=") + "/" + good]
    for _ in range(400):
        samples.append("".join(rng.choice(pieces) for _ in range(rng.randint(1, 40))))
    return samples


@pytest.mark.parametrize("text", _samples())
def test_the_measured_run_agrees_with_the_pattern(text: str) -> None:
    run = [0, 0]
    for pos in (m.start() for m in re.finditer("ZXlK", text)):
        assert formats._jwt_base64_end(text, pos, "ZXlK", run) == _by_pattern(text, pos), pos


def test_a_crafted_run_is_measured_once(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[int] = []
    real = formats._B64_BODY_RUN

    class Counting:
        def match(self, view: str, pos: int) -> Any:
            calls.append(pos)
            return real.match(view, pos)

    monkeypatch.setattr(formats, "_B64_BODY_RUN", Counting())
    text = "ZXlK/" * 20_000
    assert find(text) == []
    assert len(calls) == 1  # every substart of the run reuses the first measure
