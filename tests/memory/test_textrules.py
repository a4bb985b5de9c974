"""The literal pre-test of the absolute-path rule: it may let through texts the pattern then
clears, never hold back one the pattern would match."""
from __future__ import annotations

import random
import re

import pytest

from chord_git.memory import textrules

# Pieces of every form the pattern knows, and of the near misses around them.
PIECES = ["/", "\\", "\\\\", "home", "Users", "usr", "workspace", "src", "app", "homes", ":", "C", "c:", "D:", "https",
          "file", "file:///", "~", "$", "${", "}", "HOME", "USERPROFILE", "%", "APPDATA", " ", "x", "_", "-", ".",
          "ana", "\n", "é", "代码在", "a1", "//", "s", "tmp", "`", '"', ")"]


def _pattern() -> re.Pattern[str]:
    return re.compile(textrules.ABSOLUTE_PATH.pattern)


def test_the_pre_test_never_holds_back_a_match() -> None:
    pattern, rng, matched = _pattern(), random.Random(13), 0
    for _ in range(40_000):
        text = "".join(rng.choice(PIECES) for _ in range(rng.randint(1, 10)))
        if pattern.search(text):
            matched += 1
            assert textrules.may_hold_absolute_path(text), text
            assert textrules.absolute_paths(text) == [m.span() for m in pattern.finditer(text)]
    assert matched > 500  # the pieces do make paths


@pytest.mark.parametrize("text", ["/home/ana/src", "see /Users/li/x.py", "代码在/Users/li/src", "C:\\Users\\ana",
                                  "D:/work", "\\\\server\\share\\x", "~/src", "~ana/src", "file:///etc/hosts",
                                  "$HOME/x", "${HOME}/x", "%APPDATA%\\x"])
def test_absolute_paths_still_found(text: str) -> None:
    assert textrules.may_hold_absolute_path(text) and textrules.absolute_paths(text)


@pytest.mark.parametrize("text", ["src/app/main.py", "see https://example.com/docs/a", "/v1/chat/completions",
                                  "run make check", "docs/ci.md and .chord/memory/records", "ratio 3/4"])
def test_usual_text_settles_without_the_pattern(text: str) -> None:
    assert not textrules.may_hold_absolute_path(text)
    assert not _pattern().search(text)


def test_a_line_that_may_hold_an_absolute_path_makes_its_text_one_that_may() -> None:
    """``records`` tests the whole file once and reads its lines only when that says yes."""
    rng = random.Random(7)
    reached = 0
    for _ in range(20000):
        text = "".join(rng.choice([*PIECES, "\n", "\n", "/home/ana", "C:/"]) for _ in range(rng.randrange(1, 9)))
        lines = text.split("\n")
        if any(textrules.absolute_paths(line) for line in lines):
            reached += 1
            assert textrules.may_hold_absolute_path("\n".join(lines)), text
    assert reached > 1000
